"""The bot end to end: the real discord.py client, the real game service on a SQLite file, and
a loopback fake of Discord (tests/discord/discord_fake.py) that records what the bot sends.

Interactions are raw gateway payloads handed to the client's own parser, so they pass through
discord.py's CommandTree, autocomplete and persistent-view dispatch as in production.
"""

from __future__ import annotations

import asyncio
import dataclasses
from types import SimpleNamespace

import discord
import pytest

from bot.discord.boards import PostedBoard
from bot.discord.client import MancalaBot
from bot.discord.discord_settings import Settings
from bot.discord.handlers import bot_of
from bot.service import Channel, GameService, ManualClock, Player
from engine.ai import LEVELS
from engine.ruleset import PARAMETERS
from tests.discord.discord_fake import (
    ALICE_ID,
    APP_ID,
    BOB_ID,
    BOT_ID,
    CAROL_ID,
    CHANNEL_ID,
    GUILD_ID,
    click,
    guild_payload,
    in_dm,
    slash,
    typed_message,
)
from tests.discord.test_discord_limits import check_command_limits
from tests.service.test_ai_fairness import NeverCompiled

LEVEL = LEVELS[0]  # the quickest AI: these tests are about the bot, not the AI


async def start_bot(
    fake, path, message_content: bool = False, clock: ManualClock | None = None
) -> MancalaBot:
    service = await GameService.open(path, clock=clock or ManualClock(), tick_every=None)
    client = MancalaBot(service, Settings(guild_id=GUILD_ID, message_content=message_content))
    await client.login("fake-token")  # runs setup_hook: commands, buttons, notifier, sync
    client._connection.parse_guild_create(guild_payload())
    return client


async def stop_bot(client: MancalaBot) -> None:
    await client.service.idle()
    await client.close()
    await client.service.close()


@pytest.fixture
async def bot(fake_discord, tmp_path, clock):
    client = await start_bot(fake_discord, tmp_path / "games.sqlite3", clock=clock)
    yield client
    await stop_bot(client)


class Table:
    """Sends interactions as players would, and returns the bot's answers."""

    def __init__(self, client: MancalaBot, fake):
        self.client, self.fake = client, fake

    async def send(self, payload: dict):
        self.fake.expect(payload)
        self.client._connection.parse_interaction_create(payload)
        return await self.fake.reply_to(payload["id"])

    async def command(self, user: int, sub: str, **options):
        return await self.send(slash(user, sub, **options))

    async def click(self, user: int, message: dict, label: str):
        (button,) = [
            b for row in message["components"] for b in row["components"] if b.get("label") == label
        ]
        channel_id = int(message["channel_id"])  # the click comes from the message's channel
        return await self.send(click(user, button["custom_id"], message, channel_id))

    async def autocomplete(self, user: int, sub: str, focused: str, **options):
        reply = await self.send(slash(user, sub, focused=focused, **options))
        assert reply.body["type"] == 8  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
        return [c["value"] for c in reply.body["data"]["choices"]]

    async def game_between_alice_and_bob(self, rules: str = "kalah"):
        """Alice challenges Bob, Bob accepts with the button: the board's message."""
        card = await self.command(
            ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset=rules
        )
        await self.click(BOB_ID, card.message, "Accept")
        return await self.fake.wait_for("POST", f"/webhooks/{APP_ID}/")


@pytest.fixture
def table(bot, fake_discord):
    return Table(bot, fake_discord)


def mentioned_users(request) -> set[int]:
    allowed = request.data["allowed_mentions"]
    assert allowed["parse"] == []  # never @everyone, roles or names picked from text
    return {int(u) for u in allowed.get("users", [])}


async def test_setup_hook_syncs_one_mancala_group_to_the_test_guild(bot, fake_discord):
    sync = next(r for r in fake_discord.requests if r.method == "PUT")
    assert sync.path == f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"
    assert [c["name"] for c in sync.body] == ["mancala"]
    assert {o["name"] for o in sync.body[0]["options"]} >= {"challenge", "move", "hint"}
    check_command_limits(sync.body[0])  # the payload as it went over the wire


async def test_commands_and_buttons_reach_the_bot_and_no_other_client(bot):
    assert bot_of(SimpleNamespace(client=bot)) is bot
    other = discord.Client(intents=discord.Intents.none())
    with pytest.raises(TypeError, match="reached a Client, .* only the MancalaBot"):
        bot_of(SimpleNamespace(client=other))


