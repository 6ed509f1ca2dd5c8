"""The levels' search to a fixed depth on a fixed set of 50 positions (issue 21): openings and
middlegames of kalah (001's rules and the standard capture), wari and oware, each searched
from a fresh table, so that a change to move ordering or pruning is measured on the same work.

    .venv/bin/python bench/search_set.py [--depth 14] [--runs 3]

Prints the nodes (the same on every run unless the search changes) and the median seconds
per ruleset and in all, beside a baseline of the same run: replaying the positions' games
with the engine (pure Python).
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from engine import Game, Ruleset  # noqa: E402
from engine.ai.search import Searcher, iterate, warm_up  # noqa: E402

# ruleset: how many positions of the 50
SET = {"kalah": 13, "kalah:capture_needs_opposite=yes": 13, "wari": 12, "oware": 12}


def positions(spec: str, count: int, seed: int = 21) -> list[Game]:
    """``count`` games of 0 to 30 seeded random plies (openings to middlegames), not over."""
    rules = Ruleset.parse(spec)
    rng = random.Random(f"{seed}-{spec}")
    found = []
    while len(found) < count:
        game = Game(rules)
        for _ in range(rng.randint(0, 30)):
            if game.is_over():
                break
            game.play(rng.choice(game.position.legal_moves()))
        if not game.is_over():
            found.append(game)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    warm_up()
    games = {spec: positions(spec, count) for spec, count in SET.items()}
    nodes = {spec: 0 for spec in SET}
    seconds = {spec: [] for spec in SET}
    bases = []
    for _ in range(args.runs):
        started = time.perf_counter()
        for found in games.values():
            for game in found:
                Game.from_moves(game.rules, game.moves).position.legal_moves()
        bases.append(time.perf_counter() - started)
        for spec, found in games.items():
            total_nodes, started = 0, time.perf_counter()
            for game in found:
                result = iterate(
                    game.position, args.depth, searcher=Searcher(game.rules, tt_bits=20)
                )
                total_nodes += result.nodes
            seconds[spec].append(time.perf_counter() - started)
            nodes[spec] = total_nodes
    base = statistics.median(bases)
    print(
        f"depth {args.depth}, {sum(SET.values())} positions, median of {args.runs} runs; "
        f"baseline (replaying their games) {base * 1000:.1f} ms"
    )
    print("| ruleset | positions | nodes | seconds | seconds / baseline |")
    print("|---|---|---|---|---|")
    for spec in SET:
        median = statistics.median(seconds[spec])
        print(f"| {spec} | {SET[spec]} | {nodes[spec]:,} | {median:.2f} | {median / base:,.0f}x |")
    total = sum(statistics.median(seconds[spec]) for spec in SET)
    print(
        f"| all | {sum(SET.values())} | {sum(nodes.values()):,} | {total:.2f} | "
        f"{total / base:,.0f}x |"
    )


if __name__ == "__main__":
    main()
