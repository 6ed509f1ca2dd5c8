"""Build the opening book (engine/ai/book.py) with the exact solver: deterministic, resumable.

    .venv/bin/python bench/build_book.py [--rules RULES@PLIES ...] [--tables DIR]
        [--work DIR] [--out engine/data/kalah_book.json] [--stop-after N]

For each ruleset (``RULES@PLIES``; the default list is what the package ships): every
position of its first PLIES plies, every move of both players
(an extra turn counts as a ply), each board once (turned so the player to move sits South;
see engine/ai/book.py). The boards of the last ply are proven: the solver's exact value
(MTD(f), the endgame table of ``--table-seeds`` read from ``--tables`` or built there), then
a null-window test of each move for whether it keeps that value. Every earlier board's value
and best moves follow from its children's. So the book gives the best moves of every board
up to PLIES plies deep.

Deterministic: the boards are proven in one fixed order and every figure kept is proven, so a
build writes the same file whatever the machine, the table size or the order of resumed runs.
Resumable: each proof is appended to a work file (``--work``, one per ruleset) as it finishes;
a build started again skips the boards done. The book file is written once every board of a
ruleset is proven, keeping the other rulesets the file already holds.

Progress: a line per proof, with the boards left and an estimate of the time to go.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # bench/engine.py is not engine

import platformdirs  # noqa: E402

from engine import MancalaError, Position, Ruleset  # noqa: E402
from engine.ai.book import (  # noqa: E402
    BOOK_FILE,
    Board,
    Stored,
    book_board,
    derive,
    opening_tree,
    parse_book,
    play_key,
    prove,
    write_book,
)
from engine.ai.move_proofs import margin_for  # noqa: E402
from engine.ai.search import (  # noqa: E402
    LARGEST_TABLE_SEEDS,
    Searcher,
    default_table_seeds,
    stores_irrelevant,
)
from engine.position import move_name  # noqa: E402
from engine.sowing import CCW  # noqa: E402

# What the shipped book covers: each ruleset as written, @ the plies it goes to.
DEFAULT_RULES = [
    "kalah:capture_needs_opposite=yes@2",
    "kalah@2",
    "kalah:seeds=3,capture_needs_opposite=yes@3",
    "kalah:seeds=3@3",
]
NOTE = (
    "Proven by the exact solver: python bench/build_book.py (see engine/ai/book.py). "
    "Each line: a board turned so the player to move sits South (South's pits, then "
    "North's), the margin the rest of the game adds for that player with best play, and "
    "every move that keeps it."
)


def work_path(work: pathlib.Path, rules: Ruleset, plies: int) -> pathlib.Path:
    name = str(rules).replace(":", "_").replace(",", "_").replace("=", "-")
    return work / f"{name}-{plies}.jsonl"


def read_work(path: pathlib.Path) -> dict[Board, Stored]:
    """The proofs a build of this ruleset already made (a line cut by a kill is skipped)."""
    done: dict[Board, Stored] = {}
    if not path.exists():
        return done
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        done[tuple(row["board"])] = (row["value"], tuple(row["best"]))
    return done


def prove_leaves(
    rules: Ruleset, leaves: list[Position], done: dict[Board, Stored], path: pathlib.Path, args
) -> bool:
    """Prove the boards not done yet, appending each to the work file. False if stopped by
    ``--stop-after`` before the end."""
    todo = [p for p in leaves if book_board(p) not in done]
    print(f"{rules}: {len(leaves)} boards to prove at ply {args.plies}, {len(todo)} left")
    if not todo:
        return True
    searcher = Searcher(rules, args.tt_bits)
    seeds = args.table_seeds
    if seeds is None:  # the largest table for Kalah(6,4), the solver's own below it
        seeds = LARGEST_TABLE_SEEDS if rules.total_seeds >= 48 else default_table_seeds(rules)
    if seeds:
        from storage.tables import endgame_table  # the bench may do I/O; the engine may not

        started = time.perf_counter()
        stored = endgame_table(rules, seeds, args.tables)
        searcher.use_endgame_table(seeds, stored.table)
        print(
            f"  endgame table of {seeds} seeds: {stored.note} ({time.perf_counter() - started:.0f} s)"
        )
    took: list[float] = []
    with path.open("a") as work:
        for count, position in enumerate(todo, 1):
            if args.stop_after is not None and count > args.stop_after:
                return False
            started = time.perf_counter()
            board = book_board(position)
            done[board] = prove(position, searcher)
            row = {"board": list(board), "value": done[board][0], "best": list(done[board][1])}
            work.write(json.dumps(row) + "\n")
            work.flush()
            took.append(time.perf_counter() - started)
            left = len(todo) - count
            eta = statistics.median(took) * left / 60
            print(
                f"  [{count}/{len(todo)}] {sum(position.pits)} seeds in the pits: "
                f"{to_come_text(position, done[board])} ({took[-1]:.1f} s); "
                f"{left} left, about {eta:.0f} min",
                flush=True,
            )
    return True


def to_come_text(position: Position, stored: Stored) -> str:
    """A proven board for the progress line: its value and best moves, as a player reads them."""
    value = stored[0] + margin_for(position, position.mover)
    own = position.mover * position.rules.pits  # the book's pits are the mover's own
    best = " ".join(move_name(position.rules, (own + pit, CCW)) for pit in stored[1])
    return f"{value:+d}, best {best}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--rules", nargs="+", default=DEFAULT_RULES, help="RULES@PLIES (default plies: 2)"
    )
    parser.add_argument("--table-seeds", type=int, default=None)
    parser.add_argument("--tt-bits", type=int, default=25)
    parser.add_argument(
        "--tables", type=pathlib.Path, default=platformdirs.user_cache_path("mancala") / "tables"
    )
    parser.add_argument(
        "--work", type=pathlib.Path, default=platformdirs.user_cache_path("mancala") / "book"
    )
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "engine" / "data" / BOOK_FILE)
    parser.add_argument("--stop-after", type=int, default=None, help="proofs, then stop")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    for given in args.rules:
        text, _at, plies = given.partition("@")
        if plies and not plies.isdigit():
            raise SystemExit(f"--rules takes RULES@PLIES, PLIES a number, not {plies[:20]!r}")
        args.plies = int(plies or 2)
        try:
            rules = Ruleset.parse(text)
        except MancalaError as err:
            raise SystemExit(f"--rules: {err}") from None
        if not stores_irrelevant(rules) or rules.tuzdyk:
            raise SystemExit(f"{rules}: the book keeps boards where the stores do not matter")
        order, leaves = opening_tree(rules, args.plies)
        path = work_path(args.work, rules, args.plies)
        done = read_work(path)
        if not prove_leaves(rules, leaves, done, path, args):
            print("stopped; run again to go on")
            return
        book = derive(order, done)
        write(args.out, str(rules), args.plies, book)
        print(f"{rules}: {len(book)} boards written to {args.out}")


def write(out: pathlib.Path, rules: str, plies: int, book: dict[Board, Stored]) -> None:
    """Write ``book`` into the file at ``out``, keeping the other rulesets it holds."""
    books: dict[str, tuple[int, dict[Board, Stored]]] = {}
    if out.exists():
        text = out.read_text()
        held = parse_book(text)
        for entry in json.loads(text)["books"]:
            key = play_key(Ruleset.parse(entry["rules"]))
            if key != play_key(Ruleset.parse(rules)):
                books[entry["rules"]] = (entry["plies"], held[key])
    books[rules] = (plies, book)
    out.write_text(write_book(books, NOTE))


if __name__ == "__main__":
    main()
