"""The fake Bot API on a loopback port, the service on a SQLite file, and the bot between
them, built exactly as ``mancala playstrategy-bot`` builds it (only the URL differs)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer

from bot.playstrategy import BotApi, PlaystrategyBot, PlaystrategySettings
from bot.service import GameService, ManualClock
from tests.playstrategy.fake_api import TOKEN, FakeBotApi

LEVEL = "greedy"  # the real AI pool, at a level that answers at once


class Harness:
    """The fake server, and the bot process: started, stopped and started again at will."""

    def __init__(self, fake: FakeBotApi, url: str, database: Path) -> None:
        self.fake = fake
        self.url = url
        self.database = database
        self.sleeps: list[float] = []  # every wait the bot asked for, in seconds
        self.settings = PlaystrategySettings.from_environ(
            {
                "PLAYSTRATEGY_TOKEN": TOKEN,
                "PLAYSTRATEGY_URL": url,
                "PLAYSTRATEGY_LEVEL": LEVEL,
                "PLAYSTRATEGY_MAX_GAMES": "3",
            }
        )

    async def sleep(self, seconds: float) -> None:
        """The bot's sleep: counts the wait and waits for nothing."""
        self.sleeps.append(seconds)
        await asyncio.sleep(0)

    async def start_bot(self) -> None:
        self.service = await GameService.open(
            self.database, clock=ManualClock(), tick_every=None, ai_workers=1
        )
        self.api = BotApi(self.settings.url, self.settings.token, sleep=self.sleep)
        self.bot = PlaystrategyBot(self.service, self.api, self.settings, sleep=self.sleep)
        self.runner = asyncio.create_task(self.bot.run())

    async def stop_bot(self) -> None:
        """As a process that stops: its tasks end wherever they are."""
        self.runner.cancel()
        await asyncio.gather(self.runner, *self.bot.tasks.values(), return_exceptions=True)
        await self.api.close()
        await self.service.close()

    async def game_over(self, ps_id: str) -> None:
        """Wait until the bot has streamed game ``ps_id`` to its end."""
        for _ in range(5000):
            task = self.bot.tasks.get(ps_id)
            if task is not None:
                await asyncio.wait_for(task, timeout=120)
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"game {ps_id} never started")

    async def answered(self, challenge_id: str) -> None:
        for _ in range(5000):
            if challenge_id in self.fake.accepted or challenge_id in self.fake.declined:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"challenge {challenge_id} never answered")


@pytest.fixture
async def harness(tmp_path) -> AsyncIterator[Harness]:
    fake = FakeBotApi()
    server = TestServer(fake.app, host="127.0.0.1")
    await server.start_server()
    harness = Harness(fake, str(server.make_url("")), tmp_path / "games.sqlite3")
    await harness.start_bot()
    yield harness
    await harness.stop_bot()
    await server.close()
