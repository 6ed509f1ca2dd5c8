"""A Discord player challenges an email address, and the game runs across both surfaces.

Everything is real but the far ends: ``mancala bot``'s coroutine (``serve``) with mail settings
runs the Discord client against the loopback fake of Discord (tests/discord/discord_fake.py) and the
mail surface's SMTP server on one game service and one SQLite file; the email player's mail
server is an aiosmtpd mailbox on loopback (tests/mail/mail_support.py), which is also the relay the
bot mails through. The email player acts only with the tokens the bot mailed them.
"""

from __future__ import annotations

import asyncio
import contextlib
from email.message import EmailMessage
from functools import partial

import discord
import pytest

from bot.discord.client import serve
from bot.discord.discord_settings import Settings
from bot.mail.mail_settings import MailSettings
from bot.mail.runner import start_mail_surface
from bot.service import GameService, Player
from tests.discord.discord_fake import (
    ALICE_ID,
    APP_ID,
    BOB_ID,
    CHANNEL_ID,
    GUILD_ID,
    click,
    slash,
)
from tests.mail.mail_support import Mailbox, free_port, mail, send_raw

ANN = "ann@example.org"
BOT_ADDRESS = "mancala@bot.test"


class BothSurfaces:
    """One running ``serve`` with mail, and the two players' ends: Alice's Discord client
    (raw gateway payloads through the fake) and Ann's mailbox."""

    def __init__(self, fake, mailbox: Mailbox, mail_port: int):
        self.fake, self.mailbox, self.mail_port = fake, mailbox, mail_port
        self.read = 0  # how many of the mailbox's messages the test has looked at
        self.sent = 0

    async def interact(self, payload: dict):
        """Send an interaction over the gateway; the bot's first answer to it."""
        self.fake.expect(payload)
        await self.fake.dispatch("INTERACTION_CREATE", payload)
        return await self.fake.reply_to(payload["id"])

    async def command(self, user: int, sub: str, **options):
        return await self.interact(slash(user, sub, **options))

    async def next_mail(self) -> EmailMessage:
        """The next mail the bot sent (to anyone), waiting for it."""
        messages = await self.mailbox.wait_for(self.read + 1)
        self.read += 1
        return messages[self.read - 1]

    async def reply(self, to: EmailMessage, body: str, sender: str = ANN) -> None:
        """Answer the bot's mail ``to`` the way a mail client's Reply does: to its Reply-To,
        with its subject and In-Reply-To (which carry the token and the move number)."""
        self.sent += 1
        address = to["Reply-To"].addresses[0].addr_spec
        raw = mail(
            body,
            subject=f"Re: {to['Subject']}",
            sender=sender,
            to=address,
            message_id=f"<reply{self.sent}@example.org>",
            extra=f"In-Reply-To: {to['Message-ID']}\r\nReferences: {to['Message-ID']}\r\n",
        )
        await send_raw(self.mail_port, raw, sender, [address])

    def channel_posts(self) -> list:
        return [
            r
            for r in self.fake.requests
            if r.method == "POST" and r.path == f"/channels/{CHANNEL_ID}/messages"
        ]


def text_of(message: EmailMessage) -> str:
    return message.get_body(("plain",)).get_content()


@contextlib.asynccontextmanager
async def running_bot(fake, database: str, with_mail: bool = True):
    mailbox = await Mailbox().start()
    mail_settings = (
        MailSettings(
            listen=("127.0.0.1", free_port()),
            relay=("127.0.0.1", mailbox.port),
            bot_address=f"Mancala <{BOT_ADDRESS}>",
            secret=b"s" * 32,
            database=database,
        )
        if with_mail
        else None
    )
    # as ``mancala bot`` does with MANCALA_MAIL_ADDRESS: Discord starts the mail surface beside it
    beside = partial(start_mail_surface, settings=mail_settings) if mail_settings else None
    task = asyncio.create_task(
        serve("fake-token", Settings(guild_id=GUILD_ID, database=database), beside)
    )
    try:
        await asyncio.wait_for(fake.identified.wait(), 10)
        await fake.wait_for("PUT", f"/applications/{APP_ID}/")  # commands synced: ready
        yield BothSurfaces(fake, mailbox, mail_settings.listen[1] if mail_settings else 0)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)
        await mailbox.stop()


@pytest.fixture
def database(tmp_path) -> str:
    return str(tmp_path / "games.sqlite3")


async def stored_game(database: str, game_id: int):
    """The game as the SQLite file has it, read by a fresh service after the bot stopped."""
    async with await GameService.open(database, tick_every=None) as service:
        return await service.get_game(game_id)


