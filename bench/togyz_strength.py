"""Togyz Kumalak: the expert against the hard level and an independent engine, paired.

Issue 35's goal: the expert at 1 s a move scores at least 80% against both, on paired openings.

    .venv/bin/python bench/togyz_strength.py [--opponent hard toguzcpp] [--games 4]
        [--seconds 1] [--opponent-seconds S] [--seed 35] [--engine PATH] [--moves]

Openings: ``--games / 2`` different random sequences of 2 to 4 legal plies drawn from
``--seed``; each is played twice, the expert taking South once and North once, against each
``--opponent`` in turn (the same openings for every opponent). Points are the expert's (win 1,
draw 1/2), with a 95% interval over the pairs (bench/intervals.py). A game still going after
``bench/match.py``'s MAX_PLIES plies is ended by agreement.

Time: the expert plays with ``--seconds`` as its time limit (``choose_move``'s
``time_limit``). Both levels search through the compiled kernel (warmed before the first
game, so no move waits on the compiler); the medians of the seconds each side really spent
are printed. ``hard`` plays with its own budget as the
bot does unless ``--opponent-seconds`` is given; the engine gets ``--opponent-seconds``
(default: ``--seconds``).

The independent engine, ``toguzcpp``: the search of Haller125/toguzcpp (C++: iterative
deepening alpha-beta, transposition table and killer moves, the kazans' margin as its
evaluation), which the project does not ship. Our adapter program (bench/toguzcpp_adapter.cpp),
which ``bench/build_toguzcpp.py --source DIR`` compiles with toguzcpp's source and its
overflow fixed, given by ``--engine PATH`` or ``$TOGYZ_ENGINE``, runs it over stdin/stdout,
one line a request and a line a reply:

    new                                   -> ok    (a fresh table: sent before each game)
    go MS PLAYER C0..C17 T0 T1 K0 K1      -> bestmove CELL depth D score S ms T
    apply CELL PLAYER C0..C17 T0 T1 K0 K1 -> position C0..C17 T0 T1 K0 K1

Cells 0-8 are South's pits A-I, 9-17 North's a-i (the engine's board indices); T0 and T1 each
side's tuzdyk as a cell index (18: none; a tuzdyk cell holds 0); K0 and K1 the kazans; PLAYER 0
South, 1 North; MS the time limit in milliseconds; D the deepest iteration the search
finished. ``apply`` plays a move by the program's own rules.

Rules check: the engine's move must be legal by our rules, and before every move
of the game (either side's) the program plays it by its own rules; its pits, tuzdyks and
kazans must be ours after it (at the end of a game, each side's kazan plus the stones left in
its row: the stones left go to whoever's row holds them, a sweep the program leaves to its
caller). Each disagreement is printed; the exit status is 1 if there was any.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pathlib
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from bench.intervals import mean_interval  # noqa: E402
from bench.match import MAX_PLIES  # noqa: E402
from engine import Game, Position  # noqa: E402
from engine.ai import SEARCH_LEVELS, choose_move, warm_up  # noqa: E402

RULES = "togyz-kumalak"
ENGINE = "toguzcpp"
NONE = 18  # the program's "no tuzdyk"


def openings(count: int, seed: int) -> list[list[str]]:
    """``count`` different openings of 2 to 4 random legal plies, drawn from ``seed``."""
    found: list[list[str]] = []
    index = 0
    while len(found) < count:
        rng = random.Random(f"{RULES}/{seed}/{index}")
        index += 1
        game = Game(RULES)
        for _ in range(rng.randint(2, 4)):
            game.play(rng.choice(game.position.legal_moves()))
        if not game.is_over() and game.moves not in found:
            found.append(game.moves)
    return found


def fields(position: Position) -> list[int]:
    """The program's position: the 18 cells, the two tuzdyks and the two kazans."""
    board = position.board
    return [
        *board[:18],
        *(NONE if pit is None else pit for pit in position.tuzdyks),
        board[18],
        board[19],
    ]


def settled(values: list[int]) -> list[int]:
    """The end of a game as both count it: the tuzdyks, and each side's kazan plus its row."""
    return [*values[18:20], values[20] + sum(values[:9]), values[21] + sum(values[9:18])]


