"""Mine the shipped puzzle set (engine/data/puzzles.json) from self-played games, and from
game records if given; print what it looked at and found.

    .venv/bin/python bench/mine_puzzles.py                 # the shipped set, as planned below
    .venv/bin/python bench/mine_puzzles.py --records DIR   # also the records in DIR (*.txt)
    .venv/bin/python bench/mine_puzzles.py --dry-run       # figures only, nothing written
    .venv/bin/python bench/mine_puzzles.py --rules bestemshe  # only the plan lines of these

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
    wanted: int  # puzzles to find
    games: int  # games to play at most
    nodes: int  # the solver's budget for each proof
    total: int  # ... and for all the proofs of one puzzle: what the tests spend checking it
    max_seeds: int | None = None  # positions with at most this many seeds in the pits
    last: int | None = None  # only the last plies of each game
    leader: int = 0  # only positions where a player has at least this many seeds captured
    first_seed: int = 0  # the first game's seed
    depths: tuple[int, ...] = (1, 2, 3)  # the self-play players' lookahead
    blunders: float = 0.1  # the share of random moves


# Full-size boards, late in the game. Kalah's proofs are cheap up to 16 seeds. Where positions
# repeat, the plain-Python solver must walk every path that does not repeat, which only a
# position close to the end keeps small: so the last plies of each game (in al-manqala, where
# a player nears the 50 that win), each proof within a few thousand nodes (about one in a
# hundred positions there).
PLAN = [
    Plan("kalah", 110, 400, 10_000, 10_000, max_seeds=16),
    Plan("al-manqala", 75, 2000, 1_500, 6_000, leader=42, depths=(2, 3, 4), blunders=0.05),
    Plan("wari", 70, 3000, 3_000, 12_000, last=12, depths=(2, 3, 4), blunders=0.05),
    Plan(
        "oware",
        70,
        3000,
        3_000,
        12_000,
        last=12,
        first_seed=50_000,
        depths=(2, 3, 4),
        blunders=0.05,
    ),
    # Togyz Kumalak's games end when a kazan passes 81, so the positions near that end, where
    # a kazan holds at least 68, prove within a few thousand nodes; Bestemshe's near 25.
    Plan(
        "togyz-kumalak", 30, 300, 6_000, 24_000, last=20, leader=68, depths=(2, 3, 4), blunders=0.05
    ),
    Plan("bestemshe", 40, 300, 3_000, 12_000, last=12, leader=18, depths=(2, 3, 4), blunders=0.05),
]
PER_GAME = 2  # puzzles from one game at most: the positions of one ending look alike
ONE_PLY = 0.15  # the share of a family's puzzles solved by a move that ends the game, at most


def key(puzzle: P.Puzzle) -> tuple[object, ...]:
    pos = puzzle.position
    return str(pos.rules), pos.board, pos.mover, pos.tuzdyks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=Path, help="a directory of game records (*.txt)")
    parser.add_argument("--fresh", action="store_true", help="number every puzzle anew")
    parser.add_argument("--dry-run", action="store_true", help="print the figures only")
    parser.add_argument("--out", type=Path, default=DATA, help="where to write the set")
    parser.add_argument(
        "--rules", default="", help="only the plan lines of these rules (comma-separated)"
    )
    args = parser.parse_args()
    only = {name.strip() for name in args.rules.split(",") if name.strip()}
    if only - {plan.rules for plan in PLAN}:
        parser.error(f"--rules: the plan has {', '.join(plan.rules for plan in PLAN)}")

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
        new = list(P.mine(games, "game", QUICK_SEEDS, P.FIND_NODES, seen, 4 * P.FIND_NODES))
        found += new
        print(
            f"{'records':28} {len(games):5d} {len(seen):9d} {len(new):7d} "
            f"{time.perf_counter() - clock:7.1f}"
        )

    for plan in PLAN:
        if only and plan.rules not in only:
            continue
        rules = Ruleset.parse(plan.rules)
        seen = set()
        new = []
        clock = time.perf_counter()
        played = 0
        one_ply = 0
        for seed in range(plan.first_seed, plan.first_seed + plan.games):
            if len(new) >= plan.wanted:
                break
            game = P.self_play(rules, seed, plan.depths, plan.blunders)
            played += 1
            from_game = 0
            positions = [p for p in game.positions if max(p.stores) >= plan.leader]
            for puzzle in P.mine(
                [positions], "self-play", plan.max_seeds, plan.nodes, seen, plan.total, plan.last
            ):
                if puzzle.depth == 1:
                    if one_ply >= ONE_PLY * plan.wanted:
                        continue
                    one_ply += 1
                new.append(puzzle)
                from_game += 1
                if len(new) >= plan.wanted or from_game >= PER_GAME:
                    break
        found += new
        print(
            f"{plan.rules:28} {played:5d} {len(seen):9d} {len(new):7d} "
            f"{time.perf_counter() - clock:7.1f}",
            flush=True,
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
    nodes = sum(p.nodes for p in puzzles)
    by_family = collections.Counter(p.family for p in puzzles)
    for family, count in sorted(by_family.items()):
        mine = [p for p in puzzles if p.family == family]
        grades = collections.Counter(p.grade for p in mine)
        seeds = sorted(sum(p.position.pits) for p in mine)
        depths = sorted(p.depth for p in mine)
        print(
            f"  {family:13} {count:4d}: "
            + ", ".join(f"{grades[g]} {g}" for g in P.Grade)
            + f"; seeds in the pits {seeds[0]}-{seeds[-1]} (median {seeds[len(seeds) // 2]})"
            + f", depth {depths[0]}-{depths[-1]}; {sum(p.nodes for p in mine):,} nodes"
        )
    print(f"  the proofs, all: {nodes:,} nodes (what tests/engine/test_puzzles.py checks again)")
    if not args.dry_run:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(P.to_json(puzzles), encoding="utf-8")
        print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
