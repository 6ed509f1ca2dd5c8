"""Cooldowns on the costly commands (bot/discord/cooldowns.py), through the real discord.py
client and the loopback fake of Discord.

A cooldown counts in the database on the service's clock, a ``ManualClock`` here, so a
window closes by advancing it: nothing sleeps, and nothing is compared with the wall clock.
The windows are fixed (a minute's from :00), and the clock starts on one's first second.
"""

from __future__ import annotations

import datetime as dt

import discord
import pytest
from discord import app_commands

from bot import metrics
from bot.discord import formatting as fmt
from bot.discord.command_group import MancalaGroup
from bot.discord.cooldowns import COOLDOWNS, cooldowns_of, refusal
from bot.i18n import Language, speaking
from bot.service import Channel, ManualClock
from engine.ai import LEVELS
from tests.discord.discord_fake import ALICE_ID, APP_ID, BOB_ID, BOT_ID, CAROL_ID, in_dm, slash
from tests.discord.test_discord_bot import Table, start_bot, stop_bot

LEVEL = LEVELS[0]  # the AI is not the subject: its quickest level, and a tiny game to hint in
TINY = "kalah:pits=2,seeds=1"
HINT = COOLDOWNS["hint"]
BOB_DM = 977000000000000002  # Bob's DM with the bot, where he plays the AI on his own
START = dt.datetime(2030, 1, 1, tzinfo=dt.UTC).timestamp()  # the start of every window


class TimedTable(Table):
    """A ``Table`` whose bot's service reads ``time``."""

    def __init__(self, client, fake, time: ManualClock):
        super().__init__(client, fake)
        self.time = time

    async def hint(self, user: int = ALICE_ID, dm: int | None = None):
        """A hint as asked for: the deferral and the hint, or the one private refusal."""
        payload = slash(user, "hint")
        reply = await self.send(payload if dm is None else in_dm(payload, dm))
        if reply.body["type"] == 5:  # deferred while the AI thinks: the hint follows
            hint = await self.fake.wait_for("POST", f"/webhooks/{APP_ID}/", timeout=30)
            assert hint.content.startswith("Hint: **"), hint.content
            return hint
        return reply


@pytest.fixture
def time() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
async def table(fake_discord, tmp_path, time):
    client = await start_bot(fake_discord, tmp_path / "games.sqlite3", clock=time)
    yield TimedTable(client, fake_discord, time)
    await stop_bot(client)


@pytest.fixture
def service_hints(table, monkeypatch) -> list[int]:
    """The game ids the service was asked for hints in, in order."""
    asked: list[int] = []
    service = table.client.service
    real = service.hint

    async def hint(game_id, *args, **kwargs):
        asked.append(game_id)
        return await real(game_id, *args, **kwargs)

    monkeypatch.setattr(service, "hint", hint)
    return asked


async def play_the_ai(table: TimedTable, user: int = ALICE_ID, dm: int | None = None):
    """``user`` challenges the AI to a tiny game (moving first): the game."""
    payload = slash(user, "challenge", opponent=discord.Object(BOT_ID), ruleset=TINY, level=LEVEL)
    if dm is not None:
        payload = slash(user, "challenge", ruleset=TINY, level=LEVEL)
        payload = in_dm(payload, dm)
    await table.send(payload)
    channel = str(dm) if dm is not None else str(payload["channel_id"])
    game = await table.client.service.active_game(Channel("discord", channel))
    assert game is not None
    return game


def refusals_counted() -> float:
    return (
        metrics.REGISTRY.get_sample_value("mancala_errors_total", {"kind": "CommandOnCooldown"})
        or 0.0
    )


