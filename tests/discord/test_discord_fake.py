"""The loopback fake of Discord (tests/discord/discord_fake.py) behaves as the real API does for the
client: it logs in, and an unknown route is a 404 the client reports."""

import discord
import pytest

from tests.discord.discord_fake import APP_ID, BOT_ID, GUILD_ID


async def test_the_real_client_logs_in_against_the_fake(fake_discord):
    client = discord.Client(intents=discord.Intents.default())
    await client.login("fake-token")
    try:
        assert client.user.id == BOT_ID
        assert client.application_id == APP_ID
        assert [r.path for r in fake_discord.requests] == ["/users/@me", "/oauth2/applications/@me"]
    finally:
        await client.close()


async def test_an_unknown_route_is_a_404_the_client_reports(fake_discord):
    client = discord.Client(intents=discord.Intents.default())
    await client.login("fake-token")
    try:
        with pytest.raises(discord.NotFound):
            await client.fetch_guild(GUILD_ID)
    finally:
        await client.close()
