"""Mail as hostile or broken senders send it: every such mail is read or refused, never a
crash, and nothing read from it reaches the headers of what the bot sends unchecked.

Each class of the robustness issue has its example here, through the real reader, the real
bot and a loopback SMTP relay (aiosmtpd), and in pipe mode with the exit status a mail server
acts on."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.mail.html_text import html_to_text
from bot.mail.mail_settings import MailSettings, MailSettingsError
from bot.mail.reading import MAX_CONTAINERS, mailbox, read_mail
from bot.mail.runner import EX_OK, EX_TEMPFAIL, pipe
from tests.mail.mail_support import Mailbox, free_port

HEAD = b"To: mancala@bot.test\r\nSubject: move\r\nMessage-ID: <h1@example.org>\r\n"
CRLF_BCC = b"=?utf-8?b?QW5uDQpCY2M6IGV2aWxAeC5vcmc=?="  # "Ann\r\nBcc: evil@x.org"


def settings_for(tmp_path, relay_port: int) -> MailSettings:
    return MailSettings(
        listen=("127.0.0.1", free_port()),
        relay=("127.0.0.1", relay_port),
        bot_address="mancala@bot.test",
        secret=b"test-secret",
        database=str(tmp_path / "games.sqlite3"),
    )


class StrictRelay(Mailbox):
    """A relay that refuses some recipients at RCPT, permanently (5xx) or for now (4xx), and
    does not offer SMTPUTF8, as many relays do not."""

    def __init__(self, refuse: dict[str, str]):
        super().__init__()
        self.refuse = refuse

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"


async def piped(tmp_path, raw: bytes, relay: Mailbox) -> tuple[int, list]:
    """Pipe ``raw`` through the bot with ``relay`` as its relay: (exit status, mails sent)."""
    before = len(relay.messages)
    status = await pipe(
        settings_for(tmp_path, relay.port), raw, "ann@example.org", ["mancala@bot.test"]
    )
    await asyncio.sleep(0.05)  # the relay has answered 250 before it files the message
    return status, relay.messages[before:]


@pytest.fixture
async def relay():
    box = await Mailbox().start()
    yield box
    await box.stop()


@pytest.mark.parametrize(
    "html, text",
    [
        ("<p>4 4<![if !supportLists]> <![endif]>5</p>", "4 4 5"),  # Outlook's conditionals
        ("<![foo[ x ]]><p>C</p>", "C"),  # a keyword html.parser does not know: it asserted
        ("<p><![ x", "<![ x"),  # a marked section with no end
        ("<div>Move: D<![CDATA[ ignored ]]></div>", "Move: D"),
    ],
)
def test_marked_sections_in_html_never_crash_the_reader(html, text):
    assert html_to_text(html) == text


def test_a_whole_html_mail_with_a_broken_marked_section_is_read():
    raw = (
        b"From: Ann <ann@example.org>\r\nTo: mancala@example.org\r\nSubject: move\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        b"<html><body><![if !mso]><p>Move: C</p><![endif]><![bogus[</body></html>\r\n"
    )
    mail = read_mail(raw)
    assert "Move: C" in mail.text


# --- raw 8-bit headers ---


def test_a_latin1_header_is_read_as_its_writer_meant_it():
    mail = read_mail(b"From: Jos\xe9 <jose@example.es>\r\nSubject: caf\xe9\r\n\r\nMove: E")
    assert (mail.from_name, mail.sender, mail.subject) == ("José", "jose@example.es", "café")
    utf8 = read_mail("From: José <jose@example.es>\r\n\r\nx".encode())
    assert utf8.from_name == "José"


async def test_a_latin1_name_reaches_the_opponent_and_the_database(tmp_path, relay):
    raw = b"From: Jos\xe9 <jose@example.es>\r\n" + HEAD + b"\r\nchallenge bob@example.org wari\r\n"
    status, sent = await piped(tmp_path, raw, relay)
    assert status == EX_OK
    [to_bob] = [m for m in sent if m["To"] == "bob@example.org"]
    assert "from José" in to_bob["Subject"]


# --- header injection ---


@pytest.mark.parametrize(
    "header",
    [
        b"Message-ID: " + CRLF_BCC,
        b"References: " + CRLF_BCC,
        b"In-Reply-To: " + CRLF_BCC,
        b"Subject: " + CRLF_BCC,
    ],
)
async def test_encoded_line_breaks_never_reach_a_reply_header(tmp_path, relay, header):
    raw = (
        b"From: ann@example.org\r\nTo: mancala@bot.test\r\n"
        + header
        + b"\r\n\r\nRules: wari\r\nMove: E\r\n"
    )
    status, [reply] = await piped(tmp_path, raw, relay)
    assert status == EX_OK
    assert "Bcc" not in reply and relay.envelopes[-1][1] == ["ann@example.org"]
    assert all("\n" not in str(v) and "\r" not in str(v) for v in reply.values())


async def test_a_name_that_decodes_to_a_line_break_is_one_line(tmp_path, relay):
    mail = read_mail(b"From: " + CRLF_BCC + b" <ann@example.org>\r\n\r\nhi")
    assert (mail.sender, mail.from_name) == ("ann@example.org", "Ann Bcc: evil@x.org")
    raw = (
        b"From: "
        + CRLF_BCC
        + b" <ann@example.org>\r\n"
        + HEAD
        + b"\r\nchallenge bob@example.org wari\r\n"
    )
    status, sent = await piped(tmp_path, raw, relay)
    assert status == EX_OK and sorted(m["To"] for m in sent) == [
        "ann@example.org",
        "bob@example.org",
    ]
    assert all(to == ["ann@example.org"] or to == ["bob@example.org"] for _, to in relay.envelopes)


# --- NUL bytes ---


async def test_nul_bytes_in_a_charset_or_header_are_harmless(tmp_path, relay):
    raw = (
        b"From: an\x00n <ann@example.org>\r\n" + HEAD + b"X-Thing: a\x00b\r\n"
        b'Content-Type: text/plain; charset="utf\x00-8"\r\n\r\nRules: wari\r\nMove: E\r\n'
    )
    mail = read_mail(raw)
    assert mail.text == "Rules: wari\nMove: E" and "\x00" not in mail.from_name
    status, [reply] = await piped(tmp_path, raw, relay)
    assert (
        status == EX_OK and "a Move: needs the board" in reply.get_body(("plain",)).get_content()
    )  # body read


# --- nesting ---


def nested(depth: int) -> bytes:
    return (
        b"From: ann@example.org\r\n"
        + HEAD
        + b"MIME-Version: 1.0\r\n"
        + b"".join(
            b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (i, i)
            for i in range(depth)
        )
        + b"\r\nRules: wari\r\nMove: E\r\n"
    )


async def test_deeply_nested_multipart_is_answered_as_too_complex(tmp_path, relay):
    assert read_mail(nested(MAX_CONTAINERS)).refusal is None
    mail = read_mail(nested(3000))
    assert mail.refusal and mail.text == "" and mail.sender == "ann@example.org"
    status, [reply] = await piped(tmp_path, nested(3000), relay)
    assert status == EX_OK and "3000 nested parts" in reply.get_body(("plain",)).get_content()


# --- odd charsets ---


@pytest.mark.parametrize("charset", [b"idna", b"cp437", b"utf-7", b"x-unknown", b"a b"])
async def test_odd_charsets_with_quoted_printable_are_answered(tmp_path, relay, charset):
    raw = (
        b"From: ann@example.org\r\n"
        + HEAD
        + b"Content-Type: text/plain; charset="
        + charset
        + b"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nRules: wari\r\nMove: E=\r\n"
        b"\r\n=82\r\n"
    )
    status, [reply] = await piped(tmp_path, raw, relay)
    assert status == EX_OK and reply["To"] == "ann@example.org"


# --- addresses ---


@pytest.mark.parametrize(
    "address, usable",
    [
        ("ann@example.org", "ann@example.org"),
        ("<Ann@Example.ORG>", "ann@example.org"),
        ("josé@exämple.es", "josé@exämple.es"),
        ("ann\x01@example.org", ""),
        ('"ann <ann@example.org>', ""),
        ("<>", ""),
        ("a" * 65 + "@example.org", ""),
        ("a@" + "b" * 250 + ".org", ""),
        ("ann@localhost", ""),
        ("ann @example.org", ""),
    ],
)
def test_only_usable_mailboxes_are_answered(address, usable):
    assert mailbox(address) == usable


@pytest.mark.parametrize(
    "sender",
    [
        b'"ann\x01" <ann\x01@example.org>',
        b'"ann <ann@example.org>',
        b"<>",
        b"a" * 300 + b"@example.org",
    ],
)
async def test_a_mail_from_an_unusable_address_gets_no_reply_and_no_retry(tmp_path, relay, sender):
    raw = b"From: " + sender + b"\r\n" + HEAD + b"\r\nRules: wari\r\nMove: E\r\n"
    assert read_mail(raw).automatic == "no From address to answer"
    status, sent = await piped(tmp_path, raw, relay)
    assert status == EX_OK and sent == []


async def test_an_unusable_reply_to_falls_back_to_from(tmp_path, relay):
    raw = (
        b"From: ann@example.org\r\nReply-To: <bad\x01@x.org>\r\n"
        + HEAD
        + b"\r\nRules: wari\r\nMove: E\r\n"
    )
    status, [reply] = await piped(tmp_path, raw, relay)
    assert status == EX_OK and reply["To"] == "ann@example.org"


async def test_a_challenge_to_an_unusable_address_is_refused_in_words(tmp_path, relay):
    raw = (
        b"From: ann@example.org\r\n"
        + HEAD
        + b"\r\nchallenge "
        + b"b" * 300
        + b"@example.org wari\r\n"
    )
    status, [reply] = await piped(tmp_path, raw, relay)
    assert (
        status == EX_OK
        and "not an email address this bot can write to" in reply.get_body(("plain",)).get_content()
    )
    assert "b" * 60 not in reply.get_body(("plain",)).get_content()  # quoted as a short excerpt


# --- permanent and temporary refusals ---


async def test_a_permanent_refusal_is_logged_and_not_retried(tmp_path, caplog):
    strict = await StrictRelay({"ann@example.org": "550 5.1.1 no such user"}).start()
    try:
        raw = b"From: ann@example.org\r\n" + HEAD + b"\r\nRules: wari\r\nMove: E\r\n"
        with caplog.at_level(logging.WARNING):
            status, sent = await piped(tmp_path, raw, strict)
        assert status == EX_OK and sent == []
        assert "refused for good" in caplog.text
        # a non-ASCII address and a relay without SMTPUTF8: permanent as well
        raw = "From: josé@example.es\r\n".encode() + HEAD + b"\r\nRules: wari\r\nMove: E\r\n"
        status, sent = await piped(tmp_path, raw, strict)
        assert status == EX_OK and sent == []
    finally:
        await strict.stop()


async def test_a_temporary_refusal_stays_temporary(tmp_path):
    strict = await StrictRelay({"ann@example.org": "451 4.3.0 try later"}).start()
    try:
        raw = b"From: ann@example.org\r\n" + HEAD + b"\r\nRules: wari\r\nMove: E\r\n"
        status, sent = await piped(tmp_path, raw, strict)
        assert status == EX_TEMPFAIL and sent == []
    finally:
        await strict.stop()


# --- settings ---


@pytest.mark.parametrize(
    "name, value",
    [
        ("MANCALA_MAIL_MAX_BYTES", "¹⁰²⁴⁰"),
        ("MANCALA_MAIL_MAX_BYTES", "9" * 5000),
        ("MANCALA_MAIL_RELAY", "host:①"),
        ("MANCALA_MAIL_RELAY_TLS", "x\x1b[31m"),
    ],
)
def test_bad_mail_settings_are_refused_in_one_clean_line(name, value):
    with pytest.raises(MailSettingsError) as refused:
        MailSettings.from_environ({name: value, "MANCALA_MAIL_SECRET": "test-secret"})
    message = str(refused.value)
    assert name in message and len(message) < 200 and message.isprintable()
