"""Mail through a real Postfix, set up as deploy/postfix.md's "B. Pipe mode" says
(tests/mail/postfix_server.py): players send over SMTP to Postfix, which pipes each message to
``mancala mail --pipe`` as the unprivileged ``mancala`` user; the bot relays its replies
back through the same Postfix, which delivers them to the players' Maildirs, read here.

A position mail, a bounce, a correspondence game between two players by plus addresses and
subject tags, and a relay outage: the pipe exits 75, Postfix keeps the message, and the
reply arrives once the relay is back and the queue is flushed. Last, a database the bot
cannot write defers the mail rather than bouncing it.
"""

from __future__ import annotations

import re
from email.message import EmailMessage

import pytest

from tests.mail.postfix_server import (
    BOT_ADDRESS,
    BOT_DOMAIN,
    PLAYERS_DOMAIN,
    PostfixServer,
    free_port,
    running_postfix,
)

pytestmark = pytest.mark.slow  # a Postfix started and stopped per test: a few seconds each

ANN = f"ann@{PLAYERS_DOMAIN}"
BOB = f"bob@{PLAYERS_DOMAIN}"

# deploy/postfix.md's "Checking it" mail: wari, Ann (South) plays E from the opening
POSITION_MAIL = "Rules: wari\nMove: E\n\n4 4 4 4 4 4\n4 4 4 4 4 4\n"
# ... and the answer of the AI at the .env's level, first: North's first pit, a
AFTER_E_AND_A = "   f  e  d  c  b  a\n   5  5  5  6  6  -\n   4  4  4  4  -  5\n   A  B  C  D  E  F"


@pytest.fixture
def postfix():
    with running_postfix() as server:
        yield server


def mail(
    sender: str,
    body: str,
    *,
    subject: str,
    message_id: str,
    to: str = BOT_ADDRESS,
    answering: EmailMessage | None = None,
    language: str | None = None,
) -> bytes:
    """A plain-text mail as a client writes it; with ``answering``, it carries the
    threading headers of a reply to that message."""
    name = sender.partition("@")[0].title()
    headers = [
        f"From: {name} <{sender}>",
        f"To: {to}",
        f"Subject: {subject}",
        f"Message-ID: {message_id}",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
    ]
    if language is not None:
        headers.append(f"Content-Language: {language}")
    if answering is not None:
        references = f"{answering.get('References', '')} {answering['Message-ID']}".strip()
        headers += [f"In-Reply-To: {answering['Message-ID']}", f"References: {references}"]
    return ("\r\n".join(headers) + "\r\n\r\n" + body.replace("\n", "\r\n")).encode()


def reply_to(
    postfix: PostfixServer, message: EmailMessage, sender: str, body: str, message_id: str
) -> str:
    """Answer the bot's ``message`` with ``body`` as a mail client's Reply does: to its
    Reply-To (the plus address with the token), keeping its subject (the tag)."""
    address = message["Reply-To"]
    raw = mail(
        sender,
        body,
        subject="Re: " + message["Subject"],
        message_id=message_id,
        to=address,
        answering=message,
    )
    return postfix.send(raw, sender, address)


