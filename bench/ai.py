"""Search speed: nodes per second and depth reached in 1 s on Kalah(6,4) from the start,
for the pure-Python search (through the engine) and the compiled kernel, in the same run.

    .venv/bin/python bench/ai.py [--runs 5] [--seconds 1] [--rules kalah] [--depths 14,18]

Prints every run, then the medians and the kernel/Python ratio. Then the kernel's nodes and
seconds to fixed depths from the start (the nodes must not change unless the search does;
seconds are the median of the runs), and each level's move time from a few positions (median
and worst) against its budget.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from engine import Game, Position, Ruleset  # noqa: E402
from engine.ai import SEARCH_LEVELS, choose_move, warm_up  # noqa: E402
from engine.ai.pysearch import search as python_search  # noqa: E402
from engine.ai.search import iterate  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description="AI search speed")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--rules", default="kalah")
    parser.add_argument(
        "--depths", default="14,18", help="fixed depths to time the kernel to ('' to skip)"
    )
    parser.add_argument("--skip-levels", action="store_true")
    args = parser.parse_args()
    warm_up()
    start = Position.initial(Ruleset.parse(args.rules))
    rows = {"python": [], "kernel": []}
    for run in range(args.runs):
        # Alternate which goes first, so machine load drifts hit both alike.
        order = ("python", "kernel") if run % 2 == 0 else ("kernel", "python")
        for name in order:
            if name == "python":
                result = python_search(start, 64, time_limit=args.seconds)
            else:
                result = iterate(start, 64, time_limit=args.seconds * 2)  # stops near half
            rate = result.nodes / result.seconds
            rows[name].append((rate, result.depth, result.seconds))
            print(
                f"run {run + 1} {name:6}  {rate / 1e6:6.3f} M nodes/s  depth {result.depth:2}"
                f"  in {result.seconds:.2f} s  ({result.nodes:,} nodes)",
                flush=True,
            )
    med = {k: statistics.median(r[0] for r in v) for k, v in rows.items()}
    depth = {k: statistics.median(r[1] for r in v) for k, v in rows.items()}
    print(f"\n{args.rules} from the start, {args.runs} runs of ~{args.seconds:g} s, medians:")
    for name in rows:
        print(f"  {name:6}  {med[name] / 1e6:6.3f} M nodes/s   depth {depth[name]:g}")
    print(f"  kernel / python: {med['kernel'] / med['python']:.1f}x nodes per second")
    if args.depths:
        fixed_depths(start, [int(d) for d in args.depths.split(",")], args.runs)
    if not args.skip_levels:
        level_times(args.rules)


def fixed_depths(start: Position, depths: list[int], runs: int) -> None:
    """The kernel's nodes and median seconds to each depth (a fresh table each run)."""
    print(f"\nkernel to fixed depths from the start ({runs} runs, medians):")
    for depth in depths:
        results = [iterate(start, depth) for _ in range(runs)]
        seconds = statistics.median(r.seconds for r in results)
        nodes = {r.nodes for r in results}
        print(
            f"  depth {depth:2}  {results[0].nodes:>12,} nodes  {seconds:7.3f} s  "
            f"{results[0].nodes / seconds / 1e6:6.3f} M nodes/s"
            + ("" if len(nodes) == 1 else f"  (nodes differ between runs: {sorted(nodes)})"),
            flush=True,
        )


def level_times(rules: str) -> None:
    """Each level's seconds per move over positions from a few openings."""
    openings = ["", "C F", "A d B", "F a E c", "C F b D e"]
    positions = [Game.from_moves(rules, moves).position for moves in openings]
    print(f"\nseconds per move on {rules} ({len(positions)} positions, default budgets):")
    for level, settings in SEARCH_LEVELS.items():
        times = [choose_move(p, level, seed=1).seconds for p in positions]
        print(
            f"  {level:7} median {statistics.median(times):.3f} s  worst {max(times):.3f} s"
            f"  (budget {settings.seconds:g} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
