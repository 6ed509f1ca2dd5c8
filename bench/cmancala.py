"""The expert against CMancala (LifesLight/CMancala, a C alpha-beta program) at equal time per
move, on paired openings of Kalah(6,4) with the standard capture (CMancala's "classic" mode,
our ``kalah:capture_needs_opposite=yes``).

    .venv/bin/python bench/cmancala.py --binary PATH/TO/Mancala [--openings 20] [--seconds 1]
        [--solve] [--moves]
    .venv/bin/python bench/cmancala.py --binary PATH/TO/Mancala --speed [--runs 5]

CMancala is not a dependency. To build it (its own CMake flags, -O3 -march=native):

    fetch github:LifesLight/CMancala, then: cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
    && cmake --build build   (the program is build/Mancala)

How a game is played: CMancala runs in its own text interface, one process per game (a fresh
cache of 2**22 entries, the expert's table size), with the opening book off and a time limit.
Its side is an AI player, ours a "human" player whose moves we type, so both programs sow
every move. After every move the script compares CMancala's board (its ``encode``) with the
engine's, and at the end CMancala's announced score with the engine's; any difference stops
the run.

Equal time: CMancala checks its limit only between iterations, so it overruns it; the
expert's limit is hard, and it moves at once where its result is proved. So the expert's
limit for each move keeps its total time in the game equal to CMancala's mean per move (as
CMancala reports it, ``last``) times the moves made (``fair_limit``). The script prints both
programs' mean seconds per move.

``--solve`` solves each opening first (``mancala solve``'s endgame table; about a minute an
opening) and reports the points each program dropped against perfect play, which scores 50%
on paired openings: above 50% needs the other program's mistakes.

``--speed`` compares the two searches instead, from the start in one run: nodes and seconds
to depth 18 (each program with a fresh table of 2**22 entries), and nodes per second in a
search of ``--seconds``; medians of ``--runs``, and our figure as a ratio to CMancala's.

Each opening (two random plies, as in bench/match.py) is played twice, sides swapped. Points
are the expert's (win 1, draw 1/2), with a 95% interval over the openings
(bench/intervals.py).
"""

from __future__ import annotations

import argparse
import contextlib
import pathlib
import re
import statistics
import subprocess
import sys
import time

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine


from bench.intervals import mean_interval  # noqa: E402
from bench.match import openings  # noqa: E402
from engine import Game, Position, Ruleset  # noqa: E402
from engine.ai import choose_move, warm_up  # noqa: E402
from engine.ai.search import iterate  # noqa: E402

RULES = "kalah:capture_needs_opposite=yes"
CODE = re.compile(r'Code "([0-9a-f]+)"')
MOVE = re.compile(r"Move: (\d)")
SPENT = re.compile(r"Total time:\s+([0-9.eE+-]+) seconds")
NODES = re.compile(r"Total nodes:\s+([0-9.]+) million")
DEPTH = re.compile(r"Depth:\s+(\d+)")
RESULT = re.compile(r"(Player \d wins|Draw), score: (\d+) - (\d+)")


def cmancala_code(position: Position) -> str:
    """CMancala's board code: cells (South's pits, South's store, North's pits, North's
    store) in 8 bits each above a bit for South to move, in hex without five leading zeros."""
    board = position.board
    cells = list(board[0:6]) + [board[12]] + list(board[6:12]) + [board[13]]
    value = 1 if position.mover == 0 else 0
    for i, seeds in enumerate(cells):
        value |= seeds << (1 + 8 * i)
    return f"{value:032x}"[5:]


