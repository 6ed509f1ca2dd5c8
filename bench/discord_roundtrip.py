"""How much the Discord surface adds to a move: median seconds per move played through the bot
(a raw interaction dispatched through discord.py, the service's move, the reply posted to a
loopback fake of Discord) against the same move made by calling the service directly.

    .venv/bin/python bench/discord_roundtrip.py [moves]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

# the fake Discord lives with the tests (the package tests.discord); and bench/ itself must
# not shadow the packages (python puts the script's directory first on the path)
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import discord  # noqa: E402

from bot.discord.client import MancalaBot  # noqa: E402
from bot.discord.discord_settings import Settings  # noqa: E402
from bot.service import Channel, GameService, ManualClock, Player  # noqa: E402
from tests.discord.discord_fake import (  # noqa: E402
    ALICE_ID,
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    guild_payload,
    slash,
    start_fake_discord,
)


async def main(moves: int) -> None:
    fake, runner, port = await start_fake_discord()
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    with tempfile.TemporaryDirectory() as tmp:
        service = await GameService.open(
            Path(tmp) / "b.sqlite3", clock=ManualClock(), tick_every=None
        )
        bot = MancalaBot(service, Settings(guild_id=GUILD_ID, sync_commands=False))
        await bot.login("bench")
        bot._connection.parse_guild_create(guild_payload())
        alice, bob = Player("discord", str(ALICE_ID)), Player("discord", str(BOB_ID))
        direct, through_bot = [], []
        games: list[int] = []
        for round_ in range(moves):
            # a fresh pair of games (same rules, same moves) when the current ones end
            if not games or (await service.get_game(games[0])).is_over:
                for game_id in games:
                    if not (await service.get_game(game_id)).is_over:
                        await service.resign(game_id, alice)
                plain = await service.start_game(
                    alice, bob, "manbula", Channel("discord", f"1{round_}")
                )
                here = await service.start_game(
                    alice, bob, "manbula", Channel("discord", str(CHANNEL_ID))
                )
                games = [plain.id, here.id]
            plain = await service.get_game(games[0])
            move = plain.position.legal_moves()[0]
            player = plain.to_move
            start = time.perf_counter()
            await service.move(plain.id, player, move)
            direct.append(time.perf_counter() - start)
            user = ALICE_ID if player == alice else BOB_ID
            payload = slash(user, "move", pit=move)
            fake.expect(payload)
            start = time.perf_counter()
            bot._connection.parse_interaction_create(payload)
            reply = await fake.reply_to(payload["id"])
            through_bot.append(time.perf_counter() - start)
            assert "```" in reply.content, reply.content
        # The bot edits the previous board after replying: let those edits finish first.
        invokers = [t for t in asyncio.all_tasks() if t.get_name() == "CommandTree-invoker"]
        if invokers:
            await asyncio.wait(invokers, timeout=10)
        await bot.close()
        await service.close()
    await runner.cleanup()
    base, bot_median = statistics.median(direct), statistics.median(through_bot)
    print(f"moves: {moves}")
    print(f"service.move directly:     median {base * 1000:.2f} ms")
    print(
        f"/mancala move via the bot: median {bot_median * 1000:.2f} ms "
        f"(ratio {bot_median / base:.1f}x the direct call)"
    )


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(
        description="One move through the Discord bot against "
        "the same move on the service directly."
    )
    parser.add_argument("moves", type=int, nargs="?", default=200, help="moves per run")
    asyncio.run(main(parser.parse_args().moves))
