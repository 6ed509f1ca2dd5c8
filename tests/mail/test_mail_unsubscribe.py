"""Stopping mail, end to end over real SMTP on loopback (bot/mail/unsubscribe.py,
bot/mail/stop_mail.py): every mail the bot sends, of every kind, carries List-Unsubscribe
(and the one-click form where the web companion is); ``stop`` by mail, or a mail client's
unsubscribe button (the subject ``stop`` and the address's token), silences the address for
good and resigns its games, telling the opponent why (a bare ``stop``, which anyone could
send in the address's name, only stops the mail); a stopped address gets nothing more, not even what the
service makes for it, and hears how to start again when it writes; ``start`` in reply to one
of those answers lifts the stop."""

from __future__ import annotations

import dataclasses
import re
from email.message import EmailMessage
from urllib.parse import unquote

import pytest

from bot.mail.unsubscribe import ONE_CLICK
from bot.service import Player
from bot.tokens import Tokens
from tests.mail.mail_support import Mailbox, mail, send_raw
from tests.mail.test_mail_tournaments import BOT, Post

ANN, BOB, CAT = "ann@example.org", "bob@example.org", "cat@example.org"
WEB = "https://mancala.example"
DAY = 86400.0
TAGS = {  # what a mail is, by its subject
    "challenge": re.compile(r"\[mancala challenge \d+ "),
    "game": re.compile(r"^\[mancala game \d+ "),
    "digest": re.compile(r"^\[mancala digest \d+ "),
    "puzzle": re.compile(r"\[mancala puzzle "),
    "reply": re.compile(r"^Re: "),
}


@pytest.fixture
async def post(tmp_path):
    mailbox = await Mailbox().start()
    post = Post(tmp_path, mailbox)
    post.clock.set(1_767_596_400.0 - 2 * 3600)  # a Monday, 05:00 UTC
    yield post
    await post.close()
    await mailbox.stop()


async def with_web(post: Post) -> Post:
    post.settings = dataclasses.replace(post.settings, web_url=WEB)
    await post.open()
    return post


def expected_header(address: str, web: str | None) -> str:
    token = Tokens(b"test-secret").unsubscribe_token(address)
    mailto = f"<mailto:{BOT}?subject=stop%20{token}>"
    if web is None:
        return mailto
    return f"{mailto}, <{web}/unsubscribe/{token}>"


async def game_between(post: Post, challenger: str, opponent: str) -> int:
    await post.send(challenger, f"challenge {opponent} wari 3 days")
    accepted = await post.send(opponent, "accept", answering=post.inbox(opponent)[-1])
    return int(re.search(r"\[mancala game (\d+) ", accepted["Subject"]).group(1))


async def tick(post: Post) -> None:
    assert post.service is not None
    await post.service.tick()
    await post.service.idle()


async def test_every_kind_of_mail_carries_list_unsubscribe_with_one_click(post):
    await with_web(post)
    await post.send(ANN, "help")
    game = await game_between(post, BOB, ANN)
    await post.send(BOB, "C", answering=post.game_mail(BOB, game))  # Ann's move now
    await post.send(ANN, "digest on", answering=post.game_mail(ANN, game))
    await post.send(CAT, "puzzle")
    await post.send(CAT, "tournament create swiss kalah 2 days Spring")
    for _quarter in range(12):  # the digest each morning at 07:00, a reminder, the forfeit
        post.clock.advance(DAY / 4)
        await tick(post)
    kinds = set()
    for message in post.mailbox.messages:
        address = message["To"]
        assert message["List-Unsubscribe"] == expected_header(address, WEB), message["Subject"]
        assert message["List-Unsubscribe-Post"] == ONE_CLICK
        kinds |= {kind for kind, tag in TAGS.items() if tag.search(message["Subject"])}
        if "Reminder:" in post.text(message):
            kinds.add("reminder")
    assert kinds == {"challenge", "game", "digest", "puzzle", "reply", "reminder"}


async def test_without_the_web_companion_only_the_mailto_form_and_no_one_click(post):
    await post.open()
    reply = await post.send(ANN, "help")
    assert reply["List-Unsubscribe"] == expected_header(ANN, None)
    assert reply["List-Unsubscribe-Post"] is None  # RFC 8058: only beside an https address


