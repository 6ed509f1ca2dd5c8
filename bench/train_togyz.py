"""Tune Togyz Kumalak's evaluation weights on self-play (Texel's method) and write them.

    .venv/bin/python bench/train_togyz.py [--games 400] [--nodes 20000] [--seed 47]
        [--out engine/data/togyz_eval.json] [--compare 10] [--compare-nodes 200000]

Deterministic: the same arguments give the same games, positions and weights, on any
machine as fast or slow, because every search stops at a node budget, never the clock.

1. Data: ``--games`` self-play games of the compiled kernel with the baseline evaluation
   (``evaluation.BASELINE``: the kazans' margin and the row), each from an opening of 2 to 6
   random plies drawn from ``--seed``, every move searched to ``--nodes`` nodes. Every
   position after the opening with more than one legal move is kept, labelled with the
   game's result for the player to move (1 a win, 1/2 a draw, 0 a loss). Nothing is written
   to disk but the weights.
2. Fit: the evaluation ``e`` (search units: 4 a stone) is read as a winning chance
   ``1 / (1 + exp(-e / K))``. K is fitted first, on the baseline; then the weights, the
   margin's fixed, by gradient descent (Adam, a fixed number of steps from the baseline) on
   the squared error between that chance and the result; rounded to integers (sixteenths of
   a search unit).
3. ``--compare P``: the tuned weights against the baseline, both at ``--compare-nodes`` a
   move, on P openings played twice with the sides swapped (not those of the data); the
   tuned side's points with a 95% interval over the pairs.

The output file holds the weights, K, the mean squared errors before and after, and the
command and data that made them; ``engine.ai.evaluation`` loads it.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import random
import sys
import time

import numpy as np
from numba import njit

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # bench/engine.py is not engine

from bench.intervals import mean_interval  # noqa: E402
from bench.match import MAX_PLIES  # noqa: E402
from engine import Game, Ruleset  # noqa: E402
from engine.ai.encoding import encode, kernel_board, with_weights  # noqa: E402
from engine.ai.evaluation import BASELINE, FEATURES, WEIGHT_SHIFT  # noqa: E402
from engine.ai.search import Searcher, iterate  # noqa: E402
from engine.ai.search_kernel import SCALE, togyz_features  # noqa: E402

RULES = Ruleset.parse("togyz-kumalak")
TT_BITS = 18
STEPS = 3000


@njit(cache=False)
def _features(R, boards, movers, out):
    for i in range(boards.shape[0]):
        f = togyz_features(R, boards[i], movers[i])
        for j in range(len(f)):
            out[i, j] = f[j]


def searcher(weights: tuple[int, ...]) -> Searcher:
    """A fresh search (its own table) that values boards with ``weights``."""
    s = Searcher(RULES, TT_BITS)
    s.code = with_weights(s.code, weights)
    return s


def opening(seed: int, index: int, tag: str) -> Game:
    rng = random.Random(f"{tag}/{seed}/{index}")
    game = Game(RULES)
    for _ in range(rng.randint(2, 6)):
        if game.is_over():
            break
        game.play(rng.choice(game.position.legal_moves()))
    return game


def play(game: Game, players: tuple[Searcher, Searcher], nodes: int) -> list[tuple]:
    """Play ``game`` to its end, ``players[side]`` moving for each side; returns the
    (kernel board, mover) of every position where a search chose among several moves."""
    seen = []
    while not game.is_over():
        if len(game.moves) >= MAX_PLIES:
            game.agree_end()
            break
        position = game.position
        moves = position.legal_moves()
        if len(moves) == 1:
            game.play(moves[0])
            continue
        seen.append((kernel_board(position), position.mover))
        result = iterate(
            position, 64, nodes, None, len(game.moves), TT_BITS, searcher=players[position.mover]
        )
        game.play(result.move)
    return seen


def outcome(game: Game, mover: int) -> float:
    winner = game.winner()
    if winner == "draw":
        return 0.5
    return 1.0 if winner == ("south", "north")[mover] else 0.0


def generate(games: int, nodes: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    boards, movers, results = [], [], []
    started = time.perf_counter()
    for i in range(games):
        game = opening(seed, i, "train")
        if game.is_over():
            continue
        player = searcher(BASELINE)
        for board, mover in play(game, (player, player), nodes):
            boards.append(board)
            movers.append(mover)
            results.append(outcome(game, mover))
        if (i + 1) % 50 == 0:
            print(
                f"  {i + 1} games, {len(boards)} positions ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    return np.array(boards, np.int64), np.array(movers, np.int64), np.array(results)


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def fit(
    margins: np.ndarray, features: np.ndarray, results: np.ndarray
) -> tuple[float, tuple[int, ...], float, float]:
    """(K, tuned weights, error of the baseline, error of the tuned weights)."""
    scale = 1.0 / (1 << WEIGHT_SHIFT)
    base = SCALE * margins + features @ np.array(BASELINE) * scale
    ks = np.exp(np.linspace(math.log(2.0), math.log(200.0), 400))
    errors = [float(np.mean((sigmoid(base / k) - results) ** 2)) for k in ks]
    k = float(ks[int(np.argmin(errors))])
    # Adam over the weights in standardized units (features of very different sizes).
    spread = features.std(axis=0) + 1e-9
    x = features / spread * scale
    u = np.array(BASELINE, float) * spread
    first = np.zeros_like(u)
    second = np.zeros_like(u)
    rate = 0.5
    for step in range(1, STEPS + 1):
        p = sigmoid((SCALE * margins + x @ u) / k)
        grad = x.T @ (2 * (p - results) * p * (1 - p)) / (k * len(results))
        first = 0.9 * first + 0.1 * grad
        second = 0.999 * second + 0.001 * grad * grad
        u -= rate * (first / (1 - 0.9**step)) / (np.sqrt(second / (1 - 0.999**step)) + 1e-12)
    weights = tuple(int(round(v)) for v in u / spread)
    tuned = SCALE * margins + features @ np.array(weights) * scale
    return (
        k,
        weights,
        errors[int(np.argmin(errors))],
        float(np.mean((sigmoid(tuned / k) - results) ** 2)),
    )


def compare(weights: tuple[int, ...], pairs: int, nodes: int, seed: int) -> None:
    """The tuned weights against the baseline on ``pairs`` paired openings."""
    scores = []
    tally = {"win": 0, "draw": 0, "loss": 0}
    for i in range(pairs):
        pair = []
        for tuned_side in (0, 1):
            game = opening(seed, i, "compare")
            players = [searcher(BASELINE), searcher(BASELINE)]
            players[tuned_side] = searcher(weights)
            play(game, (players[0], players[1]), nodes)
            points = outcome(game, tuned_side)
            tally["win" if points == 1 else "draw" if points == 0.5 else "loss"] += 1
            pair.append(points)
            score = game.score() or (0, 0)
            print(
                f"  pair {i} tuned {'south' if tuned_side == 0 else 'north'}: {score[0]}-{score[1]}"
            )
        scores.append(sum(pair) / 2)
    share, low, high = mean_interval(scores)
    print(
        f"tuned against baseline, {nodes} nodes a move, {2 * pairs} games: {share:.0%} "
        f"(95% interval {low:.0%}-{high:.0%}), {tally['win']}-{tally['draw']}-{tally['loss']}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=47)
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "engine/data/togyz_eval.json")
    parser.add_argument(
        "--data",
        type=pathlib.Path,
        default=None,
        help="keep the self-play data in this .npz, and read it from there next time "
        "(outside the repository: to refit without playing again)",
    )
    parser.add_argument("--compare", type=int, default=0, help="paired openings (0: none)")
    parser.add_argument("--compare-nodes", type=int, default=200_000)
    parser.add_argument(
        "--weights", default=None, help="compare these (comma-separated) instead of training"
    )
    args = parser.parse_args()
    if args.weights:
        weights = tuple(int(v) for v in args.weights.split(","))
    else:
        if args.data and args.data.exists():
            saved = np.load(args.data)
            boards, movers, results = saved["boards"], saved["movers"], saved["results"]
            print(f"self-play data read from {args.data} (made with the same arguments?)")
        else:
            print(f"self-play: {args.games} games at {args.nodes} nodes a move, seed {args.seed}")
            boards, movers, results = generate(args.games, args.nodes, args.seed)
            if args.data:
                np.savez_compressed(args.data, boards=boards, movers=movers, results=results)
        features = np.zeros((len(boards), len(FEATURES)), np.int64)
        _features(encode(RULES).rules, boards, movers, features)  # weights do not count here
        n2 = 2 * RULES.pits
        margins = (
            boards[np.arange(len(boards)), n2 + movers]
            - boards[np.arange(len(boards)), n2 + 1 - movers]
        )
        k, weights, before, after = fit(margins, features, results)
        print(f"K {k:.2f}; squared error {before:.5f} (baseline) -> {after:.5f} (tuned)")
        print("weights: " + ", ".join(f"{n} {w}" for n, w in zip(FEATURES, weights, strict=True)))
        record = {
            "weights": dict(zip(FEATURES, weights, strict=True)),
            "units": f"1/{1 << WEIGHT_SHIFT} of a search unit ({SCALE} a stone)",
            "K": round(k, 3),
            "squared_error": {"baseline": round(before, 5), "tuned": round(after, 5)},
            "data": {
                "games": args.games,
                "nodes_a_move": args.nodes,
                "seed": args.seed,
                "positions": int(len(boards)),
                "results_for_the_mover": {
                    "win": int((results == 1).sum()),
                    "draw": int((results == 0.5).sum()),
                    "loss": int((results == 0).sum()),
                },
            },
            "command": (
                f"python bench/train_togyz.py --games {args.games} --nodes {args.nodes} "
                f"--seed {args.seed}"
            ),
        }
        args.out.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.out}")
    if args.compare:
        compare(weights, args.compare, args.compare_nodes, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