async def test_a_challenge_shows_accept_and_decline_and_pings_only_the_challenged(table):
    card = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="wari:captures=2-4"
    )
    assert not card.ephemeral
    assert f"<@{ALICE_ID}> challenges <@{BOB_ID}>" in card.content
    assert "wari:captures=2-3-4" not in card.content and "`wari:captures=2-4`" in card.content
    assert [b["label"] for b in card.buttons()] == ["Accept", "Decline"]
    assert mentioned_users(card) == {BOB_ID}


async def test_a_bad_ruleset_is_refused_privately_with_what_is_accepted(table):
    reply = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="wari:pits=99"
    )
    assert reply.ephemeral
    assert "pits" in reply.content and "1 to 8" in reply.content


async def test_only_the_challenged_player_can_accept(table):
    card = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="kalah"
    )
    refused = await table.click(CAROL_ID, card.message, "Accept")
    assert refused.ephemeral
    accepted = await table.command(BOB_ID, "accept")
    assert not accepted.ephemeral and "```" in accepted.content
    assert f"<@{ALICE_ID}> to move (South)" in accepted.content
    assert [b["label"] for b in accepted.buttons()] == list("ABCDEF")


async def test_accept_by_button_closes_the_card_and_posts_the_board(table, fake_discord):
    card = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="oware"
    )
    accepted = await table.click(BOB_ID, card.message, "Accept")
    assert accepted.body["type"] == 7 and accepted.data["components"] == []
    assert accepted.content.endswith("**Accepted.**")
    board = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    assert "`oware`" in board.content and "Challenge accepted." in board.content


async def test_decline_by_button_closes_the_card(table):
    card = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="kalah"
    )
    declined = await table.click(BOB_ID, card.message, "Decline")
    assert declined.body["type"] == 7  # the card itself is updated
    assert "declined" in declined.content and declined.data["components"] == []


async def test_moves_by_command_and_by_button(table, fake_discord):
    board = await table.game_between_alice_and_bob()
    assert [b["label"] for b in board.buttons()] == list("ABCDEF")

    moved = await table.command(ALICE_ID, "move", pit="C")  # 4 seeds from C end in the store
    assert "Last move: **C**" in moved.content and f"<@{ALICE_ID}> to move" in moved.content
    # the old board's buttons are taken off
    strip = await fake_discord.wait_for("PATCH", f"/channels/{CHANNEL_ID}/messages/")
    assert strip.path.endswith(board.message["id"]) and strip.data["components"] == []

    clicked = await table.click(ALICE_ID, moved.message, "F")
    assert clicked.body["type"] == 7 and clicked.data["components"] == []
    board = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    assert "Last move: **F**" in board.content and f"<@{BOB_ID}> to move (North)" in board.content
    assert [b["label"] for b in board.buttons()] == list("fedcba")
    assert mentioned_users(board) == {BOB_ID}  # only the player to move


async def test_a_click_on_a_stale_board_is_refused(table):
    board = await table.game_between_alice_and_bob()
    await table.command(ALICE_ID, "move", pit="A")  # now Bob's turn; the first board is old
    stale = await table.click(BOB_ID, board.message, "B")  # button of ply 0
    assert stale.ephemeral
    game = await table.client.service.active_game(Channel("discord", str(CHANNEL_ID)))
    assert game.ply == 1  # nothing was played


async def test_not_your_turn_is_private_and_plays_nothing(table):
    board = await table.game_between_alice_and_bob()
    by_command = await table.command(BOB_ID, "move", pit="a")
    assert by_command.ephemeral and "turn" in by_command.content.lower()
    by_button = await table.click(BOB_ID, board.message, "A")
    assert by_button.ephemeral and "turn" in by_button.content.lower()
    outsider = await table.command(CAROL_ID, "move", pit="A")
    assert outsider.ephemeral


async def test_an_illegal_move_gets_the_engines_reason_privately(table):
    await table.game_between_alice_and_bob()
    reply = await table.command(ALICE_ID, "move", pit="Z")
    assert reply.ephemeral and "not a move" in reply.content and "A-F" in reply.content