def text(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None, f"no text/plain part in {message['Subject']!r}"
    return part.get_content()


def assert_from_the_bot(message: EmailMessage, to: str) -> None:
    """Sent by the bot, marked automatic, and carried by this Postfix to ``to``."""
    assert message["From"] == f"Mancala <{BOT_ADDRESS}>"
    assert message["To"] == to
    assert message["Auto-Submitted"] == "auto-replied"
    assert message["Return-Path"] == f"<{BOT_ADDRESS}>"  # the envelope Postfix delivered
    assert message["Delivered-To"] == to


def assert_answers(reply: EmailMessage, message_id: str) -> None:
    """``reply`` is threaded under the mail ``message_id``."""
    assert reply["In-Reply-To"] == message_id
    assert message_id in reply["References"].split()


def tag_and_token(message: EmailMessage, kind: str) -> tuple[int, str]:
    """The subject tag's number and token; the Reply-To plus address must carry the same."""
    found = re.search(rf"\[mancala {kind} (\d+) ([a-z2-7]+)\]", message["Subject"])
    assert found, message["Subject"]
    number, token = int(found.group(1)), found.group(2)
    assert message["Reply-To"] == f"mancala+{kind[0]}{number}-{token}@{BOT_DOMAIN}"
    return number, token


def test_a_position_mail_is_answered_with_the_ais_move(postfix):
    postfix.send(
        mail(ANN, POSITION_MAIL, subject="wari", message_id="<pos1@players.test>"),
        ANN,
        BOT_ADDRESS,
    )
    [reply] = postfix.wait_for_mail(ANN, 1)
    assert_from_the_bot(reply, ANN)
    assert reply["Subject"] == "Re: wari"
    assert_answers(reply, "<pos1@players.test>")
    body = text(reply)
    assert "You played E. I (first) played a." in body
    assert AFTER_E_AND_A in body


def test_a_french_player_gets_french_text_and_html_with_the_board_pictured(postfix):
    """A mail written in French (Content-Language) is answered in French, as text and as
    HTML showing the board's picture inline; the notation the reply is read by stays."""
    postfix.send(
        mail(ANN, POSITION_MAIL, subject="awalé", message_id="<fr1@players.test>", language="fr"),
        ANN,
        BOT_ADDRESS,
    )
    [reply] = postfix.wait_for_mail(ANN, 1)
    assert_from_the_bot(reply, ANN)
    assert_answers(reply, "<fr1@players.test>")
    assert reply["Content-Language"] == "fr"
    assert reply.get_content_type() == "multipart/alternative"
    plain, related = reply.get_payload()
    assert plain.get_content_type() == "text/plain"
    assert "Vous avez joué E" in plain.get_content() and "You played" not in plain.get_content()
    assert AFTER_E_AND_A in plain.get_content()  # the 003 board, unchanged
    assert related.get_content_type() == "multipart/related"
    html_part, *images = related.get_payload()
    html = html_part.get_content()
    assert html_part.get_content_type() == "text/html" and 'lang="fr"' in html
    assert images and all(image.get_content_type() == "image/png" for image in images)
    for image in images:
        cid = image["Content-ID"].strip("<>")
        assert f'src="cid:{cid}"' in html
        assert image.get_content().startswith(b"\x89PNG")
    assert re.search(r'<img [^>]*alt="[^"]{20,}"', html)  # the board in words, for readers
    assert len(reply.as_bytes()) < 100_000


def test_a_bounce_is_not_answered(postfix):
    """The same mail with an empty envelope sender, as a delivery report has: the pipe hands
    the bot an empty --sender (null_sender=), and the bot stays silent."""
    queue_id = postfix.send(
        mail(ANN, POSITION_MAIL, subject="wari", message_id="<bounce@players.test>"),
        "",
        BOT_ADDRESS,
    )
    postfix.wait_until_settled(queue_id)
    # delivered to the bot, which said why it did not answer, and nothing came back
    delivery = postfix.delivery_to_bot(queue_id)
    assert "status=sent (delivered via mancala service" in delivery
    assert "not answering ann@players.test: an empty envelope sender" in delivery
    assert postfix.mailbox(ANN) == []


def test_a_correspondence_game_by_plus_addresses_and_subject_tags(postfix):
    # Ann challenges Bob: each gets their own thread, tag and token
    postfix.send(
        mail(ANN, f"challenge {BOB} wari", subject="a game?", message_id="<c1@players.test>"),
        ANN,
        BOT_ADDRESS,
    )
    [ann_challenge] = postfix.wait_for_mail(ANN, 1)
    [bob_challenge] = postfix.wait_for_mail(BOB, 1)
    assert_from_the_bot(ann_challenge, ANN)
    assert_from_the_bot(bob_challenge, BOB)
    assert_answers(ann_challenge, "<c1@players.test>")
    challenge, ann_token = tag_and_token(ann_challenge, "challenge")
    assert tag_and_token(bob_challenge, "challenge")[0] == challenge
    assert tag_and_token(bob_challenge, "challenge")[1] != ann_token
    assert "Ann challenges you" in text(bob_challenge)

    # Bob replies "accept" to his mail: to its plus address, in its thread
    reply_to(postfix, bob_challenge, BOB, "accept", "<accept@players.test>")
    ann_start = postfix.wait_for_mail(ANN, 2)[-1]
    bob_start = postfix.wait_for_mail(BOB, 2)[-1]
    assert_answers(bob_start, "<accept@players.test>")
    game, ann_game_token = tag_and_token(ann_start, "game")
    assert tag_and_token(bob_start, "game")[0] == game
    assert "Your move, move 1" in text(ann_start)
    assert "Waiting for Ann" in text(bob_start)

    # Ann replies with a bare pit: the move number comes from the board she answers
    reply_to(postfix, ann_start, ANN, "E", "<move1@players.test>")
    ann_moved = postfix.wait_for_mail(ANN, 3)[-1]
    bob_turn = postfix.wait_for_mail(BOB, 3)[-1]
    assert_answers(ann_moved, "<move1@players.test>")
    assert tag_and_token(ann_moved, "game") == (game, ann_game_token)
    assert "You played E (move 1)" in text(ann_moved)
    # the board from each player's side: their own pits A-F on the bottom row
    assert "   4  4  4  5  5  5\n   4  4  4  4  -  5\n   A  B  C  D  E  F" in text(ann_moved)
    assert "Ann played e." in text(bob_turn)
    assert "Your move, move 2" in text(bob_turn)
    assert "   5  -  4  4  4  4\n   5  5  5  4  4  4\n   A  B  C  D  E  F" in text(bob_turn)
    # Bob's news stays in his game thread, under the game's first mail to him
    assert bob_turn["References"].split()[0] == bob_start["References"].split()[0]
    for message in postfix.mailbox(ANN) + postfix.mailbox(BOB):
        assert message["Auto-Submitted"] == "auto-replied"


def test_a_relay_outage_defers_the_mail_until_postfix_retries(postfix):
    # the bot's replies go to a port where nothing listens: it cannot answer, so it exits
    # 75 (EX_TEMPFAIL), which pipe(8) reports as "temporary failure", and Postfix defers
    postfix.write_env(relay=f"127.0.0.1:{free_port()}")
    queue_id = postfix.send(
        mail(ANN, POSITION_MAIL, subject="wari", message_id="<retry@players.test>"),
        ANN,
        BOT_ADDRESS,
    )
    [deferred] = postfix.wait_until(
        lambda: [
            entry
            for entry in postfix.queue_entries()
            if entry["queue_name"] == "deferred" and entry["queue_id"] == queue_id
        ],
        "the message in the deferred queue",
    )
    [recipient] = deferred["recipients"]
    assert recipient["address"] == BOT_ADDRESS
    assert recipient["delay_reason"].startswith("temporary failure.")
    assert "cannot answer now, will retry" in recipient["delay_reason"]
    assert postfix.mailbox(ANN) == []

    # the relay is back: the retry delivers the message, and Ann gets her answer, once
    postfix.write_env()
    postfix.flush()
    [reply] = postfix.wait_for_mail(ANN, 1)
    postfix.wait_until_settled(queue_id)
    assert len(postfix.mailbox(ANN)) == 1
    assert_answers(reply, "<retry@players.test>")
    assert AFTER_E_AND_A in text(reply)


def test_a_database_the_bot_cannot_write_defers_the_mail(postfix):
    """A mistake in the bot's setup keeps players' mail until the operator fixes it, as a
    setting it cannot read does (exit 75)."""
    read_only = postfix.root / "read-only"  # root's: the bot's user may not write in it
    read_only.mkdir()
    postfix.write_env(database=read_only / "mancala.sqlite3")
    queue_id = postfix.send(
        mail(ANN, POSITION_MAIL, subject="wari", message_id="<setup@players.test>"),
        ANN,
        BOT_ADDRESS,
    )
    delivery = postfix.wait_until(lambda: postfix.delivery_to_bot(queue_id), "a delivery")
    assert "status=deferred (temporary failure." in delivery