async def test_stop_resigns_the_games_tells_the_opponent_and_silences_the_address(post):
    await with_web(post)
    game = await game_between(post, BOB, ANN)
    confirmed = await post.send(ANN, "stop", answering=post.game_mail(ANN, game))
    said = post.text(confirmed)
    assert "I will send no more mail to ann@example.org" in said
    assert "1 game of yours in progress is resigned" in said and "'start'" in said
    assert post.service is not None
    ended = await post.service.get_game(game)
    assert ended.is_over and ended.outcome.winner == ended.side_of(Player("email", BOB))
    assert "Ann resigned, as they asked me to stop mailing them" in post.text(
        post.game_mail(BOB, game)
    )
    inbox = len(post.inbox(ANN))

    # a challenge to her is refused to its sender, and nothing reaches her
    refused = await post.send(CAT, f"challenge {ANN} wari")
    assert "asked me to stop mailing it" in post.text(refused)
    for _day in range(3):
        post.clock.advance(DAY)
        await tick(post)
    assert len(post.inbox(ANN)) == inbox

    # whatever she writes gets one short answer, and is not acted on
    answer = await post.send(ANN, "games")
    assert "asked me to stop mailing it" in post.text(answer)
    assert "Your games" not in post.text(answer)
    assert answer["List-Unsubscribe"] == expected_header(ANN, WEB)

    # "start" lifts it only in reply to one of these answers: a From line alone could be
    # anyone undoing her unsubscribing
    asked = await post.send(ANN, "start")
    assert "reply 'start' to this mail" in post.text(asked)
    assert await post.service.mail_stopped(Tokens(b"test-secret").address_key(ANN))
    assert "[mancala stop " in asked["Subject"]
    started = await post.send(ANN, "start", answering=asked)
    assert "I will mail ann@example.org again" in post.text(started)
    helped = await post.send(ANN, "help")
    assert "Playing by mail" in post.text(helped)
    await post.send(CAT, f"challenge {ANN} wari")
    assert "challenges you" in post.text(post.inbox(ANN)[-1])


async def test_mail_the_service_makes_for_a_stopped_address_is_dropped(post):
    """A stop that another process recorded, in the middle of a game: the opponent's move
    makes a mail for the stopped address, which the relay drops (one read of the table)."""
    await post.open()
    game = await game_between(post, BOB, ANN)
    assert post.service is not None
    key = Tokens(b"test-secret").address_key(ANN)
    await post.service.mail_stops.stop_store.stop(key, post.clock())
    before = len(post.inbox(ANN))
    await post.send(BOB, "C", answering=post.game_mail(BOB, game))
    assert (await post.service.get_game(game)).moves == ("C",)
    assert len(post.inbox(ANN)) == before


async def test_the_unsubscribe_button_of_a_mail_client_stops_and_resigns(post):
    """The button sends a mail to the mailto of List-Unsubscribe: its subject carries the
    address's token, proof enough to resign the games."""
    await post.open()
    game = await game_between(post, BOB, ANN)
    header = post.game_mail(ANN, game)["List-Unsubscribe"]
    subject = unquote(re.search(r"subject=([^>]+)>", header).group(1))
    raw = mail("", subject=subject, sender=ANN, to=BOT, message_id="<button.ann@example.org>")
    before = len(post.inbox(ANN))
    await send_raw(post.settings.listen[1], raw, ANN, [BOT])
    assert post.service is not None
    await post.service.idle()
    assert "I will send no more mail to ann@example.org" in post.text(post.inbox(ANN)[before])
    assert await post.service.mail_stopped(Tokens(b"test-secret").address_key(ANN))
    assert (await post.service.get_game(game)).is_over


async def test_a_bare_stop_in_someone_elses_name_stops_mail_but_resigns_nothing(post):
    """A From line proves nothing: the mail stops (its owner hears of it, and can start
    again), but nobody can resign another's games by writing 'stop' in their name."""
    await post.open()
    game = await game_between(post, BOB, ANN)
    told = await post.send(ANN, "stop")  # not a reply: no token of hers
    assert "I will send no more mail to ann@example.org" in post.text(told)
    assert "Your games in progress go on" in post.text(told)
    assert post.service is not None
    assert not (await post.service.get_game(game)).is_over
    await post.send(ANN, "start", answering=told)  # the owner, who got the confirmation
    assert not await post.service.mail_stopped(Tokens(b"test-secret").address_key(ANN))


def test_a_long_address_keeps_its_link_on_one_line():
    """The SMTP policy would write a long URL as encoded words; the header stays readable."""
    from email import message_from_bytes, policy

    from bot.mail.unsubscribe import mark

    message = EmailMessage()
    address = "a" * 60 + "@" + "b" * 60 + ".example.org"
    message["To"] = address
    message.set_content("x")
    mark(message, BOT, WEB, Tokens(b"test-secret"))
    sent = message.as_bytes(policy=policy.SMTP)
    assert b"=?utf-8?" not in sent
    read = message_from_bytes(sent, policy=policy.default)
    assert read["List-Unsubscribe"] == expected_header(address, WEB)
