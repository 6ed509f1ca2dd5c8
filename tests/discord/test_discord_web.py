"""`mancala bot` with MANCALA_WEB_LISTEN serves the web pages from its own process, on its
own service: a move an email player makes on their page reaches the Discord channel at once
(a separate ``mancala web`` has no Discord client to tell it). With MANCALA_WEB_URL the
board links to the game's page; without it the board is as before.

Everything is real but the far ends: ``serve`` against the loopback fake of Discord
(tests/discord/discord_fake.py), the pages on a loopback port, one SQLite file."""

from __future__ import annotations

import asyncio
import contextlib
from functools import partial

import aiohttp
import pytest

from bot.discord.client import serve
from bot.discord.discord_settings import Settings
from bot.service import Channel, GameService, Player
from bot.tokens import Tokens
from bot.web.links import game_url
from bot.web.server import start_web_surface
from bot.web.settings import WebSettings
from tests.discord.discord_fake import ALICE_ID, APP_ID, CHANNEL_ID, GUILD_ID
from tests.mail.mail_support import free_port

SECRET = "discord-web-secret"
ANN = Player("email", "ann@example.org")
ALICE = Player("discord", str(ALICE_ID))
BASE = "https://mancala.example"


async def game_in_the_channel(database: str) -> int:
    """Ann (by email, South, to move) against Alice in the fake's channel, made before the
    bot starts, as a game it finds in its database."""
    async with await GameService.open(database, tick_every=None) as service:
        challenge = await service.challenge(
            ANN, ALICE, "kalah", Channel("discord", str(CHANNEL_ID))
        )
        return (await service.accept(challenge.id, ALICE)).id


@pytest.mark.parametrize("web_url", [BASE, None])
async def test_a_move_on_the_page_reaches_the_discord_channel(
    fake_discord, tmp_path, monkeypatch, web_url
):
    monkeypatch.setenv("MANCALA_MAIL_SECRET", SECRET)  # the tokens' secret, as in the mails
    database = str(tmp_path / "games.sqlite3")
    game_id = await game_in_the_channel(database)
    port = free_port()
    pages = WebSettings(listen=("127.0.0.1", port), database=database)
    task = asyncio.create_task(
        serve(
            "fake-token",
            Settings(guild_id=GUILD_ID, database=database, web_url=web_url),
            [partial(start_web_surface, settings=pages)],  # as mancala bot does
        )
    )
    try:
        await asyncio.wait_for(fake_discord.identified.wait(), 10)
        await fake_discord.wait_for("PUT", f"/applications/{APP_ID}/")  # ready
        token = Tokens(SECRET.encode()).token("game", game_id, "south")
        page = f"http://127.0.0.1:{port}{game_url('', game_id, token)}"
        async with (
            aiohttp.ClientSession() as session,
            session.post(page, data={"move": "A", "ply": "0"}) as response,
        ):
            assert response.status == 200
        board = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages", 10)
        assert "**A**" in board.content  # the move, as the channel shows moves
        assert f"<@{ALICE_ID}> to move (North)" in board.content
        (embed,) = board.body["embeds"]
        if web_url:
            assert embed["url"] == f"{BASE}/game/{game_id}"  # no token: the channel is public
            assert embed["title"] == f"Game #{game_id} (kalah)"
        else:
            assert "url" not in embed and "title" not in embed
        assert token not in str(board.body)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)
    async with await GameService.open(database, tick_every=None) as service:
        assert (await service.get_game(game_id)).moves == ("A",)
