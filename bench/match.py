"""Levels and strategies against each other on paired openings, and a score table.

    .venv/bin/python bench/match.py [--openings 2] [--workers 2] [--rules kalah wari ...]
                                    [--pairs hard-expert,greedy-expert]

Each opening (two random plies from a seeded generator) is played twice, each side taking
South once, so neither gets the first-move edge. A win scores 1, a draw 1/2, for the stronger
side of the pairing (listed second), with a 95% interval over the openings (see
bench/intervals.py) for each pairing in all rulesets. Bars: each level scores >= 75% against
the level below, expert >= 95% against greedy. Games use each level's default budget, as the
bot does.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from bench.intervals import mean_interval  # noqa: E402
from engine import Game, Ruleset  # noqa: E402
from engine.ai import choose_move, warm_up  # noqa: E402

PAIRINGS = [
    ("greedy", "easy"),
    ("easy", "medium"),
    ("medium", "hard"),
    ("hard", "expert"),
    ("greedy", "expert"),
]
BARS = {
    ("easy", "medium"): 0.75,
    ("medium", "hard"): 0.75,
    ("hard", "expert"): 0.75,
    ("greedy", "expert"): 0.95,
}
MAX_PLIES = 400  # a game still going after this many plies is ended by agreement


def openings(rules: str, count: int) -> list[list[str]]:
    """``count`` different openings: two seeded generators can draw the same two plies, and a
    repeated opening would count its games twice. Asking for more than there are (35 in
    Kalah(6,4)) ends with a message."""
    found: list[list[str]] = []
    index = stale = 0
    while len(found) < count:
        if stale > 5000:  # every opening there is has been drawn many times over
            raise SystemExit(
                f"{rules} has only {len(found)} openings of two plies: ask for at most that many"
            )
        moves = opening(rules, index)
        index += 1
        if moves in found:
            stale += 1
        else:
            found.append(moves)
            stale = 0
    return found


def opening(rules: str, index: int) -> list[str]:
    rng = random.Random(f"{rules}/{index}")
    game = Game(rules)
    moves = []
    for _ in range(2):
        move = rng.choice(game.position.legal_moves())
        game.play(move)
        moves.append(move)
    return moves


def play_game(rules: str, moves: list[str], south: str, north: str, seed: int):
    """Play one game; return (south's level, north's level, score, winner, plies, seconds per
    move of each level as (total, count, worst))."""
    warm_up()
    game = Game.from_moves(rules, moves)
    timing = {south: [0.0, 0, 0.0], north: [0.0, 0, 0.0]}
    while not game.is_over():
        if len(game.moves) >= MAX_PLIES:
            game.agree_end()
            break
        level = south if game.position.mover == 0 else north
        chosen = choose_move(game.position, level, seed=seed + len(game.moves))
        spent = timing[level]
        spent[0] += chosen.seconds
        spent[1] += 1
        spent[2] = max(spent[2], chosen.seconds)
        game.play(chosen.move)
    return south, north, game.score(), game.winner(), len(game.moves), timing


def main() -> None:
    parser = argparse.ArgumentParser(description="AI match table")
    parser.add_argument("--openings", type=int, default=2, help="openings per pairing and ruleset")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rules", nargs="+", default=["kalah", "wari", "oware", "al-manqala"])
    parser.add_argument(
        "--pairs", default=None, help="only these pairings, e.g. 'hard-expert,greedy-expert'"
    )
    args = parser.parse_args()
    pairings = PAIRINGS
    if args.pairs:
        wanted = {tuple(p.split("-", 1)) for p in args.pairs.split(",")}
        pairings = [p for p in PAIRINGS if p in wanted]
    rulesets = [str(Ruleset.parse(r)) for r in args.rules]
    jobs = []
    for rules in rulesets:
        for weak, strong in pairings:
            for i, moves in enumerate(openings(rules, args.openings)):
                jobs.append((rules, (weak, strong), moves, weak, strong, i))
                jobs.append((rules, (weak, strong), moves, strong, weak, i))
    started = time.perf_counter()
    results = {}
    timings = {}
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = [
            (job, pool.submit(play_game, job[0], job[2], job[3], job[4], 1000 * job[5]))
            for job in jobs
        ]
        for (rules, pair, moves, south, north, _), future in futures:
            south, north, score, winner, plies, timing = future.result()
            strong = pair[1]
            strong_side = "south" if south == strong else "north"
            points = 1.0 if winner == strong_side else 0.5 if winner == "draw" else 0.0
            results.setdefault((rules, pair), []).append(points)
            for level, (total, count, worst) in timing.items():
                t = timings.setdefault(level, [0.0, 0, 0.0])
                t[0] += total
                t[1] += count
                t[2] = max(t[2], worst)
            print(
                f"{rules:11} {' '.join(moves):5} S={south:7} N={north:7} "
                f"{score[0]:3}-{score[1]:<3} {winner:5} {plies:3} plies",
                flush=True,
            )
    print(
        f"\nscore of the stronger side (second), {2 * args.openings} games per cell "
        f"({time.perf_counter() - started:.0f} s):"
    )
    header = (
        f"{'pairing':18}"
        + "".join(f"{r:>12}" for r in rulesets)
        + f"{'all':>8} {'95% interval':>13}  bar"
    )
    print(header)
    for pair in pairings:
        cells = [results[(r, pair)] for r in rulesets]
        every = [p for cell in cells for p in cell]
        # Each opening's two games (sides swapped) were queued one after the other.
        share, low, high = mean_interval(
            [(a + b) / 2 for a, b in zip(every[::2], every[1::2], strict=False)]
        )
        bar = BARS.get(pair)
        verdict = "" if bar is None else f"{bar:.0%} {'ok' if share >= bar else 'MISSED'}"
        print(
            f"{pair[0] + ' < ' + pair[1]:18}"
            + "".join(f"{sum(c) / len(c):>11.0%} " for c in cells)
            + f"{share:>7.0%} {low:>6.0%}-{high:<6.0%}  {verdict}"
        )
    print("\nseconds per move: level, mean, worst")
    for level, (total, count, worst) in sorted(timings.items()):
        if count:
            print(f"  {level:8} {total / count:.3f}  {worst:.3f}")


if __name__ == "__main__":
    main()
