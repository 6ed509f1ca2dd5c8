"""``mancala solve RULES [--moves ...]`` and ``mancala hint RULES --moves ...``.

``solve`` proves the game value (the final seed margin for the player to move under perfect
play) and names a best move; ``hint`` answers within a time limit, exactly when the solver
finishes in time and with the expert's estimate otherwise. Both talk in the language of
``--lang``, else of LC_ALL, LC_MESSAGES or LANG, else English; moves and rulesets are
written the same in every language.

>>> import argparse
>>> parser = argparse.ArgumentParser(); register(parser.add_subparsers())
>>> args = parser.parse_args(["solve", "kalah:pits=3,seeds=2", "--moves", "B"])
>>> args.func(args)  # doctest: +ELLIPSIS
ruleset kalah:pits=3,seeds=2 after B: South to move
value +4 for South (proven)
best move C
... nodes in ...
line C ...: Game over (a row is empty). South ..., North ...: South wins.
0
"""

from __future__ import annotations

import argparse
import io
import signal
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from bot.cli_args import (
    MAX_NODES,
    SIDE_WORDS,
    Subparsers,
    add_lang_option,
    bounded_int,
    node_count,
    seconds,
    text,
)
from bot.i18n import N_, _, ngettext
from bot.progress import waiting
from bot.render.words import side_name
from engine import Side, to_perspective

if TYPE_CHECKING:  # the commands import the engine's heavier parts only when they run
    from engine import Position, Ruleset
    from storage.tables import StoredTable


def register(subparsers: Subparsers) -> None:
    solve = subparsers.add_parser(
        "solve",
        help=_("the exact value of a position and a best move"),
        description=_(
            "Solve a position exactly: the final seed margin for the player to move under "
            "perfect play, a best move, nodes searched and time. Large boards can take "
            "minutes; --nodes caps the work."
        ),
    )
    _common(solve)
    solve.add_argument(
        "--no-line",
        action="store_true",
        help=_("do not write out the line of best play after a proven value"),
    )
    solve.add_argument(
        "--quiet",
        action="store_true",
        help=_(
            "no progress on stderr (by default a live line on a terminal, else a line every "
            "10 s: bounds, nodes, nodes/s, table fill, best move)"
        ),
    )
    solve.add_argument(
        "--nodes",
        type=node_count,
        metavar="N",
        help=_("give up after N nodes (e.g. 5e8, at most {most}) and say how far it got").format(
            most=f"{MAX_NODES:.0e}"
        ),
    )
    solve.add_argument(
        "--table",
        type=bounded_int(0, 20, N_("a seed count")),
        metavar="SEEDS",
        help=_(
            "read every board with at most SEEDS seeds left in the pits from an endgame "
            "table (default: the largest one kept, up to 20, else one of 5/12 of the seeds, "
            "at most 18, but none built for more seeds than the board holds, and none for a "
            "board of a few seeds; 0 for none); big tables are kept in MANCALA_TABLES after "
            "the first build"
        ),
    )
    solve.add_argument(
        "--tt-bits",
        type=bounded_int(10, 32, N_("a number of bits")),
        metavar="BITS",
        help=_(
            "transposition table of 2**BITS entries of 16 bytes (default 22, or 25 above 40 seeds)"
        ),
    )
    solve.set_defaults(func=run_solve)
    hint = subparsers.add_parser(
        "hint",
        help=_("the best move in a position and its value, within a time limit"),
        description=_(
            "Suggest a move: proven by the solver when it finishes in time, else the expert "
            "level's estimate."
        ),
    )
    _common(hint)
    hint.add_argument(
        "--time",
        type=seconds(0, 600),
        default=2.0,
        metavar="SECONDS",
        help=_("seconds to think (default 2, at most 600)"),
    )
    hint.set_defaults(func=run_hint)
    warm = subparsers.add_parser(
        "warm-up",
        help=_("compile the AI's search now (once per machine), with progress"),
        description=_(
            "Compile the AI's search into numba's cache (NUMBA_CACHE_DIR, else the user's "
            "cache directory), so that no game waits for it. The game compiles it in the "
            "background by itself; this does it now, in the foreground."
        ),
    )
    warm.set_defaults(func=run_warm_up)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "rules",
        metavar="RULES",
        type=text(),
        help=_("a ruleset such as kalah or wari:captures=2-4"),
    )
    parser.add_argument(
        "--moves",
        default="",
        metavar="MOVES",
        type=text(),
        help=_(
            "the moves played so far, space-separated (e.g. 'C F d'); after --position if "
            "both are given"
        ),
    )
    parser.add_argument(
        "--position",
        metavar="FILE",
        help=_(
            "start from a written board (as `mancala board` prints it, or as in 003; - reads "
            "standard input), with its stores or captured counts"
        ),
    )
    parser.add_argument(
        "--perspective",
        choices=SIDE_WORDS,
        default=Side.SOUTH.value,
        help=_("whose side the --position board is written from"),
    )
    parser.add_argument(
        "--to-move",
        choices=SIDE_WORDS,
        default=None,
        help=_(
            "who is to move in the --position board (default: as written, else the "
            "--perspective side)"
        ),
    )
    add_lang_option(parser)


