"""The Discord tests' shared fixtures: ``fake_discord``, the loopback fake of Discord's API
(tests/discord/discord_fake.py) that the real client talks to, and ``clock``."""

import discord
import pytest
import yarl

from bot.service import ManualClock
from tests.discord.discord_fake import start_fake_discord


@pytest.fixture
async def fake_discord(monkeypatch):
    """A ``FakeDiscord`` on a free loopback port, with discord.py pointed at it."""
    fake, runner, port = await start_fake_discord()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        yarl.URL(f"ws://127.0.0.1:{port}/gateway"),
    )
    yield fake
    await runner.cleanup()


@pytest.fixture
def clock():
    """The bot's service's clock, which a test moves by hand."""
    return ManualClock()
