"""The full differential check: compiled rules vs engine on many random positions.

    .venv/bin/python bench/kernel_diff.py [--positions 100000] [--seed 1]

Positions come from every preset and random parameter mixes (see engine.ai.selfcheck);
for each, the legal moves and every resulting position (board, player to move, game over)
must be the same. Prints the counts and the first disagreements, if any; exit status 1 then.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from engine.ai.selfcheck import run  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description="kernel vs engine on random positions")
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    positions, moves, problems = run(args.positions, args.seed)
    print(
        f"{positions:,} positions, {moves:,} moves compared, {len(problems)} disagreements "
        f"({time.perf_counter() - started:.0f} s, seed {args.seed})"
    )
    for problem in problems:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
