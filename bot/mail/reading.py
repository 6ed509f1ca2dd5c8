"""Reading real mail: headers, the newest text of the body, and mail that must not be answered.

Messages are parsed with the standard library (``policy.default``). The body is the plain-text
part, else the HTML part turned into text; quoted lines (``>``), the quoted original under
"On ... wrote:" or Outlook's "From: / Sent:" block, and signatures are cut, so what is left is
what the sender wrote in this mail.

>>> mail = read_mail(b"From: Ann <ann@example.org>\\r\\nSubject: hi\\r\\n"
...                  b"Message-ID: <1@example.org>\\r\\n\\r\\nMove: C\\r\\n> Move: A\\r\\n"
...                  b"-- \\r\\nAnn\\r\\n")
>>> mail.sender, mail.text, mail.automatic
('ann@example.org', 'Move: C', None)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from email import policy
from email.header import decode_header, make_header
from email.message import EmailMessage, MIMEPart
from email.parser import BytesParser
from email.utils import getaddresses

from bot.mail.html_text import html_to_text
from bot.service.addresses import mailbox
from engine.errors import excerpt
from engine.inputs import DASHES

DEFAULT_MAX_BYTES = 1_048_576  # a phone's signature image fits; a mailbomb does not
# The standard library's parser recurses once per multipart or message/rfc822 level, so a
# mail of a few thousand nested parts raises RecursionError. Real mail nests a handful.
MAX_CONTAINERS = 100
SUBJECT_CHARS = 200  # what we read of a subject (and repeat in the reply's)
NAME_CHARS = 64  # a display name, as stored and shown to the opponent
_CONTAINER = re.compile(rb"^content-type:[ \t]*(?:\r?\n[ \t]+)?(?:multipart|message)/", re.I | re.M)


class MailTooLarge(ValueError):
    """The message is bigger than the configured limit; it is refused unread."""


@dataclass
class IncomingMail:
    """What the bot needs from one received message.

    Every field is checked at this boundary: addresses are usable SMTP mailboxes, message ids
    are well formed, names and the subject are one line of printable text, bounded. Nothing
    read here can put a line break into a header the bot writes.
    """

    message: EmailMessage
    sender: str  # where replies go: Reply-To, else From (an address, lowercased domain)
    from_address: str  # the From address, which never authorizes anything by itself
    subject: str
    message_id: str | None
    references: list[str]
    text: str  # the newest text: no quotes, no signature
    automatic: str | None  # why this must not be answered (bounce, auto-reply), else None
    recipients: list[str] = field(default_factory=list)  # envelope and header recipients
    from_name: str = ""  # the display name in From ("Ann Example"), if any
    in_reply_to: str | None = None
    refusal: str | None = None  # why the body was not read (too complex), for the log
    # (the reply says it in the reader's language: MailBot), else None
    nested_parts: int = 0  # with a refusal: how many nested parts the mail has
    content_language: str | None = None  # its Content-Language header ("fr", "de-CH, en")
    attribution_language: str | None = None  # of its quoted "On ..., Ann wrote:" line


def read_mail(
    raw: bytes,
    envelope_sender: str | None = None,
    envelope_recipients: Sequence[str] = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> IncomingMail:
    """Parse one message. ``envelope_sender`` is SMTP's MAIL FROM ('' for a bounce)."""
    if len(raw) > max_bytes:
        raise MailTooLarge(f"the message is {len(raw)} bytes; the limit is {max_bytes}")
    containers = len(_CONTAINER.findall(raw))
    refusal = None
    if containers > MAX_CONTAINERS:  # bound the nesting before the parser recurses into it
        refusal = (
            f"your mail has {containers} nested parts, and at most {MAX_CONTAINERS} "
            f"are read; please send the move as plain text"
        )
    message = BytesParser(policy=policy.default).parsebytes(raw, headersonly=bool(refusal))
    body = "" if refusal else body_text(message)
    names = _addresses(message, "From")
    from_address = names[0][1] if names else ""
    reply_to = _addresses(message, "Reply-To")
    sender = reply_to[0][1] if reply_to else from_address  # a usable address, or none
    recipients = [a for a in map(mailbox, envelope_recipients) if a]
    for name in ("To", "Cc", "Delivered-To", "X-Original-To"):
        recipients += [a for _, a in _addresses(message, name) if a not in recipients]
    return IncomingMail(
        message=message,
        sender=sender,
        from_address=from_address,
        subject=excerpt(_header(message, "Subject"), SUBJECT_CHARS) if "Subject" in message else "",
        message_id=_first_id(_header(message, "Message-ID", decode=False)),
        references=_message_ids(_header(message, "References", decode=False)),
        text=newest_text(body) if body else "",
        automatic=automatic_reason(message, envelope_sender, from_address),
        recipients=recipients,
        from_name=excerpt(names[0][0], NAME_CHARS) if names else "",
        in_reply_to=_first_id(_header(message, "In-Reply-To", decode=False)),
        refusal=refusal,
        nested_parts=containers if refusal else 0,
        content_language=excerpt(_header(message, "Content-Language"), 100) or None,
        attribution_language=quoted_language(body),
    )