async def test_a_game_between_discord_and_email_from_challenge_to_moves(fake_discord, database):
    async with running_bot(fake_discord, database) as both:
        # Alice challenges Ann's address; Ann is to move first
        card = await both.command(
            ALICE_ID, "challenge", ruleset="wari", email=" Ann@Example.ORG", first="opponent"
        )
        assert not card.ephemeral
        assert f"<@{ALICE_ID}> challenges an…@example.org (by email)" in card.content
        assert ANN not in card.content  # the channel does not get her address
        assert card.buttons() == []  # nobody on Discord answers for her
        assert card.data["allowed_mentions"]["users"] == []  # she asked: no ping for her
        confirm = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
        assert confirm.ephemeral and ANN in confirm.content

        # the challenge mail reaches Ann, with her token
        challenge_mail = await both.next_mail()
        assert challenge_mail["To"].addresses[0].addr_spec == ANN
        assert "[mancala challenge 1 " in challenge_mail["Subject"]
        assert challenge_mail["Reply-To"].addresses[0].addr_spec.startswith("mancala+c1-")
        assert "alice challenges you to a game of wari" in text_of(challenge_mail)

        # Ann accepts by replying: the game mail comes back to her, the channel sees the board
        await both.reply(challenge_mail, "accept")
        game_mail = await both.next_mail()
        assert game_mail["To"].addresses[0].addr_spec == ANN
        assert "[mancala game 1 " in game_mail["Subject"]
        body = text_of(game_mail)
        assert "You accepted: the game begins." in body
        assert "You play South against alice" in body and "Your move, move 1" in body
        accepted = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")
        assert "Challenge accepted." in accepted.content and "```" in accepted.content
        assert (
            "an…@example.org (by email) to move (South): waiting for their move by email"
            in accepted.content
        )
        assert accepted.buttons() == []  # Alice cannot move for Ann

        # Ann moves by mail (a bare letter: the reply's In-Reply-To says which move)
        await both.reply(game_mail, "C")
        answer = await both.next_mail()
        assert "You played C (move 1)." in text_of(answer)
        assert "Waiting for alice (move 2)" in text_of(answer)
        board = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")
        assert "an…@example.org (by email) played **C**." in board.content
        assert f"<@{ALICE_ID}> to move (North)" in board.content
        enabled = [b for b in board.buttons() if not b.get("disabled")]
        assert [b["label"] for b in enabled] == ["f", "e", "d", "c", "b", "a"]

        # Alice moves by button; Ann's next mail shows it, in the same thread with her token
        d_button = next(b for b in enabled if b["label"] == "d")
        clicked = await both.interact(click(ALICE_ID, d_button["custom_id"], board.message))
        assert clicked.body["type"] == 7  # the clicked board loses its buttons
        shown = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
        assert "Last move: **d**" in shown.content
        told = await both.next_mail()
        assert told["To"].addresses[0].addr_spec == ANN
        assert told["Subject"] == game_mail["Subject"]
        body = text_of(told)
        assert body.startswith("alice played d.")  # a pit of her top row
        assert "Your move, move 3" in body

        # and Ann's next move from that mail goes through
        await both.reply(told, "Move 3: A")
        assert "You played A (move 3)." in text_of(await both.next_mail())
        again = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")
        assert "played **A**" in again.content
    game = await stored_game(database, 1)
    assert game.moves == ("C", "d", "A")
    assert game.south == Player("email", ANN) and game.north == Player("discord", str(ALICE_ID))
    assert game.channel.surface == "discord" and game.channel.id == str(CHANNEL_ID)


async def test_a_last_move_by_mail_posts_the_result_once(fake_discord, database):
    async with running_bot(fake_discord, database) as both:
        await both.command(
            ALICE_ID, "challenge", ruleset="kalah:pits=1,seeds=1", email=ANN, first="opponent"
        )
        await both.reply(await both.next_mail(), "accept")
        accepted = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")
        assert "Challenge accepted." in accepted.content
        await both.reply(await both.next_mail(), "A")  # the only move: the game ends
        assert "You played A (move 1)." in text_of(await both.next_mail())
        over = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")
        assert "played **A**" in over.content and "Game over" in over.content
        await both.command(ALICE_ID, "games")  # a round trip after the notifier's posts
        assert sum("Game over" in r.content for r in both.channel_posts()) == 1


async def test_offers_cross_over_and_an_accepted_draw_ends_the_game_once(fake_discord, database):
    async with running_bot(fake_discord, database) as both:
        await both.command(ALICE_ID, "challenge", ruleset="kalah", email=ANN)
        await both.reply(await both.next_mail(), "accept")
        game_mail = await both.next_mail()
        await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")  # accepted

        # Ann offers a draw by mail; Alice declines it with the board's button
        await both.reply(game_mail, "draw")
        assert "You offered: draw." in text_of(await both.next_mail())
        offered = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")
        assert f"<@{ALICE_ID}>: accept or decline with the buttons" in offered.content
        decline = next(b for b in offered.buttons() if b["label"] == "Decline draw")
        await both.interact(click(ALICE_ID, decline["custom_id"], offered.message))
        told = await both.next_mail()
        assert text_of(told).startswith("alice declined your draw offer.")

        # Alice offers a draw on Discord; Ann accepts by mail; the channel shows the end once
        offer = await both.command(ALICE_ID, "draw")
        assert "an…@example.org (by email) answers by email." in offer.content
        assert [b["label"] for b in offer.buttons()] == ["A", "B", "C", "D", "E", "F"]
        offer_mail = await both.next_mail()
        assert text_of(offer_mail).startswith("alice offers a draw.")
        await both.reply(offer_mail, "accept")
        assert "You accepted the offer." in text_of(await both.next_mail())
        ended = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")
        assert "accepted the draw offer" in ended.content and "A draw." in ended.content
        await both.command(ALICE_ID, "games")  # a round trip after the notifier's posts
        assert sum("Game over" in r.content for r in both.channel_posts()) == 1
    game = await stored_game(database, 1)
    assert game.is_over and game.outcome.winner == "draw"


