"""``mancala review RULES --moves ...`` and ``mancala review --record FILE``: a game judged
move by move by the solver (``engine.review``).

Every move gets a line: the ply, who moved, the move, the mover's value before and after it
(final seed margin with best play), the best move or moves, whether the values are proven or
estimated (and how deep), and its class; then a summary per player. ``--json`` prints the
review as ``engine.review.Review.to_json`` writes it (the same in every language); the table
and the summaries talk in the language of ``--lang``, else of LC_ALL, LC_MESSAGES or LANG,
else English.

>>> import argparse
>>> parser = argparse.ArgumentParser(); register(parser.add_subparsers())
>>> args = parser.parse_args(["review", "kalah:pits=3,seeds=2", "--moves", "B A b"])
>>> args.func(args)  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
ruleset kalah:pits=3,seeds=2, 3 moves (values: the mover's final margin with best play)
 ply  side   move  before  after  best  values  class
   1  South  B         +4     +4  B     proven  best
   2  South  A         +4     +0  C     proven  blunder
   3  North  b         +0     +0  b c   proven  best
South: ...
0
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import time
from typing import TYPE_CHECKING

from bot.cli_args import SIDE_WORDS, Subparsers, add_lang_option, node_count, seconds, text
from bot.i18n import _, ngettext, pgettext
from bot.progress import waiting
from bot.render.words import class_count, move_class, side_name
from engine import Side, to_perspective
from engine.ai import kernel_knows

if TYPE_CHECKING:  # the engine's heavier parts load only when the command runs
    from engine import Game
    from engine.ai.encoding import Endgame
    from engine.review import Review


def register(subparsers: Subparsers) -> None:
    review = subparsers.add_parser(
        "review",
        help=_("a game reviewed move by move by the solver"),
        description=_(
            "Review a game move by move: each move's value for the mover before and after it "
            "(the final seed margin with best play), the best moves, whether the values are "
            "proven by the solver or estimated by a search, and a class (best, good, "
            "inaccuracy, mistake, blunder); then each player's accuracy, mistakes and the "
            "turning point."
        ),
    )
    review.add_argument(
        "rules",
        nargs="?",
        metavar="RULES",
        type=text(),
        help=_("a ruleset such as kalah or wari:captures=2-4 (with --moves)"),
    )
    review.add_argument(
        "--moves",
        metavar="MOVES",
        type=text(),
        help=_("the game's moves from the start, space-separated (e.g. 'C F d')"),
    )
    review.add_argument(
        "--record",
        metavar="FILE",
        help=_(
            "a game record as `/mancala history` exports it, PlayStrategy's PGN, a Kazakh "
            "scoresheet or Aualé's OGN (- reads standard input)"
        ),
    )
    review.add_argument(
        "--perspective",
        choices=SIDE_WORDS,
        default=Side.SOUTH.value,
        help=_("whose side the moves are written from (default south)"),
    )
    review.add_argument("--json", action="store_true", help=_("print the review as JSON"))
    review.add_argument(
        "--nodes",
        type=node_count,
        metavar="N",
        help=_("the solver's node budget for each move's proof (default 4e6)"),
    )
    review.add_argument(
        "--time",
        type=seconds(0, 600),
        metavar="SECONDS",
        help=_("the time limit of each move's proof, a safety net (default 10)"),
    )
    review.add_argument(
        "--quiet", action="store_true", help=_("no progress on stderr while it reviews")
    )
    add_lang_option(review)
    review.set_defaults(func=run_review)


def _game(args: argparse.Namespace) -> Game | None:
    """The game to review, or None after printing what was wrong."""
    from bot.commands.referee import read_text
    from engine import Game, MancalaError, from_perspective
    from engine.records import MAX_RECORD_CHARS, read_record, record_format
    from engine.review import game_from_record

    if (args.record is None) == (args.moves is None):
        print(_("error: give RULES --moves 'MOVES', or --record FILE"))
        return None
    try:
        if args.record is not None:
            if args.rules:
                print(_("error: a record names its rules: give --record FILE without RULES"))
                return None
            written = read_text(args.record, MAX_RECORD_CHARS)
            if record_format(written) is not None:  # PlayStrategy, a scoresheet, Aualé
                return read_record(written).game()
            return game_from_record(written)
        if not args.rules:
            print(_("error: --moves needs the RULES they were played by"))
            return None
        moves = [from_perspective(move, args.perspective) for move in args.moves.split()]
        return Game.from_moves(args.rules, moves)
    except OSError as err:
        print(_("error: cannot read the record: {reason}").format(reason=err.strerror or err))
        return None
    except MancalaError as err:
        print(_("error: {message}").format(message=err))
        return None


def run_review(args: argparse.Namespace) -> int:
    game = _game(args)
    if game is None:
        return 2
    if not game.moves:
        print(_("error: there is no move to review"))
        return 2
    from bot.ai_runtime import kernel_cache
    from bot.commands.ai import compile_first
    from engine.ai.pysolve import QUICK_SEEDS
    from engine.review import DEFAULT_BUDGET, review

    budget = DEFAULT_BUDGET
    if args.nodes:
        budget = dataclasses.replace(budget, nodes=args.nodes)
    if args.time:
        budget = dataclasses.replace(budget, seconds=args.time)
    # As `mancala solve`: while the compiled search is not ready, a small game (every board
    # within the plain-Python solver's reach) is reviewed in plain Python at once; a bigger
    # one waits for the compiler, saying so.
    compiled = kernel_cache.is_ready() or sum(game.positions[0].pits) > QUICK_SEEDS
    if compiled:
        compile_first()
    endgame = _stored_table(game) if compiled else None
    total = len(game.moves)
    stream = io.StringIO() if args.quiet else None  # --quiet: the progress goes nowhere
    started = time.perf_counter()
    reviewing = ngettext("Reviewing {n} move", "Reviewing {n} moves", total).format(n=total)
    with waiting(reviewing, stream) as wait:

        def progress(done: int, total: int) -> None:
            wait.update(
                ngettext("{done} of {n} move", "{done} of {n} moves", total).format(
                    done=done, n=total
                )
            )

        found = review(game, budget=budget, compiled=compiled, endgame=endgame, progress=progress)
    if args.json:
        print(found.to_json(indent=2))
        return 0
    print(render(found, args.perspective, time.perf_counter() - started))
    return 0


def _stored_table(game: Game) -> Endgame | None:
    """The largest endgame table for the game's rules kept in the tables directory (never
    one built now: a review does not wait minutes for a table), or None."""
    from bot.config import tables_dir
    from engine.ai.search import LARGEST_TABLE_SEEDS, largest_table_seeds
    from storage.tables import largest_stored, stored_table

    rules = game.rules
    most = min(LARGEST_TABLE_SEEDS, largest_table_seeds(rules))
    if most <= 0:
        return None
    try:
        seeds = largest_stored(rules, tables_dir(), 1, most)
        if seeds is None:
            return None
        found = stored_table(rules, seeds, tables_dir(), shared=True)
    except OSError:
        return None
    return (seeds, found.table) if found.values is not None else None


def render(found: Review, perspective: str, seconds: float | None = None) -> str:
    """The review as a table for the terminal, then each player's summary."""
    plies = found.plies
    lines = [
        ngettext(
            "ruleset {rules}, {n} move (values: the mover's final margin with best play)",
            "ruleset {rules}, {n} moves (values: the mover's final margin with best play)",
            len(plies),
        ).format(rules=found.rules, n=len(plies))
    ]
    rows = [
        (
            # TRANSLATORS: the review table's column headers: short words, one each
            pgettext("review column", "ply"),
            pgettext("review column", "side"),
            pgettext("review column", "move"),
            pgettext("review column", "before"),
            pgettext("review column", "after"),
            # TRANSLATORS: the column of the best moves
            pgettext("review column", "best"),
            # TRANSLATORS: the column saying whether the values are proven or estimated
            pgettext("review column", "values"),
            # TRANSLATORS: the column of the move's class (best, good... blunder)
            pgettext("review column", "class"),
        )
    ]
    for p in plies:
        rows.append(
            (
                str(p.ply),
                side_name(p.side),
                to_perspective(p.move, perspective),
                f"{p.value_before:+d}",
                f"{p.value_after:+d}",
                " ".join(to_perspective(m, perspective) for m in p.best),
                _("proven") if p.proven else _("depth {depth}").format(depth=p.depth),
                move_class(p.move_class),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    right = {0, 3, 4}  # numbers line up on the right
    for row in rows:
        cells = [
            cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
            for i, cell in enumerate(row)
        ]
        lines.append(" " + "  ".join(cells).rstrip())
    for side, summary in found.summaries.items():
        if not summary.moves:
            continue
        accuracy = (
            _("no move with a choice")
            if summary.accuracy is None
            else _(
                "accuracy {accuracy} ({kept} of {n} moves with a choice kept the best value)"
            ).format(accuracy=f"{summary.accuracy:.0%}", kept=summary.kept, n=summary.choices)
        )
        counts = ", ".join(
            class_count(kind, count) for kind, count in summary.counts.items() if count
        )
        lines.append(f"{side_name(side)}: {accuracy}; {counts}")
        for p in summary.mistakes:
            better = _(" or ").join(to_perspective(m, perspective) for m in p.best)
            lines.append(
                "  "
                + ngettext(
                    "move {ply} {move}: {kind}, {n} seed of margin given away; better {better}",
                    "move {ply} {move}: {kind}, {n} seeds of margin given away; better {better}",
                    p.loss,
                ).format(
                    ply=p.ply,
                    move=to_perspective(p.move, perspective),
                    kind=move_class(p.move_class),
                    n=p.loss,
                    better=better,
                )
            )
    if found.turning_point is not None:
        p = plies[found.turning_point - 1]
        lines.append(
            _("turning point: move {ply}, {side}'s {move} ({before} to {after})").format(
                ply=p.ply,
                side=side_name(p.side),
                move=to_perspective(p.move, perspective),
                before=f"{p.value_before:+d}",
                after=f"{p.value_after:+d}",
            )
        )
    proven = found.proven
    reduced = any(p.reduced for p in plies)
    if seconds is not None:
        tail = ngettext(
            "{proven} of {n} move proven in {seconds} s",
            "{proven} of {n} moves proven in {seconds} s",
            len(plies),
        ).format(proven=proven, n=len(plies), seconds=f"{seconds:.1f}")
    else:
        tail = ngettext(
            "{proven} of {n} move proven", "{proven} of {n} moves proven", len(plies)
        ).format(proven=proven, n=len(plies))
    if reduced and not kernel_knows(found.rules):  # nothing to wait for: it never will be
        tail += " " + _("(the plain-Python solver: this game has no compiled search)")
    elif reduced:
        tail += " " + _("(the plain-Python solver: no compiled search yet)")
    lines.append(tail)
    return "\n".join(lines)
