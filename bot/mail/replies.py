"""Outgoing mail: threaded replies and notifications, always marked as automatic. Every mail
the bot sends is built here.

Every message the bot sends carries ``Auto-Submitted: auto-replied`` (RFC 3834), so other
robots do not answer it, and threads with what it answers: ``In-Reply-To`` names the mail
answered and ``References`` the whole chain, so mail clients show one conversation.

Each is multipart/alternative: first the plain text, which a player quotes back or copies a
board from, then the same text in HTML (``bot.mail.html_mail``) with each board in a
monospace block and its picture inline, in a multipart/related beside it (``cid:``), for the
phone mail apps that show plain text in a proportional font. A mail stays under 100 KB.

>>> from bot.mail.reading import read_mail
>>> mail = read_mail(b"From: ann@example.org\\r\\nSubject: my game\\r\\n"
...                  b"Message-ID: <1@example.org>\\r\\nReferences: <0@example.org>\\r\\n\\r\\nhi")
>>> reply = build_reply(mail, "Hello", "Mancala <mancala@bot.example>")
>>> reply["To"], reply["Subject"], reply["In-Reply-To"], reply["References"]
('ann@example.org', 'Re: my game', '<1@example.org>', '<0@example.org> <1@example.org>')
>>> reply["Auto-Submitted"]
'auto-replied'
>>> [part.get_content_type() for part in reply.walk()]
['multipart/alternative', 'text/plain', 'text/html']
>>> reply.get_body(("plain",)).get_content()
'Hello'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from email.message import EmailMessage, MIMEPart
from email.utils import formatdate, make_msgid, parseaddr

from bot.mail.html_mail import html_mail, transfer_encoding
from bot.mail.reading import IncomingMail
from engine import Position

_RE_PREFIX = re.compile(r"^\s*((re|aw|sv|antw|réf|ref)\s*:\s*)+", re.I)
_MAX_REFERENCES = 20  # RFC 5322 lets the chain grow; mail servers dislike huge headers


def reply_subject(subject: str) -> str:
    """One 'Re: ' in front, however many the client stacked.

    >>> reply_subject("Re: RE: Aw: wari"), reply_subject("")
    ('Re: wari', 'Re: your mancala mail')
    """
    bare = _RE_PREFIX.sub("", subject).strip()
    return f"Re: {bare or 'your mancala mail'}"


def new_message(
    to: str,
    subject: str,
    body: str,
    bot_address: str,
    reply_to: str | None = None,
    in_reply_to: str | None = None,
    references: list[str] | None = None,
    positions: Sequence[Position] = (),
    links: Sequence[str] = (),
) -> EmailMessage:
    """A mail from the bot: ``body`` as plain text (UTF-8, so boards and names survive any
    client), and as HTML with the pictures of the boards it holds. ``positions``, where the
    caller knows them, are the positions those boards show (``html_mail.find_boards``);
    ``links`` are the addresses in ``body`` that the HTML makes links of."""
    message = EmailMessage()
    _set(message, "From", bot_address)
    _set(message, "To", to)
    _set(message, "Subject", subject)
    _set(message, "Date", formatdate(localtime=False))
    _set(message, "Message-ID", make_msgid(domain=_domain(bot_address)))
    _set(message, "Auto-Submitted", "auto-replied")
    _set(message, "X-Auto-Response-Suppress", "All")  # Exchange: no out-of-office replies
    if reply_to:
        _set(message, "Reply-To", reply_to)
    if in_reply_to:
        _set(message, "In-Reply-To", in_reply_to)
    if references:
        _set(message, "References", " ".join(references[-_MAX_REFERENCES:]))
    _set(message, "MIME-Version", "1.0")
    message.make_alternative()
    message.set_payload(
        [_plain_part(body), _html_part(body, _domain(bot_address), positions, links)]
    )
    return message


def _plain_part(body: str) -> MIMEPart:
    """The text/plain part: ``body`` as it is, 7bit where it can be (``transfer_encoding``:
    base64 for Cyrillic, which quoted-printable would triple)."""
    part = MIMEPart()
    encoding = transfer_encoding(body)
    if encoding == "7bit":
        part.set_raw("Content-Type", 'text/plain; charset="utf-8"')
        part.set_raw("Content-Transfer-Encoding", "7bit")
        part.set_payload(body)
    else:
        part.set_content(body, charset="utf-8", cte=encoding)
    return part


def _html_part(
    body: str, domain: str, positions: Sequence[Position], links: Sequence[str] = ()
) -> MIMEPart:
    """The text/html part, in a multipart/related with the pictures it shows."""
    mail = html_mail(body, domain, positions, links=links)
    part = MIMEPart()
    encoding = transfer_encoding(mail.html)
    part.set_content(mail.html, subtype="html", charset="utf-8", cte=encoding)
    for number, picture in enumerate(mail.pictures, 1):
        part.add_related(
            picture.png,
            "image",
            "png",
            cid=f"<{picture.cid}>",
            disposition="inline",
            filename=f"board-{number}.png",
        )
    if mail.pictures:
        part.set_param("type", "text/html")  # RFC 2387: the type of the related's root
    return part


def _set(message: EmailMessage, name: str, value: str) -> None:
    """Set a header. A short ASCII value on one line is stored as it is: parsing every header
    we write (what ``message[name] = value`` does) was a third of the cost of a reply. Any
    other value goes through the parser, which encodes it.

    Control characters become spaces whatever the value's source: the reader checks what it
    takes from a mail, and this is the last line against header injection.
    """
    if not value.isprintable():
        value = "".join(c if c.isprintable() else " " for c in value)
    if value.isascii() and len(value) < 500:
        message.set_raw(name, value)
    else:
        message[name] = value


def build_reply(
    mail: IncomingMail,
    body: str,
    bot_address: str,
    to: str | None = None,
    subject: str | None = None,
    reply_to: str | None = None,
    positions: Sequence[Position] = (),
    links: Sequence[str] = (),
) -> EmailMessage:
    """Answer ``mail`` in its thread (by default to its sender, with 'Re: ' its subject).
    ``positions`` and ``links``: see ``new_message``."""
    references = list(mail.references)
    if mail.message_id and mail.message_id not in references:
        references.append(mail.message_id)
    return new_message(
        to or mail.sender,
        subject or reply_subject(mail.subject),
        body,
        bot_address,
        reply_to=reply_to,
        in_reply_to=mail.message_id,
        references=references,
        positions=positions,
        links=links,
    )


def _domain(address: str) -> str:
    addr = parseaddr(address)[1] or address
    return addr.rpartition("@")[2] or "localhost"


def line_in_question(line: str) -> str:
    """The line a reply refers to, quoted as a short clean excerpt: at most 200 characters,
    any single runaway word cut to 40, control characters gone.

    >>> line_in_question("challenge " + "b" * 300 + "@example.org")
    '> challenge bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb…'
    """
    from engine.errors import excerpt

    words = [w if len(w) <= 40 else w[:39] + "…" for w in line.split()]
    return "> " + excerpt(" ".join(words), 200)