async def test_the_ai_replies_as_a_follow_up_of_the_players_move(table, fake_discord):
    started = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOT_ID), ruleset="kalah", level=LEVEL
    )
    assert f"the AI ({LEVEL})" in started.content and f"<@{ALICE_ID}> to move" in started.content
    moved = await table.command(ALICE_ID, "move", pit="A")
    assert f"the AI ({LEVEL}) to move" in moved.content
    assert moved.buttons() == []  # nothing to press while the AI thinks
    await table.client.service.idle()
    reply = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    assert f"the AI ({LEVEL}) played" in reply.content
    assert f"<@{ALICE_ID}> to move" in reply.content
    assert [b["label"] for b in reply.buttons()] == list("ABCDEF")
    # everything came as replies and follow-ups: no second copy in the channel
    assert not [
        r
        for r in fake_discord.requests
        if r.method == "POST" and r.path == f"/channels/{CHANNEL_ID}/messages"
    ]


async def test_challenging_the_bot_without_a_level_plays_the_default_level(table):
    from engine.ai import DEFAULT_LEVEL

    started = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOT_ID), ruleset="kalah"
    )
    assert f"the AI ({DEFAULT_LEVEL})" in started.content


async def test_resign_ends_the_game_and_removes_the_buttons(table):
    await table.game_between_alice_and_bob()
    resigned = await table.command(BOB_ID, "resign")
    assert "resigned" in resigned.content and "Game over" in resigned.content
    assert [b["label"] for b in resigned.buttons()] == ["Rematch"]  # no pits any more
    after = await table.command(ALICE_ID, "move", pit="A")
    assert after.ephemeral  # no game here any more


async def test_a_draw_offer_is_accepted_with_its_button(table, fake_discord):
    await table.game_between_alice_and_bob()
    offered = await table.command(ALICE_ID, "draw")
    assert "offers a draw" in offered.content
    accepted = await table.click(BOB_ID, offered.message, "Accept draw")
    assert accepted.body["type"] == 7
    board = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    assert "A draw." in board.content and [b["label"] for b in board.buttons()] == ["Rematch"]


async def test_autocomplete_offers_presets_and_only_the_legal_moves(table):
    presets = await table.autocomplete(
        ALICE_ID, "challenge", "ruleset", opponent=discord.Object(BOB_ID), ruleset="wa"
    )
    assert presets == ["wari"]
    await table.game_between_alice_and_bob("wari")
    await table.command(ALICE_ID, "move", pit="F")
    for_bob = await table.autocomplete(BOB_ID, "move", "pit", pit="")
    assert for_bob == ["a", "b", "c", "d", "e", "f"]
    for_alice = await table.autocomplete(ALICE_ID, "move", "pit", pit="")
    assert for_alice == []  # not her turn: nothing to offer


async def test_games_and_rules_answer_privately(table):
    await table.game_between_alice_and_bob()
    games = await table.command(BOB_ID, "games")
    assert games.ephemeral and "vs <@" in games.content and "their move" in games.content
    rules = await table.command(BOB_ID, "rules", ruleset="oware")
    fields = {f["name"] for f in rules.data["embeds"][0]["fields"]}
    assert rules.ephemeral and "grand_slam = no_capture" in fields