def _position(args: argparse.Namespace) -> Position | None:
    """The position after the moves, or None after printing what was wrong."""
    from bot.commands.referee import read_text
    from engine import Game, MancalaError, Ruleset, from_perspective, parse_position

    try:
        rules = Ruleset.parse(args.rules)
        start = None
        if args.position:
            start = parse_position(
                read_text(args.position), rules, to_move=args.to_move, perspective=args.perspective
            )
        moves = [from_perspective(move, args.perspective) for move in args.moves.split()]
        game = Game.from_moves(rules, moves, position=start)
    except OSError as err:
        print(_("error: cannot read the position: {reason}").format(reason=err.strerror or err))
        return None
    except MancalaError as err:
        print(_("error: {message}").format(message=err))
        return None
    outcome = game.outcome()
    if outcome is not None:
        print(
            _("the game is over ({why}): {south}-{north}; there is nothing to solve").format(
                why=outcome.reason, south=outcome.score[0], north=outcome.score[1]
            )
        )
        return None
    return game.position


def _header(args: argparse.Namespace, position: Position) -> str:
    moves = args.moves.strip()
    side = side_name(position.to_move)
    if args.position and moves:
        text = _("ruleset {rules} from the position given after {moves}: {side} to move")
    elif args.position:
        text = _("ruleset {rules} from the position given: {side} to move")
    elif moves:
        text = _("ruleset {rules} after {moves}: {side} to move")
    else:
        text = _("ruleset {rules}: {side} to move")
    return text.format(rules=position.rules, moves=moves, side=side)


