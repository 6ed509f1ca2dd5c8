"""The service's moves on each storage backend, in one run.

    .venv/bin/python bench/storage_backends.py [--seconds 5] [--runs 3] [--games 64]
        [--phases shared,disjoint,limits] [--own-games 48] [--own-players 16]

The shared phases (contention by design): SQLite in one process, PostgreSQL in one process,
and PostgreSQL with two processes taking moves for the same ``--games`` oware games, 32
concurrent players per process. The disjoint phase (what sharding is for): 1, 2 and 4
processes on PostgreSQL, each on ``--own-games`` games of its own with ``--own-players``
players. Every player makes random legal moves for the board it last saw, as fast as the
service takes them, for ``--seconds``.

It prints moves/s and the p50/p99 latency of ``move`` (median of ``--runs``), for the shared
phases the ratio to SQLite's, for the disjoint phase the ratio to one process, the CPU
milliseconds each bot process spent per move it made and the server's CPU seconds, and for
every phase with several processes the moves lost (acknowledged but not in the log) and
doubled (a ply acknowledged twice): both must be 0.

The limits phase (``--phases limits``, not run by default) measures what a limit check costs
a request: each of the shared phases' setups (SQLite, PostgreSQL, PostgreSQL with two
processes) twice in every run, the players' moves as they are (the baseline) and each move
preceded by one limit check of each shape (``limit_check``: a Discord cooldown's, the
player's own counter; a mail reply's, three counters in one statement, two of them the same
for every player, the busiest rows there are).

PostgreSQL: a server is started from the OS's binaries (as the tests do), or give --url.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.service import Channel, GameService, Hit, Player, ServiceError  # noqa: E402

PLAYERS = 32
NO_LIMIT = 1 << 30  # the checks' limits: never reached, so every check counts as it would


CHECKS = ("user", "mail")  # the shapes of a limit check, as ``limit_check`` makes them


async def limit_check(service: GameService, player: Player, shape: str) -> None:
    """One limit check, one statement, in one of two shapes: ``user``, the player's own
    counter (a Discord cooldown: a row per user); ``mail``, as a mail reply's
    (``bot.mail.reply_limits``): the player's counter for the day and the bot's for the hour
    and the day, two rows every check shares."""
    hits = [Hit(f"bench:{player.surface}:{player.id}", 86_400, NO_LIMIT)]
    if shape == "mail":
        hits += [Hit("bench:all:hour", 3_600, NO_LIMIT), Hit("bench:all:day", 86_400, NO_LIMIT)]
    await service.count_hits(hits, time.time())


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))] if ordered else 0.0


async def start_games(location: str, count: int) -> list[int]:
    service = await GameService.open(location, tick_every=None)
    try:
        return [
            (
                await service.start_game(
                    Player("discord", f"s{n}"),
                    Player("discord", f"n{n}"),
                    "oware",
                    Channel("discord", f"b{n}"),
                )
            ).id
            for n in range(count)
        ]
    finally:
        await service.close()


async def drive(
    location: str,
    game_ids: list[int],
    seconds: float,
    seed: int,
    start_at: float = 0.0,
    players: int = PLAYERS,
    check: str = "",
) -> dict:
    """Moves for ``seconds`` from ``players`` concurrent players: acks, latencies, and the CPU
    seconds this process spent meanwhile. ``check``: the shape of a limit check made before
    each move, in its latency (``limit_check``; "": none)."""
    service = await GameService.open(location, tick_every=None, cache_ttl=0.0)
    await asyncio.sleep(max(0.0, start_at - time.time()))
    cpu_began = time.process_time()
    rng = random.Random(seed)
    acked, latencies = [], []
    stop = time.perf_counter() + seconds

    async def player() -> None:
        while time.perf_counter() < stop:
            game_id = rng.choice(game_ids)
            view = await service.get_game(game_id)
            if view.is_over:
                continue
            began = time.perf_counter()
            if check:
                await limit_check(service, view.to_move, check)
            try:
                after = await service.move(
                    game_id,
                    view.to_move,
                    rng.choice(view.position.legal_moves()),
                    expected_ply=view.ply,
                )
            except ServiceError:
                continue  # another player or process moved first
            latencies.append(time.perf_counter() - began)
            acked.append((game_id, after.ply))

    try:
        await asyncio.gather(*(player() for _ in range(players)))
        cpu = time.process_time() - cpu_began
    finally:
        await service.close()
    return {"acked": acked, "latencies": latencies, "seconds": seconds, "cpu": cpu}


def summary(results: list[dict]) -> tuple[float, float, float]:
    moves = sum(len(r["acked"]) for r in results)
    latencies = [x for r in results for x in r["latencies"]]
    return moves / results[0]["seconds"], pct(latencies, 50) * 1000, pct(latencies, 99) * 1000


async def lost_and_doubled(url: str, results: list[dict]) -> tuple[int, int]:
    from storage import open_storage

    acked = [tuple(a) for r in results for a in r["acked"]]  # JSON gave lists
    doubled = len(acked) - len(set(acked))
    store = await open_storage(url)
    try:
        logged = set()
        for game_id in {g for g, _ in acked}:
            logged |= {(game_id, m.ply) for m in await store.games.moves(game_id)}
    finally:
        await store.close()
    return len(set(acked) - logged), doubled


WORKER = """
import asyncio, json, sys
sys.path.insert(0, sys.argv[1])
from bench.storage_backends import drive
result = asyncio.run(drive(sys.argv[2], json.loads(sys.argv[3]), float(sys.argv[4]),
                           int(sys.argv[5]), float(sys.argv[6]), int(sys.argv[7]),
                           sys.argv[8]))