async def test_a_busy_channel_sends_the_next_game_to_a_thread(table, fake_discord):
    await table.game_between_alice_and_bob()
    reply = await table.command(
        CAROL_ID, "challenge", opponent=discord.Object(ALICE_ID), ruleset="oware"
    )
    thread = (await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/threads")).message
    assert f"see <#{thread['id']}>" in reply.content
    card = await fake_discord.wait_for("POST", f"/channels/{thread['id']}/messages")
    assert [b["label"] for b in card.buttons()] == ["Accept", "Decline"]
    assert mentioned_users(card) == {ALICE_ID}
    accepted = await table.click(ALICE_ID, card.message, "Accept")
    assert accepted.body["type"] == 7
    board = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    assert "**Game 2**" in board.content and f"<@{CAROL_ID}> to move (South)" in board.content


async def test_buttons_still_work_after_a_restart(fake_discord, tmp_path):
    path = tmp_path / "games.sqlite3"
    first = await start_bot(fake_discord, path)
    board = await Table(first, fake_discord).game_between_alice_and_bob()
    await stop_bot(first)

    second = await start_bot(fake_discord, path)
    try:
        clicked = await Table(second, fake_discord).click(ALICE_ID, board.message, "D")
        assert clicked.body["type"] == 7
        after = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
        assert "Last move: **D**" in after.content
    finally:
        await stop_bot(second)


async def test_typed_letters_move_where_message_content_is_enabled(fake_discord, tmp_path):
    client = await start_bot(fake_discord, tmp_path / "games.sqlite3", message_content=True)
    try:
        assert client.intents.message_content
        await Table(client, fake_discord).game_between_alice_and_bob()
        client._connection.parse_message_create(typed_message(CAROL_ID, "A"))  # not a player
        client._connection.parse_message_create(typed_message(ALICE_ID, "nice"))  # just chat
        client._connection.parse_message_create(typed_message(ALICE_ID, "B"))
        posted = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")
        assert "Last move: **B**" in posted.content
        client._connection.parse_message_create(typed_message(ALICE_ID, "C"))  # Bob's turn
        refused = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")
        assert "turn" in refused.content.lower()
        assert refused.data["message_reference"]  # a reply to the typed move
    finally:
        await stop_bot(client)


async def test_without_message_content_typed_letters_are_not_requested(bot):
    assert not bot.intents.message_content


async def test_user_text_never_pings_anyone(table):
    reply = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="@everyone <@&1234>"
    )
    assert reply.ephemeral
    allowed = reply.data["allowed_mentions"]
    assert allowed["parse"] == [] and not allowed.get("users") and not allowed.get("roles")


async def test_the_ai_moving_first_answers_the_challenge_with_a_follow_up(table, fake_discord):
    started = await table.command(
        ALICE_ID,
        "challenge",
        opponent=discord.Object(BOT_ID),
        ruleset="wari",
        first="opponent",
        level=LEVEL,
    )
    assert f"the AI ({LEVEL}) to move (South): thinking" in started.content
    await table.client.service.idle()
    reply = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    assert f"<@{ALICE_ID}> to move (North)" in reply.content
    assert [b["label"] for b in reply.buttons()] == list("fedcba")


async def test_a_reminder_is_posted_in_the_games_channel(table, fake_discord, clock):
    await table.game_between_alice_and_bob()
    clock.advance(2 * 86400)  # Discord reminds after a day
    await table.client.service.tick()
    await table.client.service.idle()
    reminder = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")
    assert f"<@{ALICE_ID}>, your move" in reminder.content
    assert mentioned_users(reminder) == {ALICE_ID}


async def test_a_hint_is_private_and_names_a_legal_move(table, fake_discord):
    await table.command(ALICE_ID, "challenge", opponent=discord.Object(BOT_ID), ruleset="kalah")
    deferred = await table.command(ALICE_ID, "hint")
    assert deferred.body["type"] == 5 and deferred.body["data"]["flags"] & 64
    hint = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/", timeout=60)
    assert hint.ephemeral and hint.content.startswith("Hint: **")
    assert hint.content.split("**")[1] in list("ABCDEF")


async def test_no_hints_in_a_rated_game_between_people(table):
    await table.game_between_alice_and_bob()
    reply = await table.command(ALICE_ID, "hint")
    assert reply.ephemeral and "rated" in reply.content


async def test_a_forfeit_is_posted_once_though_both_players_are_told(table, fake_discord, clock):
    await table.game_between_alice_and_bob()
    clock.advance(4 * 86400)  # Discord forfeits after three days of silence
    await table.client.service.tick()
    await table.client.service.idle()
    posted = [
        r
        for r in fake_discord.requests
        if r.method == "POST" and r.path == f"/channels/{CHANNEL_ID}/messages"
    ]
    forfeits = [r for r in posted if "ran out of time" in r.content]
    assert len(forfeits) == 1
    assert "Game over" in forfeits[0].content
    assert [b["label"] for b in forfeits[0].buttons()] == ["Rematch"]


async def test_a_late_reply_never_strips_the_newer_board(table, fake_discord):
    """The AI may answer before the player's own reply is out: the AI's board keeps its
    buttons."""
    await table.game_between_alice_and_bob()
    service, boards = table.client.service, table.client.boards
    game = await service.active_game(Channel("discord", str(CHANNEL_ID)))
    before = dataclasses.replace(game, ply=game.ply - 1) if game.ply else game
    newer = discord.Object(1111)
    await boards.replace(dataclasses.replace(game, ply=game.ply + 5), CHANNEL_ID, newer)
    await boards.replace(before, CHANNEL_ID, discord.Object(2222))
    assert boards.last_board[game.id] == PostedBoard(CHANNEL_ID, 1111, game.ply + 5)
    assert not any(r.path.endswith("/messages/1111") for r in fake_discord.requests)