class CMancala:
    """One CMancala process in its text interface, driven line by line."""

    def __init__(self, binary: str, seconds: float, south_is_cmancala: bool, depth: int = 0):
        self.process = subprocess.Popen(
            ["stdbuf", "-oL", binary],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.result: re.Match | None = None  # the end of the game, once announced
        players = ("ai", "human") if south_is_cmancala else ("human", "ai")
        for command in (
            "book false",
            "cache 22",
            f"time {seconds:g}",
            f"depth {depth}",
            "progress false",
            f"player 1 {players[0]}",
            f"player 2 {players[1]}",
            "autoplay false",
            "start",
        ):
            self._send(command)

    def _send(self, command: str) -> None:
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def _read_until(self, *patterns: re.Pattern) -> list[re.Match | None]:
        """Read output until the last pattern matches; the last match of each pattern."""
        found: list[re.Match | None] = [None] * len(patterns)
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("CMancala stopped")
            for i, pattern in enumerate(patterns):
                match = pattern.search(line)
                if match:
                    found[i] = match
            self.result = RESULT.search(line) or self.result
            if found[-1] is not None:
                return found

    def load(self, position: Position) -> None:
        self._send(f"load {cmancala_code(position)}")
        self._send("encode")
        (code,) = self._read_until(CODE)
        if code.group(1) != cmancala_code(position):
            raise RuntimeError(f"CMancala loaded {code.group(1)}, not {cmancala_code(position)}")

    def think(self) -> tuple[int, float]:
        """Let CMancala's AI move: (the pit it played, 1-6 from its left, seconds spent)."""
        move, spent, _, _ = self.think_measured()
        return move, spent

    def think_measured(self) -> tuple[int, float, float, int]:
        """``think``, with the nodes it searched and the depth it reached."""
        self._send("step")
        self._send("last")
        move, depth, nodes, spent = self._read_until(MOVE, DEPTH, NODES, SPENT)
        return (
            int(move.group(1)),
            float(spent.group(1)),
            float(nodes.group(1)) * 1e6,
            int(depth.group(1)),
        )

    def play(self, pit: int) -> None:
        """Play our move, pit 1-6 counted as CMancala counts the mover's pits."""
        self._send("step")
        self._send(str(pit))

    def board_code(self) -> str:
        self._send("encode")
        (code,) = self._read_until(CODE)
        return code.group(1)

    def final_score(self) -> tuple[int, int]:
        """(South, North) as CMancala announces them at the end of the game."""
        result = self.result or self._read_until(RESULT)[0]
        return int(result.group(2)), int(result.group(3))  # player 1 is South

    def close(self) -> None:
        with contextlib.suppress(BrokenPipeError):
            self._send("quit")
        self.process.kill()
        self.process.wait()


def pit_number(position: Position, move: str) -> int:
    """A move as CMancala numbers it: 1-6 from the pit farthest from the mover's store."""
    pit, _ = position.parse_move(move)
    return pit + 1 if position.mover == 0 else 12 - pit


def move_of(position: Position, number: int) -> str:
    for move in position.legal_moves():
        if pit_number(position, move) == number:
            return move
    raise RuntimeError(f"CMancala played pit {number}, which is not a legal move here")


def fair_limit(ours: list[float], theirs: list[float], seconds: float) -> float:
    """The expert's time limit for its next move: what keeps its total time equal to
    CMancala's mean per move times the moves made, within half to three times that mean.
    (The expert stops before its limit, CMancala after it: equal limits are not equal time.)"""
    mean = statistics.mean(theirs) if theirs else seconds
    return min(max(mean * (len(ours) + 1) - sum(ours), 0.5 * mean), 3 * mean)


def play_game(
    binary: str, moves: list[str], cmancala_south: bool, seconds: float, level: str
) -> tuple[str, tuple[int, int], list[float], list[float], list[str]]:
    """One game: (winner, score, expert's seconds per move, CMancala's, all its moves)."""
    rules = Ruleset.parse(RULES)
    game = Game.from_moves(rules, moves)
    engine = CMancala(binary, seconds, cmancala_south)
    ours: list[float] = []
    theirs: list[float] = []
    try:
        engine.load(game.position)
        while not game.is_over():
            position = game.position
            if (position.mover == 0) == cmancala_south:
                number, spent = engine.think()
                theirs.append(spent)
                move = move_of(position, number)
            else:
                limit = fair_limit(ours, theirs, seconds)
                chosen = choose_move(position, level, time_limit=limit)
                ours.append(chosen.seconds)
                move = chosen.move
                engine.play(pit_number(position, move))
            game.play(move)
            if game.is_over():
                announced = engine.final_score()
                if announced != game.score():
                    raise RuntimeError(
                        f"after {' '.join(game.moves)}: CMancala scores "
                        f"{announced}, the engine {game.score()}"
                    )
            elif engine.board_code() != cmancala_code(game.position):
                raise RuntimeError(f"boards differ after {' '.join(game.moves)}")
    finally:
        engine.close()
    return game.winner(), game.score(), ours, theirs, game.moves


def proved_values(openings: list[list[str]]) -> list[int]:
    """Each opening's value for South with perfect play (seed margin): from the opening book
    where it holds the opening, else by the solver with the endgame table ``mancala solve``
    reads (from the tables directory, built there if need be)."""
    from bot.commands.ai import choose_table_seeds
    from bot.config import tables_dir
    from engine.ai.book import lookup
    from engine.ai.search import default_tt_bits, solve
    from storage.tables import endgame_table

    rules = Ruleset.parse(RULES)
    seeds = choose_table_seeds(rules)
    print(f"solving the {len(openings)} openings (endgame table of {seeds} seeds)...", flush=True)
    table = None  # read (or built) for the first opening the book does not hold
    values = []
    for moves in openings:
        position = Game.from_moves(rules, moves).position
        entry = lookup(position)
        if entry is not None:  # the opening book proved it when it was built
            values.append(entry.value if position.mover == 0 else -entry.value)
            print(f"  {' '.join(moves):5} {values[-1]:+d} for South (the opening book)")
            continue
        if table is None:
            table = endgame_table(rules, seeds, tables_dir()).table
        result = solve(
            position, tt_bits=default_tt_bits(rules), endgame_seeds=seeds, endgame_table=table
        )
        if not result.complete:  # no node limit: only a line past MAX_PLY could stop it
            raise RuntimeError(f"the solve of {' '.join(moves)} did not finish")
        value = round(result.value)  # proven: a whole number of seeds
        values.append(value if position.mover == 0 else -value)
        print(
            f"  {' '.join(moves):5} {values[-1]:+d} for South ({result.seconds:.0f} s)", flush=True
        )
    return values


def perfect_points(value_for_south: int, expert_south: bool) -> float:
    """The expert's points if both sides played perfectly from an opening of that value."""
    value = value_for_south if expert_south else -value_for_south
    return 1.0 if value > 0 else 0.5 if value == 0 else 0.0


def speed(binary: str, runs: int, seconds: float) -> None:
    """Nodes and seconds to depth 18 from the start, and nodes/s in ``seconds``, both programs."""
    start = Position.initial(Ruleset.parse(RULES))
    rows: dict[str, list[tuple[float, float, int]]] = {}  # (nodes, seconds, depth)
    for _ in range(runs):
        for name, depth, limit in (("to depth 18", 18, 0), (f"in {seconds:g} s", 0, seconds)):
            # CMancala: one fresh process per search, South to move from the start.
            engine = CMancala(binary, limit, True, depth)
            try:
                engine.load(start)
                _, spent, nodes, reached = engine.think_measured()
            finally:
                engine.close()
            rows.setdefault(f"CMancala {name}", []).append((nodes, spent, reached))
            ours = iterate(
                start,
                depth or 64,
                tt_bits=22,
                time_limit=None if depth else seconds,
                whole_time=not depth,
            )
            rows.setdefault(f"project {name}", []).append((ours.nodes, ours.seconds, ours.depth))
    print(f"{RULES} from the start, median of {runs} runs (each search on a fresh table):")
    medians = {}
    for label, found in rows.items():
        nodes = statistics.median(n for n, _, _ in found)
        spent = statistics.median(t for _, t, _ in found)
        depth = statistics.median(d for _, _, d in found)
        medians[label] = (nodes, spent)
        print(
            f"  {label:22} {nodes / 1e6:6.2f} M nodes {spent:7.3f} s "
            f"{nodes / spent / 1e6:5.2f} M nodes/s, depth {depth:g}"
        )
    for name in ("to depth 18", f"in {seconds:g} s"):
        n_ours, t_ours = medians[f"project {name}"]
        n_theirs, t_theirs = medians[f"CMancala {name}"]
        print(
            f"  project/CMancala {name}: nodes {n_ours / n_theirs:.2f}x, "
            f"seconds {t_ours / t_theirs:.2f}x, nodes/s "
            f"{(n_ours / t_ours) / (n_theirs / t_theirs):.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="CMancala's program (build/Mancala)")
    parser.add_argument("--openings", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=1.0, help="CMancala's time limit per move")
    parser.add_argument("--level", default="expert")
    parser.add_argument(
        "--speed", action="store_true", help="compare the searches' speed instead of playing"
    )
    parser.add_argument("--runs", type=int, default=5, help="runs of --speed")
    parser.add_argument(
        "--moves",
        action="store_true",
        help="print each game's moves (to replay or solve a game's positions)",
    )
    parser.add_argument(
        "--solve",
        action="store_true",
        help="solve each opening first, and count the points each program "
        "dropped against perfect play",
    )
    args = parser.parse_args()
    warm_up()
    if args.speed:
        speed(args.binary, args.runs, args.seconds)
        return
    chosen = openings(str(Ruleset.parse(RULES)), args.openings)
    values = proved_values(chosen) if args.solve else None
    started = time.perf_counter()
    points, ours, theirs = [], [], []
    dropped = {"expert": 0.0, "CMancala": 0.0}  # points given away against perfect play
    for index, moves in enumerate(chosen):
        pair = []
        for cmancala_south in (False, True):
            winner, score, spent, spent_theirs, played = play_game(
                args.binary, moves, cmancala_south, args.seconds, args.level
            )
            ours += spent
            theirs += spent_theirs
            expert_side = "north" if cmancala_south else "south"
            pair.append(1.0 if winner == expert_side else 0.5 if winner == "draw" else 0.0)
            note = ""
            if values is not None:
                perfect = perfect_points(values[index], not cmancala_south)
                dropped["expert"] += max(perfect - pair[-1], 0.0)
                dropped["CMancala"] += max(pair[-1] - perfect, 0.0)
                note = f" (perfect play: {perfect:g})"
            print(
                f"{' '.join(moves):5} expert {expert_side:5} {score[0]:2}-{score[1]:<2} "
                f"{winner:5} expert {pair[-1]:g}{note}",
                flush=True,
            )
            if args.moves:
                print(f"  moves: {' '.join(played)}", flush=True)
        points.append(sum(pair) / 2)
    share, low, high = mean_interval(points)
    print(
        f"\n{args.level} against CMancala, {2 * len(points)} games on {len(points)} paired "
        f"openings ({time.perf_counter() - started:.0f} s): {share:.0%} of the points, "
        f"95% interval {low:.0%}-{high:.0%}"
    )
    print(
        f"mean seconds per move: {args.level} {statistics.mean(ours):.3f}, "
        f"CMancala {statistics.mean(theirs):.3f} (limit {args.seconds:g} s)"
    )
    if values is not None:
        print(
            f"against perfect play from these openings (which scores 50%): the expert "
            f"dropped {dropped['expert']:g} points, CMancala {dropped['CMancala']:g}"
        )


if __name__ == "__main__":
    main()
