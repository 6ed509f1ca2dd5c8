"""The fake Bot API on a loopback port, the service on a SQLite file, and the bot between
them, built exactly as ``mancala playstrategy-bot`` builds it (only the URL differs)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestServer

from bot.playstrategy import BotApi, PlaystrategyBot, PlaystrategySettings
from bot.service import GameService, ManualClock
from tests.playstrategy.fake_api import TOKEN, FakeBotApi

LEVEL = "greedy"  # the real AI pool, at a level that answers at once


@dataclass
class Harness:
    fake: FakeBotApi
    bot: PlaystrategyBot
    service: GameService
    sleeps: list[float]
    runner: asyncio.Task[None]

    async def game_over(self, ps_id: str) -> None:
        """Wait until the bot has streamed game ``ps_id`` to its end."""
        for _ in range(2000):
            task = self.bot.tasks.get(ps_id)
            if task is not None:
                await asyncio.wait_for(task, timeout=120)
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"game {ps_id} never started")

    async def answered(self, challenge_id: str) -> None:
        for _ in range(2000):
            if challenge_id in self.fake.accepted or challenge_id in self.fake.declined:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"challenge {challenge_id} never answered")


@pytest.fixture
async def harness(tmp_path) -> AsyncIterator[Harness]:
    fake = FakeBotApi()
    server = TestServer(fake.app, host="127.0.0.1")
    await server.start_server()
    service = await GameService.open(
        tmp_path / "games.sqlite3", clock=ManualClock(), tick_every=None, ai_workers=1
    )
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:  # counts the wait, and waits for nothing
        sleeps.append(seconds)
        await asyncio.sleep(0)

    settings = PlaystrategySettings.from_environ(
        {
            "PLAYSTRATEGY_TOKEN": TOKEN,
            "PLAYSTRATEGY_URL": str(server.make_url("")),
            "PLAYSTRATEGY_LEVEL": LEVEL,
            "PLAYSTRATEGY_MAX_GAMES": "3",
        }
    )
    api = BotApi(settings.url, settings.token, sleep=sleep)
    bot = PlaystrategyBot(service, api, settings, sleep=sleep)
    runner = asyncio.create_task(bot.run())
    yield Harness(fake, bot, service, sleeps, runner)
    runner.cancel()
    await asyncio.gather(runner, *bot.tasks.values(), return_exceptions=True)
    await api.close()
    await service.close()
    await server.close()
