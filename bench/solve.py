"""Solve a ruleset from the start (or after some moves) and report time and peak memory.

    .venv/bin/python bench/solve.py kalah            # Kalah(6,4), 001 rules: expect +10
    .venv/bin/python bench/solve.py kalah:pits=4,seeds=3 --tt-bits 20

Prints the value (final seed margin for the player to move), a best move, nodes, seconds,
nodes per second and the peak resident memory (resource.getrusage). ``--nodes`` stops after
that many nodes and says how far it got. The endgame table comes from the tables directory
as ``mancala solve`` keeps it (``--cache DIR``; built and saved there the first time, and the
time it took is reported apart); ``--no-cache`` builds it in memory as part of the solve.
``--budget 0`` turns the solver's budgeted tries off, to compare with plain alpha-beta.
"""

from __future__ import annotations

import argparse
import pathlib
import resource
import sys
import time

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from bot.commands.ai import choose_table_seeds  # noqa: E402
from engine import Game, Ruleset  # noqa: E402
from engine.ai.search import (  # noqa: E402
    SOLVE_BUDGET,
    Searcher,
    default_tt_bits,
    solve,
    stores_irrelevant,
    warm_up,
)
from engine.ai.search_kernel import ETC_SEEDS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="?", default="kalah")
    parser.add_argument("--moves", default="", help="moves played first, e.g. 'C F'")
    parser.add_argument(
        "--tt-bits",
        type=int,
        default=None,
        help="log2 of transposition-table entries (16 bytes each; default: as the CLI)",
    )
    parser.add_argument(
        "--endgame-seeds",
        type=int,
        default=None,
        help="table every board with at most this many seeds left in the pits "
        "(default: as the CLI)",
    )
    parser.add_argument("--nodes", type=float, default=None, help="give up after this many nodes")
    parser.add_argument("--cache", default=None, help="the tables directory (default: as the CLI)")
    parser.add_argument("--no-cache", action="store_true", help="build the table in memory")
    parser.add_argument(
        "--budget",
        type=int,
        default=SOLVE_BUDGET,
        help="node budget of each move's first try (0: plain alpha-beta)",
    )
    parser.add_argument(
        "--etc-seeds",
        type=int,
        default=None,
        help="try enhanced transposition cutoffs at nodes with at least this "
        "many seeds in the pits (default: the solver's; 99: off)",
    )
    args = parser.parse_args()
    rules = Ruleset.parse(args.rules)
    position = Game.from_moves(rules, args.moves).position
    # The CLI's defaults, so this measures what `mancala solve` does.
    if args.tt_bits is None:
        args.tt_bits = default_tt_bits(rules)
    if args.endgame_seeds is None:
        args.endgame_seeds = choose_table_seeds(rules, args.cache)
    warm_up()
    started = time.perf_counter()
    table = None
    table_seconds = 0.0
    # As the solver does, tables only where play does not depend on the stores (not wari).
    if args.endgame_seeds and not args.no_cache and stores_irrelevant(rules):
        from bot.config import tables_dir
        from storage.tables import endgame_table

        stored = endgame_table(rules, args.endgame_seeds, args.cache or tables_dir())
        table = stored.table
        table_seconds = time.perf_counter() - started
        print(f"  {table_seconds:7.1f} s  table {stored.note}", flush=True)

    def report(lower: float, upper: float, nodes: int) -> None:
        print(
            f"  {time.perf_counter() - started:7.1f} s  {nodes:>14,} nodes  "
            f"value in [{lower:+g}, {upper:+g}]",
            flush=True,
        )

    searcher = Searcher(rules, args.tt_bits)
    if args.etc_seeds is not None:
        searcher.stats[ETC_SEEDS] = args.etc_seeds
    result = solve(
        position,
        node_limit=int(args.nodes) if args.nodes else 1 << 62,
        searcher=searcher,
        progress=report,
        endgame_seeds=args.endgame_seeds,
        endgame_table=table,
        budget=args.budget,
    )
    seconds = time.perf_counter() - started
    searched = seconds - table_seconds
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"ruleset {rules}  moves '{args.moves}'  to move: {position.to_move}")
    status = "proven" if result.complete else "NOT proven: the node limit ran out"
    print(f"value {result.value:+g} ({status})  best move {result.move}")
    print(
        f"nodes {result.nodes:,}  time {seconds:.1f} s (table {table_seconds:.1f} s, search "
        f"{searched:.1f} s)  {result.nodes / max(searched, 1e-9) / 1e6:.2f} M nodes/s  "
        f"longest line {result.depth} plies  peak memory {peak_mb:.0f} MB"
    )


if __name__ == "__main__":
    main()