def _raw_values(message: EmailMessage, name: str) -> list[str]:
    """The header's values as sent, unfolded, with raw 8-bit bytes decoded as text.

    Headers are read raw rather than through ``policy.default``'s parser: that parser raises
    on some malformed values, keeps undecodable bytes as surrogates, and refuses CR or LF
    that an encoded word decodes to, all of which real mail carries.
    """
    wanted = name.lower()
    return [
        _as_text(re.sub(r"\r?\n(?=[ \t])", "", value))
        for key, value in message.raw_items()
        if key.lower() == wanted
    ]


def _as_text(value: str) -> str:
    """Raw 8-bit header bytes (surrogate escapes) as UTF-8 if they are, else Windows-1252,
    which older clients send and which reads Latin-1 text as its writer meant it."""
    if value.isascii():
        return value
    data = value.encode("utf-8", "surrogateescape")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _decode_words(value: str) -> str:
    """RFC 2047 encoded words (=?utf-8?b?...?=) decoded; a broken one is left as it is."""
    if "=?" not in value:
        return value
    try:
        return str(make_header(decode_header(value)))
    except Exception:  # noqa: BLE001 - bad base64, unknown charset: keep the text as sent
        return value


def _header(message: EmailMessage, name: str, decode: bool = True) -> str:
    """The first value of a header as text ('' when absent), encoded words decoded."""
    if name not in message:  # cheap: no parsing for the common absent header
        return ""
    values = _raw_values(message, name)
    if not values:
        return ""
    return _decode_words(values[0]) if decode else values[0]


def _addresses(message: EmailMessage, name: str) -> list[tuple[str, str]]:
    """(display name, address) for each usable mailbox in the header; others are dropped."""
    if name not in message:
        return []
    found = []
    for display, address in getaddresses(_raw_values(message, name)):
        address = mailbox(address)
        if address:
            found.append((_decode_words(display), address))
    return found


_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}>")  # printable ASCII, no spaces, no < or >


def _first_id(value: str) -> str | None:
    found = _message_ids(value, 1)
    return found[0] if found else None


def _message_ids(value: str, limit: int = 50) -> list[str]:
    """The well-formed ids in a Message-ID, In-Reply-To or References value (at most
    ``limit``); anything else in it is ignored, so it can never reach a reply's headers."""
    return _MESSAGE_ID.findall(value[:20_000].encode("ascii", "ignore").decode())[:limit]


# --- which mail must never be answered (RFC 3834 and what real servers send) ---

_BOUNCE_SENDERS = re.compile(r"^(mailer-daemon|postmaster|noreply|no-reply|do-not-reply)@", re.I)
_AUTO_HEADERS = (
    "X-Autoreply",
    "X-Autorespond",
    "X-Auto-Response-Suppress-Reply",
    "X-Autogenerated",
    "X-Loop",
)


