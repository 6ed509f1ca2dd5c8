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
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses

from bot.mail.html_text import html_to_text

DEFAULT_MAX_BYTES = 1_048_576  # a phone's signature image fits; a mailbomb does not


class MailTooLarge(ValueError):
    """The message is bigger than the configured limit; it is refused unread."""


@dataclass
class IncomingMail:
    """What the bot needs from one received message."""

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


def read_mail(raw: bytes, envelope_sender: str | None = None,
              envelope_recipients: list[str] | tuple = (),
              max_bytes: int = DEFAULT_MAX_BYTES) -> IncomingMail:
    """Parse one message. ``envelope_sender`` is SMTP's MAIL FROM ('' for a bounce)."""
    if len(raw) > max_bytes:
        raise MailTooLarge(f"the message is {len(raw)} bytes; the limit is {max_bytes}")
    message = BytesParser(policy=policy.default).parsebytes(raw)
    from_address = _first_address(message, "From")
    sender = _first_address(message, "Reply-To") or from_address
    recipients = [r.lower() for r in envelope_recipients]
    for name in ("To", "Cc", "Delivered-To", "X-Original-To"):
        recipients += [a for a in _addresses(message, name) if a not in recipients]
    return IncomingMail(
        message=message,
        sender=sender,
        from_address=from_address,
        subject=" ".join(_header(message, "Subject").split()),
        message_id=_header(message, "Message-ID").strip() or None,
        references=_header(message, "References").split(),
        text=newest_text(body_text(message)),
        automatic=automatic_reason(message, envelope_sender, from_address),
        recipients=recipients,
        from_name=_display_name(message),
    )


def _header(message: EmailMessage, name: str) -> str:
    # policy.default parses headers lazily and a malformed one can raise deep inside the
    # stdlib's parser; a header we cannot read is treated as absent rather than crash.
    if name not in message:  # cheap: parsing a header (policy.default) is the costly part
        return ""
    try:
        value = message.get(name)
    except Exception:  # noqa: BLE001 - any parser failure means "unreadable header"
        return ""
    return str(value) if value is not None else ""


def _addresses(message: EmailMessage, name: str) -> list[str]:
    if name not in message:
        return []
    try:
        found = [a.addr_spec for value in message.get_all(name) or []
                 for a in getattr(value, "addresses", ())]
    except Exception:  # noqa: BLE001 - see _header
        found = []
    if not found:  # a header the strict parser rejects: the lenient parser may still read it
        try:
            found = [addr for _, addr in getaddresses([str(v) for v in message.get_all(name)])]
        except Exception:  # noqa: BLE001 - see _header
            return []
    return [_normal_address(addr) for addr in found if "@" in addr]


def _display_name(message: EmailMessage) -> str:
    try:
        addresses = message["From"].addresses if "From" in message else ()
        return " ".join(addresses[0].display_name.split()) if addresses else ""
    except Exception:  # noqa: BLE001 - see _header
        return ""


def _first_address(message: EmailMessage, name: str) -> str:
    found = _addresses(message, name)
    return found[0] if found else ""


def _normal_address(address: str) -> str:
    """Domains are case-insensitive; local parts in practice too (we compare, never route)."""
    return address.strip().strip("<>").lower()


# --- which mail must never be answered (RFC 3834 and what real servers send) ---

_BOUNCE_SENDERS = re.compile(r"^(mailer-daemon|postmaster|noreply|no-reply|do-not-reply)@", re.I)
_AUTO_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Response-Suppress-Reply",
                 "X-Autogenerated", "X-Loop")


def automatic_reason(message: EmailMessage, envelope_sender: str | None = None,
                     from_address: str = "") -> str | None:
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