async def test_a_move_menu_replaces_buttons_when_the_direction_is_chosen(table, fake_discord):
    board = await table.game_between_alice_and_bob("manbula:direction=choice")
    (menu,) = board.selects()  # 24 moves: A, A<, ..., f<
    assert {o["value"] for o in menu["options"]} >= {"A", "A<", "f<"}
    picked = await table.send(click(ALICE_ID, menu["custom_id"], board.message, values=["B<"]))
    assert picked.body["type"] == 7
    after = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    assert "Last move: **B<**" in after.content


@pytest.mark.parametrize(
    "spec",
    ["wari", "al-manqala:captures=2-3-4,cycle=owners", "mankala:symmetric,continue,stones=5"],
)
async def test_rules_come_whole_as_an_embed_within_discords_limits(table, spec):
    reply = await table.command(ALICE_ID, "rules", ruleset=spec)
    assert reply.ephemeral and reply.content == ""
    (embed,) = reply.data["embeds"]
    fields = embed["fields"]
    assert len(fields) == len(PARAMETERS) <= 25
    assert {f["name"].split(" = ")[0] for f in fields} == set(PARAMETERS)
    total = (
        len(embed["title"])
        + len(embed["description"])
        + sum(len(f["name"]) + len(f["value"]) for f in fields)
    )
    assert total <= 6000 and all(len(f["value"]) <= 1024 for f in fields)


async def test_a_card_answered_by_command_loses_its_buttons(table, fake_discord):
    card = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="wari"
    )
    assert [b["label"] for b in card.buttons()] == ["Accept", "Decline"]
    await table.command(BOB_ID, "decline")
    edit = await fake_discord.wait_for(
        "PATCH", f"/channels/{CHANNEL_ID}/messages/{card.message['id']}"
    )
    assert edit.body["components"] == [] and "Challenge declined." in edit.content


async def test_an_expired_card_says_so_and_its_stale_buttons_close_it(table, fake_discord, clock):
    card = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="wari"
    )
    clock.advance(2 * 86400)  # a Discord challenge stays open a day
    await table.client.service.tick()
    await table.client.service.idle()
    edit = await fake_discord.wait_for(
        "PATCH", f"/channels/{CHANNEL_ID}/messages/{card.message['id']}"
    )
    assert edit.body["components"] == [] and "Challenge expired." in edit.content
    pressed = await table.click(BOB_ID, card.message, "Accept")  # a client showing the old card
    assert pressed.body["type"] == 7 and pressed.body["data"]["components"] == []
    assert "Challenge expired." in pressed.content


async def test_cancel_withdraws_your_own_challenge_and_closes_its_card(table, fake_discord):
    card = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="oware"
    )
    nothing = await table.command(BOB_ID, "cancel")  # Bob has made no challenge
    assert nothing.ephemeral and "no open challenge" in nothing.content
    done = await table.command(ALICE_ID, "cancel")
    assert done.ephemeral and "Challenge cancelled." in done.content
    edit = await fake_discord.wait_for(
        "PATCH", f"/channels/{CHANNEL_ID}/messages/{card.message['id']}"
    )
    assert edit.body["components"] == []


async def test_help_is_a_short_private_guide(table):
    reply = await table.command(ALICE_ID, "help")
    assert reply.ephemeral and len(reply.content) <= 2000
    assert "/mancala challenge" in reply.content and "pit buttons" in reply.content


async def test_history_gives_the_record_and_the_final_board_attaches_it(table, fake_discord):
    board = await table.game_between_alice_and_bob("kalah:pits=2,seeds=1")
    history = await table.command(BOB_ID, "history")
    assert history.ephemeral and '[Rules "kalah:pits=2,seeds=1"]' in history.content
    moves = []
    while "Game over" not in board.content:
        pit = next(b for b in board.buttons() if not b.get("disabled"))
        mover = ALICE_ID if pit["label"].isupper() else BOB_ID
        moves.append(pit["label"])
        board = await table.click(mover, board.message, pit["label"])
        if board.body.get("type") == 7:  # the clicked board was updated: the new one follows
            board = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    assert "Game over" in board.content
    picture, attachment = board.body["attachments"]  # the board's picture, then the record
    assert picture["filename"] == "board.png" and "Game over" in picture["description"]
    assert attachment["filename"].startswith("mancala-game-") and attachment["description"]
    record = board.files[attachment["filename"]].decode()
    assert record.split("\n\n", 1)[1].split() == moves  # the moves, as played