print(json.dumps(result))
"""


def processes(
    url: str,
    games_each: list[list[int]],
    seconds: float,
    players: int = PLAYERS,
    check: str = "",
) -> list[dict]:
    """One bot process per list of games, started together; their results."""
    start_at = time.time() + 6  # all import and connect first, then start together
    workers = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WORKER,
                str(ROOT),
                url,
                json.dumps(game_ids),
                str(seconds),
                str(seed),
                str(start_at),
                str(players),
                check,
            ],
            stdout=subprocess.PIPE,
        )
        for seed, game_ids in enumerate(games_each, 1)
    ]
    return [json.loads(w.communicate(timeout=600)[0]) for w in workers]


def server_cpu(data_dir: Path) -> float:
    """CPU seconds the PostgreSQL server has used so far: the postmaster, the backends it has
    reaped, and those still running (from /proc; Linux)."""
    tick = os.sysconf("SC_CLK_TCK")
    postmaster = int((data_dir / "postmaster.pid").read_text().split()[0])

    def fields(pid: int) -> list[str]:
        text = Path(f"/proc/{pid}/stat").read_text()
        return text[text.rindex(")") + 2 :].split()  # after "pid (name) "

    own = fields(postmaster)  # utime, stime, cutime, cstime are fields 14-17: [11:15] here
    total = sum(int(x) for x in own[11:15])
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                child = fields(int(entry.name))
            except (OSError, ValueError):
                continue  # gone meanwhile
            if int(child[1]) == postmaster:  # ppid
                total += int(child[11]) + int(child[12])
    return total / tick


def disjoint_phase(
    server, count: int, games: int, players: int, seconds: float
) -> tuple[list[dict], float, tuple[int, int]]:
    """``count`` processes, each on ``games`` games of its own: (results, the server's CPU
    seconds meanwhile, (lost, doubled))."""
    url = server.new_database()
    ids = asyncio.run(start_games(url, count * games))
    before = server_cpu(server.data)
    results = processes(url, [ids[i::count] for i in range(count)], seconds, players)
    time.sleep(0.5)  # the closed connections' backends exit and are reaped
    used = server_cpu(server.data) - before
    return results, used, asyncio.run(lost_and_doubled(url, results))


def shared_phases(args: argparse.Namespace, server) -> None:
    rows: dict[str, list[tuple]] = {
        "SQLite, 1 process": [],
        "PostgreSQL, 1 process": [],
        "PostgreSQL, 2 processes": [],
    }
    races = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as folder:
            path = str(Path(folder) / "bench.sqlite3")
            ids = asyncio.run(start_games(path, args.games))
            rows["SQLite, 1 process"].append(
                summary([asyncio.run(drive(path, ids, args.seconds, run))])
            )
        url = server.new_database() if server else args.url
        ids = asyncio.run(start_games(url, args.games))
        rows["PostgreSQL, 1 process"].append(
            summary([asyncio.run(drive(url, ids, args.seconds, run))])
        )
        url = server.new_database() if server else args.url
        ids = asyncio.run(start_games(url, args.games))
        results = processes(url, [ids, ids], args.seconds)
        rows["PostgreSQL, 2 processes"].append(summary(results))
        races.append(asyncio.run(lost_and_doubled(url, results)))
        print(
            f"run {run + 1}: "
            + "; ".join(f"{name} {r[-1][0]:,.0f} moves/s" for name, r in rows.items()),
            flush=True,
        )
    base = statistics.median(r[0] for r in rows["SQLite, 1 process"])
    print(f"\n{'backend':<26} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'vs SQLite':>10}")
    for name, values in rows.items():
        rate, p50, p99 = (statistics.median(v[i] for v in values) for i in range(3))
        print(f"{name:<26} {rate:>9,.0f} {p50:>8.2f} {p99:>8.2f} {rate / base:>9.2f}x")
    lost, doubled = sum(r[0] for r in races), sum(r[1] for r in races)
    print(
        f"\ntwo processes on the same games, {args.runs} runs: {lost} lost, {doubled} doubled "
        "moves (must be 0 and 0)\n"
    )


def disjoint_phases(args: argparse.Namespace, server) -> None:
    counts = (1, 2, 4)
    rows: dict[int, list[tuple[float, ...]]] = {n: [] for n in counts}
    lost = doubled = 0
    for run in range(args.runs):
        for n in counts:
            results, server_seconds, (gone, twice) = disjoint_phase(
                server, n, args.own_games, args.own_players, args.seconds
            )
            lost, doubled = lost + gone, doubled + twice
            rate, p50, p99 = summary(results)
            cpu_ms = statistics.median(1000 * r["cpu"] / max(1, len(r["acked"])) for r in results)
            rows[n].append((rate, p50, p99, cpu_ms, server_seconds))
        print(
            f"run {run + 1}: "
            + "; ".join(f"{n} process(es) {r[-1][0]:,.0f} moves/s" for n, r in rows.items()),
            flush=True,
        )
    base = statistics.median(r[0] for r in rows[1])
    print(
        f"\n{'PostgreSQL, own games':<24} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'vs 1':>6} {'CPU ms/move':>12} {'server CPU s':>13}"
    )
    for n, values in rows.items():
        rate, p50, p99, cpu_ms, server_s = (
            statistics.median(v[i] for v in values) for i in range(5)
        )
        print(
            f"{n} process{'es' if n > 1 else '':<2} x {args.own_games} games"
            f"{'':<5} {rate:>9,.0f} {p50:>8.2f} {p99:>8.2f} {rate / base:>5.2f}x "
            f"{cpu_ms:>12.2f} {server_s:>13.2f}"
        )
    print(
        f"\nprocesses on their own games, {args.runs} runs: {lost} lost, {doubled} doubled "
        "moves (must be 0 and 0)"
    )


def limits_phases(args: argparse.Namespace, server) -> None:
    """Each backend's moves without a limit check (the baseline) and with one of each shape
    before each move, in the same run."""
    rows: dict[tuple[str, str], list[tuple]] = {}
    for run in range(args.runs):
        for check in ("", *CHECKS):
            with tempfile.TemporaryDirectory() as folder:
                path = str(Path(folder) / "bench.sqlite3")
                ids = asyncio.run(start_games(path, args.games))
                rows.setdefault(("SQLite, 1 process", check), []).append(
                    summary([asyncio.run(drive(path, ids, args.seconds, run, check=check))])
                )
            url = server.new_database() if server else args.url
            ids = asyncio.run(start_games(url, args.games))
            rows.setdefault(("PostgreSQL, 1 process", check), []).append(
                summary([asyncio.run(drive(url, ids, args.seconds, run, check=check))])
            )
            url = server.new_database() if server else args.url
            ids = asyncio.run(start_games(url, args.games))
            results = processes(url, [ids, ids], args.seconds, check=check)
            rows.setdefault(("PostgreSQL, 2 processes", check), []).append(summary(results))
        print(
            f"run {run + 1}: "
            + "; ".join(
                f"{name}{f' + {check} check' if check else ''} {r[-1][0]:,.0f} moves/s"
                for (name, check), r in rows.items()
            ),
            flush=True,
        )
    print(
        f"\n{'backend':<26} {'check':<6} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'vs none':>8}"
    )
    for name in dict.fromkeys(name for name, _ in rows):
        base = statistics.median(v[0] for v in rows[name, ""])
        for check in ("", *CHECKS):
            rate, p50, p99 = (statistics.median(v[i] for v in rows[name, check]) for i in range(3))
            print(
                f"{name:<26} {check or 'none':<6} {rate:>9,.0f} {p50:>8.2f} {p99:>8.2f} "
                f"{rate / base:>7.2f}x"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--phases", default="shared,disjoint")
    parser.add_argument("--own-games", type=int, default=48)
    parser.add_argument("--own-players", type=int, default=16)
    parser.add_argument("--url", help="a PostgreSQL server's URL (default: start one)")
    args = parser.parse_args()
    phases = set(args.phases.split(","))
    server = None
    if args.url is None or "disjoint" in phases:
        from tests.postgres_server import PostgresServer, binaries

        server = PostgresServer(binaries()).start()  # the disjoint phase reads its CPU use
    try:
        if "shared" in phases:
            shared_phases(args, server)
        if "disjoint" in phases:
            disjoint_phases(args, server)
        if "limits" in phases:
            limits_phases(args, server)
    finally:
        if server:
            server.stop()


if __name__ == "__main__":
    main()