class Program:
    """The engine's adapter, one process for the whole run (``new`` clears its table)."""

    def __init__(self, path: str) -> None:
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ask(self, line: str) -> list[str]:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        reply = self.process.stdout.readline().split()
        if not reply or reply[0] == "error":
            raise RuntimeError(f"the engine answered {reply!r} to {line!r}")
        return reply

    def new_game(self) -> None:
        self.ask("new")

    def think(self, position: Position, seconds: float) -> tuple[int, int, float]:
        """(cell, depth finished, seconds the program says it spent)."""
        state = " ".join(map(str, fields(position)))
        reply = self.ask(f"go {round(seconds * 1000)} {position.mover} {state}")
        return int(reply[1]), int(reply[3]), float(reply[7]) / 1000

    def apply(self, position: Position, cell: int) -> list[int]:
        state = " ".join(map(str, fields(position)))
        return [int(v) for v in self.ask(f"apply {cell} {position.mover} {state}")[1:]]

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, BrokenPipeError, ValueError):
            self.ask("quit")
        self.process.kill()
        self.process.wait()


@dataclass
class Side:
    """What one player did over the games: seconds, depths and nodes of its searched moves."""

    seconds: list[float] = field(default_factory=list)
    depths: list[int] = field(default_factory=list)
    nodes: int = 0
    node_seconds: float = 0.0  # the seconds of the moves whose nodes are counted

    def line(self, name: str) -> str:
        text = (
            f"{name}: median {statistics.median(self.seconds):.3f} s a move "
            f"(mean {statistics.mean(self.seconds):.3f}, {len(self.seconds)} moves), "
            f"median depth {statistics.median(self.depths):g} "
            f"(range {min(self.depths)}-{max(self.depths)})"
        )
        if self.node_seconds:
            text += f", {self.nodes / self.node_seconds:,.0f} nodes/s"
        return text


def cell_move(position: Position, cell: int) -> str | None:
    """Our name of the move that sows the program's ``cell``, None if it is not legal here."""
    for move in position.legal_moves():
        if position.parse_move(move)[0] == cell:
            return move
    return None


def play_game(
    moves: list[str],
    expert_south: bool,
    opponent: str,
    args: argparse.Namespace,
    program: Program | None,
    problems: list[str],
) -> tuple[Game, Side, Side]:
    """One game from the opening ``moves``; the expert's and the opponent's figures."""
    game = Game.from_moves(RULES, moves)
    ours, theirs = Side(), Side()
    if program is not None:
        program.new_game()
    while not game.is_over():
        if len(game.moves) >= MAX_PLIES:
            game.agree_end()
            break
        position = game.position
        searched = len(position.legal_moves()) > 1  # else every player moves at once
        seed = args.seed + len(game.moves)
        if (position.mover == 0) == expert_south:
            chosen = choose_move(position, "expert", time_limit=args.seconds, seed=seed)
            move, side = chosen.move, ours
        elif program is None:
            chosen = choose_move(position, opponent, time_limit=args.opponent_seconds, seed=seed)
            move, side = chosen.move, theirs
        elif not searched:  # the only move: no need to ask
            move, chosen = position.legal_moves()[0], None
        else:
            started = time.perf_counter()
            cell, depth, _ = program.think(position, args.opponent_seconds or args.seconds)
            spent = time.perf_counter() - started
            found = cell_move(position, cell)
            if found is None:
                raise RuntimeError(
                    f"after {' '.join(game.moves)}: the engine played cell {cell}, "
                    f"not a legal move here ({', '.join(position.legal_moves())})"
                )
            move, chosen = found, None
            theirs.seconds.append(spent)
            theirs.depths.append(depth)
        if chosen is not None and searched:
            side.seconds.append(chosen.seconds)
            side.depths.append(chosen.depth)
            side.nodes += chosen.nodes
            side.node_seconds += chosen.seconds
        if program is not None:
            check(program, game, move, problems)
        game.play(move)
    return game, ours, theirs


def check(program: Program, game: Game, move: str, problems: list[str]) -> None:
    """The program plays ``move`` by its own rules: the same position as ours after it?"""
    position = game.position
    after = position.play(move)
    theirs = program.apply(position, position.parse_move(move)[0])
    mine = fields(after)
    if after.is_over():  # the stones left go to their row's owner: a sweep the program lacks
        theirs, mine = settled(theirs), settled(mine)
    if theirs != mine:
        problems.append(
            f"after {' '.join([*game.moves, move])}: the engine has {theirs}, we have {mine}"
        )