async def test_rematch_on_the_final_board_swaps_the_sides(table, fake_discord):
    board = await table.game_between_alice_and_bob("kalah:pits=2,seeds=1")
    resigned = await table.command(ALICE_ID, "resign")
    assert [b["label"] for b in resigned.buttons()] == ["Rematch"]
    card = await table.click(BOB_ID, resigned.message, "Rematch")
    assert "Accept" in [b["label"] for b in card.buttons()]
    accepted = await table.click(ALICE_ID, card.message, "Accept")
    game = await table.client.service.active_game(Channel("discord", str(CHANNEL_ID)))
    assert (game.south, game.north) == (
        Player("discord", str(BOB_ID)),
        Player("discord", str(ALICE_ID)),
    )
    assert game.position.to_move == "south"  # kalah's South moves first: Bob, this time
    assert accepted is not None and board is not None


async def test_a_clocked_game_shows_the_move_deadline_as_a_discord_timestamp(table, clock):
    card = await table.command(
        ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="kalah", clock="12h"
    )
    board = await table.click(BOB_ID, card.message, "Accept")
    board = (
        board
        if "to move" in board.content
        else await table.fake.wait_for("POST", f"/webhooks/{APP_ID}/")
    )
    due = int(clock() + 12 * 3600)
    assert f"Move due <t:{due}:R>." in board.content


async def test_pings_go_to_the_player_to_move_once_a_while_and_as_they_chose(
    table, clock, fake_discord
):
    board = await table.game_between_alice_and_bob("kalah")
    looked = await table.command(CAROL_ID, "board")  # a spectator looks: nobody is pinged
    assert mentioned_users(looked) == set()
    chosen = await table.command(BOB_ID, "pings", mode="dm")
    assert chosen.ephemeral and "direct message" in chosen.content
    moved = await table.click(ALICE_ID, board.message, "A")  # A: Bob's turn
    moved = (
        moved
        if moved.body.get("type") == 4
        else await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    )
    assert mentioned_users(moved) == set()  # Bob asked for a DM instead
    dm = await fake_discord.wait_for("POST", "/users/@me/channels")
    assert dm.body["recipient_id"] in (BOB_ID, str(BOB_ID))
    told = await fake_discord.wait_for("POST", "/channels/")
    assert "Your move in game" in told.content


async def test_a_board_is_a_picture_with_alt_text_beside_the_text_board(table, fake_discord):
    board = await table.game_between_alice_and_bob("wari")
    assert "```" in board.content and "A  B  C  D  E  F" in board.content  # the 003 board
    (picture,) = board.body["attachments"]
    assert picture["filename"] == "board.png"
    assert picture["description"].startswith("Wari board. ")
    assert "South, pits A to F: 4, 4, 4, 4, 4, 4." in picture["description"]
    (embed,) = board.body["embeds"]
    assert embed["image"]["url"] == "attachment://board.png"
    assert board.files["board.png"][:8] == b"\x89PNG\r\n\x1a\n"
    moved = await table.click(ALICE_ID, board.message, "C")
    if moved.body.get("type") == 7:  # the clicked board lost its buttons: the new one follows
        moved = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    assert "Last move: C." in moved.body["attachments"][0]["description"]


async def test_server_settings_need_manage_server_to_change_and_anyone_may_look(table):
    no_manage = discord.Permissions.all()
    no_manage.manage_guild = False
    refused = await table.send(
        slash(BOB_ID, "settings", permissions=no_manage.value, ruleset="wari")
    )
    assert refused.ephemeral and "Manage Server" in refused.content
    look = await table.send(slash(BOB_ID, "settings", permissions=no_manage.value))
    assert look.ephemeral and "- ruleset: kalah" in look.content  # nothing was changed
    bad = await table.command(ALICE_ID, "settings", ruleset="chess")
    assert bad.ephemeral and "chess" in bad.content and "Saved" not in bad.content
    saved = await table.command(
        ALICE_ID, "settings", ruleset="wari", text_board=False, pings="off", clock="2d"
    )
    assert saved.content.startswith("Saved.") and "- ruleset: wari" in saved.content
    assert "- text board: off" in saved.content and "48 hours per move" in saved.content
    assert len(saved.content) <= 2000


