"""The referee for correspondence players: ``mancala rules``, ``board`` and ``move``.

mancala rules                      # the presets
mancala rules wari:captures=2-4    # one ruleset with every parameter
mancala board wari --moves "E d A" # the position after those moves
mancala board togyz-kumalak --moves "E d" --fen   # ... as PlayStrategy writes it
mancala move wari --position board.txt --move E   # check a move, print the new position

The boards and positions they print are notation: the same in every language. The words
around them (help, errors, the presets' summaries) follow LC_ALL, LC_MESSAGES or LANG.
"""

from __future__ import annotations

import argparse
import sys

from bot.cli_args import SIDE_WORDS, Subparsers, bounded_int, text
from bot.i18n import N_, _
from engine import Game, MancalaError, Ruleset, Side, from_perspective, parse_position, render
from engine.fen import game_fen, looks_like_fen, parse_fen
from engine.notation import MAX_POSITION
from engine.ruleset import APPLET_WORDS, PRESETS


def register(subparsers: Subparsers) -> None:
    rules = subparsers.add_parser("rules", help=_("list the rulesets, or explain one"))
    rules.add_argument(
        "ruleset", nargs="?", type=text(), help=_("a preset, optionally with name:key=value,...")
    )
    rules.set_defaults(func=rules_command)

    board = subparsers.add_parser("board", help=_("show the position after some moves"))
    board.add_argument("ruleset", type=text())
    board.add_argument(
        "--moves", default="", type=text(), help=_('moves from the start, e.g. "E d A"')
    )
    board.add_argument("--perspective", choices=SIDE_WORDS, default=Side.SOUTH.value)
    board.add_argument(
        "--seed",
        # TRANSLATORS: a random seed (the number a coin flip is drawn from), not a game's seed
        type=bounded_int(0, 2**63 - 1, N_("a random seed")),
        default=None,
        help=_("coin-flip seed where the ruleset says first=random"),
    )
    board.add_argument(
        "--fen",
        action="store_true",
        help=_(
            "also print the position as PlayStrategy writes it (oware, togyz-kumalak, bestemshe)"
        ),
    )
    board.set_defaults(func=board_command)

    move = subparsers.add_parser("move", help=_("check a move against a written position"))
    move.add_argument(
        "ruleset",
        nargs="?",
        type=text(),
        default=None,
        help=_("the ruleset; a PlayStrategy position string names its own by its width"),
    )
    move.add_argument(
        "--position",
        required=True,
        metavar="FILE",
        help=_(
            "a board as `mancala board` prints it, as in 003, or PlayStrategy's position "
            "string (oware, togyz-kumalak, bestemshe); - reads stdin"
        ),
    )
    move.add_argument("--move", required=True, type=text(), help=_("the pit letter to play"))
    move.add_argument(
        "--perspective",
        choices=SIDE_WORDS,
        default=Side.SOUTH.value,
        help=_("whose side the board is written from (their pits are A-F)"),
    )
    move.add_argument("--to-move", choices=SIDE_WORDS, default=None)
    move.set_defaults(func=move_command)


def _fail(message: str) -> int:
    print(_("error: {message}").format(message=message), file=sys.stderr)
    return 1


def rules_command(args: argparse.Namespace) -> int:
    if not args.ruleset:
        width = max(map(len, PRESETS))
        for name, summary in Ruleset.presets().items():
            print(f"{name.ljust(width)}  {_(summary)}")  # the engine marks summaries N_
        aliases = ", ".join(f"{a} = {n}" for a, n in Ruleset.aliases().items())
        print("\n" + _("Aliases: {aliases}.").format(aliases=aliases))
        print(
            _(
                "Options: NAME:key=value,... (see `mancala rules NAME`). The applet's words "
                "{words} work too."
            ).format(words=", ".join(APPLET_WORDS))
        )
        return 0
    try:
        print(Ruleset.parse(args.ruleset).describe())
    except MancalaError as err:
        return _fail(str(err))
    return 0


def board_command(args: argparse.Namespace) -> int:
    try:
        game = Game.from_moves(Ruleset.parse(args.ruleset), args.moves, seed=args.seed)
    except MancalaError as err:
        return _fail(str(err))
    print(render(game.position, args.perspective))
    if args.fen:
        print(game_fen(game))
    return 0


def move_command(args: argparse.Namespace) -> int:
    try:
        written = read_text(args.position)
        if args.ruleset is None:
            if not looks_like_fen(written):
                return _fail(_("give the RULES, or a PlayStrategy position string"))
            rules = parse_fen(written).rules  # 9 pits a row: togyz-kumalak; 6 oware; 5 bestemshe
        else:
            rules = Ruleset.parse(args.ruleset)
        position = parse_position(
            written, rules, to_move=args.to_move, perspective=args.perspective
        )
        after = position.play(from_perspective(args.move.strip(), args.perspective))
    except OSError as err:
        return _fail(_("cannot read the position: {reason}").format(reason=err.strerror or err))
    except MancalaError as err:
        return _fail(str(err))
    print(render(after, args.perspective))
    return 0


def read_text(path: str, limit: int = MAX_POSITION) -> str:
    """A written position from a file, or standard input for ``-``: read as UTF-8 (bytes that
    are not become U+FFFD), and no more than one character past ``limit``, so that an
    oversized input is refused as such without reading it all."""
    if path == "-":
        data = sys.stdin.buffer.read(4 * limit + 4)
    else:
        with open(path, "rb") as handle:
            data = handle.read(4 * limit + 4)
    return data.decode("utf-8", errors="replace")[: limit + 1]