def automatic_reason(
    message: EmailMessage, envelope_sender: str | None = None, from_address: str = ""
) -> str | None:
    """Why a message must not get a reply (a bounce, an auto-reply, a list), or None.

    >>> from email import message_from_string, policy
    >>> msg = message_from_string("Auto-Submitted: auto-replied\\n\\nAway", policy=policy.default)
    >>> automatic_reason(msg)
    'Auto-Submitted: auto-replied'
    """
    if envelope_sender is not None and envelope_sender.strip("<> ") == "":
        return "an empty envelope sender (a bounce)"
    auto = _header(message, "Auto-Submitted").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    if message.get_content_type() == "multipart/report":
        return "a delivery or read report"
    precedence = _header(message, "Precedence").strip().lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in _AUTO_HEADERS:
        if _header(message, name):
            return f"a {name} header"
    if _header(message, "List-Id") or _header(message, "List-Unsubscribe"):
        return "mail from a mailing list"
    if _BOUNCE_SENDERS.match(from_address):
        return f"mail from {from_address}"
    if not from_address:
        return "no From address to answer"
    return None


# --- the body ---

# What Word, Outlook and phone keyboards put where a player typed ASCII: dashes and the minus
# sign for an empty pit's "-", full-width letters, digits and spaces (CJK input methods).
_PLAIN = str.maketrans(
    {
        **{dash: "-" for dash in DASHES},
        "\u3000": " ",
        **{chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)},
    }
)


def plain_forms(text: str) -> str:
    """``text`` with typographic dashes as "-" and full-width forms as ASCII.

    >>> plain_forms("４ – ４ — Ｃ")
    '4 - 4 - C'
    """
    return text.translate(_PLAIN)


def body_text(message: EmailMessage) -> str:
    """The plain-text body, else the HTML body as text; '' when there is neither. Dashes and
    full-width characters read as the ASCII the player meant (``plain_forms``)."""
    try:
        part = (
            message.get_body(preferencelist=("plain", "html"))
            if message.is_multipart()
            else message
        )
        content_type = part["Content-Type"] if part is not None else None
    except Exception:  # noqa: BLE001 - a broken MIME structure reads as no body
        return ""
    # Content-Type is parsed once here: parsing headers is most of the cost of a message
    subtype = getattr(content_type, "subtype", "plain") if content_type else "plain"
    if (
        part is None
        or getattr(content_type, "maintype", "text") != "text"
        or subtype not in ("plain", "html")
    ):
        return ""
    charset = (getattr(content_type, "params", {}) or {}).get("charset") if content_type else None
    text = _decoded(part, charset)
    if subtype == "html":
        text = html_to_text(text)
    return plain_forms(text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " "))


_CHARSET = re.compile(r"[A-Za-z0-9._:+-]{1,40}")