def run_solve(args: argparse.Namespace) -> int:
    position = _position(args)
    if position is None:
        return 2
    from engine.ai import kernel_knows

    if not kernel_knows(position.rules):
        # The compiled solver does not know these rules (Togyz Kumalak's): only what the
        # pure-Python solver proves at once is answered.
        if _solved_in_python(args, position, time.perf_counter(), kernel=False):
            return 0
        print(
            _(
                "error: {rules} is solved only where few stones are left (the compiled solver "
                "does not know its rules yet); `mancala hint` gives an estimate"
            ).format(rules=position.rules.name)
        )
        return 2
    from engine.ai.pysolve import QUICK_SEEDS
    from engine.ai.search import (
        LARGEST_TABLE_SEEDS,
        UNLIMITED,
        default_tt_bits,
        largest_table_seeds,
        solve,
    )

    rules = position.rules
    table = choose_table_seeds(rules) if args.table is None else args.table
    most = min(largest_table_seeds(rules), LARGEST_TABLE_SEEDS)
    if table and not most:
        print(
            _(
                "error: no endgame table for {rules}: the two players sow differently "
                "(use --table 0)"
            ).format(rules=rules)
        )
        return 2
    if not 0 <= table <= most:
        print(
            _("error: --table takes 0 to {most} seeds for {rules}").format(most=most, rules=rules)
        )
        return 2
    table = sized_table_seeds(table, position)
    started = time.perf_counter()
    if not args.nodes and _solved_from_book(args, position):
        return 0
    if not args.nodes and _solved_in_python(args, position, started):
        return 0
    compile_first()
    watch = SolveWatch(position, args.tt_bits or default_tt_bits(rules))
    stream = io.StringIO() if args.quiet else None
    result = None
    tried = 0  # the nodes of a try without the table
    if table and not args.nodes and sum(position.pits) <= QUICK_SEEDS:
        # A small board may well be proven before its table would be built: try without.
        with watch.on_interrupt(), waiting(_solving(rules), stream, poll=watch.news):
            first = solve(
                position,
                node_limit=TRY_WITHOUT_TABLE_NODES,
                searcher=watch.searcher,
                progress=watch.proved,
            )
        if first.complete:
            result, table = first, 0
        elif watch.interrupted:
            result = first
        else:  # a fresh table: a line the try cut short would keep its proofs from counting
            tried = first.nodes
            watch = SolveWatch(position, args.tt_bits or default_tt_bits(rules))
    stored = _endgame_table(rules, table) if table and result is None else None
    if result is None:
        with watch.on_interrupt(), waiting(_solving(rules), stream, poll=watch.news):
            result = solve(
                position,
                node_limit=args.nodes or UNLIMITED,
                searcher=watch.searcher,
                progress=watch.proved,
                endgame_seeds=table,
                endgame_table=stored.table if stored else None,
            )
        result = result._replace(nodes=result.nodes + tried)
    seconds = time.perf_counter() - started
    print(_header(args, position))
    side = side_name(position.to_move)
    value = f"{result.value:+g}"
    if result.complete:
        print(_("value {value} for {side} (proven)").format(value=value, side=side))
    elif watch.interrupted:
        print(
            _("interrupted: {bounds} for {side} proven so far; last estimate {value}").format(
                bounds=watch.bounds(), side=side, value=value
            )
        )
    elif args.nodes:
        print(
            ngettext(
                "not proven within {n} node ({bounds} for {side} proven); last estimate {value}",
                "not proven within {n} nodes ({bounds} for {side} proven); last estimate {value}",
                args.nodes,
            ).format(n=f"{args.nodes:,}", bounds=watch.bounds(), side=side, value=value)
        )
    else:
        print(
            _("not proven ({bounds} for {side} proven); last estimate {value}").format(
                bounds=watch.bounds(), side=side, value=value
            )
        )
    print(_best_move(to_perspective(result.move, args.perspective)))
    searched = _nodes_in(result.nodes, seconds)
    if table:
        searched += " " + ngettext(
            "(with a table of the boards with at most {n} seed left)",
            "(with a table of the boards with at most {n} seeds left)",
            table,
        ).format(n=table)
    print(searched)
    if stored:
        print(_("the table: {note}").format(note=stored.note))
    if result.complete and not args.no_line:
        print(_proof_line(position, result.move, args, table, stored, stream))
    return 0


def _solved_from_book(args: argparse.Namespace, position: Position) -> bool:
    """A position the opening book holds (engine.ai.book) is answered from it at once, with
    every best move; True if it was (and is printed). ``--nodes`` asks for the solver."""
    from engine.ai.book import lookup

    entry = lookup(position)
    if entry is None:
        return False
    print(_header(args, position))
    print(
        _("value {value} for {side} (proven)").format(
            value=f"{entry.value:+d}", side=side_name(position.to_move)
        )
    )
    print(_best_move(to_perspective(entry.best[0], args.perspective)))
    moves = " ".join(to_perspective(move, args.perspective) for move in entry.best)
    print(
        _(
            "(from the opening book, proven beforehand by the solver; every best move: {moves})"
        ).format(moves=moves)
    )
    if not args.no_line:
        compile_first()
        print(_proof_line(position, entry.best[0], args, 0, None, None))
    return True


