"""Togyz Kumalak and Bestemshe: the engine against other implementations, move for move.

    .venv/bin/python bench/togyz_diff.py [--games 10000] [--seed 35] [--togyz-py PATH]

Plays seeded random games through the engine and, side by side, through the plain reference
of ``tests/engine/togyz_reference.py`` (Togyz Kumalak and Bestemshe) and, with ``--togyz-py``,
through an independent program: yernarsha/togyz_py's ``togboard.py`` (Togyz Kumalak only), by
the author of the 2019 computer world champion, which the project does not ship (it has no
licence; fetch it and give the file's path). At every ply the legal moves, after every move
the pits, kazans, tuzdyks, the player to move and the end, and at the end the winner, must be
the same. Prints a line per implementation and the first disagreements; exit status 1 if any.
"""

from __future__ import annotations

import argparse
import importlib.util
import pathlib
import sys
import time
from types import ModuleType

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from engine import Ruleset  # noqa: E402
from tests.engine.togyz_reference import Plain, Tally, compare  # noqa: E402


class TogPy:
    """yernarsha/togyz_py's board in the harness's terms. Its fields: 0-8 White's (South's)
    pits, 9-17 Black's, 18 and 19 each player's tuzdyk as a pit number 1-9 of the other's row
    (0: none), 20 and 21 the kazans, 22 the player to move. It adds the stones left to a kazan
    at the end without emptying the pits, so finished boards are compared on the kazans."""

    TUZDYK = -1

    def __init__(self, module: ModuleType) -> None:
        self.board = module.TogBoard()

    def moves(self) -> list[int]:
        if self.board.finished:
            return []
        color = self.board.fields[22]
        return [i for i in range(9) if self.board.fields[color * 9 + i] > 0]

    def play(self, number: int) -> None:
        self.board.makeMove(number + 1)

    def pits(self) -> list[int]:
        return [max(f, 0) for f in self.board.fields[:18]]

    def kazans(self) -> tuple[int, int]:
        return self.board.fields[20], self.board.fields[21]

    def tuzdyks(self) -> tuple[int | None, int | None]:
        south, north = self.board.fields[18], self.board.fields[19]
        return (south - 1 if south else None, north - 1 if north else None)

    def to_move(self) -> int:
        return self.board.fields[22]

    def over(self) -> bool:
        return self.board.finished

    def winner(self) -> str:
        return {1: "south", -1: "north", 0: "draw"}[self.board.gameResult]


def load(path: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location("togboard", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def report(what: str, tally: Tally, seconds: float) -> None:
    ends = ", ".join(f"{k} {v:,}" for k, v in sorted(tally.ends.items()))
    winners = ", ".join(f"{k} {v:,}" for k, v in sorted(tally.winners.items()))
    print(
        f"{what}: {tally.games:,} games, {tally.plies:,} plies, {tally.finished:,} played to "
        f"the end ({ends}; {winners}), {tally.tuzdyks:,} tuzdyks made: "
        f"{len(tally.divergences)} divergences ({seconds:.0f} s)"
    )
    for problem in tally.divergences[:5]:
        print("  " + problem)


def main() -> int:
    parser = argparse.ArgumentParser(description="Togyz Kumalak: engine vs other implementations")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--togyz-py", metavar="PATH", help="yernarsha/togyz_py's togboard.py")
    args = parser.parse_args()
    runs = [
        ("togyz-kumalak vs the plain reference", "togyz-kumalak", lambda: Plain(9, 9, True), True),
        ("bestemshe vs the plain reference", "bestemshe", lambda: Plain(5, 5, False), True),
    ]
    if args.togyz_py:
        module = load(args.togyz_py)
        runs.append(("togyz-kumalak vs togyz_py", "togyz-kumalak", lambda: TogPy(module), False))
    failed = False
    for what, name, make, finished_pits in runs:
        started = time.perf_counter()
        tally = compare(
            Ruleset.parse(name), make, args.games, args.seed, compare_finished_pits=finished_pits
        )
        report(what, tally, time.perf_counter() - started)
        failed = failed or bool(tally.divergences) or tally.finished < tally.games
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
