"""How the expert uses its time (issue 21): on the 50 positions of bench/search_set.py, the
share of its time limit it spends and the depth it reaches, per ruleset and in all.

    .venv/bin/python bench/time_use.py [--seconds 1] [--runs 3]

The expert's time limit is hard, and it plays at once where a proof or a table settles the
move; elsewhere the issue asks that it think for its whole time. Prints, per ruleset, the
median over ``--runs`` of the mean seconds per move as a share of the limit, the mean depth
of the last finished iteration and how many moves came from a proof. The limit itself is the
baseline: the share is a ratio to it.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from bench.search_set import SET, positions  # noqa: E402
from engine.ai import choose_move, warm_up  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description="the expert's use of its time")
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    warm_up()
    shares, depths = {}, {}
    for _run in range(args.runs):
        for spec, count in SET.items():
            moves = [
                choose_move(game.position, "expert", time_limit=args.seconds)
                for game in positions(spec, count)
            ]
            shares.setdefault(spec, []).append(
                statistics.mean(m.seconds for m in moves) / args.seconds
            )
            depths.setdefault(spec, []).append(statistics.mean(m.depth for m in moves))
    print(f"expert at {args.seconds:g} s a move, median of {args.runs} runs:")
    for spec in SET:
        print(
            f"  {spec}: {statistics.median(shares[spec]):.0%} of the limit, "
            f"mean depth {statistics.median(depths[spec]):.1f}"
        )
    overall = [statistics.mean(shares[spec][r] for spec in SET) for r in range(args.runs)]
    print(f"  all: {statistics.median(overall):.0%} of the limit")


if __name__ == "__main__":
    main()
