"""The play tables of wari and oware: build time, size, and how many endgames they settle.

    python bench/tables.py [--rules wari oware] [--games 60] [--seeds N] [--runs 3]
                           [--play SECONDS]

First a baseline in the same run (3000 random games of Kalah(6,4) in pure Python, as
bench/solve_kalah.py). For each ruleset: the table's build time (median of ``--runs`` fresh
builds in this process, and as a ratio to the baseline) and bytes, then
endgame positions from games of the ``medium`` level against itself from random openings: the
first position of each game with at most the table's seeds left on the board. For each, what
the table gives: an exact value, a proven result only (win, draw or loss, from the bounds and
the stores, as hints give it), or nothing (an endless cycle decides, and which position comes
back matters: the search plays on).

With ``--play``, each endgame whose result the table proves is then played out by the expert
against itself at SECONDS a move, reading the table as games do, and the final result is
checked against the proved one.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

import numpy as np

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from bench.solve_kalah import baseline  # noqa: E402
from engine import Game, Ruleset  # noqa: E402
from engine.ai import choose_move, retrograde  # noqa: E402
from engine.ai.encoding import encode  # noqa: E402
from engine.ai.endgame import index  # noqa: E402
from engine.ai.search import play_table_seeds, result_from_bounds  # noqa: E402


def endgames(rules: Ruleset, seeds: int, games: int):
    for g in range(games):
        rng = random.Random(f"tables/{rules}/{g}")
        game = Game(rules)
        for _ in range(4):
            if not game.is_over():
                game.play(rng.choice(game.position.legal_moves()))
        while not game.is_over() and sum(game.position.pits) > seeds and len(game.moves) < 600:
            game.play(choose_move(game.position, "medium", seed=g).move)
        if not game.is_over() and sum(game.position.pits) <= seeds:
            yield game.position


def main() -> None:
    parser = argparse.ArgumentParser(description="play tables: build and coverage")
    parser.add_argument("--rules", nargs="+", default=["wari", "oware"])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seeds", type=int, default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--play",
        type=float,
        default=None,
        metavar="SECONDS",
        help="play out the proved endgames, expert against expert",
    )
    args = parser.parse_args()
    retrograde.build(encode(Ruleset.parse("wari:pits=2,seeds=1")), 2)  # compiled, not timed
    base = statistics.median(baseline() for _ in range(args.runs))
    print(f"baseline (3000 random games, pure Python): {base:.2f} s, median of {args.runs}")
    for text in args.rules:
        rules = Ruleset.parse(text)
        code = encode(rules)
        seeds = args.seeds or play_table_seeds(rules)
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            counts, values = retrograde.build(code, seeds)
            times.append(time.perf_counter() - started)
        built = statistics.median(times)
        per_store = retrograde.per_store(code)
        print(
            f"{rules}: {seeds} seeds, {values.nbytes / 1e6:.1f} MB, built in {built:.1f} s "
            f"(median of {args.runs}; {built / base:.0f}x the baseline) "
            f"({'exact values per store' if per_store else 'bounds'})",
            flush=True,
        )
        n = rules.pits
        exact = result = none = 0
        proved = []  # (position, its result for the player to move)
        for position in endgames(rules, seeds, args.games):
            if per_store:
                exact += 1
                continue
            board = np.array(position.board)
            i = index(counts, board, position.mover, n)
            found = result_from_bounds(position, (seeds, (counts, values)))
            if values[2 * i] == values[2 * i + 1]:
                exact += 1
            elif found is not None:
                result += 1  # what a hint then proves (engine.ai.hint)
            else:
                none += 1
            if found is not None:
                proved.append((position, found[0]))
        total = exact + result + none
        print(
            f"  {total} endgames from medium-vs-medium games: {exact} exact "
            f"({exact / max(total, 1):.0%}), {result} with the result proven "
            f"({result / max(total, 1):.0%}), {none} left to the search "
            f"({none / max(total, 1):.0%})",
            flush=True,
        )
        if args.play is not None:
            play_out(proved, (seeds, (counts, values)), args.play)


def play_out(proved: list, endgame: tuple, seconds: float) -> None:
    """Each proved endgame played to its end by the expert on both sides; how many ended with
    the result the table proved."""
    kept = moves = 0
    started = time.perf_counter()
    for position, result in proved:
        game = Game(position.rules, position)
        while not game.is_over() and len(game.moves) < 1000:
            game.play(
                choose_move(game.position, "expert", time_limit=seconds, endgame=endgame).move
            )
        moves += len(game.moves)
        mover = ("south", "north")[position.mover]
        winner = game.winner()
        ended = "draw" if winner == "draw" else "win" if winner == mover else "loss"
        kept += ended == result
        if ended != result:
            print(
                f"  {position.board} {mover} to move: proved {result}, ended {ended} "
                f"({game.outcome()})",
                flush=True,
            )
    print(
        f"  played out by the expert at {seconds:g} s a move: {kept} of {len(proved)} ended "
        f"with the proved result ({moves} moves, {time.perf_counter() - started:.0f} s)",
        flush=True,
    )


if __name__ == "__main__":
    main()
