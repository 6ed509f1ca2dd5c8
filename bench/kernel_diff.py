"""The full differential check: compiled rules vs engine on many random positions.

    .venv/bin/python bench/kernel_diff.py [--positions 100000] [--seed 1]
        [--presets togyz-kumalak,bestemshe]

Positions come from every preset (or those of ``--presets``) and random parameter mixes of
them, Togyz Kumalak's keys and tuzdyks included (see engine.ai.selfcheck); for each, the legal
moves and every resulting position (board with its tuzdyks, player to move, game over) must
be the same. Prints the counts and the first disagreements, if any; exit status 1 then.
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
    parser.add_argument(
        "--presets", default="", help="only these presets and their mixes (comma-separated)"
    )
    args = parser.parse_args()
    names = [name.strip() for name in args.presets.split(",") if name.strip()]
    started = time.perf_counter()
    positions, moves, problems = run(args.positions, args.seed, names)
    print(
        f"{positions:,} positions, {moves:,} moves compared, {len(problems)} disagreements "
        f"({time.perf_counter() - started:.0f} s, seed {args.seed}"
        + (f", presets {', '.join(names)})" if names else ")")
    )
    for problem in problems:
        print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