async def test_one_hint_too_many_is_refused_privately_naming_the_wait(table, service_hints):
    game = await play_the_ai(table)
    for _ in range(HINT.rate):
        await table.hint()
        table.time.advance(5)  # six hints in 30 s
    table.time.advance(20)  # 50 s after the first
    counted = refusals_counted()

    refused = await table.hint()

    assert refused.body["type"] == 4 and refused.ephemeral  # answered at once, privately
    assert refused.content == (
        "You asked for 6 hints in the last minute, the most one player may; try again in 10 s."
    )
    assert refused.data["allowed_mentions"]["parse"] == []
    assert len(refused.content) <= fmt.MESSAGE_LIMIT
    assert refusals_counted() == counted + 1
    # the service never heard of it: no AI work, and the game is as it was
    assert service_hints == [game.id] * HINT.rate
    after = await table.client.service.get_game(game.id)
    assert (after.ply, after.position, after.moves) == (game.ply, game.position, game.moves)


async def test_the_wait_counts_down_and_refusals_do_not_extend_it(table, service_hints):
    await play_the_ai(table)
    for _ in range(HINT.rate):
        await table.hint()
    table.time.advance(30)
    assert (await table.hint()).content.endswith("try again in 30 s.")
    table.time.advance(29.5)
    assert (await table.hint()).content.endswith("try again in 1 s.")  # rounded up
    assert len(service_hints) == HINT.rate
    table.time.advance(0.5)  # exactly a minute: the next window, whole
    assert (await table.hint()).content.startswith("Hint: **")
    assert len(service_hints) == HINT.rate + 1


async def test_after_the_window_hints_are_given_again(table, service_hints):
    game = await play_the_ai(table)
    for _ in range(HINT.rate):
        await table.hint()
    table.time.advance(30)
    assert "try again" in (await table.hint()).content
    table.time.advance(31)  # a minute and a second after the first: in the next window

    for _ in range(HINT.rate):  # a whole new window's worth
        hint = await table.hint()
        assert hint.ephemeral and hint.content.startswith("Hint: **")
    assert "try again in 59 s." in (await table.hint()).content  # when that window closes
    assert service_hints == [game.id] * 2 * HINT.rate


async def test_one_players_limit_leaves_the_others_alone(table, service_hints):
    alices = await play_the_ai(table)
    bobs = await play_the_ai(table, BOB_ID, dm=BOB_DM)
    for _ in range(HINT.rate):
        await table.hint()
    assert "try again" in (await table.hint()).content

    for _ in range(HINT.rate):  # Bob, in his DM, within the same minute
        hint = await table.hint(BOB_ID, dm=BOB_DM)
        assert hint.content.startswith("Hint: **")
    assert service_hints == [alices.id] * HINT.rate + [bobs.id] * HINT.rate
    assert "try again" in (await table.hint(BOB_ID, dm=BOB_DM)).content


async def test_a_hint_limit_leaves_moves_and_other_commands_alone(table):
    game = await play_the_ai(table)
    for _ in range(HINT.rate):
        await table.hint()
    assert "try again" in (await table.hint()).content

    board = await table.command(ALICE_ID, "board")
    assert "try again" not in board.content and not board.ephemeral
    moved = await table.command(ALICE_ID, "move", pit="A")
    assert "try again" not in moved.content
    await table.client.service.idle()
    assert (await table.client.service.get_game(game.id)).moves[0] == "A"


async def test_one_challenge_too_many_is_refused_and_nothing_is_sent(table, fake_discord):
    limit = COOLDOWNS["challenge"]
    for _ in range(limit.rate):
        card = await table.command(ALICE_ID, "challenge", opponent=discord.Object(BOB_ID))
        assert not card.ephemeral and f"challenges <@{BOB_ID}>" in card.content  # a real card
        table.time.advance(1)
    before = len(fake_discord.requests)

    refused = await table.command(ALICE_ID, "challenge", opponent=discord.Object(CAROL_ID))

    assert refused.ephemeral and refused.content == (
        "You made 5 challenges in the last minute, the most one player may; try again in 55 s."
    )
    assert len(fake_discord.requests) == before + 1  # the refusal, and no card, no ping
    assert refused.data["allowed_mentions"]["parse"] == []
    card = await table.command(CAROL_ID, "challenge", opponent=discord.Object(ALICE_ID))
    assert "try again" not in card.content and f"<@{ALICE_ID}>" in card.content