def run(
    opponent: str,
    chosen: list[list[str]],
    args: argparse.Namespace,
    program: Program | None,
    problems: list[str],
) -> None:
    started = time.perf_counter()
    pairs: list[float] = []
    results = {"win": 0, "draw": 0, "loss": 0}
    ours, theirs = Side(), Side()
    plies = []
    for moves in chosen:
        pair = []
        for expert_south in (True, False):
            t0 = time.perf_counter()
            game, mine, other = play_game(moves, expert_south, opponent, args, program, problems)
            for total, part in ((ours, mine), (theirs, other)):
                total.seconds += part.seconds
                total.depths += part.depths
                total.nodes += part.nodes
                total.node_seconds += part.node_seconds
            side = "south" if expert_south else "north"
            winner = game.winner()
            result = "win" if winner == side else "draw" if winner == "draw" else "loss"
            results[result] += 1
            pair.append({"win": 1.0, "draw": 0.5, "loss": 0.0}[result])
            plies.append(len(game.moves))
            score = game.score() or (0, 0)
            print(
                f"{' '.join(moves):8} expert {side:5} {score[0]:3}-{score[1]:<3} "
                f"{result:4} {len(game.moves):3} plies ({time.perf_counter() - t0:.0f} s)",
                flush=True,
            )
            if args.moves:
                print(f"  moves: {' '.join(game.moves)}", flush=True)
        pairs.append(sum(pair) / 2)
    share, low, high = mean_interval(pairs)
    budget = (
        f"{args.opponent_seconds:g} s a move"
        if args.opponent_seconds
        else (
            f"its own budget ({SEARCH_LEVELS['hard'].seconds:g} s)"
            if program is None
            else f"{args.seconds:g} s a move"
        )
    )
    print(
        f"\nexpert at {args.seconds:g} s a move against {opponent} at {budget}: "
        f"{2 * len(pairs)} games on {len(pairs)} paired openings "
        f"({time.perf_counter() - started:.0f} s, {statistics.mean(plies):.0f} plies a game)\n"
        f"  score {share:.0%} of the points, 95% interval {low:.0%}-{high:.0%}; expert "
        f"{results['win']} wins, {results['draw']} draws, {results['loss']} losses"
    )
    print("  " + ours.line("expert"))
    print("  " + theirs.line(opponent) + "\n", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--opponent",
        nargs="+",
        default=None,
        help=f"hard (or another level), {ENGINE}, or several, played one after the other "
        f"(default: hard, and {ENGINE} if its program is given)",
    )
    parser.add_argument(
        "--games", type=int, default=4, help="games against each opponent (pairs: half)"
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="the expert's time limit")
    parser.add_argument(
        "--opponent-seconds",
        type=float,
        default=None,
        help="the opponent's time limit (default: a level's own budget, the engine --seconds)",
    )
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument(
        "--engine",
        default=os.environ.get("TOGYZ_ENGINE"),
        help=f"{ENGINE}'s adapter program (default: $TOGYZ_ENGINE)",
    )
    parser.add_argument("--moves", action="store_true", help="print each game's moves")
    args = parser.parse_args()
    if args.opponent is None:
        args.opponent = ["hard", ENGINE] if args.engine else ["hard"]
    for opponent in args.opponent:
        if opponent != ENGINE and opponent not in SEARCH_LEVELS:
            parser.error(f"unknown opponent {opponent}: a search level or {ENGINE}")
        if opponent == ENGINE and not args.engine:
            parser.error(f"{ENGINE} needs --engine PATH (or $TOGYZ_ENGINE)")
    pairs = max(1, (args.games + 1) // 2)
    print(
        f"togyz_strength: --opponent {' '.join(args.opponent)} --games {2 * pairs} "
        f"--seconds {args.seconds:g}"
        + (f" --opponent-seconds {args.opponent_seconds:g}" if args.opponent_seconds else "")
        + f" --seed {args.seed}"
        + (f" --engine {args.engine}" if ENGINE in args.opponent else ""),
        flush=True,
    )
    warm_up()  # compile (or load) the kernel before any move is timed
    chosen = openings(pairs, args.seed)
    problems: list[str] = []
    for opponent in args.opponent:
        program = Program(args.engine) if opponent == ENGINE else None
        try:
            run(opponent, chosen, args, program, problems)
        finally:
            if program is not None:
                program.close()
    if ENGINE in args.opponent:
        print(f"rules check against {ENGINE}: {len(problems)} disagreements")
        for problem in problems[:10]:
            print("  " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
