"""On Discord, a move whose AI reply will come after the interaction's deadline says so, and
the reply still comes, as a follow-up, once the AI has caught up."""

from __future__ import annotations

import asyncio

import discord

from bot.discord.identities import player_of
from bot.service import Channel, GameOptions, ManualClock, Player
from tests.discord.discord_fake import ALICE_ID, APP_ID, BOT_ID
from tests.discord.test_discord_bot import Table, start_bot, stop_bot
from tests.service.test_ai_fairness import HeldWorkers, NeverCompiled, _until


async def test_a_late_ai_reply_is_announced_and_still_comes(fake_discord, tmp_path):
    client = await start_bot(fake_discord, tmp_path / "games.sqlite3", clock=ManualClock())
    service = client.service
    workers = HeldWorkers()
    service.ai.kernel = NeverCompiled()
    service.ai._run = workers
    table = Table(client, fake_discord)
    alice = player_of(discord.Object(ALICE_ID))
    try:
        # Alice already waits for the AI in three games elsewhere (by mail, say)
        for n in range(3):
            challenge = await service.challenge(
                alice,
                Player.ai("medium"),
                "kalah",
                Channel("email", f"t{n}"),
                GameOptions(side="south"),
            )
            await service.move(challenge.game_id, alice, "A")
        await _until(lambda: service.ai.backlog(alice).waiting == 2)

        await table.command(
            ALICE_ID, "challenge", opponent=discord.Object(BOT_ID), ruleset="kalah", level="medium"
        )
        moved = await table.command(ALICE_ID, "move", pit="A")
        assert "The AI is busy" in moved.content and "Your move is saved" in moved.content
        assert len(moved.content) <= 2000

        workers.release.set()
        await service.idle()
        reply = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
        assert "the AI (medium) played" in reply.content
        assert "The AI is busy" not in reply.content
    finally:
        workers.release.set()
        await asyncio.sleep(0)
        await stop_bot(client)
