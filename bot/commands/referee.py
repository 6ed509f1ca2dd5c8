"""The referee for correspondence players: ``mancala rules``, ``board`` and ``move``.

    mancala rules                      # the presets
    mancala rules wari:captures=2-4    # one ruleset with every parameter
    mancala board wari --moves "E d A" # the position after those moves
    mancala move wari --position board.txt --move E   # check a move, print the new position
"""

from __future__ import annotations

import argparse
import sys

from engine import Game, MancalaError, Ruleset, from_perspective, parse_position, render
from engine.ruleset import APPLET_WORDS, PRESETS


def register(subparsers) -> None:
    rules = subparsers.add_parser("rules", help="list the rulesets, or explain one")
    rules.add_argument("ruleset", nargs="?", help="a preset, optionally with name:key=value,...")
    rules.set_defaults(func=rules_command)

    board = subparsers.add_parser("board", help="show the position after some moves")
    board.add_argument("ruleset")
    board.add_argument("--moves", default="", help='moves from the start, e.g. "E d A"')
    board.add_argument("--perspective", choices=("south", "north"), default="south")
    board.add_argument("--seed", type=int, default=None,
                       help="coin-flip seed where the ruleset says first=random")
    board.set_defaults(func=board_command)

    move = subparsers.add_parser("move", help="check a move against a written position")
    move.add_argument("ruleset")
    move.add_argument("--position", required=True, metavar="FILE",
                      help="a board as `mancala board` prints it, or as in 003; - reads stdin")
    move.add_argument("--move", required=True, help="the pit letter to play")
    move.add_argument("--perspective", choices=("south", "north"), default="south",
                      help="whose side the board is written from (their pits are A-F)")
    move.add_argument("--to-move", choices=("south", "north"), default=None)
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
        print("Options: NAME:key=value,... (see `mancala rules NAME`). The applet's words "
              f"{', '.join(APPLET_WORDS)} work too.")
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
    return 0


def move_command(args: argparse.Namespace) -> int:
    try:
        rules = Ruleset.parse(args.ruleset)
        if args.position == "-":
            text = sys.stdin.read()
        else:
            with open(args.position, encoding="utf-8", errors="replace") as handle:
                text = handle.read(1_000_000)
        position = parse_position(text, rules, to_move=args.to_move,
                                  perspective=args.perspective)
        after = position.play(from_perspective(args.move.strip(), args.perspective))
    except OSError as err:
        return _fail(f"cannot read the position: {err.strerror or err}")
    except MancalaError as err:
        return _fail(str(err))
    print(render(after, args.perspective))
    return 0
