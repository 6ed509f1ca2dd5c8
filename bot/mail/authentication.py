"""What the operator's mail server says about a message's sender: the ``Authentication-Results``
header (RFC 8601), read so that forged mail gets no reply (no backscatter).

The receiving MTA (Postfix with an SPF and a DMARC milter, see deploy/postfix.md) checks the
sender and writes its verdict in a header that starts with its own name, the authserv-id::

    Authentication-Results: mx.example.org; spf=fail (sender IP is 192.0.2.1)
        smtp.mailfrom=ann@example.net; dmarc=fail (p=reject) header.from=example.net

Anyone can write such a header into a mail, so one is believed only when its authserv-id is
the bot's own mail domain or a subdomain of it (``mx.example.org`` for
``mancala@example.org``), or one the operator names (``MANCALA_MAIL_TRUSTED_AUTHSERV``).

Which verdicts silence the bot:

- ``spf=fail``: the sender's domain says this server may not send its mail.
- ``dmarc=fail``: the From domain could not be authenticated (whatever its published policy:
  the reply would go to an address nobody proved to own).
- ``spf=softfail`` does **not**: RFC 7208 (8.5) puts it between fail and neutral, domains
  publish ``~all`` precisely so that forwarded mail is not refused, and a forged From on a
  domain that cares fails DMARC anyway. What softfail lets through is bounded by the reply
  limits (``bot.mail.reply_limits``).
- ``none``, ``neutral``, ``temperror``, ``permerror`` and ``dkim=fail`` alone do not either.

Every trusted header counts, wherever it is in the message. The MTA's own headers are the
topmost, but a milter may append rather than prepend, and a sender can put a header with the
bot's authserv-id lower down: reading them all means such a forged header can only make the
bot quieter (a "fail" it wrote about itself), never louder (a "pass" cannot outvote the MTA's
"fail"). Untrusted headers are ignored entirely.

>>> trust = AuthservTrust.for_address("Mancala <mancala@example.org>")
>>> failure = check(["mx.example.org; spf=fail smtp.mailfrom=x@example.net"], trust)
>>> failure.reason, failure.authserv_id
('spf_fail', 'mx.example.org')
>>> check(["evil.example.net; spf=fail; dmarc=fail"], trust) is None  # not ours: ignored
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from email.message import Message
from email.utils import parseaddr

HEADER = "Authentication-Results"
MAX_HEADERS = 50  # a real mail carries a handful; the rest are not read
MAX_HEADER_CHARS = 8_000  # of one header's value; RFC 5322 asks lines under 998 characters
FAILING = {"spf": ("fail",), "dmarc": ("fail",)}  # method: the results that mean forged

_TOKEN = re.compile(r"[^\s;()\"=]+")
_AUTHSERV_ID = re.compile(r"[a-z0-9](?:[a-z0-9._-]{0,252})")
_METHOD = re.compile(
    r"\s*([a-z0-9][a-z0-9_-]{0,63})\s*(?:/\s*[0-9]{1,9}\s*)?=\s*([a-z0-9][a-z0-9_-]{0,63})"
)


@dataclass(frozen=True)
class AuthenticationResults:
    """One parsed header: who checked (``authserv_id``, lowercased) and its (method, result)
    pairs in order (lowercased: ``("spf", "fail")``); no pairs for ``none``."""

    authserv_id: str
    results: tuple[tuple[str, str], ...] = ()

    def results_of(self, method: str) -> tuple[str, ...]:
        """The results given for ``method`` (a header may report one method twice)."""
        return tuple(result for name, result in self.results if name == method)


@dataclass(frozen=True)
class AuthFailure:
    """A trusted header said the sender is forged: which check failed, and who said so."""

    method: str  # "spf" or "dmarc"
    result: str  # "fail"
    authserv_id: str

    @property
    def reason(self) -> str:
        """The label of the refusal counter: ``spf_fail``, ``dmarc_fail``."""
        return f"{self.method}_{self.result}"


@dataclass(frozen=True)
class AuthservTrust:
    """Which authserv-ids are the operator's: the bot's mail domain and its subdomains, and
    the configured ids (exactly, case-blind).

    >>> trust = AuthservTrust("example.org", ("mx.provider.net",))
    >>> [trust.trusts(i) for i in ("example.org", "MX.Example.org.", "badexample.org",
    ...                            "example.org.evil.net", "mx.provider.net", "provider.net")]
    [True, True, False, False, True, False]
    """

    domain: str  # the bot's mail domain, lowercased ('' trusts no domain)
    configured: tuple[str, ...] = ()

    @classmethod
    def for_address(cls, bot_address: str, configured: Iterable[str] = ()) -> AuthservTrust:
        """Trust for a bot whose address is ``bot_address`` ("Name <addr>" or bare)."""
        address = parseaddr(bot_address)[1] or bot_address
        domain = address.rpartition("@")[2].strip().strip(".").lower()
        return cls(domain, tuple(c.strip().strip(".").lower() for c in configured if c.strip()))

    def trusts(self, authserv_id: str) -> bool:
        ident = authserv_id.strip().rstrip(".").lower()
        if not ident:
            return False
        if ident in self.configured:
            return True
        return bool(self.domain) and (ident == self.domain or ident.endswith("." + self.domain))


def _without_comments(value: str) -> str:
    """``value`` with its comments (parentheses, nested, with backslash escapes) replaced by
    a space; quoted strings are kept as they are. An unclosed comment runs to the end.

    >>> _without_comments('a (x (y) z) b "q (not a comment)" (open')
    'a   b "q (not a comment)"  '
    """
    out: list[str] = []
    depth = 0
    quoted = False
    escaped = False
    for char in value:
        if escaped:
            escaped = False
            if depth == 0:
                out.append(char)
            continue
        if char == "\\" and (depth or quoted):
            escaped = True
            if depth == 0:
                out.append(char)
            continue
        if depth:
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                if depth == 0:
                    out.append(" ")
            continue
        if quoted:
            quoted = char != '"'
            out.append(char)
        elif char == '"':
            quoted = True
            out.append(char)
        elif char == "(":
            depth = 1
        else:
            out.append(char)
    if depth:
        out.append(" ")
    return "".join(out)


def _split_outside_quotes(value: str) -> list[str]:
    """``value`` split at each ``;`` that is not inside a quoted string."""
    parts: list[str] = []
    current: list[str] = []
    quoted = escaped = False
    for char in value:
        if escaped:
            escaped = False
        elif char == "\\" and quoted:
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == ";" and not quoted:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return parts


def parse(value: str) -> AuthenticationResults | None:
    """One header value read as RFC 8601 says, or None when it names no authserv-id.

    Lenient where real servers are (comments anywhere, any case, a version after the id or a
    method, properties and reasons after the result), strict where it matters: a method and
    its result are plain keywords, and a part that is not ``method=result`` is skipped.
    Never raises, whatever ``value`` holds.

    >>> parse('MX.Example.ORG 1; (checked) SPF = SoftFail reason="x; y" smtp.mailfrom=a@b.c;'
    ...       ' dmarc/1=pass header.from=b.c')
    AuthenticationResults(authserv_id='mx.example.org', results=(('spf', 'softfail'), ('dmarc', 'pass')))
    >>> parse("mx.example.org; none"), parse("; spf=fail"), parse("")
    (AuthenticationResults(authserv_id='mx.example.org', results=()), None, None)
    """
    if not isinstance(value, str):
        return None
    text = _without_comments(value[:MAX_HEADER_CHARS].replace("\r", " ").replace("\n", " "))
    head, *parts = _split_outside_quotes(text)
    head = head.strip()
    if head.startswith('"'):  # the id as a quoted string, which RFC 2045's value allows
        head = head[1:].replace('"', " ", 1)
    first = _TOKEN.match(head)
    if first is None:
        return None
    ident = first.group(0).lower().rstrip(".")
    if not _AUTHSERV_ID.fullmatch(ident):
        return None
    results = []
    for part in parts:
        found = _METHOD.match(part.lower())
        if found:
            results.append((found.group(1), found.group(2)))
    return AuthenticationResults(ident, tuple(results))


def header_values(message: Message) -> list[str]:
    """The message's Authentication-Results values, top first, unfolded, at most
    ``MAX_HEADERS`` of them. Read raw: ``policy.default``'s parser is not needed and would
    refuse some of what arrives."""
    values = []
    for key, value in message.raw_items():
        if key.strip().lower() == HEADER.lower():
            values.append(str(value)[: MAX_HEADER_CHARS * 2])
            if len(values) >= MAX_HEADERS:
                break
    return values


def trusted_results(values: Iterable[str], trust: AuthservTrust) -> list[AuthenticationResults]:
    """The parsed headers among ``values`` whose authserv-id ``trust`` believes."""
    found = []
    for value in values:
        parsed = parse(value)
        if parsed is not None and trust.trusts(parsed.authserv_id):
            found.append(parsed)
    return found


def check(values: Iterable[str], trust: AuthservTrust) -> AuthFailure | None:
    """The failure a trusted header reports (DMARC before SPF when both failed), or None when
    no trusted header says the sender is forged (including when there is no header at all:
    an MTA that does not check says nothing).

    >>> trust = AuthservTrust("bot.test")
    >>> check(["bot.test; spf=pass; dmarc=fail (p=none)", "bot.test; spf=fail"], trust).reason
    'dmarc_fail'
    >>> check(["bot.test; spf=softfail; dmarc=none"], trust) is None
    True
    """
    failures: dict[str, AuthFailure] = {}
    for parsed in trusted_results(values, trust):
        for method, results in FAILING.items():
            for result in parsed.results_of(method):
                if result in results:
                    failures.setdefault(method, AuthFailure(method, result, parsed.authserv_id))
    return failures.get("dmarc") or failures.get("spf")


def check_message(message: Message, trust: AuthservTrust) -> AuthFailure | None:
    """``check`` on a parsed message's headers."""
    return check(header_values(message), trust)