async def test_a_servers_settings_shape_its_games(table, fake_discord):
    await table.command(ALICE_ID, "settings", ruleset="oware", text_board=False, pings="off")
    card = await table.command(ALICE_ID, "challenge", opponent=discord.Object(BOB_ID))
    assert "`oware`" in card.content  # no ruleset given: the server's
    await table.click(BOB_ID, card.message, "Accept")
    board = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    assert "```" not in board.content  # the text board is off: the picture shows it
    assert board.body["attachments"][0]["filename"] == "board.png"
    assert mentioned_users(board) == set()  # pings off: nobody is mentioned
    asked = await table.send(slash(ALICE_ID, "board", text=True))
    assert "```" in asked.content and "A  B  C  D  E  F" in asked.content  # one request
    await table.command(ALICE_ID, "settings", text_board=True, pings="mention")
    again = await table.command(BOB_ID, "board")
    assert "```" in again.content


async def test_a_games_own_thread_is_archived_a_while_after_the_game_ends(table, fake_discord):
    table.client.threads.archive_after = 0.05  # ten minutes in production
    reply = await table.command(
        ALICE_ID,
        "challenge",
        opponent=discord.Object(BOB_ID),
        ruleset="kalah:pits=2,seeds=1",
        thread=True,
    )
    thread = (await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/threads")).message
    card = await fake_discord.wait_for("POST", f"/channels/{thread['id']}/messages")
    await table.click(BOB_ID, card.message, "Accept")
    await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    assert not fake_discord.threads[thread["id"]]["thread_metadata"]["archived"]
    await table.send(slash(BOB_ID, "resign", channel_id=int(thread["id"])))
    for _ in range(100):  # archived about 0.05 s after the final board
        if fake_discord.threads[thread["id"]]["thread_metadata"]["archived"]:
            break
        await asyncio.sleep(0.05)
    (archive,) = [
        r
        for r in fake_discord.requests
        if r.method == "PATCH" and r.path == f"/channels/{thread['id']}"
    ]
    assert archive.body == {"archived": True}
    assert reply.content  # the challenger was answered in the channel


async def test_a_player_plays_the_ai_in_a_dm_with_the_bot(table, fake_discord):
    dm = 977000000000000001
    started = await table.send(in_dm(slash(ALICE_ID, "challenge", level=LEVEL), dm))
    assert (
        "thinking" not in started.content and f"<@{ALICE_ID}> to move (South)" in started.content
    )  # South (she) moves first; no opponent needed here: it is me
    assert started.body["data"]["attachments"][0]["filename"] == "board.png"
    game = await table.client.service.active_game(Channel("discord", str(dm)))
    assert game.north == Player.ai(LEVEL)
    moved = await table.click(ALICE_ID, started.message, "A")
    if moved.body.get("type") == 7:
        moved = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
    await table.client.service.idle()
    game = await table.client.service.get_game(game.id)
    assert game.moves[0] == "A" and len(game.moves) >= 2  # the AI answered
    person = await table.send(
        in_dm(slash(ALICE_ID, "challenge", opponent=discord.Object(BOB_ID)), dm)
    )
    assert person.ephemeral and "Challenge people in a server" in person.content
    settings = await table.send(in_dm(slash(ALICE_ID, "settings"), dm))
    assert settings.ephemeral and "belong to a server" in settings.content


async def established(service, a: Player, b: Player, rules: str, channel: Channel) -> None:
    """Play ``a`` and ``b`` rated games, each winning in turn, until both are established."""
    for n in range(13):  # two newcomers: under the provisional bound after 13 (docs/ratings.md)
        south, north = (a, b) if n % 2 else (b, a)
        game = await service.start_game(south, north, rules, channel)
        await service.resign(game.id, b if n % 2 else a)
    assert not (await service.rating(a, rules)).provisional


async def test_the_leaderboard_is_this_servers_with_everyones_on_request(table):
    board = await table.game_between_alice_and_bob("kalah:pits=2,seeds=1")
    await table.command(ALICE_ID, "resign")  # a rated game: Bob won
    service = table.client.service
    alice, bob = Player("discord", str(ALICE_ID)), Player("discord", str(BOB_ID))
    mine = await table.command(ALICE_ID, "leaderboard", ruleset="kalah:pits=2,seeds=1")
    assert "No established ratings of the `kalah` family yet (this server)" in mine.content
    assert "You: 1338? (0W 1L 0D)" in mine.content and "provisional" in mine.content
    await established(service, alice, bob, "kalah", Channel("discord", str(CHANNEL_ID)))
    stranger = Player("discord", "555")  # rated elsewhere: never seen on this server
    await established(
        service, stranger, Player("discord", "556"), "kalah", Channel("discord", "42")
    )
    here = await table.command(CAROL_ID, "leaderboard", ruleset="kalah:pits=2,seeds=1")
    assert "this server" in here.content and "Leaderboard · `kalah`" in here.content
    assert f"<@{BOB_ID}>" in here.content and f"<@{ALICE_ID}>" in here.content
    assert "<@555>" not in here.content and "no rated game" in here.content
    everywhere = await table.command(
        CAROL_ID, "leaderboard", ruleset="kalah:pits=2,seeds=1", everywhere=True
    )
    assert "everywhere" in everywhere.content and "<@555>" in everywhere.content
    assert board.content


async def test_the_leaderboard_with_an_opponent_shows_your_record_against_them(table):
    await table.game_between_alice_and_bob("wari")
    await table.command(ALICE_ID, "resign")
    service = table.client.service
    alice, bob = Player("discord", str(ALICE_ID)), Player("discord", str(BOB_ID))
    game = await service.start_game(alice, bob, "kalah:pits=3", Channel("discord", "9"))
    await service.offer_draw(game.id, alice)
    await service.accept_offer(game.id, bob)
    record = await table.command(ALICE_ID, "leaderboard", opponent=discord.Object(BOB_ID))
    assert record.content == (
        f"**You against <@{BOB_ID}>**\n`kalah`: 0W 0L 1D (1 game)\n`wari`: 0W 1L 0D (1 game)"
    )
    only = await table.command(
        BOB_ID, "leaderboard", opponent=discord.Object(ALICE_ID), ruleset="awale"
    )
    assert only.content == f"**You against <@{ALICE_ID}>**\n`wari`: 1W 0L 0D (1 game)"
    nobody = await table.command(CAROL_ID, "leaderboard", opponent=discord.Object(BOB_ID))
    assert nobody.content == f"No finished games between you and <@{BOB_ID}> yet."
    alone = await table.command(CAROL_ID, "leaderboard", opponent=discord.Object(CAROL_ID))
    assert alone.ephemeral and "two different players" in alone.content


# -- the solver's review ---------------------------------------------------------------------


async def test_a_final_board_offers_the_review_and_it_comes_with_its_graph(table, fake_discord):
    table.client.service.ai.kernel = NeverCompiled()  # a small board: plain Python proves it
    await table.game_between_alice_and_bob("kalah:seeds=1")
    await table.command(ALICE_ID, "move", pit="A")
    resigned = await table.command(BOB_ID, "resign")
    assert [b["label"] for b in resigned.buttons()] == ["Rematch", "Review this game"]

    deferred = await table.click(BOB_ID, resigned.message, "Review this game")
    assert deferred.body["type"] == 5  # deferred: the review takes its time
    done = await fake_discord.wait_for("PATCH", f"/webhooks/{APP_ID}/", timeout=60)
    content = done.body["content"]
    assert content.startswith("Game #1 (kalah:seeds=1), reviewed by the solver:")
    assert "Move 1, South played A: blunder" in content and len(content) <= 2000
    (name,) = done.files
    assert name.endswith(".png") and done.files[name][:8] == b"\x89PNG\r\n\x1a\n"
    (attachment,) = done.body["attachments"]
    assert attachment["description"].startswith("Evaluation graph of 1 move")

    again = await table.command(ALICE_ID, "review", game=1)  # kept: answered at once
    assert again.body["type"] == 4 and again.content == content


async def test_a_game_in_progress_is_not_reviewed_and_says_why(table):
    await table.game_between_alice_and_bob()
    reply = await table.command(ALICE_ID, "review", game=1)
    assert reply.ephemeral and "still going on" in reply.content