def body_text(message: EmailMessage) -> str:
    """The plain-text body, else the HTML body as text; '' when there is neither."""
    try:
        part = message.get_body(preferencelist=("plain", "html")) if message.is_multipart() \
            else message
        content_type = part["Content-Type"] if part is not None else None
    except Exception:  # noqa: BLE001 - a broken MIME structure reads as no body
        return ""
    # Content-Type is parsed once here: parsing headers is most of the cost of a message
    subtype = getattr(content_type, "subtype", "plain") if content_type else "plain"
    if part is None or getattr(content_type, "maintype", "text") != "text" \
            or subtype not in ("plain", "html"):
        return ""
    charset = (getattr(content_type, "params", {}) or {}).get("charset") if content_type else None
    text = _decoded(part, charset)
    if subtype == "html":
        text = html_to_text(text)
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ")


def _decoded(part: EmailMessage, charset: str | None) -> str:
    """The part's text: transfer encoding undone, then its charset; an unknown or lying
    charset falls back to UTF-8, then Latin-1 (which reads any byte)."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    for name in (charset or "us-ascii", "utf-8"):
        try:
            return payload.decode(name)
        except (LookupError, UnicodeError):
            continue
    return payload.decode("latin-1")


# A line that introduces quoted text in the clients people use: "On <date>, Ann wrote:",
# French, German, Spanish, Dutch and Italian equivalents.
_ATTRIBUTION_END = re.compile(
    r"(wrote|writes|a écrit|schrieb|escribió|schreef|ha scritto)\s*:\s*$", re.I)
_ATTRIBUTION_START = re.compile(r"^(on|le|am|el|op|il)\b", re.I)
_ORIGINAL_MARKERS = re.compile(
    r"^\s*(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|"
    r"message d'origine)\s*-{2,}|_{10,})\s*$", re.I)
_OUTLOOK_FROM = re.compile(r"^\s*\*?(from|de|von|van)\s*:\*?\s+\S", re.I)
_OUTLOOK_NEXT = re.compile(r"^\s*\*?(sent|date|envoyé|gesendet|to|à|an|subject|objet|betreff)"
                           r"\s*:", re.I)
_PHONE_FOOTER = re.compile(r"^\s*(sent from my|get outlook for|envoyé de mon)\b", re.I)


def newest_text(text: str) -> str:
    """What the sender wrote in this mail: quotes, quoted originals and signatures removed.

    >>> newest_text("C please\\n\\nOn Mon, 3 Jan 2026, Bot wrote:\\n> Move: A\\n> B")
    'C please'
    >>> newest_text("On Mon, Bot <bot@x.org>\\nwrote:\\n> old\\n\\nnew move: D\\n--\\nsig")
    'new move: D'
    """
    lines = text.split("\n")
    kept: list[str] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if line.rstrip() in ("--", "-- ") or _ORIGINAL_MARKERS.match(line):
            break  # a signature, or an original message quoted without '>' follows
        if _OUTLOOK_FROM.match(line) and any(_OUTLOOK_NEXT.match(x) for x in lines[i + 1:i + 4]):
            break  # Outlook's header block above the original message
        if stripped.startswith(">") or _PHONE_FOOTER.match(line):
            continue
        if _is_attribution(lines, i):
            continue
        kept.append(line.rstrip())
    return "\n".join(kept).strip()


def _is_attribution(lines: list[str], i: int) -> bool:
    """"On ..., X wrote:" (possibly wrapped onto two lines) when quoted lines follow."""
    line = lines[i]
    following = [x for x in lines[i + 1:i + 3] if x.strip()]
    quoted_next = bool(following) and following[0].lstrip().startswith(">")
    if _ATTRIBUTION_END.search(line):
        previous = lines[i - 1] if i else ""
        wrapped = (i > 0 and _ATTRIBUTION_START.match(previous.strip())
                   and not _ATTRIBUTION_END.search(previous))
        return quoted_next or not following or bool(wrapped)
    if _ATTRIBUTION_START.match(line.strip()) and i + 1 < len(lines):
        return bool(_ATTRIBUTION_END.search(lines[i + 1])) and len(line) < 200
    return False
