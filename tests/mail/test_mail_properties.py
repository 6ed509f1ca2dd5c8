"""Property tests (hypothesis) on the mail parsers: any input gives a result or a clear error.

"Clear error" means the parser's own exception type with a message, never a crash from deep
inside; and a board the bot writes is always read back as the same position.
"""

from __future__ import annotations

import asyncio
from email.message import EmailMessage

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.ai_runtime.pool import AIPool
from bot.mail.bot import MailBot
from bot.mail.html_text import html_to_text
from bot.mail.mail_commands import Command, CommandError, parse_command
from bot.mail.mail_settings import MailSettings
from bot.mail.position_mail import MailFormatError, parse_position_mail, reply_text
from bot.mail.reading import MailTooLarge, newest_text, read_mail
from engine import render, to_perspective
from tests.strategies import random_game_positions, rulesets

LEVELS = ("first",)
MAIL_TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400)
# text built from the pieces a position mail is made of, so the parser's deeper paths run
PIECES = st.sampled_from(
    [
        "Rules: wari",
        "Rules: kalah",
        "Rules: oware:pits=4",
        "Rules: nope",
        "Side: north",
        "Side: west",
        "Level: first",
        "Level: hard",
        "Move: E",
        "Move: c",
        "Move: E F",
        "Move: 9",
        "    f  e  d  c  b  a",
        "    A  B  C  D  E  F",
        "4  4  4  4  4  4",
        "4 4 4 5 5 5",
        "4 4 4 4 - 5",
        "0 0",
        "12 0",
        "Captured: North 2, South 3.",
        "South to move.",
        "North to move; last move b.",
        "> 4 4 4 4 4 4",
        "-- ",
        "hello",
        "",
        "4 x 4",
        "- - -",
    ]
)


@given(st.binary(max_size=2000))
def test_any_bytes_read_as_a_mail(raw):
    mail = read_mail(raw, max_bytes=1500) if len(raw) <= 1500 else None
    if mail is not None:
        assert isinstance(mail.text, str) and isinstance(mail.subject, str)


@given(st.binary(min_size=1501, max_size=1600))
def test_too_large_is_refused(raw):
    try:
        read_mail(raw, max_bytes=1500)
    except MailTooLarge as err:
        assert "limit is 1500" in str(err)
    else:
        raise AssertionError("an oversized message was read")


@given(
    headers=st.dictionaries(
        st.sampled_from(
            [
                "From",
                "Reply-To",
                "Subject",
                "Message-ID",
                "References",
                "Auto-Submitted",
                "Precedence",
                "To",
                "Content-Type",
                "Content-Transfer-Encoding",
                "In-Reply-To",
            ]
        ),
        MAIL_TEXT.map(lambda s: s.replace("\r", " ").replace("\n", " ")),
        max_size=8,
    ),
    body=MAIL_TEXT,
)
def test_any_headers_and_body_read_as_a_mail(headers, body):
    raw = "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n" + body
    mail = read_mail(raw.encode("utf-8", "surrogatepass"))
    assert mail.automatic is None or isinstance(mail.automatic, str)


@given(MAIL_TEXT)
def test_html_and_quote_stripping_never_fail(text):
    assert isinstance(html_to_text(text), str)
    assert isinstance(newest_text(text), str)
    assert not any(line.startswith(">") for line in newest_text(text).split("\n"))


@given(st.one_of(MAIL_TEXT, st.lists(PIECES, max_size=12).map("\n".join)))
def test_any_text_gives_a_position_mail_or_a_clear_error(text):
    try:
        mail = parse_position_mail(text, LEVELS)
    except MailFormatError as err:
        assert err.problem and err.explain(LEVELS).startswith("I could not read your mail: ")
    else:
        assert mail.side in ("south", "north") and mail.level in LEVELS


