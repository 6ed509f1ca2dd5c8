"""Below how many seeds on the board does the pure-Python solver beat building a table?

    .venv/bin/python bench/small_solve.py                     # kalah, oware, al-manqala
    .venv/bin/python bench/small_solve.py al-manqala --seeds 4-14 --positions 9 --runs 3

For each count of seeds on the board it draws ``--positions`` random boards of the ruleset
with that many seeds in the pits (the rest in the stores, nobody holding a majority; a fixed
seed, so every run draws the same ones) and prints, side by side:

- ``python``: the median and the slowest of the pure-Python exact solve
  (``engine.ai.pysolve``), each the median of ``--runs`` runs, and its nodes;
- ``table``: the baseline, building the endgame table ``mancala solve`` would build for that
  board (``bot.commands.ai``: the ruleset's table, never for more seeds than the board has),
  compiled, the median of ``--runs`` builds.

The last line names the largest count at which the slowest Python solve still beats the
table, at every count up to it: ``SEARCH_ONLY_SEEDS`` in ``bot/commands/ai.py`` is the smallest
of these over the rulesets. The table builders are compiled (or loaded from numba's cache)
first, untimed.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from engine import Position, Ruleset  # noqa: E402
from engine.ai import pysolve  # noqa: E402


def boards(rules: Ruleset, seeds: int, count: int, rng: random.Random) -> list[Position]:
    """``count`` random positions, South to move, with ``seeds`` seeds in the pits."""
    n2 = 2 * rules.pits
    rest = rules.total_seeds - seeds
    found: list[Position] = []
    tries = 0
    while len(found) < count and tries < 1000 * count:
        tries += 1
        pits = [0] * n2
        for _ in range(seeds):
            pits[rng.randrange(n2)] += 1
        half = rules.total_seeds // 2  # no store above half: no majority yet
        low = max(0, rest - half)
        south = rng.randint(low, min(rest, half)) if rest else 0
        if rules.majority and (south > half or rest - south > half):
            continue
        position = Position.settled(rules, (*pits, south, rest - south), 0)
        if not position.is_over() and sum(position.pits) == seeds:
            found.append(position)
    return found


def table_seconds(rules: Ruleset, seeds: int, runs: int) -> float:
    from engine.ai.encoding import encode
    from engine.ai.endgame import build
    from engine.ai.retrograde import build as build_bounds
    from engine.ai.search import stores_irrelevant

    builder = build if stores_irrelevant(rules) else build_bounds
    code = encode(rules)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        builder(code, seeds)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def python_seconds(position: Position, runs: int, nodes: int) -> tuple[float, int, bool]:
    times = []
    result = None
    for _ in range(runs):
        result = pysolve.solve(position, node_limit=nodes)
        times.append(result.seconds)
    assert result is not None
    return statistics.median(times), result.nodes, result.complete


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="*", default=["kalah", "oware", "al-manqala"])
    parser.add_argument("--seeds", default="2-14", help="counts of seeds on the board, LOW-HIGH")
    parser.add_argument("--positions", type=int, default=9, help="boards per count")
    parser.add_argument("--runs", type=int, default=3, help="runs of each, the median kept")
    parser.add_argument("--nodes", type=float, default=3e6, help="a Python solve's node cap")
    args = parser.parse_args()
    low, high = (int(part) for part in args.seeds.split("-"))
    from bot.commands.ai import choose_table_seeds
    from engine.ai.search import largest_table_seeds

    answers = []
    for name in args.rules:
        rules = Ruleset.parse(name)
        table_top = choose_table_seeds(rules, pathlib.Path("/nonexistent"))
        table_seconds(rules, 2, 1)  # compile (or load) the builder, untimed
        print(f"{rules}: the table built is of min({table_top}, seeds on the board) seeds")
        print(f"{'seeds':>5} {'python median':>14} {'slowest':>9} {'nodes':>9} {'table':>9}")
        rng = random.Random(20261125)
        best = low - 1
        for seeds in range(low, min(high, largest_table_seeds(rules)) + 1):
            found = boards(rules, seeds, args.positions, rng)
            measured = [python_seconds(p, args.runs, int(args.nodes)) for p in found]
            times = [m[0] for m in measured]
            nodes = max(m[1] for m in measured)
            complete = all(m[2] for m in measured)
            table = table_seconds(rules, min(seeds, table_top), args.runs)
            slowest = max(times)
            print(
                f"{seeds:5d} {statistics.median(times):13.4f}s {slowest:8.4f}s {nodes:9,d} "
                f"{table:8.4f}s" + ("" if complete else "  (a solve hit the node cap)")
            )
            if complete and slowest < table and best == seeds - 1:
                best = seeds
        print(f"{rules}: Python beats the table up to {best} seeds on the board\n")
        answers.append(best)
    print(f"search alone up to {min(answers)} seeds on the board (the least over the rulesets)")


if __name__ == "__main__":
    main()
