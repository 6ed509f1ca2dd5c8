"""Where a bot process spends its CPU per move under load: cProfile around the same drive as
``bench/storage_backends.py``, one process on its own games.

    .venv/bin/python bench/profile_moves.py [--backend postgresql|sqlite] [--seconds 5]
        [--games 48] [--players 16] [--top 25]

Prints moves made, CPU milliseconds per move, and the functions with the most cumulative
time (PostgreSQL: a server is started from the OS's binaries, as the tests do).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.storage_backends import drive, start_games  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--sort", default="cumulative", help="a pstats key: cumulative, tottime...")
    args = parser.parse_args()
    server = folder = None
    if args.backend == "postgresql":
        from tests.postgres_server import PostgresServer, binaries

        server = PostgresServer(binaries()).start()
        location = server.new_database()
    else:
        folder = tempfile.TemporaryDirectory()
        location = str(Path(folder.name) / "bench.sqlite3")
    try:
        ids = asyncio.run(start_games(location, args.games))
        profile = cProfile.Profile()
        began = time.process_time()
        profile.enable()
        result = asyncio.run(drive(location, ids, args.seconds, 1, players=args.players))
        profile.disable()
        cpu = time.process_time() - began
    finally:
        if server:
            server.stop()
        if folder:
            folder.cleanup()
    moves = len(result["acked"])
    print(
        f"{moves:,} moves in {args.seconds:g} s; {1000 * result['cpu'] / max(1, moves):.2f} ms "
        f"of CPU per move while moving ({1000 * cpu / max(1, moves):.2f} ms with start-up, "
        "under the profiler)"
    )
    pstats.Stats(profile).sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