@given(MAIL_TEXT)
def test_any_text_gives_a_command_or_none_or_a_clear_error(text):
    try:
        command = parse_command(text)
    except CommandError as err:
        assert str(err)
    else:
        assert command is None or isinstance(command, Command)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=rulesets(),
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 30),
    side=st.sampled_from(["south", "north"]),
)
def test_the_bots_reply_reads_back_as_the_same_position(rules, seed, plies, side):
    """Whatever the game, the board in a reply parses back to the position it shows."""
    position = list(random_game_positions(rules, seed, plies))[-1][0]
    if position.is_over():
        return
    from bot.mail.position_mail import PositionMail

    mail = PositionMail(rules, side, "first", position, [], started=False)
    text = reply_text(mail, position, [], []).split("\n", 2)[2]  # after the prose line
    if position.to_move == side:  # the sender edits the reply: a move on the Move: line
        text = text.replace("Move: ", "Move: " + to_perspective(position.legal_moves()[0], side))
    again = parse_position_mail(text, LEVELS)
    assert again.rules == rules and again.side == side
    assert again.position == position
    assert render(again.position, side) == render(position, side)


@settings(max_examples=40, deadline=None)
@given(MAIL_TEXT)
def test_the_bot_answers_any_text_with_one_threaded_automatic_reply(body):
    bot = MailBot(
        MailSettings(bot_address="mancala@bot.test", secret=b"x" * 8),
        AIPool(workers=0),
        levels=LEVELS,
    )
    raw = ("From: ann@example.org\r\nMessage-ID: <p@x>\r\nSubject: t\r\n\r\n" + body).encode()
    replies = asyncio.run(bot.answer(raw, "ann@example.org"))
    assert len(replies) == 1 and isinstance(replies[0], EmailMessage)
    assert replies[0]["Auto-Submitted"] == "auto-replied" and replies[0]["In-Reply-To"] == "<p@x>"


def test_any_text_in_a_game_gets_one_answer_and_never_breaks_the_game(tmp_path):
    """Random replies to a running correspondence game, through the real service: each gets
    exactly one answer to the seat's own address, and the game stays consistent."""
    from bot.mail import runner
    from bot.mail.tokens import Tokens
    from bot.service import Channel, GameService, Notifier, Player

    loop = asyncio.new_event_loop()
    config = MailSettings(
        relay=("127.0.0.1", 9),
        bot_address="mancala@bot.test",
        secret=b"test-secret",
        database=str(tmp_path / "g.sqlite3"),
    )
    service = loop.run_until_complete(GameService.open(config.database, tick_every=None))
    surface = loop.run_until_complete(runner.open_surface(config, service=service, ai_workers=0))
    service.add_notifier("email", Notifier())  # Bob need not hear: there is no relay here
    ann, bob = Player("email", "ann@example.org"), Player("email", "bob@example.org")
    game = loop.run_until_complete(service.start_game(ann, bob, "wari", Channel("email", "t")))
    token = Tokens(b"test-secret").token("game", game.id, "south")

    @settings(max_examples=60, deadline=None)
    @given(
        st.one_of(
            MAIL_TEXT,
            st.sampled_from(
                [
                    "E",
                    "Move 1: E",
                    "Move 9: A",
                    "resign",
                    "draw",
                    "accept",
                    "decline",
                    "undo",
                    "board",
                    "games",
                    "challenge",
                    "challenge nobody",
                    "z",
                    "Move: Q",
                ]
            ),
        )
    )
    def reply(body):
        raw = (
            f"From: mallory@example.org\r\nSubject: Re: [mancala game {game.id} {token}]"
            f"\r\nMessage-ID: <r@x>\r\n\r\n{body}"
        ).encode()
        answers = loop.run_until_complete(surface.bot.answer(raw, "mallory@example.org"))
        assert len(answers) == 1
        # the token speaks for South: her answers go to her address, never to the From
        assert answers[0]["To"] in ("ann@example.org", "mallory@example.org")
        view = loop.run_until_complete(service.get_game(game.id))
        assert view.ply == len(view.moves) and sum(view.position.board) == 48

    try:
        reply()
    finally:
        loop.run_until_complete(service.close())
        loop.run_until_complete(surface.close())
        loop.close()