def _solved_in_python(
    args: argparse.Namespace, position: Position, started: float, kernel: bool = True
) -> bool:
    """While the compiled search is not ready (or, ``kernel=False``, for rules it does not
    know), a small position is proven by the pure-Python solver at once, with its line of
    best play; True if it was (and is printed). A position it cannot prove within its budget
    waits for the compiler, as before."""
    from bot.ai_runtime import kernel_cache

    if kernel and kernel_cache.is_ready():
        return False
    from engine.ai import pysolve

    result = pysolve.quick(position)
    if result is None:
        return False
    line: list[str] = []
    complete = True
    if not args.no_line:
        line, complete = pysolve.proof_line(position, result.move)
    seconds = time.perf_counter() - started
    print(_header(args, position))
    print(
        _("value {value} for {side} (proven)").format(
            value=f"{result.value:+g}", side=side_name(position.to_move)
        )
    )
    print(_best_move(to_perspective(result.move, args.perspective)))
    why = (
        _("(the quick solver: no compiled search yet)")
        if kernel
        else _("(the quick solver: the compiled search does not know these rules)")
    )
    print(f"{_nodes_in(result.nodes, seconds)} {why}")
    if not args.no_line:
        print(_line_text(position, line, complete, args))
    return True


def _proof_line(
    position: Position,
    best: str,
    args: argparse.Namespace,
    table: int,
    stored: StoredTable | None,
    stream: io.StringIO | None,
) -> str:
    """The proof's line of best play, each move proven (see engine.ai.proof_line), and how
    the game ends on it; where a step costs more than its budget the line stops there."""
    from engine.ai import proof_line

    with waiting(_("Writing out the line of best play"), stream):
        line, complete = proof_line(
            position, best, table_seeds=table, table=stored.table if stored else None
        )
    return _line_text(position, line, complete, args)


def _line_text(
    position: Position, line: list[str], complete: bool, args: argparse.Namespace
) -> str:
    from engine import Game, result_lines

    moves = " ".join(to_perspective(m, args.perspective) for m in line)
    if not complete:
        return _("line {moves} ... (the rest costs more than a step's budget to prove)").format(
            moves=moves
        )
    outcome = Game.from_moves(position.rules, line, position=position).outcome()
    if outcome is None:  # a complete proof line plays the game out
        return _("line {moves}").format(moves=moves)
    return _("line {moves}: {result}").format(moves=moves, result=" ".join(result_lines(outcome)))


def _solving(rules: object) -> str:
    return _("Solving {rules}").format(rules=rules)


def _best_move(move: str) -> str:
    return _("best move {move}").format(move=move)


def _nodes_in(nodes: int, seconds: float) -> str:
    """ "12,345 nodes in 0.52 s" """
    return ngettext("{n} node in {seconds} s", "{n} nodes in {seconds} s", nodes).format(
        n=f"{nodes:,}", seconds=f"{seconds:.2f}"
    )


