"""The Discord Activity: its first load in bytes, and how soon a move shows on the other
participant's page, in a real browser.

The web companion runs in this process on loopback with the Activity's routes, as in
``mancala bot`` with ``MANCALA_WEB_LISTEN`` (the pages and the Discord buttons on one
service), its Discord API the tests' loopback fake (tests/discord/discord_fake.py) and the
page in mock mode (the SDK's ``DiscordSDKMock`` in place of Discord's client: the server's
``mock`` setting, as in the tests).

(a) Weight: ``/activity`` (the HTML), each file it refers to (the style sheet, the built
script), and the part the script fetches once signed in (the channel's game: the board is
an inline SVG), in bytes, and gzipped (deploy/Caddyfile compresses) for reference.

(b) Delay: two Chromium pages, Alice's and Bob's, signed in through the mock and the fake's
OAuth2; each move is a click on the mover's own page, timed from the click until the other
page shows the new ply (polled at each animation frame). Then moves played through the
service itself, as Discord's buttons play them, timed from the service's answer until the
Activity shows them. p50 and max over ``--moves`` moves each; prints figures, asserts
nothing about time.

    .venv/bin/python bench/activity.py [--moves 10]

Needs Debian's Chromium (/usr/bin/chromium) and the test extra (Playwright).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
from aiohttp import web

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.service import Channel, GameService, Player  # noqa: E402
from bot.tokens import Tokens  # noqa: E402
from bot.web.activity import ActivitySettings, add_activity  # noqa: E402
from bot.web.app import app_runner, make_app  # noqa: E402
from engine import to_perspective  # noqa: E402
from tests.discord.discord_fake import (  # noqa: E402
    ALICE_ID,
    APP_ID,
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    start_fake_discord,
)

ALICE = Player("discord", str(ALICE_ID))
BOB = Player("discord", str(BOB_ID))
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def address(base: str, user_id: int) -> str:
    return f"{base}/activity?channel_id={CHANNEL_ID}&guild_id={GUILD_ID}&mock_code=code-{user_id}"


async def weight(base: str, session: str) -> None:
    async with aiohttp.ClientSession() as client:
        sizes: dict[str, bytes] = {}
        async with client.get(f"{base}/activity") as response:
            sizes["/activity (HTML)"] = page = await response.read()
        for link in sorted(set(re.findall(r'(?:href|src)="(/static/[^"]+)"', page.decode()))):
            async with client.get(base + link) as response:
                sizes[link] = await response.read()
        headers = {"Authorization": f"Bearer {session}"}
        part = f"{base}/activity/part?channel={CHANNEL_ID}"
        async with client.get(part, headers=headers) as response:
            sizes["/activity/part (the game)"] = await response.read()
    print("(a) the Activity's first load")
    for name, body in sizes.items():
        print(f"    {name:30} {len(body):8,} bytes  gzipped {len(gzip.compress(body)):7,}")
    total = sum(len(b) for b in sizes.values())
    zipped = sum(len(gzip.compress(b)) for b in sizes.values())
    print(f"    {'in all':30} {total:8,} bytes  gzipped {zipped:7,}  (goal: at most 200 KB)")


def summary(name: str, delays: list[float]) -> None:
    ms = sorted(d * 1000 for d in delays)
    print(
        f"    {name}: p50 {statistics.median(ms):6.1f} ms, max {ms[-1]:6.1f} ms "
        f"over {len(ms)} moves (goal: within 1 s)"
    )


async def delays(base: str, service: GameService, game_id: int, moves: int) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pages = {}
        for player, user_id in ((ALICE, ALICE_ID), (BOB, BOB_ID)):
            page = await browser.new_page()
            await page.goto(address(base, user_id))
            await page.wait_for_selector("#live .state", state="attached")
            pages[player] = page

        async def shows(page, ply: int) -> None:
            await page.wait_for_function(
                "ply => document.querySelector('#live .state')?.dataset.ply === String(ply)",
                arg=ply,
                polling="raf",
            )

        clicked: list[float] = []
        for _move in range(moves):
            view = await service.get_game(game_id)
            if view.is_over:
                break
            mover = view.to_move
            assert mover is not None
            other = pages[BOB if mover == ALICE else ALICE]
            side = view.side_of(mover)
            assert side is not None
            legal = view.position.legal_moves()
            letter = to_perspective(legal[len(legal) // 2], side)
            await shows(pages[mover], view.ply)  # the mover's page is current
            started = time.perf_counter()
            await pages[mover].click(f'svg [data-pit="{letter}"]')
            await shows(other, view.ply + 1)
            clicked.append(time.perf_counter() - started)
        by_service: list[float] = []
        for _move in range(moves):
            view = await service.get_game(game_id)
            if view.is_over or view.to_move is None:
                break
            watcher = pages[BOB if view.to_move == ALICE else ALICE]
            legal = view.position.legal_moves()
            move = legal[len(legal) // 2]
            await service.move(game_id, view.to_move, move, expected_ply=view.ply)
            started = time.perf_counter()
            await shows(watcher, view.ply + 1)
            by_service.append(time.perf_counter() - started)
        await browser.close()
    print("(b) a move shown on the other participant's Activity")
    summary("played in the Activity (a click)", clicked)
    if by_service:
        summary("played by the buttons (the service)", by_service)


async def main(args: argparse.Namespace) -> None:
    fake, fake_runner, port = await start_fake_discord()
    fake.oauth_codes.update({f"code-{ALICE_ID}": ALICE_ID, f"code-{BOB_ID}": BOB_ID})
    with tempfile.TemporaryDirectory() as tmp:
        service = await GameService.open(f"{tmp}/games.sqlite3", tick_every=None, ai_workers=1)
        tokens = Tokens(b"activity-bench-secret")
        app = make_app(service, tokens)  # the pages' own feed interval, as served
        api = f"http://127.0.0.1:{port}/api/v10"
        add_activity(app, ActivitySettings(str(APP_ID), "bench-secret", api, mock=True))
        runner = app_runner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        base = f"http://127.0.0.1:{runner.addresses[0][1]}"
        try:
            here = Channel("discord", str(CHANNEL_ID))
            # six seeds a pit: a game long enough for the moves timed
            challenge = await service.challenge(ALICE, BOB, "kalah:seeds=6", here)
            game = await service.accept(challenge.id, BOB)
            session = tokens.session("activity", f"{ALICE_ID} en-US", service.now() + 60)
            await weight(base, session)
            await delays(base, service, game.id, args.moves)
        finally:
            await runner.cleanup()
            await service.close()
            await fake_runner.cleanup()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=10, help="moves timed each way")
    asyncio.run(main(parser.parse_args()))
