"""Togyz Kumalak through the real discord.py client against the loopback fake: the ninth pit
by slash command, by typed letter and by button, and a whole game's boards within Discord's
limits (two rows of pit buttons, the picture's alt text with the tuzdyks and kazans)."""

from __future__ import annotations

import random

import discord

from bot.discord import formatting as fmt
from engine import Game, Ruleset
from tests.discord.discord_fake import ALICE_ID, APP_ID, BOB_ID, BOT_ID, CHANNEL_ID, typed_message
from tests.discord.test_discord_bot import LEVEL, Table, start_bot, stop_bot
from tests.discord.test_discord_limits import check_components
from tests.service.test_ai_fairness import NeverCompiled

DISCORD_IDS = {"south": ALICE_ID, "north": BOB_ID}


def check_board(board) -> None:
    """A board message as it went over the wire: every part within Discord's limits."""
    assert len(board.content) <= fmt.MESSAGE_LIMIT and "```" in board.content
    check_components(board.data.get("components", []))
    (picture,) = [a for a in board.data["attachments"] if a["filename"] == "board.png"]
    assert len(picture["description"]) <= 1024
    assert picture["description"].startswith("Togyz-Kumalak board. ")
    assert "Kazans: South " in picture["description"] and "aptured" not in picture["description"]


def alt_text(board) -> str:
    return next(a["description"] for a in board.data["attachments"] if a["filename"] == "board.png")


async def test_a_togyz_game_by_command_typed_letter_and_buttons_to_its_end(fake_discord, tmp_path):
    client = await start_bot(fake_discord, tmp_path / "games.sqlite3", message_content=True)
    try:
        table = Table(client, fake_discord)
        board = await table.game_between_alice_and_bob("togyz-kumalak")
        check_board(board)
        rows = [[b["label"] for b in row["components"]] for row in board.data["components"]]
        assert rows == [list("ABCDE"), list("FGHI")]  # 9 pits: two rows of 5 and 4
        assert "A  B  C  D  E  F  G  H  I" in board.content
        game = Game(Ruleset.parse("togyz-kumalak"))

        moved = await table.command(ALICE_ID, "move", pit="I")  # the ninth pit by command
        assert "Last move: **I**" in moved.content, moved.content
        game.play("I")
        check_board(moved)
        assert [b["label"] for b in moved.buttons()] == list("ihgfedcba")

        client._connection.parse_message_create(typed_message(BOB_ID, "i"))  # typed
        posted = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")
        assert "Last move: **i**" in posted.content, posted.content
        game.play("i")
        check_board(posted)
        board = posted

        rng = random.Random(35)
        tuzdyks_seen = set()
        while not game.position.is_over():
            enabled = [b["label"] for b in board.buttons() if not b.get("disabled")]
            assert sorted(enabled) == sorted(game.position.legal_moves())
            move = rng.choice(enabled)
            mover = DISCORD_IDS[game.position.to_move]
            answer = await table.click(mover, board.message, move)
            if answer.body.get("type") == 7:  # the clicked board lost its buttons
                answer = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
            game.play(move)
            board = answer
            assert f"Last move: **{move}**" in board.content, board.content
            check_board(board)
            description = alt_text(board)
            for side, pit in zip(("South", "North"), game.position.tuzdyks, strict=True):
                if pit is not None:
                    tuzdyks_seen.add(side)
                    assert f"{side}'s tuzdyk" in description
                    assert "Tuzdyk" in board.content  # the text board's Tuzdyks line
        assert "Game over" in alt_text(board)
        assert [b["label"] for b in board.buttons()] == ["Rematch", "Review this game"]
        assert tuzdyks_seen  # the game made at least one tuzdyk
    finally:
        await stop_bot(client)


async def test_while_the_search_compiles_togyz_says_so_as_kalah_does(fake_discord, tmp_path):
    """The compiled search knows Togyz Kumalak: while it is being compiled, the AI and its
    hints play a quick search and say so, as in every other game."""
    client = await start_bot(fake_discord, tmp_path / "games.sqlite3")
    try:
        await the_compile_is_named(Table(client, fake_discord), fake_discord)
    finally:
        await stop_bot(client)


async def the_compile_is_named(table: Table, fake_discord) -> None:
    table.client.service.ai.kernel = NeverCompiled()
    await table.command(
        ALICE_ID,
        "challenge",
        opponent=discord.Object(BOT_ID),
        ruleset="togyz-kumalak",
        level=LEVEL,
    )
    await table.command(ALICE_ID, "move", pit="I")
    await table.client.service.idle()
    reply = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    assert f"the AI ({LEVEL}) played" in reply.content, reply.content
    assert "(A quick search: its full search is still being compiled, once.)" in reply.content
    assert "plain search" not in reply.content
    deferred = await table.command(ALICE_ID, "hint")
    assert deferred.body["type"] == 5
    hint = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/", timeout=60)
    assert hint.content.startswith("Hint: **"), hint.content
    assert "the full search is still being compiled" in hint.content
    assert "plain search" not in hint.content