class SolveWatch:
    """What a running solve has proved, read live for its progress line, and Ctrl-C made a
    clean stop: the kernel checks a stop flag at every node, where Python's own interrupt
    would wait for the kernel to return."""

    def __init__(self, position: Position, tt_bits: int) -> None:
        from engine.ai.search import Searcher

        self.rules = position.rules
        self.searcher = Searcher(position.rules, tt_bits)
        self.lower: float | None = None
        self.upper: float | None = None
        self.interrupted = False
        self._last = (time.monotonic(), 0)

    def proved(self, lower: float, upper: float, nodes: int) -> None:
        self.lower, self.upper = lower, upper

    def bounds(self) -> str:
        low = "-inf" if self.lower is None or self.lower < -1000 else f"{self.lower:+g}"
        high = "+inf" if self.upper is None or self.upper > 1000 else f"{self.upper:+g}"
        return _("value in [{low}, {high}]").format(low=low, high=high)

    def news(self) -> str:
        """Bounds, nodes, nodes/s since the last line, table fill and the best root move."""
        stats = self.searcher.statistics()
        now, nodes = time.monotonic(), stats.nodes
        rate = (nodes - self._last[1]) / max(now - self._last[0], 1e-9)
        self._last = (now, nodes)
        news = _("{bounds}, {n} nodes, {rate} M nodes/s, table {fill} full").format(
            bounds=self.bounds(),
            n=f"{nodes:,}",
            rate=f"{rate / 1e6:.1f}",
            fill=f"{stats.table_fill:.0%}",
        )
        if stats.best_move is not None:
            news += ", " + _best_move(str(stats.best_move))
        return news

    @contextmanager
    def on_interrupt(self) -> Iterator[None]:
        """While the block runs, Ctrl-C stops the search at its next node. Python runs a
        signal handler only when the kernel returns, so a thread hears the signal through
        the wakeup file descriptor instead, and holds the kernel's stop flag up (each phase of
        a solve clears it as it starts) until the solve is over."""
        from engine.ai.search_kernel import STOP

        done = threading.Event()
        reader, writer = socket.socketpair()
        writer.setblocking(False)

        def watch() -> None:
            reader.recv(1)  # a byte per signal, or one at the end from the finally below
            if done.is_set():
                return
            self.interrupted = True
            while not done.wait(0.02):
                self.searcher.stats[STOP] = 1

        try:
            previous = signal.signal(signal.SIGINT, lambda signum, frame: None)
            old_fd = signal.set_wakeup_fd(writer.fileno())
        except ValueError:  # not the main thread: Ctrl-C cannot reach us anyway
            yield
            return
        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            yield
        finally:
            done.set()
            signal.set_wakeup_fd(old_fd)
            signal.signal(signal.SIGINT, previous)
            writer.send(b"\0")  # let the watcher go if no signal came
            watcher.join()
            reader.close()
            writer.close()


# Smaller tables build in well under a second: not worth a file.
CACHED_TABLE_BOARDS = 1_000_000
# Up to this many seeds on the board a solve builds no endgame table: the search alone proves
# the position sooner than the table builds. Measured with the pure-Python solver (the
# compiled one is faster still): the slowest of 5 random boards of each count against
# building the table that count gets, median of 3 runs each:
#   .venv/bin/python bench/small_solve.py kalah oware al-manqala --seeds 2-10 --positions 5 \
#       --runs 3 --nodes 1e5
#   .venv/bin/python bench/small_solve.py kalah --seeds 10-16 --positions 5 --runs 3 --nodes 1e5
# Where positions cannot repeat (kalah) the search won at every count measured, up to 16
# (16 seeds: 0.04 s against 34 s for the table); where they can (oware, al-manqala: seeds
# chasing round the board make long lines), at 2 seeds and not at 3 (oware: 0.18 s against
# 0.001 s). Above these counts a small board still tries the compiled search without a table
# first, within TRY_WITHOUT_TABLE_NODES (``run_solve``).
SEARCH_ONLY_SEEDS = 16
SEARCH_ONLY_SEEDS_CYCLES = 2
# What that try may cost, about a second of the compiled search; it is made up to
# pysolve.QUICK_SEEDS seeds on the board, where the table would be built in the foreground.
TRY_WITHOUT_TABLE_NODES = 2_000_000


def sized_table_seeds(seeds: int, position: Position, directory: Path | None = None) -> int:
    """The table a solve of ``position`` reads, given the one chosen for its rules: none up
    to SEARCH_ONLY_SEEDS on the board (SEARCH_ONLY_SEEDS_CYCLES where positions repeat); else that one if it is kept on disk already (in
    ``directory``, default the tables directory: reading it is quick), but never one built
    now for more seeds than the board holds (seeds in the pits only ever go)."""
    from bot.config import tables_dir
    from engine.ai.pysolve import may_cycle
    from storage.tables import table_path

    on_board = sum(position.pits)
    if on_board <= (SEARCH_ONLY_SEEDS_CYCLES if may_cycle(position.rules) else SEARCH_ONLY_SEEDS):
        return 0
    if seeds <= on_board:
        return seeds
    try:
        if table_path(position.rules, seeds, directory or tables_dir()).is_file():
            return seeds
    except OSError:
        pass
    return on_board


