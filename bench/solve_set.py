"""The solver on a fixed set of Kalah(6,4) positions, so that a change to the search is
measured on the same work every time (issue 22): 20 middlegames with 12 to 30 seeds left on
the board, from seeded random games, under both capture rules (001's, and the standard one
where the opposite pit must hold seeds).

    .venv/bin/python bench/solve_set.py [--positions 20] [--nodes 2e8] [--rules both]

For each position: the proven value, nodes and seconds (or "not proven" at the node cap).
Then the totals per ruleset, beside the baseline of the same run: the time to read each
position's legal moves and replay its game, so machines of different speeds compare. The
endgame table (as ``mancala solve`` keeps it) is read first and its time printed apart.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from bot.commands.ai import choose_table_seeds  # noqa: E402
from engine import Game, Ruleset  # noqa: E402
from engine.ai.search import (  # noqa: E402
    SOLVE_BUDGET,
    Searcher,
    default_tt_bits,
    solve,
    stores_irrelevant,
    warm_up,
)

VARIANTS = {"001": "kalah", "standard": "kalah:capture_needs_opposite=yes"}


def middlegames(
    rules: Ruleset, count: int, seed: int = 22, low: int = 12, high: int = 30
) -> list[Game]:
    """``count`` games played at random until ``low`` to ``high`` seeds are left on the
    board."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        target = rng.randint(low, high)
        game = Game(rules)
        while not game.is_over() and sum(game.position.pits) > target:
            game.play(rng.choice(game.position.legal_moves()))
        if not game.is_over() and low <= sum(game.position.pits) <= high:
            found.append(game)  # a capture can overshoot the target: keep only the range
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--nodes", type=float, default=2e8, help="node cap per position")
    parser.add_argument(
        "--seeds",
        default="12-30",
        help="the range of seeds left on the board (default 12-30; 31-40 is a harder set)",
    )
    parser.add_argument("--rules", choices=["001", "standard", "both"], default="both")
    parser.add_argument(
        "--table",
        type=int,
        default=None,
        help="endgame-table seeds (default: as mancala solve; 0 measures the search alone)",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=SOLVE_BUDGET,
        help="node budget of each move's first try (0: plain alpha-beta)",
    )
    args = parser.parse_args()
    warm_up()
    variants = VARIANTS if args.rules == "both" else {args.rules: VARIANTS[args.rules]}
    for name, spec in variants.items():
        rules = Ruleset.parse(spec)
        low, _, high = args.seeds.partition("-")
        games = middlegames(rules, args.positions, low=int(low), high=int(high or low))
        started = time.perf_counter()
        for game in games:  # the baseline: replaying the games, in this run on this machine
            Game.from_moves(rules, game.moves).position.legal_moves()
        baseline = time.perf_counter() - started
        table = None
        seeds = choose_table_seeds(rules) if args.table is None else args.table
        if seeds and stores_irrelevant(rules):
            from bot.config import tables_dir
            from storage.tables import endgame_table

            began = time.perf_counter()
            stored = endgame_table(rules, seeds, tables_dir())
            table = stored.table
            print(
                f"{name}: table of {seeds} seeds in {time.perf_counter() - began:.1f} s "
                f"({stored.note})"
            )
        total_nodes = total_seconds = proven = 0
        for n, game in enumerate(games, 1):
            searcher = Searcher(rules, default_tt_bits(rules))
            result = solve(
                game.position,
                node_limit=int(args.nodes),
                searcher=searcher,
                endgame_seeds=seeds,
                endgame_table=table,
                budget=args.budget,
            )
            total_nodes += result.nodes
            total_seconds += result.seconds
            proven += result.complete
            state = f"{result.value:+g}" if result.complete else "not proven"
            print(
                f"{name} #{n:2}: {sum(game.position.pits):2} seeds  {state:>10}  "
                f"{result.nodes:>13,} nodes  {result.seconds:7.2f} s",
                flush=True,
            )
        print(
            f"{name}: {proven}/{len(games)} proven, {total_nodes:,} nodes, "
            f"{total_seconds:.1f} s ({total_seconds / baseline:,.0f}x the replay baseline "
            f"of {baseline * 1000:.1f} ms)\n"
        )


if __name__ == "__main__":
    main()
