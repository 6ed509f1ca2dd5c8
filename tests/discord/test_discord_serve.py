"""``mancala bot``'s coroutine, run whole against the loopback fake of Discord's REST API and
gateway: it opens the database, logs in, syncs the commands, identifies with the intents it
was configured for, answers interactions that arrive over the websocket, and stops cleanly."""

from __future__ import annotations

import asyncio
import contextlib

import discord
import pytest

from bot.discord.client import serve
from bot.discord.discord_settings import Settings
from tests.discord.discord_fake import (
    ALICE_ID,
    APP_ID,
    BOB_ID,
    GUILD_ID,
    slash,
    typed_message,
)

MESSAGE_CONTENT = 1 << 15  # the privileged intent's bit in IDENTIFY


async def test_the_bot_serves_over_the_gateway_until_cancelled(fake_discord, tmp_path):
    settings = Settings(
        guild_id=GUILD_ID, message_content=True, database=str(tmp_path / "data" / "games.sqlite3")
    )
    running = asyncio.create_task(serve("fake-token", settings))
    try:
        await asyncio.wait_for(fake_discord.identified.wait(), 10)
        assert fake_discord.identify["token"] == "fake-token"
        assert fake_discord.identify["intents"] & MESSAGE_CONTENT
        sync = await fake_discord.wait_for("PUT", f"/applications/{APP_ID}/guilds/{GUILD_ID}/")
        assert [c["name"] for c in sync.body] == ["mancala"]

        challenge = slash(ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="kalah")
        fake_discord.expect(challenge)
        await fake_discord.dispatch("INTERACTION_CREATE", challenge)
        card = await fake_discord.reply_to(challenge["id"])
        assert "challenges" in card.content
        accept = slash(BOB_ID, "accept")
        fake_discord.expect(accept)
        await fake_discord.dispatch("INTERACTION_CREATE", accept)
        board = await fake_discord.reply_to(accept["id"])
        assert "```" in board.content

        await fake_discord.dispatch("MESSAGE_CREATE", typed_message(ALICE_ID, "C"))
        moved = await fake_discord.wait_for("POST", "/channels/")
        assert "Last move: **C**" in moved.content
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(running, 10)
    assert (tmp_path / "data" / "games.sqlite3").is_file()


async def test_a_refused_token_ends_with_status_1_and_says_why(fake_discord, tmp_path, capsys):
    fake_discord.refused_tokens.add("stale-token")
    settings = Settings(database=str(tmp_path / "games.sqlite3"))
    assert await serve("stale-token", settings) == 1
    assert "Discord refused the token" in capsys.readouterr().err


async def test_a_sharded_process_identifies_as_its_shard(fake_discord, tmp_path):
    """DISCORD_SHARD_ID of DISCORD_SHARD_COUNT: each process serves its own shard (on one
    PostgreSQL database for all of them); the gateway hears which."""
    env = {
        "DISCORD_SHARD_COUNT": "2",
        "DISCORD_SHARD_ID": "1",
        "MANCALA_DB": str(tmp_path / "games.sqlite3"),
    }
    settings = Settings.from_environ(env)
    running = asyncio.create_task(serve("fake-token", settings))
    try:
        await asyncio.wait_for(fake_discord.identified.wait(), 10)
        assert fake_discord.identify["shard"] == [1, 2]
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(running, 10)
    with pytest.raises(ValueError, match="DISCORD_SHARD_COUNT"):
        Settings.from_environ({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_ID": "2"})
