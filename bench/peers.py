"""The project's levels against an independent program: OpenSpiel's MCTS bot.

    pip install open_spiel          # not a project dependency: only this script needs it
    python bench/peers.py [--rules kalah:capture_needs_opposite=yes oware] [--openings 10]
                          [--level expert] [--seconds 1] [--simulations auto] [--balanced SEEDS]

OpenSpiel's ``mancala`` is Kalah(6,4) with the standard capture (an empty pit facing an empty
pit takes nothing), our ``kalah:capture_needs_opposite=yes``; its ``oware`` is our ``oware``
(Abapa). Both programs keep their own board: after every move the script compares them and
stops the game with an error if they differ, so a rules mismatch cannot pass for a result.

Each opening (two random plies from a seeded generator) is played twice, sides swapped.
Most Kalah openings are won for one side with good play, and then both programs win that side:
``--balanced SEEDS`` keeps only openings that a search to depth 18 values within SEEDS of even.
The MCTS bot searches a fixed number of simulations per move (random rollouts, UCT c=2,
solving proven subtrees); ``--simulations auto`` picks the count it reaches in ``--seconds``
from the start, measured here, so both sides think for about as long. Points: 1 a win, 1/2 a
draw, for our level; the interval is 95% over the openings' pair scores (t distribution).
OpenSpiel's oware ends a game that runs past its move limit; so does our referee at MAX_PLIES,
scoring it as the rules' agreed end.
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from bench.intervals import mean_interval  # noqa: E402
from engine import Game, Ruleset  # noqa: E402
from engine.ai import choose_move, warm_up  # noqa: E402
from engine.ai.search import iterate  # noqa: E402

PEER_GAMES = {"kalah:capture_needs_opposite=yes": "mancala", "oware": "oware"}
MAX_PLIES = 1000


class Peer:
    """An OpenSpiel game and MCTS bot, with the mapping between its boards and actions and
    ours (South is OpenSpiel's player 0)."""

    def __init__(self, rules: Ruleset, simulations: int, seed: int):
        import pyspiel

        self.pyspiel = pyspiel
        self.rules = rules
        self.kind = PEER_GAMES[str(rules)]
        self.game = pyspiel.load_game(self.kind)
        self.state = self.game.new_initial_state()
        self.bot = pyspiel.MCTSBot(
            self.game,
            pyspiel.RandomRolloutEvaluator(1, seed),
            2.0,
            simulations,
            1000,
            True,
            seed,
            False,
        )

    def action(self, pit: int) -> int:
        n = self.rules.pits
        if self.kind == "mancala":  # 1..6 South's pits, 7 its store, 8..13 North's, 0 North's
            return pit + 1 if pit < n else pit + 2
        return pit if pit < n else pit - n  # oware: the mover's houses 0..5

    def pit(self, action: int, mover: int) -> int:
        n = self.rules.pits
        if self.kind == "mancala":
            return action - 1 if action <= n else action - 2
        return action + mover * n

    def board(self) -> tuple[int, ...]:
        """OpenSpiel's board in our layout: pits A-F, a-f, South's store, North's."""
        obs = self.state.observation_tensor(0)
        if self.kind == "mancala":
            cells = [round(x) for x in obs[:14]]  # then the player to move, one-hot
            return tuple(cells[1:7] + cells[8:14] + [cells[7], cells[0]])
        total = self.rules.total_seeds
        cells = [round(x * total) for x in obs]
        return tuple(cells[:12] + cells[12:14])

    def play(self, pit: int) -> None:
        self.state.apply_action(self.action(pit))

    def choose(self) -> int:
        return self.bot.step(self.state)


def calibrate(rules: Ruleset, seconds: float) -> int:
    """The simulations OpenSpiel's MCTS runs in about ``seconds`` from the start position."""
    simulations = 1000
    while True:
        peer = Peer(rules, simulations, 1)
        started = time.perf_counter()
        peer.choose()
        spent = time.perf_counter() - started
        if spent > seconds / 4 or simulations > 10_000_000:
            return max(100, int(simulations * seconds / spent))
        simulations *= 4


def openings(rules: Ruleset, count: int, balanced: float | None = None) -> list[list[str]]:
    """``count`` different openings of two random plies (seeded): a repeated one would count
    its games twice. ``balanced``: only openings that a search to depth BALANCED_DEPTH values
    within that many seeds of even, so that the opening does not decide the game."""
    found: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    index = stale = 0
    while len(found) < count:
        if stale > 5000:  # every opening there is has been drawn many times over
            raise SystemExit(
                f"only {len(found)} openings of {rules} are within {balanced} "
                f"seeds of even: ask for fewer, or a wider --balanced"
            )
        rng = random.Random(f"peers/{rules}/{index}")
        index += 1
        game = Game(rules)
        for _ in range(2):
            game.play(rng.choice(game.position.legal_moves()))
        if tuple(game.moves) in seen:
            stale += 1
            continue
        seen.add(tuple(game.moves))
        stale = 0
        if balanced is not None and not game.is_over():
            estimate = iterate(game.position, BALANCED_DEPTH, tt_bits=22).value
            if abs(estimate) > balanced:
                continue
        found.append(list(game.moves))
    return found


BALANCED_DEPTH = 18


def play_table(rules: Ruleset):
    """The endgame table our levels read for ``rules``, as the bot has it (built into the
    tables directory the first time), or None."""
    from bot.config import tables_dir
    from engine.ai.search import play_table_seeds
    from storage.tables import endgame_table

    seeds = play_table_seeds(rules)
    if not seeds:
        return None
    print(f"reading or building the {rules} endgame table ({seeds} seeds)...", flush=True)
    return seeds, endgame_table(rules, seeds, tables_dir()).table


def play(
    rules: Ruleset,
    moves: list[str],
    ours_south: bool,
    level: str,
    seconds: float,
    simulations: int,
    seed: int,
    endgame=None,
) -> tuple[float, int, float]:
    """One game; returns (our points, plies, our mean seconds a move)."""
    game = Game(rules)
    peer = Peer(rules, simulations, seed)
    ours = 0 if ours_south else 1
    spent, count = 0.0, 0
    for move in moves:
        pit, _ = game.position.parse_move(move)
        game.play(move)
        peer.play(pit)
    while not game.is_over() and not peer.state.is_terminal():
        if len(game.moves) >= MAX_PLIES:
            game.agree_end()
            break
        mover = game.position.mover
        if mover == ours:
            chosen = choose_move(
                game.position, level, time_limit=seconds, seed=seed, endgame=endgame
            )
            spent += chosen.seconds
            count += 1
            pit, _ = game.position.parse_move(chosen.move)
            game.play(chosen.move)
        else:
            pit = peer.pit(peer.choose(), mover)
            game.play(_name(game, pit))
        peer.play(pit)
        both_on = not game.is_over() and not peer.state.is_terminal()
        if both_on and peer.board() != game.position.board:
            raise SystemExit(
                f"boards differ after {' '.join(game.moves)}: ours "
                f"{game.position.board}, OpenSpiel's {peer.board()}"
            )
    if game.is_over() != peer.state.is_terminal() and len(game.moves) < MAX_PLIES:
        raise SystemExit(
            f"one program ended the game and the other did not after {' '.join(game.moves)}"
        )
    winner = game.winner()
    if peer.state.is_terminal():
        theirs = peer.state.returns()
        expected = (
            "south" if theirs[0] > theirs[1] else "north" if theirs[1] > theirs[0] else "draw"
        )
        if expected != winner:
            raise SystemExit(
                f"the programs disagree on the result after {' '.join(game.moves)}:"
                f" ours {winner}, OpenSpiel's {expected}"
            )
    side = "south" if ours_south else "north"
    points = 1.0 if winner == side else 0.5 if winner == "draw" else 0.0
    return points, len(game.moves), spent / max(count, 1)


def _name(game: Game, pit: int) -> str:
    for move in game.position.legal_moves():
        if game.position.parse_move(move)[0] == pit:
            return move
    raise SystemExit(f"OpenSpiel played pit {pit}, not legal for us in {game.position.board}")


def main() -> None:
    parser = argparse.ArgumentParser(description="levels against OpenSpiel's MCTS")
    parser.add_argument("--rules", nargs="+", default=list(PEER_GAMES))
    parser.add_argument("--openings", type=int, default=10)
    parser.add_argument("--level", default="expert")
    parser.add_argument("--seconds", type=float, default=1.0, help="our time per move")
    parser.add_argument("--simulations", default="auto")
    parser.add_argument(
        "--balanced",
        type=float,
        default=None,
        metavar="SEEDS",
        help="only openings a deep search values within SEEDS of even",
    )
    parser.add_argument(
        "--no-table",
        action="store_true",
        help="our levels play without their endgame table (wari, oware)",
    )
    args = parser.parse_args()
    warm_up()
    for text in args.rules:
        rules = Ruleset.parse(text)
        simulations = (
            calibrate(rules, args.seconds) if args.simulations == "auto" else int(args.simulations)
        )
        endgame = None if args.no_table else play_table(rules)
        pairs = []
        plies, times = [], []
        started = time.perf_counter()
        for i, moves in enumerate(openings(rules, args.openings, args.balanced)):
            pair = []
            for ours_south in (True, False):
                points, length, mean = play(
                    rules,
                    moves,
                    ours_south,
                    args.level,
                    args.seconds,
                    simulations,
                    1000 + i,
                    endgame,
                )
                pair.append(points)
                plies.append(length)
                times.append(mean)
                print(
                    f"{rules} {' '.join(moves)} ours={'S' if ours_south else 'N'} "
                    f"points={points} plies={length}",
                    flush=True,
                )
            pairs.append(sum(pair) / 2)
        mean, low, high = mean_interval(pairs)
        print(
            f"\n{rules}: {args.level} against MCTS ({simulations} simulations a move): "
            f"{mean:.0%} of the points, 95% interval {low:.0%}-{high:.0%}, "
            f"{2 * len(pairs)} games, "
            f"{statistics.mean(times):.2f} s a move for ours, "
            f"{statistics.median(plies)} plies median, {time.perf_counter() - started:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