async def test_a_game_by_mail_in_its_own_thread(fake_discord, database):
    async with running_bot(fake_discord, database) as both:
        card = await both.command(ALICE_ID, "challenge", ruleset="wari", email=ANN, thread=True)
        thread = next(r for r in fake_discord.requests if r.path.endswith("/threads"))
        assert thread.body["name"] == "wari: alice vs an…@example.org"  # no address in public
        thread_id = thread.message["id"]
        assert f"<#{thread_id}>" in card.content
        await fake_discord.wait_for("POST", f"/channels/{thread_id}/messages")  # the card
        await both.reply(await both.next_mail(), "accept")
        board = await fake_discord.wait_for("POST", f"/channels/{thread_id}/messages")
        assert "Challenge accepted." in board.content
        assert f"<@{ALICE_ID}> to move (South)" in board.content and board.buttons()
    game = await stored_game(database, 1)
    assert game.channel.id == thread_id


async def test_a_decline_by_mail_is_told_in_the_channel(fake_discord, database):
    async with running_bot(fake_discord, database) as both:
        await both.command(ALICE_ID, "challenge", ruleset="kalah", email=ANN)
        await both.reply(await both.next_mail(), "decline")
        assert "You declined the challenge." in text_of(await both.next_mail())
        told = await fake_discord.wait_for("POST", f"/channels/{CHANNEL_ID}/messages")
        assert "Challenge declined." in told.content
        assert told.data["allowed_mentions"]["users"] == [ALICE_ID]


async def test_a_mail_without_the_token_does_not_answer_the_challenge(fake_discord, database):
    async with running_bot(fake_discord, database) as both:
        await both.command(ALICE_ID, "challenge", ruleset="kalah", email=ANN)
        challenge_mail = await both.next_mail()
        # someone who knows the challenge number but not the token
        raw = mail("accept", subject="Re: [mancala challenge 1]", sender=ANN)
        await send_raw(both.mail_port, raw, ANN, [BOT_ADDRESS])
        refusal = await both.next_mail()
        assert "does not carry the secret token" in text_of(refusal)
        await both.reply(challenge_mail, "accept")  # the real reply still works
        assert "the game begins" in text_of(await both.next_mail())


@pytest.mark.parametrize(
    "options, expected",
    [
        ({"email": "ann@"}, "'ann@' is not an email address; write one like ann@example.org."),
        ({"email": "Ann <ann@example.org>"}, "is not an email address"),
        ({"email": "ann@example"}, "is not an email address"),
        ({"email": "ann@@example.org"}, "is not an email address"),
        ({"email": "Mancala+c1-abc@bot.test"}, "That is my own address"),
        ({"email": ANN, "opponent": discord.Object(BOB_ID)}, "opponent or email, not both"),
        ({}, "Whom do you challenge?"),
        ({"email": ANN, "level": "first"}, "level is for games against me"),
    ],
)
async def test_a_bad_email_challenge_is_refused_privately(
    fake_discord, database, options, expected
):
    async with running_bot(fake_discord, database) as both:
        reply = await both.command(ALICE_ID, "challenge", ruleset="kalah", **options)
        assert reply.ephemeral and expected in reply.content
        await both.command(ALICE_ID, "games")
    assert both.mailbox.messages == []  # nobody was mailed
    async with await GameService.open(database, tick_every=None) as service:
        assert await service.open_challenges(Player("discord", str(ALICE_ID))) == []


async def test_without_mail_settings_email_challenges_are_refused(fake_discord, database):
    async with running_bot(fake_discord, database, with_mail=False) as both:
        reply = await both.command(ALICE_ID, "challenge", ruleset="kalah", email=ANN)
        assert reply.ephemeral
        assert "Email play is not enabled on this bot" in reply.content
        assert "MANCALA_MAIL_ADDRESS" in reply.content
        card = await both.command(
            ALICE_ID, "challenge", ruleset="kalah", opponent=discord.Object(BOB_ID)
        )
        assert not card.ephemeral  # Discord challenges work as before
    async with await GameService.open(database, tick_every=None) as service:
        [only] = await service.open_challenges(Player("discord", str(ALICE_ID)))
        assert only.opponent == Player("discord", str(BOB_ID))