def choose_table_seeds(rules: Ruleset, directory: Path | None = None) -> int:
    """The endgame table a solve uses unless told: the largest one kept in ``directory``
    (default: the tables directory) up to LARGEST_TABLE_SEEDS, built by an earlier
    ``--table``; else the default one to build."""
    from bot.config import tables_dir
    from engine.ai.search import LARGEST_TABLE_SEEDS, default_table_seeds, largest_table_seeds
    from storage.tables import largest_stored

    seeds = default_table_seeds(rules)
    if not seeds:
        return 0
    top = min(LARGEST_TABLE_SEEDS, largest_table_seeds(rules))
    return largest_stored(rules, directory or tables_dir(), seeds, top) or seeds


def _endgame_table(rules: Ruleset, max_seeds: int) -> StoredTable | None:
    """The endgame table from the tables directory (built and saved there the first time), or
    None for a table small enough to build each time."""
    from bot.config import tables_dir
    from engine.ai.endgame import layer_counts
    from storage.tables import endgame_table

    boards = int(layer_counts(rules.pits, max_seeds)[0, -1])
    if boards < CACHED_TABLE_BOARDS:
        return None
    # It is read in a moment once on disk; building it the first time takes minutes.
    with waiting(
        _(
            "Reading or building the endgame table ({boards} boards, {seeds} seeds; kept in "
            "{directory} after the first build)"
        ).format(boards=f"{boards:,}", seeds=max_seeds, directory=tables_dir())
    ):
        return endgame_table(rules, max_seeds, tables_dir())


def run_hint(args: argparse.Namespace) -> int:
    position = _position(args)
    if position is None:
        return 2
    from bot.ai_runtime import kernel_cache
    from engine.ai import BestMove, hint, quick_proof
    from engine.ai.book import lookup

    in_book = lookup(position) is not None
    shown: BestMove | None
    if in_book:  # proven beforehand: nothing to compile or search
        shown = hint(position, compiled=False)
    else:
        # While the compiled search is not ready, a small position is proven at once without it.
        shown = None if kernel_cache.is_ready() else quick_proof(position, args.time)
    if shown is None:
        compile_first()
        with waiting(_("Looking for the best move")):
            shown = hint(position, time_limit=args.time)
    print(_header(args, position))
    if in_book:
        how = _("proven, from the opening book")
    elif shown.exact:
        how = _("proven")
    else:
        how = ngettext("estimate, {n} ply", "estimate, {n} plies", shown.depth).format(
            n=shown.depth
        )
    if shown.timed_out:
        how += _(", cut short by the clock: a less busy machine may suggest another")
    print(
        _("hint: {move} (value {value} for {side}, {how}; {searched})").format(
            move=to_perspective(shown.move, args.perspective),
            value=f"{shown.value:+g}",
            side=side_name(position.to_move),
            how=how,
            searched=_nodes_in(shown.nodes, shown.seconds),
        )
    )
    return 0


def compile_first() -> None:
    """Compile the AI's search now if it is not in the cache yet, saying so: a solve or hint
    on the command line cannot play at reduced strength, as a game can."""
    from bot.ai_runtime import kernel_cache

    if not kernel_cache.is_ready():  # loading a cached kernel shows nothing: it is quick
        with waiting(_("Compiling the AI's search (once on this machine)"), estimate=30):
            kernel_cache.compile_now()


def run_warm_up(args: argparse.Namespace) -> int:
    from bot.ai_runtime import kernel_cache

    where = kernel_cache.configure()
    if kernel_cache.is_ready():
        print(_("The AI's search is compiled already (cache: {where}).").format(where=where))
        return 0
    with waiting(_("Compiling the AI's search (once on this machine)"), estimate=30, after=0):
        seconds = kernel_cache.compile_now()
    print(
        _("Compiled in {seconds} s; cached in {where}.").format(
            seconds=f"{seconds:.0f}", where=where
        )
    )
    return 0
