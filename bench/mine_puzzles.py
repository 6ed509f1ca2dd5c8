"""Mine the shipped puzzle set (engine/data/puzzles.json) from self-played games, and from
game records if given; print what it looked at and found.

    .venv/bin/python bench/mine_puzzles.py                 # the shipped set, as planned below
    .venv/bin/python bench/mine_puzzles.py --records DIR   # also the records in DIR (*.txt)
    .venv/bin/python bench/mine_puzzles.py --dry-run       # figures only, nothing written

Each plan line plays seeded games (``engine.puzzles.self_play``) of one ruleset, game seed 0,
1, 2, ... until it has found the puzzles it wants or played its games, and keeps every
position with at most its seeds in the pits that ``engine.puzzles.find`` proves is a puzzle
within its node budget (each move's proof, each step of each line). The same plan finds the
same puzzles on any machine: only node budgets end the proofs.

Ids are stable: a puzzle already in the file (the same rules, board and mover) keeps its id and
its place; new ones are numbered after the last of their family. ``--fresh`` numbers from 1.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game  # noqa: E402
from engine import puzzles as P  # noqa: E402
from engine.ai.pysolve import QUICK_SEEDS  # noqa: E402
from engine.review import game_from_record  # noqa: E402
from engine.ruleset import Ruleset  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "engine" / "data" / "puzzles.json"


class Plan(NamedTuple):
    rules: str
    max_seeds: int  # positions with at most this many seeds in the pits
    wanted: int  # puzzles to find
    games: int  # games to play at most
    nodes: int  # the solver's budget for each proof
    depths: tuple[int, ...] = (1, 2, 3)  # the self-play players' lookahead
    blunders: float = 0.1


PLAN = [
    Plan("kalah", 14, 30, 60, 20_000),
    Plan("al-manqala:pits=4,seeds=3", 24, 10, 40, 3_000),
    Plan("wari:pits=3,seeds=3", 18, 10, 60, 3_000),
]


def key(puzzle: P.Puzzle) -> tuple[str, tuple[int, ...], int]:
    pos = puzzle.position
    return str(pos.rules), pos.board, pos.mover


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=Path, help="a directory of game records (*.txt)")
    parser.add_argument("--fresh", action="store_true", help="number every puzzle anew")
    parser.add_argument("--dry-run", action="store_true", help="print the figures only")
    parser.add_argument("--out", type=Path, default=DATA, help="where to write the set")
    args = parser.parse_args()

    kept: list[P.Puzzle] = []
    if not args.fresh and args.out.exists():
        import json

        kept = [
            P.Puzzle.from_json(item)
            for item in json.loads(args.out.read_text(encoding="utf-8"))["puzzles"]
        ]
    known = {key(p) for p in kept}
    found: list[P.Puzzle] = []
    started = time.perf_counter()
    print(f"{'rules':28} {'games':>5} {'looked at':>9} {'puzzles':>7} {'seconds':>7}")

    if args.records is not None:
        records = sorted(args.records.glob("*.txt"))
        games: list[Game] = [game_from_record(path.read_text(encoding="utf-8")) for path in records]
        seen: set[tuple[Ruleset, tuple[int, ...], int]] = set()
        clock = time.perf_counter()
        new = [p for p in P.mine(games, "game", QUICK_SEEDS, P.FIND_NODES, seen)]
        found += new
        print(
            f"{'records':28} {len(games):5d} {len(seen):9d} {len(new):7d} "
            f"{time.perf_counter() - clock:7.1f}"
        )

    for plan in PLAN:
        rules = Ruleset.parse(plan.rules)
        seen = set()
        new = []
        clock = time.perf_counter()
        played = 0
        for seed in range(plan.games):
            if len(new) >= plan.wanted:
                break
            game = P.self_play(rules, seed, plan.depths, plan.blunders)
            played += 1
            for puzzle in P.mine([game], "self-play", plan.max_seeds, plan.nodes, seen):
                new.append(puzzle)
                if len(new) >= plan.wanted:
                    break
        found += new
        print(
            f"{plan.rules:28} {played:5d} {len(seen):9d} {len(new):7d} "
            f"{time.perf_counter() - clock:7.1f}"
        )

    numbers = collections.Counter[str]()
    for puzzle in kept:
        family, _, number = puzzle.id.rpartition("-")
        numbers[family] = max(numbers[family], int(number))
    puzzles = list(kept)
    for puzzle in found:
        if key(puzzle) in known:
            continue
        known.add(key(puzzle))
        numbers[puzzle.family] += 1
        puzzles.append(P.renumbered(puzzle, numbers[puzzle.family]))
    puzzles.sort(key=lambda p: p.id)

    print(
        f"\n{len(puzzles)} puzzles ({len(puzzles) - len(kept)} new) in "
        f"{time.perf_counter() - started:.0f} s"
    )
    by_family = collections.Counter(p.family for p in puzzles)
    for family, count in sorted(by_family.items()):
        grades = collections.Counter(p.grade for p in puzzles if p.family == family)
        sizes = collections.Counter(str(p.position.rules) for p in puzzles if p.family == family)
        print(
            f"  {family:11} {count:4d}: "
            + ", ".join(f"{grades[g]} {g}" for g in P.Grade)
            + "; "
            + ", ".join(f"{n} {rules}" for rules, n in sorted(sizes.items()))
        )
    if not args.dry_run:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(P.to_json(puzzles), encoding="utf-8")
        print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