async def test_one_board_too_many_is_refused(table):
    await play_the_ai(table)
    for _ in range(COOLDOWNS["board"].rate):
        board = await table.command(ALICE_ID, "board")
        assert not board.ephemeral
    refused = await table.command(ALICE_ID, "board")
    assert refused.ephemeral and refused.content.startswith(
        "You asked for the board 10 times in the last minute"
    )
    assert refused.content.endswith("try again in 1 min.")  # all ten in the same instant
    assert not refused.data.get("attachments")


def test_the_costly_commands_and_only_they_are_limited():
    limited = {
        command.name: [c.name for c in cooldowns_of(command)] for command in MancalaGroup().commands
    }
    assert {name: names for name, names in limited.items() if names} == {
        "hint": ["hint"],
        "challenge": ["challenge"],
        "board": ["board"],
        "review": ["review"],
        "puzzle": ["puzzle"],
    }
    assert limited["move"] == [] and limited["accept"] == [] and limited["resign"] == []


@pytest.mark.parametrize("named", COOLDOWNS.values(), ids=list(COOLDOWNS))
def test_every_refusal_says_what_and_when_within_discords_limits(named):
    assert named.rate >= 1 and 0 < named.per <= 3600
    for retry_after in (0.0, 0.001, 1.5, named.per / 2, float(named.per)):
        text = named.message(retry_after)
        assert len(text) <= fmt.MESSAGE_LIMIT and fmt.fit(text) == text
        assert text.startswith("You ") and f" {named.rate} " in text and " in the last " in text
        assert " try again in " in text and text.endswith(".")
        assert "{" not in text
    for language in Language:  # and in every language, the numbers filled in
        with speaking(language):
            text = named.message(named.per / 2)
        assert len(text) <= fmt.MESSAGE_LIMIT and str(named.rate) in text and "{" not in text


def test_a_cooldown_set_some_other_way_is_still_told_plainly():
    error = app_commands.CommandOnCooldown(app_commands.Cooldown(3, 30), 12.5)
    assert refusal(error, "mancala hint") == (
        "You used /mancala hint 3 times in the last 30 seconds; try again in 13 s."
    )


async def test_two_bots_on_one_database_share_a_users_cooldown(fake_discord, database, time):
    """Two bot processes (two clients, each with its own service) on one database (a SQLite
    file, or PostgreSQL): a user's challenges through either count against one limit, and a
    restart forgets none."""
    path = database
    first = TimedTable(await start_bot(fake_discord, path, clock=time), fake_discord, time)
    second = TimedTable(await start_bot(fake_discord, path, clock=time), fake_discord, time)
    limit = COOLDOWNS["challenge"]
    try:
        for i in range(limit.rate):  # in turn through each bot
            card = await (first, second)[i % 2].command(
                ALICE_ID, "challenge", opponent=discord.Object(BOB_ID)
            )
            assert f"challenges <@{BOB_ID}>" in card.content
        time.advance(20)
        for table in (first, second):
            refused = await table.command(ALICE_ID, "challenge", opponent=discord.Object(BOB_ID))
            assert refused.ephemeral and refused.content.endswith("try again in 40 s.")
        await stop_bot(second.client)  # restarted: the count is the database's, not its memory
        second.client = await start_bot(fake_discord, path, clock=time)
        refused = await second.command(ALICE_ID, "challenge", opponent=discord.Object(BOB_ID))
        assert refused.ephemeral and "try again in 40 s." in refused.content
        # Carol's own limit is untouched, in either bot
        card = await second.command(CAROL_ID, "challenge", opponent=discord.Object(BOB_ID))
        assert not card.ephemeral
        time.advance(40)  # the next minute, for both
        card = await first.command(ALICE_ID, "challenge", opponent=discord.Object(BOB_ID))
        assert not card.ephemeral and f"challenges <@{BOB_ID}>" in card.content
    finally:
        await stop_bot(first.client)
        await stop_bot(second.client)
