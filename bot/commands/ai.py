"""``mancala solve RULES [--moves ...]`` and ``mancala hint RULES --moves ...``.

``solve`` proves the game value (the final seed margin for the player to move under perfect
play) and names a best move; ``hint`` answers within a time limit, exactly when the solver
finishes in time and with the expert's estimate otherwise.

>>> import argparse
>>> parser = argparse.ArgumentParser(); register(parser.add_subparsers())
>>> args = parser.parse_args(["solve", "kalah:pits=3,seeds=2", "--moves", "B"])
>>> args.func(args)  # doctest: +ELLIPSIS
ruleset kalah:pits=3,seeds=2 after B: South to move
value +4 for South (proven)
best move C
... nodes in ... s
0
"""

from __future__ import annotations

import argparse
import time


def register(subparsers) -> None:
    solve = subparsers.add_parser(
        "solve", help="the exact value of a position and a best move",
        description="Solve a position exactly: the final seed margin for the player to move "
                    "under perfect play, a best move, nodes searched and time. Large boards "
                    "can take minutes; --nodes caps the work.")
    _common(solve)
    solve.add_argument("--nodes", type=float, metavar="N",
                       help="give up after N nodes (e.g. 5e8) and say how far it got")
    solve.set_defaults(func=run_solve)
    hint = subparsers.add_parser(
        "hint", help="the best move in a position and its value, within a time limit",
        description="Suggest a move: proven by the solver when it finishes in time, else the "
                    "expert level's estimate.")
    _common(hint)
    hint.add_argument("--time", type=float, default=2.0, metavar="SECONDS",
                      help="seconds to think (default 2)")
    hint.set_defaults(func=run_hint)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("rules", metavar="RULES",
                        help="a ruleset such as kalah or wari:captures=2-4")
    parser.add_argument("--moves", default="", metavar="MOVES",
                        help="the moves played so far, space-separated (e.g. 'C F d')")


def _position(args: argparse.Namespace):
    """The position after the moves, or None after printing what was wrong."""
    from engine import Game, MancalaError

    try:
        game = Game.from_moves(args.rules, args.moves)
    except MancalaError as err:
        print(f"error: {err}")
        return None
    if game.is_over():
        outcome = game.outcome()
        print(f"the game is over ({outcome.reason}): {outcome.score[0]}-{outcome.score[1]}; "
              "there is nothing to solve")
        return None
    return game.position


def _header(args: argparse.Namespace, position) -> str:
    after = f" after {args.moves.strip()}" if args.moves.strip() else ""
    return f"ruleset {position.rules}{after}: {position.to_move.capitalize()} to move"


def run_solve(args: argparse.Namespace) -> int:
    position = _position(args)
    if position is None:
        return 2
    if args.nodes is not None and args.nodes < 1:
        print("error: --nodes must be at least 1")
        return 2
    from engine.ai import solve

    started = time.perf_counter()
    result = solve(position, node_limit=int(args.nodes) if args.nodes else None)
    seconds = time.perf_counter() - started
    print(_header(args, position))
    side = position.to_move.capitalize()
    if result.complete:
        print(f"value {result.value:+g} for {side} (proven)")
    else:
        print(f"not proven within {int(args.nodes):,} nodes; last estimate {result.value:+g} "
              f"for {side}")
    print(f"best move {result.move}")
    print(f"{result.nodes:,} nodes in {seconds:.2f} s")
    return 0


def run_hint(args: argparse.Namespace) -> int:
    position = _position(args)
    if position is None:
        return 2
    if not 0 < args.time <= 600:
        print("error: --time takes seconds between 0 and 600")
        return 2
    from engine.ai import hint

    shown = hint(position, time_limit=args.time)
    print(_header(args, position))
    how = "proven" if shown.exact else f"estimate, {shown.depth} plies"
    print(f"hint: {shown.move} (value {shown.value:+g} for {position.to_move.capitalize()}, "
          f"{how}; {shown.nodes:,} nodes in {shown.seconds:.2f} s)")
    return 0
