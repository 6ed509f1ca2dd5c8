"""Reading real mail: the sample messages under tests/data/ (mail clients' quoting styles,
HTML-only, charsets, bounces, auto-replies, garbage) and the position-and-move answers."""

from __future__ import annotations

from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from bot.ai_runtime.pool import AIPool
from bot.mail.bot import MailBot
from bot.mail.html_text import html_to_text
from bot.mail.mail_settings import MailSettings
from bot.mail.reading import MailTooLarge, newest_text, read_mail
from engine import Position, Ruleset, parse_position

DATA = Path(__file__).parent / "data"
AFTER_E = Position.initial(Ruleset.parse("wari")).play("E")  # the board the samples send


def sample(name: str) -> bytes:
    return (DATA / name).read_bytes()


def board_in(text: str, rules: str = "wari", perspective: str = "south") -> Position:
    rows = [
        line
        for line in text.split("\n")
        if not line.lower().startswith(
            ("rules", "move", "side", "level", "your", "bonjour", "salut", "привет")
        )
    ]
    return parse_position(
        "\n".join(rows), Ruleset.parse(rules), to_move=perspective, perspective=perspective
    )


@pytest.mark.parametrize(
    "name",
    ["gmail_top_posted.eml", "thunderbird_bottom_posted.eml", "outlook_html_only_cp1252.eml"],
)
def test_the_newest_board_is_read_never_the_quoted_one(name):
    mail = read_mail(sample(name))
    assert mail.automatic is None
    assert "Move: C" in mail.text and "Move: A" not in mail.text
    assert board_in(mail.text).pits == AFTER_E.pits  # the quoted board was the initial one
    assert "Ann Example" not in mail.text  # Thunderbird's signature is gone


def test_gmail_html_part_drops_the_quote_too():
    message = BytesParser(policy=policy.default).parsebytes(sample("gmail_top_posted.eml"))
    html = message.get_body(("html",)).get_content()
    text = newest_text(html_to_text(html))
    assert "Move: C" in text and "Move: A" not in text
    assert board_in(text).pits == AFTER_E.pits


def test_charsets_are_decoded():
    outlook = read_mail(sample("outlook_html_only_cp1252.eml"))
    assert "voilà mon coup - renée" in outlook.text and outlook.sender == "renee@example.fr"
    iphone = read_mail(sample("apple_iphone_latin1.eml"))
    assert "Salut, José" in iphone.text and "Sent from my iPhone" not in iphone.text
    russian = read_mail(sample("koi8r_base64.eml"))
    assert russian.text.startswith("Привет! Мой ход.") and russian.subject == "Калах"
    unknown = read_mail(sample("unknown_charset.eml"))
    assert unknown.text == "Rules: wari"


def test_bounces_and_auto_replies_are_recognised():
    assert "report" in read_mail(sample("bounce_dsn.eml")).automatic
    assert "auto-replied" in read_mail(sample("out_of_office.eml")).automatic
    assert read_mail(sample("gmail_top_posted.eml"), envelope_sender="").automatic
    assert (
        read_mail(sample("gmail_top_posted.eml"), envelope_sender="ann@example.org").automatic
        is None
    )


def test_an_oversized_message_is_refused_unread():
    with pytest.raises(MailTooLarge, match="limit is 1024"):
        read_mail(sample("gmail_top_posted.eml"), max_bytes=1024)


@pytest.mark.parametrize(
    "text, newest",
    [
        ("E\n\nOn Mon, 1 Jan 2026 at 10:00, Bot <b@x> wrote:\n> Move: A", "E"),
        ("Le lun. 1 janv. 2026 à 10:00, Bot <b@x> a écrit :\n> A\n\nC", "C"),
        ("C\n\n-----Original Message-----\nFrom: Bot\nMove: A", "C"),
        ("C\n________________________________\nFrom: Bot\nSent: Monday\nMove: A", "C"),
        ("C\nFrom: Bot <b@x>\nSent: Monday\nTo: Ann\n\nMove: A", "C"),
        ("C\n-- \nAnn\n4 4 4 4 4 4", "C"),
    ],
)
def test_quoting_styles(text, newest):
    assert newest_text(text) == newest


