"""Tournaments on Discord end to end (bot/discord/tournament_commands.py): the real discord.py
client against the loopback fake (tests/discord/discord_fake.py), the real service on a SQLite file.
A 12-player Swiss of 5 rounds is created, joined, started and played by slash commands, each
game in a thread of the tournament's channel, with the bot restarted between rounds; and the
organiser's rule (Manage Server), the news in the channel and the refusals."""

from __future__ import annotations

from collections import Counter

import discord
import pytest

from bot.service import Player
from bot.service.tournaments import PairingKind, TournamentStatus
from tests.discord.discord_fake import ALICE_ID, BOB_ID, CHANNEL_ID, slash
from tests.discord.test_discord_bot import Table, start_bot, stop_bot

PLAYERS = [930000000000000100 + n for n in range(1, 13)]
NO_MANAGE = discord.Permissions.all().value & ~discord.Permissions(manage_guild=True).value


def tournament(user: int, sub: str, channel_id: int = CHANNEL_ID, **options) -> dict:
    """``/mancala tournament sub option=value``: the subcommand in the subgroup."""
    payload = slash(user, sub, channel_id=channel_id, **options)
    payload["data"]["options"] = [
        {"name": "tournament", "type": 2, "options": payload["data"]["options"]}
    ]
    return payload


def with_permissions(payload: dict, permissions: int) -> dict:
    payload["member"]["permissions"] = str(permissions)
    return payload


@pytest.fixture
async def bot(fake_discord, tmp_path, clock):
    holder = {"client": await start_bot(fake_discord, tmp_path / "games.sqlite3", clock=clock)}
    yield holder
    await stop_bot(holder["client"])


def posted(fake, channel_id: int) -> list[str]:
    """The text of every message the bot posted in a channel."""
    return [
        r.body.get("content") or ""
        for r in fake.requests
        if r.method == "POST" and r.path == f"/channels/{channel_id}/messages"
    ]


async def test_a_twelve_player_swiss_on_discord_with_a_restart_between_rounds(
    bot, fake_discord, tmp_path, clock
):
    table = Table(bot["client"], fake_discord)
    made = await table.send(
        tournament(
            ALICE_ID,
            "create",
            name="Club Swiss",
            format="swiss",
            ruleset="kalah",
            rounds=5,
            minutes=30,
        )
    )
    assert "Tournament 1 · Club Swiss" in made.content and not made.ephemeral
    for user in PLAYERS:
        joined = await table.send(tournament(user, "join", tournament=1))
        assert joined.ephemeral and "You are in" in joined.content
    started = await table.send(tournament(ALICE_ID, "start", tournament=1))
    assert "Started" in (await fake_discord.wait_for("POST", "/webhooks/")).body["content"]
    assert started is not None
    for round_no in range(1, 6):
        client = bot["client"]
        service = client.service
        await service.idle()
        pairings = await service.tournament_pairings(1)
        assert [p.round for p in pairings] == [round_no] * 6
        for n, p in enumerate(pairings):
            game = await service.get_game(p.game_id)
            thread = int(game.channel.id)
            assert game.channel.surface == "discord" and thread != CHANNEL_ID
            board = [m for m in posted(fake_discord, thread) if "Club Swiss" in m]
            assert board and f"<@{p.south.id}>" in board[0]  # the pairing, in its thread
            if n % 3 == 2:  # a draw: offered and accepted by command in the thread
                await table.send(slash(int(p.south.id), "draw", channel_id=thread))
                await table.send(slash(int(p.north.id), "draw", channel_id=thread))
            else:
                loser = p.north if n % 3 else p.south
                await table.send(slash(int(loser.id), "resign", channel_id=thread))
        await service.idle()
        news = posted(fake_discord, CHANNEL_ID)
        assert any(f"round {round_no} begins" in m for m in news)
        # a restart between rounds: a new client and service on the same file
        await stop_bot(client)
        bot["client"] = await start_bot(fake_discord, tmp_path / "games.sqlite3", clock=clock)
        table = Table(bot["client"], fake_discord)
    service = bot["client"].service
    view = await service.tournament(1)
    assert view.status is TournamentStatus.FINISHED
    history = [p for r in range(1, 6) for p in await service.tournament_pairings(1, r)]
    assert all(p.kind is PairingKind.GAME for p in history)
    assert max(Counter(frozenset((p.south, p.north)) for p in history).values()) == 1
    sides = Counter()
    for p in history:
        sides[p.south] += 1
        sides[p.north] -= 1
    assert all(abs(v) <= 1 for v in sides.values())
    threads = [r for r in fake_discord.requests if r.path == f"/channels/{CHANNEL_ID}/threads"]
    assert len(threads) == 30, "a thread per game, each made once"
    final = posted(fake_discord, CHANNEL_ID)[-1]
    assert "is over. Final standings" in final and "Buchholz" in final
    answer = await table.send(tournament(BOB_ID, "standings", tournament=1))
    assert answer.ephemeral and answer.content.count("Buchholz") == 12
    answer = await table.send(tournament(BOB_ID, "pairings", tournament=1, round=2))
    assert answer.content.count("Board ") == 6


async def test_only_a_servers_admins_organise_here_and_refusals_are_private(bot, fake_discord):
    table = Table(bot["client"], fake_discord)
    refused = await table.send(
        with_permissions(tournament(BOB_ID, "create", name="Mine", format="round-robin"), NO_MANAGE)
    )
    assert refused.ephemeral and "Manage Server" in refused.content
    made = await table.send(tournament(ALICE_ID, "create", name="Cup", format="round-robin"))
    assert "Tournament 1 · Cup" in made.content and "3 days a move" in made.content
    for user in PLAYERS[:3]:
        await table.send(tournament(user, "join", tournament=1))
    again = await table.send(tournament(PLAYERS[0], "join", tournament=1))
    assert again.ephemeral and "already" in again.content
    not_theirs = await table.send(
        with_permissions(tournament(PLAYERS[0], "start", tournament=1), NO_MANAGE)
    )
    assert "organisers" in (await fake_discord.wait_for("POST", "/webhooks/")).body["content"]
    assert not_theirs is not None
    # another admin of the server may start it
    await table.send(tournament(BOB_ID, "start", tournament=1))  # deferred: threads take time
    assert "Started" in (await fake_discord.wait_for("POST", "/webhooks/")).body["content"]
    await bot["client"].service.idle()
    assert (await bot["client"].service.tournament(1)).current_round == 1
    news = posted(fake_discord, CHANNEL_ID)
    assert sum("joined" in m for m in news) == 3 and any("round 1 begins" in m for m in news)
    rest = [p for p in await bot["client"].service.tournament_pairings(1) if p.north is None]
    assert rest == []  # three players all round: a player rests, no pairing is stored
    listing = await table.send(tournament(BOB_ID, "list"))
    assert "Cup" in listing.content
    gone = await table.send(tournament(PLAYERS[2], "withdraw", tournament=1))
    assert "out of tournament 1" in gone.content
    assert any("withdrew" in m for m in posted(fake_discord, CHANNEL_ID))
    me = Player("discord", str(PLAYERS[2]))
    assert me in (await bot["client"].service.tournament(1)).withdrawn
