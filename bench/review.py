"""A 60-ply Kalah(6,4) game reviewed end to end (engine.review): seconds, median of several
runs, and how many plies are proven; beside it a baseline measured in the same run, the same
game's positions solved one by one with ``engine.ai.solve`` where 24 or fewer seeds are left
(each with a fresh table, as a caller without the review would), so the figure compares across
noisy days.

    .venv/bin/python bench/review.py            # goal: review <= 20 s, every ply with <= 24
    .venv/bin/python bench/review.py --runs 5   # seeds left in the pits proven

The game: the applet's "random" strategy playing both sides, seeded move by move (ply k of
game g uses seed 1000 * g + k), the first game of 60 plies or more, its first 60 plies: strong
levels end Kalah(6,4) in about 40 plies.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai_runtime.kernel_cache import configure  # noqa: E402

configure()

from engine import Game, Ruleset  # noqa: E402
from engine.ai import choose_move, solve, warm_up  # noqa: E402
from engine.review import forget, review  # noqa: E402

PLIES = 60
PROVE_SEEDS = 24


def the_game() -> Game:
    rules = Ruleset.parse("kalah")
    for number in range(1000):
        game = Game(rules)
        while not game.is_over():
            move = choose_move(game.position, "random", seed=1000 * number + len(game.moves))
            game.play(move.move)
        if len(game.moves) >= PLIES:
            return Game.from_moves(rules, game.moves[:PLIES])
    raise SystemExit("no game of 60 plies in 1000 tries")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    warm_up()  # compiling or loading the kernel is not reviewing
    game = the_game()
    small = [p for p in game.positions[:-1] if sum(p.pits) <= PROVE_SEEDS]
    times, baseline = [], []
    proven = small_proven = 0
    for _ in range(args.runs):
        forget()  # every run starts with an empty table, as a fresh worker would
        started = time.perf_counter()
        reviewed = review(game)
        times.append(time.perf_counter() - started)
        proven = reviewed.proven
        small_proven = sum(
            p.proven for p in reviewed.plies if sum(game.positions[p.ply - 1].pits) <= PROVE_SEEDS
        )
        started = time.perf_counter()
        for position in small:
            solve(position)
        baseline.append(time.perf_counter() - started)
    print(f"Kalah(6,4), {len(game.moves)} plies: {' '.join(game.moves)}")
    print(
        f"review: {statistics.median(times):.2f} s (median of {args.runs}; runs "
        f"{', '.join(f'{t:.2f}' for t in times)}); {proven} of {len(game.moves)} plies proven, "
        f"{small_proven} of the {len(small)} with <= {PROVE_SEEDS} seeds left"
    )
    print(
        f"baseline: {statistics.median(baseline):.2f} s (median of {args.runs}) to solve those "
        f"{len(small)} positions one by one with engine.ai.solve (values only, no best-move "
        "sets, no estimates)"
    )
    print(f"goal: <= 20 s, all of the {len(small)} proven")


if __name__ == "__main__":
    main()
