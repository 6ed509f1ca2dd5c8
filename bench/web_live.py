"""The web pages under live viewers, through the real ``mancala web`` process on loopback.

(a) Delay: one ``mancala web`` process on a SQLite file; this process opens the game service
on the same file (as ``mancala bot`` or ``mancala mail`` would), opens event streams
(``/game/N/events``, what each open page listens to) and plays moves through the service.
For each move, the delay from the move's commit (when ``GameService.move`` returns here) to
each viewer receiving the event that shows it: p50, p95 and max, first for a baseline game
with ``--baseline`` viewers (1), then for another game with ``--viewers`` (500), in the same
run and the same process. On SQLite the web process learns of a move from another process by
checking its copy of the game every half second (``bot.web.server.CACHE_TTL``) and its
watchers look every 0.2 s: the baseline shows that floor; the difference is the viewers'.

With ``--backend postgres`` the same, on PostgreSQL: ``mancala web`` in one process and the
moves made in this one, each with its own connections to one database, as ``mancala mail`` and
``mancala web`` run apart in production. The web process hears of a move from the database's
NOTIFY (no check every half second): its delay is what LISTEN/NOTIFY costs. The database is
``--database`` (a ``postgresql://`` URL, or ``MANCALA_BENCH_PG``; it must be empty: a new
database), else a throwaway server started from the system's PostgreSQL binaries as the
tests do (``tests/postgres_server.py``) and removed at the end.

(b) Weight: the game page's first load, the HTML and each file it refers to (style sheet,
script, pictures: the board is an inline SVG), in bytes; and the time to serve the page,
the median of ``--requests`` sequential requests on loopback (measured by the client, so it
includes loopback HTTP, which is small beside it).

    .venv/bin/python bench/web_live.py [--viewers 500] [--moves 10] [--requests 30]
    .venv/bin/python bench/web_live.py --backend postgres [--database postgresql://...]

Each viewer sends its own ``X-Forwarded-For`` (loopback is a trusted proxy), as distinct
visitors behind a reverse proxy would: one address may keep only 32 pages open. Every loop
is bounded: a move that some viewers never see is counted as missed after ``--patience``
seconds. Prints figures; it asserts nothing about time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.mail import free_port, wait_for_port  # noqa: E402  (loopback helpers)
from bot.service import Channel, GameService, Player  # noqa: E402

ANN = Player("email", "ann@example.org")
BOB = Player("email", "bob@example.org")
SECRET = "web-live-bench-secret"


@dataclass(eq=False)
class Viewer:
    """One open page's event stream: when each ply's event arrived."""

    number: int
    seen: dict[int, float] = field(default_factory=dict)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    failed: str = ""


async def watch(session: aiohttp.ClientSession, url: str, viewer: Viewer) -> None:
    # a distinct visitor behind the (loopback, trusted) proxy: 10.x.y.z
    address = (
        f"10.{viewer.number // 65536 % 256}.{viewer.number // 256 % 256}.{viewer.number % 256}"
    )
    try:
        async with session.get(url, headers={"X-Forwarded-For": address}) as response:
            if response.status != 200:
                viewer.failed = f"HTTP {response.status}"
                viewer.ready.set()
                return
            async for line in response.content:
                if line.startswith(b"data: "):
                    now = time.perf_counter()
                    ply = int(line[6:].split(b".", 1)[0])
                    viewer.seen.setdefault(ply, now)
                    viewer.ready.set()
    except (TimeoutError, aiohttp.ClientError) as err:
        viewer.failed = type(err).__name__
        viewer.ready.set()


def quantiles(delays: list[float]) -> str:
    if not delays:
        return "no events"
    ordered = sorted(delays)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"p50 {statistics.median(ordered) * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms   "
        f"max {ordered[-1] * 1000:7.1f} ms   ({len(ordered)} events)"
    )


async def new_game(service: GameService, name: str) -> int:
    challenge = await service.challenge(ANN, BOB, "kalah", Channel("email", name))
    return (await service.accept(challenge.id, BOB)).id


async def delays_with(
    service: GameService,
    base: str,
    game_id: int,
    viewers: int,
    moves: int,
    patience: float,
) -> tuple[list[float], int, int]:
    """Open ``viewers`` streams on the game, play ``moves`` moves one at a time (the next
    once every viewer saw the last, or ``patience`` passed); the delays, the events missed,
    and the streams that failed to open."""
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        watching = [Viewer(n + 1) for n in range(viewers)]
        tasks = [
            asyncio.create_task(watch(session, f"{base}/game/{game_id}/events", v))
            for v in watching
        ]
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    asyncio.gather(*(v.ready.wait() for v in watching)), patience * 3
                )
            failed = sum(1 for v in watching if v.failed or not v.ready.is_set())
            live = [v for v in watching if not v.failed and v.ready.is_set()]
            delays: list[float] = []
            missed = 0
            for _move in range(moves):
                game = await service.get_game(game_id)
                if game.is_over or game.to_move is None:
                    break
                move = game.position.legal_moves()[0]
                played = await service.move(game_id, game.to_move, move, expected_ply=game.ply)
                committed = time.perf_counter()
                deadline = committed + patience
                while time.perf_counter() < deadline and any(
                    played.ply not in v.seen for v in live
                ):
                    await asyncio.sleep(0.01)
                for v in live:
                    if played.ply in v.seen:
                        delays.append(v.seen[played.ply] - committed)
                    else:
                        missed += 1
                await asyncio.sleep(0.05)  # the next move is news of its own
            return delays, missed, failed
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def page_weight(base: str, game_id: int, requests: int) -> None:
    async with aiohttp.ClientSession() as session:
        sizes: dict[str, int] = {}
        async with session.get(f"{base}/game/{game_id}") as response:
            page = await response.read()
            sizes["/game/N (HTML)"] = len(page)
        text = page.decode()
        for link in sorted(set(re.findall(r'(?:href|src)="(/static/[^"]+)"', text))):
            async with session.get(base + link) as response:
                sizes[link] = len(await response.read())
        images = re.findall(r'<img[^>]+src="([^"]+)"', text)
        for link in images:
            if link.startswith("/"):
                async with session.get(base + link) as response:
                    sizes[link] = len(await response.read())
        print("\n(b) the game page's first load")
        for name, size in sizes.items():
            print(f"    {name:28} {size:8,} bytes")
        print(f"    {'in all':28} {sum(sizes.values()):8,} bytes  (the board: an inline SVG)")
        for path in (f"/game/{game_id}", f"/game/{game_id}/part"):
            times = []
            for _request in range(requests):
                started = time.perf_counter()
                async with session.get(base + path) as response:
                    await response.read()
                times.append(time.perf_counter() - started)
            print(
                f"    GET {path:24} median {statistics.median(times) * 1000:6.2f} ms, "
                f"max {max(times) * 1000:6.2f} ms over {requests} requests"
            )


@contextlib.contextmanager
def postgres_database(given: str | None) -> Iterator[str]:
    """``given`` (a new, empty database's URL), else a fresh database on a throwaway server
    started from the system's binaries, as the tests start theirs, stopped at the end."""
    if given:
        yield given
        return
    from tests.postgres_server import HOW_TO_GET, PostgresServer, binaries

    bindir = binaries()
    if bindir is None:
        raise SystemExit(HOW_TO_GET)
    server = PostgresServer(bindir).start()
    try:
        yield server.new_database()
    finally:
        server.stop()


async def main(args: argparse.Namespace) -> None:
    if args.backend == "postgres":
        with postgres_database(args.database or os.environ.get("MANCALA_BENCH_PG")) as url:
            await run(args, url, "PostgreSQL, LISTEN/NOTIFY")
    else:
        with tempfile.TemporaryDirectory() as tmp:
            await run(args, os.path.join(tmp, "games.sqlite3"), "SQLite")


async def run(args: argparse.Namespace, database: str, backend: str) -> None:
    """The bench on ``database`` (a SQLite file's path or a PostgreSQL URL)."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        service = await GameService.open(database, tick_every=None, ai_workers=1)
        baseline_game = await new_game(service, "baseline")
        crowd_game = await new_game(service, "crowd")
        env = dict(
            os.environ,
            MANCALA_DB=database,
            MANCALA_WEB_LISTEN=f"127.0.0.1:{port}",
            MANCALA_MAIL_SECRET=SECRET,
            LOG_LEVEL="WARNING",
            PYTHONPATH=str(ROOT),
        )
        web = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            "web",
            "--env",
            os.devnull,
            env=env,
            cwd=tmp,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        try:
            await wait_for_port(port)
            print(
                f"(a) delay from a move's commit (in another process, {backend}) to each "
                f"live viewer's event, {args.moves} moves"
            )
            for label, game_id, count in (
                ("baseline", baseline_game, args.baseline),
                ("viewers", crowd_game, args.viewers),
            ):
                delays, missed, failed = await delays_with(
                    service, base, game_id, count, args.moves, args.patience
                )
                print(f"    {count:5} {label:9} {quantiles(delays)}")
                if missed or failed:
                    print(f"          {missed} events missed, {failed} streams failed to open")
            await page_weight(base, crowd_game, args.requests)
        finally:
            web.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(web.wait(), 10)
            await service.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--viewers", type=int, default=500, help="live viewers of one game")
    parser.add_argument("--baseline", type=int, default=1, help="viewers of the baseline game")
    parser.add_argument("--moves", type=int, default=10, help="moves played in each game")
    parser.add_argument("--requests", type=int, default=30, help="page requests to time")
    parser.add_argument("--patience", type=float, default=10.0, help="seconds to wait a move")
    parser.add_argument(
        "--backend",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="the database the two processes share (postgres: a throwaway server by default)",
    )
    parser.add_argument(
        "--database", help="with --backend postgres: a new, empty database's postgresql:// URL"
    )
    asyncio.run(main(parser.parse_args()))
