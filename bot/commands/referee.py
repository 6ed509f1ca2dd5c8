"""The referee for correspondence players: ``mancala rules``, ``board`` and ``move``.

mancala rules                      # the presets
mancala rules wari:captures=2-4    # one ruleset with every parameter
mancala board wari --moves "E d A" # the position after those moves
mancala board togyz-kumalak --moves "E d" --fen   # ... as PlayStrategy writes it
mancala move wari --position board.txt --move E   # check a move, print the new position
"""

from __future__ import annotations

import argparse
import sys

from bot.cli_args import SIDE_WORDS, Subparsers, bounded_int, text
from engine import Game, MancalaError, Ruleset, Side, from_perspective, parse_position, render
from engine.fen import game_fen
from engine.notation import MAX_POSITION
from engine.ruleset import APPLET_WORDS, PRESETS


def register(subparsers: Subparsers) -> None:
    rules = subparsers.add_parser("rules", help="list the rulesets, or explain one")
    rules.add_argument(
        "ruleset", nargs="?", type=text(), help="a preset, optionally with name:key=value,..."
    )
    rules.set_defaults(func=rules_command)

    board = subparsers.add_parser("board", help="show the position after some moves")
    board.add_argument("ruleset", type=text())
    board.add_argument(
        "--moves", default="", type=text(), help='moves from the start, e.g. "E d A"'
    )
    board.add_argument("--perspective", choices=SIDE_WORDS, default=Side.SOUTH.value)
    board.add_argument(
        "--seed",
        type=bounded_int(0, 2**63 - 1, "a seed"),
        default=None,
        help="coin-flip seed where the ruleset says first=random",
    )
    board.add_argument(
        "--fen",
        action="store_true",
        help="also print the position as PlayStrategy writes it (togyz-kumalak, bestemshe)",
    )
    board.set_defaults(func=board_command)

    move = subparsers.add_parser("move", help="check a move against a written position")
    move.add_argument("ruleset", type=text())
    move.add_argument(
        "--position",
        required=True,
        metavar="FILE",
        help="a board as `mancala board` prints it, as in 003, or PlayStrategy's position "
        "string (togyz-kumalak, bestemshe); - reads stdin",
    )
    move.add_argument("--move", required=True, type=text(), help="the pit letter to play")
    move.add_argument(
        "--perspective",
        choices=SIDE_WORDS,
        default=Side.SOUTH.value,
        help="whose side the board is written from (their pits are A-F)",
    )
    move.add_argument("--to-move", choices=SIDE_WORDS, default=None)
    move.set_defaults(func=move_command)


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 1


def rules_command(args: argparse.Namespace) -> int:
    if not args.ruleset:
        width = max(map(len, PRESETS))
        for name, summary in Ruleset.presets().items():
            print(f"{name.ljust(width)}  {summary}")
        aliases = ", ".join(f"{a} = {n}" for a, n in Ruleset.aliases().items())
        print(f"\nAliases: {aliases}.")
        print(
            "Options: NAME:key=value,... (see `mancala rules NAME`). The applet's words "
            f"{', '.join(APPLET_WORDS)} work too."
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
        rules = Ruleset.parse(args.ruleset)
        written = read_text(args.position)
        position = parse_position(
            written, rules, to_move=args.to_move, perspective=args.perspective
        )
        after = position.play(from_perspective(args.move.strip(), args.perspective))
    except OSError as err:
        return _fail(f"cannot read the position: {err.strerror or err}")
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
