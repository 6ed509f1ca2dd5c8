"""Correspondence on a human schedule on Discord (bot/discord/correspondence_commands.py): the
real discord.py client against the loopback fake (tests/discord/discord_fake.py), the real
service on a SQLite file with a manual clock. A challenge at days a move, ``/mancala premove``
(private, played by the service when the opponent's move matches) and ``/mancala vacation``
(the opponent sees it on the board; no reminder while away)."""

from __future__ import annotations

import discord
import pytest

from bot.service import Channel
from tests.discord.discord_fake import ALICE_ID, APP_ID, BOB_ID, CHANNEL_ID, slash
from tests.discord.test_discord_bot import Table, start_bot, stop_bot

DAY = 86400.0


@pytest.fixture
async def table(fake_discord, tmp_path, clock):
    client = await start_bot(fake_discord, tmp_path / "games.sqlite3", clock=clock)
    yield Table(client, fake_discord)
    await stop_bot(client)


def channel_posts(fake) -> list[str]:
    return [
        r.body.get("content") or ""
        for r in fake.requests
        if r.method == "POST" and r.path == f"/channels/{CHANNEL_ID}/messages"
    ]


async def three_days_a_move(table: Table):
    """Alice challenges Bob at 3 days a move; Bob accepts: the board's message."""
    card = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="wari", days=3
    )
    await table.click(BOB_ID, card.message, "Accept")
    return await table.fake.wait_for("POST", f"/webhooks/{APP_ID}/")


async def test_a_challenge_at_days_a_move_shows_its_clock(table, clock):
    board = await three_days_a_move(table)
    assert "3 days a move" in board.content
    assert f"Move due <t:{int(clock() + 3 * DAY)}:R>" in board.content
    game = await table.client.service.active_game(Channel("discord", str(CHANNEL_ID)))
    assert game.options.days == 3


async def test_a_premove_is_private_and_played_when_the_opponent_matches(table, fake_discord):
    await three_days_a_move(table)
    await table.command(ALICE_ID, "move", pit="C")
    set_ = await table.command(ALICE_ID, "premove", **{"if": "e", "then": "D"})
    assert set_.ephemeral and "if **e** then **D**" in set_.content
    theirs = await table.command(BOB_ID, "premove")
    assert theirs.ephemeral and "no conditional moves" in theirs.content
    mine = await table.command(ALICE_ID, "premove")
    assert mine.ephemeral and "if **e** then **D**" in mine.content
    half = await table.command(ALICE_ID, "premove", **{"if": "e"})
    assert half.ephemeral and "Give both" in half.content
    await table.command(BOB_ID, "move", pit="e")
    await table.client.service.idle()
    played = [m for m in channel_posts(fake_discord) if "conditional move" in m]
    assert len(played) == 1
    assert f"<@{ALICE_ID}> played **D**, a conditional move set in answer to **e**" in played[0]
    game = await table.client.service.get_game(1)
    assert game.moves == ("C", "e", "D")
    refused = await table.command(BOB_ID, "premove", **{"if": "A", "then": "b"})
    assert refused.ephemeral and "it is your move" in refused.content
    cleared = await table.command(ALICE_ID, "premove", clear=True)
    assert cleared.ephemeral and "Dropped 0 conditional moves" in cleared.content


def vacation(user: int, sub: str, **options) -> dict:
    """``/mancala vacation sub``: the subcommand in the subgroup."""
    payload = slash(user, sub, **options)
    payload["data"]["options"] = [
        {"name": "vacation", "type": 2, "options": payload["data"]["options"]}
    ]
    return payload


async def test_a_vacation_stops_the_clock_and_the_opponent_sees_it(table, fake_discord, clock):
    await three_days_a_move(table)
    await table.command(ALICE_ID, "move", pit="C")  # Bob's move, due in three days
    away = await table.send(vacation(BOB_ID, "start", days=5))
    until = int(clock() + 5 * DAY)
    assert away.ephemeral and f"You are on vacation until <t:{until}:f>" in away.content
    board = await table.command(ALICE_ID, "board")
    assert f"<@{BOB_ID}> is on vacation until <t:{until}:f>" in board.content
    assert "Move due" not in board.content  # his clock stands still
    for _ in range(4):
        clock.advance(DAY)
        await table.client.service.tick()
    await table.client.service.idle()
    assert not [m for m in channel_posts(fake_discord) if "your move" in m]
    status = await table.send(vacation(BOB_ID, "status"))
    assert (
        status.ephemeral and "Used in" in status.content and "4 days of 30 days" in status.content
    )
    back = await table.send(vacation(BOB_ID, "stop"))
    assert back.ephemeral and "You are not on vacation" in back.content
    game = await table.client.service.get_game(1)
    assert game.away == () and game.deadline == clock() + 3 * DAY  # four days away, given back
    again = await table.send(vacation(BOB_ID, "stop"))
    assert again.ephemeral and "not on vacation" in again.content
