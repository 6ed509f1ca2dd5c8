"""Random-playout speed of the engine: plies per second per preset.

    python bench/engine.py [--seconds 1.0] [--runs 5]

Each figure is the median of several runs. The baseline, measured in the same run, is a
minimal Kalah-only playout (a plain list, no rules object, no legality checks beyond empty
pits): the ratio says what the engine's generality and immutable positions cost.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game, Ruleset  # noqa: E402
from engine.ruleset import PRESETS  # noqa: E402


def engine_playouts(rules: Ruleset, seconds: float, seed: int = 1) -> float:
    rng = random.Random(seed)
    plies = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        game = Game(rules, seed=rng.randrange(2**32))  # a Game, so repetitions end it
        while not game.is_over():
            game.play(rng.choice(game.position.legal_moves()))
        plies += len(game.moves)
    return plies / (time.perf_counter() - start)


def baseline_playouts(seconds: float, seed: int = 1) -> float:
    """Kalah(6,4) with the 001 rules, written as tightly as plain Python allows."""
    rng = random.Random(seed)
    plies = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        board = [4] * 6 + [0] + [4] * 6 + [0]  # A..F, south store, a..f, north store
        side = 0
        while True:
            lo = 0 if side == 0 else 7
            moves = [i for i in range(lo, lo + 6) if board[i]]
            if not moves:
                break
            pit = rng.choice(moves)
            seeds, board[pit] = board[pit], 0
            slot = pit
            skip = 13 if side == 0 else 6
            while seeds:
                slot = (slot + 1) % 14
                if slot != skip:
                    board[slot] += 1
                    seeds -= 1
            own_store = 6 if side == 0 else 13
            if lo <= slot < lo + 6 and board[slot] == 1:
                board[own_store] += 1 + board[12 - slot]
                board[slot] = board[12 - slot] = 0
            plies += 1
            if not any(board[0:6]) or not any(board[7:13]):
                break
            if slot != own_store:
                side = 1 - side
    return plies / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    baseline = statistics.median(baseline_playouts(args.seconds) for _ in range(args.runs))
    print(f"baseline (minimal kalah loop): {baseline:10,.0f} plies/s")
    print(f"{'preset':16} {'plies/s':>10}  ratio to baseline")
    for name in PRESETS:
        rules = Ruleset.parse(name)
        rate = statistics.median(
            engine_playouts(rules, args.seconds, seed=run) for run in range(args.runs)
        )
        print(f"{name:16} {rate:10,.0f}  {rate / baseline:5.2f}")


if __name__ == "__main__":
    main()