def _decoded(part: MIMEPart, charset: str | None) -> str:
    """The part's text: transfer encoding undone, then its charset; an unknown or lying
    charset falls back to UTF-8, then Latin-1 (which reads any byte)."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    if charset and not _CHARSET.fullmatch(charset):
        charset = None  # NULs, spaces, a novel: not a charset name Python should look up
    for name in (charset or "us-ascii", "utf-8"):
        try:
            return payload.decode(name)
        except (LookupError, UnicodeError, ValueError):  # ValueError: e.g. 'idna' on a dot
            continue
    return payload.decode("latin-1")


# How mail clients introduce quoted text, by language: the verb of "On <date>, Ann wrote:"
# (English, French, German, Spanish, Portuguese, Italian, Dutch, the Scandinavian languages,
# Finnish, Polish, Czech, Russian, Ukrainian, Kazakh, Turkish, Japanese, Chinese, Korean), by
# the language's code: a reply is answered in the language its client quotes in, when the
# player set none (``quoted_language``). The verb may stand last ("Ann wrote:") or before the
# name ("skrev Ann <ann@x.no>:").
_WROTE_BY_LANGUAGE = {
    "en": ("wrote", "writes"),
    "fr": ("a écrit",),
    "de": ("schrieb",),
    "es": ("escribió",),
    "pt": ("escreveu",),
    "it": ("ha scritto",),
    "nl": ("schreef",),
    "sv": ("skrev",),  # Danish and Norwegian too: none of them is a language the bot speaks
    "fi": ("kirjoitti",),
    "pl": ("napisał", "napisała", "napisał(a)", "pisze"),
    "cs": ("napsal", "napsala"),
    "ru": ("написал", "написала", "написал(а)", "пишет"),
    "uk": ("написав",),
    "kk": ("жазды",),
    "tr": ("yazdı",),
    "ja": ("のメッセージ",),
    "zh": ("写道", "寫道"),
    "ko": ("님이 작성",),
}
_WROTE = tuple(verb for verbs in _WROTE_BY_LANGUAGE.values() for verb in verbs)
_VERB_LANGUAGE = {verb: code for code, verbs in _WROTE_BY_LANGUAGE.items() for verb in verbs}
_ATTRIBUTION_END = re.compile(
    r"(?:" + "|".join(re.escape(verb) for verb in _WROTE) + r")(?:\s.{0,160})?\s*:\s*$"
    # no verb, as Gmail writes it in Japanese or Russian: "2026年11月22日 Ann <a@x>:"
    r"|<[^<>@\s]{1,64}@[^<>\s]{1,255}>\s*:\s*$",
    re.I,
)
# The verb an attribution line ends with, longest first ("napisał(a)" before "napisał").
_VERB_AT_END = re.compile(
    r"("
    + "|".join(re.escape(verb) for verb in sorted(_WROTE, key=len, reverse=True))
    + r")(?:\s.{0,160})?\s*:\s*$",
    re.I,
)
# Outlook quotes under a block of labelled headers; its subject's label names its language.
_OUTLOOK_SUBJECT = {
    "subject": "en",
    "objet": "fr",
    "betreff": "de",
    "asunto": "es",
    "assunto": "pt",
    "тема": "ru",
    "oggetto": "it",
    "onderwerp": "nl",
}
_SUBJECT_LABEL = re.compile(r"^\s*\*?(" + "|".join(_OUTLOOK_SUBJECT) + r")\s*:", re.I)
_ATTRIBUTION_START = re.compile(r"^(on|le|am|el|em|op|il|den|dnia|w dniu|dne|\d)", re.I)
# What a phone or webmail adds under the text: "Sent from my iPhone" in many languages.
_PHONE_FOOTERS = (
    "sent from my",
    "sent from outlook",
    "sent from yahoo",
    "get outlook for",
    "envoyé de mon",
    "envoyé depuis",
    "von meinem",
    "gesendet von",
    "enviado desde",
    "enviado do meu",
    "enviado de meu",
    "inviato da",
    "verzonden vanaf",
    "verstuurd vanaf",
    "skickat från",
    "sendt fra",
    "lähetetty",
    "wysłane z",
    "odesláno z",
    "отправлено с",
    "надіслано з",
    "iphoneから送信",
    "发自我的",
    "從我的",
    "나의 iphone에서",
)
_PHONE_FOOTER = re.compile(r"^\s*(?:" + "|".join(re.escape(f) for f in _PHONE_FOOTERS) + ")", re.I)
# A quoted original or a forwarded message, below the new text, without '>' quoting.
_ORIGINAL_MARKERS = re.compile(
    r"^\s*(-{2,}\s*(original message|ursprüngliche nachricht|message d'origine|"
    r"mensaje original|mensagem original|messaggio originale|oorspronkelijk bericht|"
    r"ursprungligt meddelande|opprinnelig melding|oprindelig meddelelse|"
    r"исходное сообщение)\s*-{2,}|_{10,})\s*$",
    re.I,
)
_FORWARD_MARKERS = re.compile(
    r"^\s*(-{2,}\s*(forwarded message|weitergeleitete nachricht|message transféré|"
    r"mensaje reenviado|mensagem encaminhada|messaggio inoltrato|doorgestuurd bericht|"
    r"vidarebefordrat meddelande|videresendt melding|videresendt meddelelse|"
    r"przekazana wiadomość|пересылаемое сообщение|転送されたメッセージ|转发的邮件)\s*-{2,}"
    r"|begin forwarded message\s*:|début du message réexpédié\s*:|"
    r"anfang der weitergeleiteten nachricht\s*:)\s*$",
    re.I,
)
_OUTLOOK_FROM = re.compile(
    r"^\s*\*?(from|de|von|van|från|fra|od|от|差出人|发件人)\s*:\*?\s*\S", re.I
)
_OUTLOOK_NEXT = re.compile(
    r"^\s*\*?(sent|date|envoyé|gesendet|datum|enviado|fecha|inviato|"
    r"verzonden|skickat|sendt|wysłano|отправлено|to|à|an|aan|para|a|"
    r"till|til|do|кому|subject|objet|betreff|asunto|assunto|oggetto|"
    r"onderwerp|ämne|emne|temat|тема|送信日時|件名|发送时间|主题)\s*:",
    re.I,
)
# The header lines atop a forwarded message, in the clients' languages ("Subject:", "Betreff:"):
# named, since an HTML forward can lose the blank line between them and the message.
_HEADER_LINE = re.compile(
    r"^\s*\*?(from|date|sent|to|cc|bcc|subject|reply-to|de|von|van|från|fra|od|от|envoyé|"
    r"gesendet|datum|enviado|fecha|inviato|verzonden|skickat|sendt|wysłano|отправлено|à|an|aan|"
    r"para|a|till|til|do|кому|objet|betreff|asunto|assunto|oggetto|onderwerp|ämne|emne|temat|"
    r"тема|kopie|差出人|送信日時|宛先|件名|发件人|发送时间|收件人|主题)\*?\s*:",
    re.I,
)


def newest_text(text: str) -> str:
    """What the sender wrote in this mail: quotes, quoted originals and signatures removed.
    A mail that only forwards another ("Begin forwarded message:") is read as the forwarded
    message; a mail with text of its own is read without it (never both).

    >>> newest_text("C please\\n\\nOn Mon, 3 Jan 2026, Bot wrote:\\n> Move: A\\n> B")
    'C please'
    >>> newest_text("On Mon, Bot <bot@x.org>\\nwrote:\\n> old\\n\\nnew move: D\\n--\\nsig")
    'new move: D'
    >>> newest_text("Den 22.11.2026 10:05, skrev Bot <bot@x.no>:\\n> A\\n\\nMove 2: E")
    'Move 2: E'
    >>> newest_text("---------- Forwarded message ---------\\nFrom: Ann\\nSubject: x\\n\\nMove: C")
    'Move: C'
    """
    lines = text.split("\n")
    own, forwarded = _split_forward(lines)
    newest = _newest(own)
    if not newest and forwarded is None and _unquoted(lines) != lines:
        own, forwarded = _split_forward(_unquoted(lines))  # the whole forward was quoted
    if not newest and forwarded is not None:
        return _newest(forwarded)
    return newest


def quoted_language(text: str) -> str | None:
    """The language of the client that quoted the mail this one answers: the verb of the
    first attribution line ("Le 3 mars 2026, Ann a écrit :" is French), else the subject's
    label of an Outlook header block ("Objet :"); None when neither says.

    >>> quoted_language("Vale\\n\\nEl 3 mar 2026, Ana escribió:\\n> Move: C")
    'es'
    >>> quoted_language("C\\n\\nAm 3. März 2026 um 10:00 schrieb Bot <bot@x.org>:\\n> A")
    'de'
    >>> quoted_language("C\\nDe : Bot\\nEnvoyé : mardi\\nÀ : Ann\\nObjet : wari")
    'fr'
    >>> quoted_language("C") is None
    True
    """
    lines = text.split("\n")[:2000]  # the newest quote is near the top
    for i, line in enumerate(lines):
        if len(line) >= 300:
            continue
        if _ATTRIBUTION_END.search(line) and (i > 0 or _is_attribution(lines, i)):
            verb = _VERB_AT_END.search(line)
            return _VERB_LANGUAGE.get(verb.group(1).lower()) if verb else None
        if _OUTLOOK_FROM.match(line) and any(_OUTLOOK_NEXT.match(x) for x in lines[i + 1 : i + 4]):
            labels = (_SUBJECT_LABEL.match(x) for x in lines[i + 1 : i + 7])
            found = next((label for label in labels if label), None)
            return _OUTLOOK_SUBJECT[found.group(1).lower()] if found else None
    return None


def _split_forward(lines: list[str]) -> tuple[list[str], list[str] | None]:
    """The lines before a forwarded (or quoted original) message, and that message's body:
    its header block of From:, Date:, Subject: lines skipped, one level of '>' quoting taken
    off (Apple Mail quotes what it forwards), if there is one."""
    for i, line in enumerate(lines):
        outlook_block = _OUTLOOK_FROM.match(line) and any(
            _OUTLOOK_NEXT.match(x) for x in lines[i + 1 : i + 4]
        )
        if _FORWARD_MARKERS.match(line) or _ORIGINAL_MARKERS.match(line) or outlook_block:
            rest = _unquoted(lines[i + (0 if outlook_block else 1) :])
            j = 0
            while j < len(rest) and (not rest[j].strip() or _HEADER_LINE.match(rest[j])):
                if not rest[j].strip() and j and _HEADER_LINE.match(rest[j - 1]):
                    j += 1
                    break  # the blank line after the headers: the message begins
                j += 1
            rest = [x.strip() if k == j else x for k, x in enumerate(rest)]
            return lines[:i], rest[j:]
    return lines, None


def _unquoted(lines: list[str]) -> list[str]:
    """``lines`` with one level of '>' taken off, when every written line has one."""
    written = [x for x in lines if x.strip()]
    if written and all(x.lstrip().startswith(">") for x in written):
        return [x.lstrip()[1:].removeprefix(" ") if x.strip() else x for x in lines]
    return lines


def _newest(lines: list[str]) -> str:
    kept: list[str] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if (
            line.rstrip() in ("--", "-- ")
            or _ORIGINAL_MARKERS.match(line)
            or _FORWARD_MARKERS.match(line)
        ):
            break  # a signature, or an original message quoted without '>' follows
        if _OUTLOOK_FROM.match(line) and any(_OUTLOOK_NEXT.match(x) for x in lines[i + 1 : i + 4]):
            break  # Outlook's header block above the original message
        if stripped.startswith(">") or _PHONE_FOOTER.match(line):
            continue
        if _is_attribution(lines, i):
            continue
        if _ATTRIBUTION_END.search(line) and len(line) < 300 and i > 0:
            break  # "On ..., X wrote:" over an original that is not '>'-quoted
        kept.append(line.rstrip())
    return "\n".join(kept).strip()


def _is_attribution(lines: list[str], i: int) -> bool:
    """ "On ..., X wrote:" (possibly wrapped onto two lines) when quoted lines follow."""
    line = lines[i]
    following = [x for x in lines[i + 1 : i + 3] if x.strip()]
    quoted_next = bool(following) and following[0].lstrip().startswith(">")
    if _ATTRIBUTION_END.search(line):
        previous = lines[i - 1] if i else ""
        wrapped = (
            i > 0
            and _ATTRIBUTION_START.match(previous.strip())
            and not _ATTRIBUTION_END.search(previous)
        )
        return quoted_next or not following or bool(wrapped)
    if _ATTRIBUTION_START.match(line.strip()) and i + 1 < len(lines):
        return bool(_ATTRIBUTION_END.search(lines[i + 1])) and len(line) < 200
    return False


RECORD_SUFFIXES = (".pgn", ".ogn", ".txt")  # the files a game record comes in


@dataclass(frozen=True)
class TextAttachment:
    """A text file attached to a mail: ``text`` is None when it is over the limit it was
    read with (then it is not decoded at all)."""

    filename: str
    size: int  # bytes, with the transfer encoding undone
    text: str | None


def text_attachments(message: EmailMessage, max_bytes: int) -> list[TextAttachment]:
    """The text files attached to ``message``: parts marked as attachments (or named) that
    are text/plain or whose name ends in one of ``RECORD_SUFFIXES`` (a PGN often comes as
    application/x-chess-pgn). The body itself is not one of them. Those of more than
    ``max_bytes`` bytes are listed without their text."""
    found: list[TextAttachment] = []
    try:
        parts = list(message.walk())  # the nesting is bounded by MAX_CONTAINERS already
    except Exception:  # noqa: BLE001 - a broken MIME structure has no attachments we read
        return []
    for part in parts:
        if part.is_multipart():
            continue
        filename = excerpt(part.get_filename() or "", 80)
        if part.get_content_disposition() != "attachment" and not filename:
            continue
        named = filename.lower().endswith(RECORD_SUFFIXES)
        if not named and part.get_content_type() != "text/plain":
            continue
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            continue
        if len(payload) > max_bytes:
            found.append(TextAttachment(filename, len(payload), None))
            continue
        text = _decoded(part, part.get_content_charset())
        found.append(TextAttachment(filename, len(payload), plain_forms(text)))
    return found