@pytest.fixture
async def bot():
    opponent = AIPool()
    yield MailBot(
        MailSettings(bot_address="Mancala <mancala@bot.test>", secret=b"x" * 8, level="first"),
        opponent,
    )
    opponent.close()


async def test_a_position_mail_is_played_and_answered_in_its_thread(bot):
    [reply] = await bot.answer(sample("gmail_top_posted.eml"), "ann@example.org")
    assert reply["In-Reply-To"] == "<CAGmail123@mail.gmail.com>"
    assert reply["References"] == "<mancala.1@bot.test> <CAGmail123@mail.gmail.com>"
    assert reply["Subject"] == "Re: wari" and reply["To"] == "ann@example.org"
    body = reply.get_body(("plain",)).get_content()
    assert "You played C." in body and "I (first) played" in body
    after_c = AFTER_E.rules and Position.settled(AFTER_E.rules, AFTER_E.board, 0).play("C")
    # the reply's board is the AI's answer to C, written from Ann's side, ready to edit
    board = body.split("Level: first\n", 1)[1].split("Move:")[0]
    answered = parse_position(board, AFTER_E.rules, perspective="south")
    assert answered.to_move == "south"
    assert any(after_c.play(m).pits == answered.pits for m in after_c.legal_moves())


async def test_north_writes_from_their_side(bot):
    [reply] = await bot.answer(sample("apple_iphone_latin1.eml"), "jose@example.es")
    body = reply.get_body(("plain",)).get_content()
    assert "You played E." in body  # as José wrote it: his e is typed lowercase in the mail
    assert "Side: north" in body


async def test_garbage_gets_the_offending_line_and_the_format(bot):
    [reply] = await bot.answer(sample("garbage.eml"), "someone@example.net")
    body = reply.get_body(("plain",)).get_content()
    assert "> asdkj 12 qwe ::: ]]]" in body
    assert "Rules: wari" in body and "Move: E" in body  # the format's example


async def test_a_bad_count_is_quoted(bot):
    raw = (
        b"From: ann@example.org\r\nSubject: x\r\n\r\nRules: wari\r\nMove: A\r\n"
        b"4 4 4 4 4 4\r\n4 4 x 4 4 4\r\n"
    )
    [reply] = await bot.answer(raw, "ann@example.org")
    body = reply.get_body(("plain",)).get_content()
    assert "'x' is not a count" in body and "> 4 4 x 4 4 4" in body


async def test_bounces_and_auto_replies_get_no_answer(bot):
    assert await bot.answer(sample("bounce_dsn.eml"), "") == []
    assert await bot.answer(sample("out_of_office.eml"), "ann@example.org") == []
    # our own replies are marked automatic, so two bots never talk in a loop
    [reply] = await bot.answer(sample("unknown_charset.eml"), "ann@example.org")
    assert await bot.answer(reply.as_bytes(), "mancala@bot.test") == []


async def test_rules_alone_start_a_game_and_the_bot_opens_when_it_moves_first(bot):
    raw = b"From: ann@example.org\r\nSubject: new\r\n\r\nRules: kalah\r\nSide: north\r\n"
    [reply] = await bot.answer(raw, "ann@example.org")
    body = reply.get_body(("plain",)).get_content()
    assert "A new game of kalah; you play North." in body and "I (first) played" in body
    board = body.split("Level: first\n", 1)[1].split("Move:")[0]
    position = parse_position(board, Ruleset.parse("kalah"), perspective="north")
    assert position.to_move == "north" and sum(position.stores) >= 0
    assert position.pits[:6] != (4,) * 6  # South (the bot) has sown


async def test_mail_from_the_bots_own_address_is_never_answered(bot):
    raw = b"From: mancala+g1-abcdefghij@bot.test\r\nSubject: x\r\n\r\nRules: wari\r\n"
    assert await bot.answer(raw, "mancala@bot.test") == []
