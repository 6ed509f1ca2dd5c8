"""Email addresses as players: which addresses the bot can mail, and which are its own.

Every surface that takes an address (a Discord challenge by email, a mail's From, a mailed
challenge) asks here, so the rules are the same everywhere.

>>> mailbox(" <Ann@Example.ORG>")
'ann@example.org'
>>> is_own_address("mancala+g1-x@bot.test", "Mancala <mancala@bot.test>")
True
"""

from __future__ import annotations

import re
import unicodedata
from email.utils import parseaddr

_LOCAL = re.compile(
    r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u0080-\U0010ffff-]+"
    r"(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u0080-\U0010ffff-]+)*"
)
_DOMAIN = re.compile(
    r"([A-Za-z0-9\u0080-\U0010ffff]([A-Za-z0-9\u0080-\U0010ffff-]{0,61}"
    r"[A-Za-z0-9\u0080-\U0010ffff])?\.)+[A-Za-z0-9\u0080-\U0010ffff-]{2,63}"
)


def mailbox(address: str) -> str:
    """``address`` as a mailbox the bot can send to (domain lowercased), else ''.

    Refused: control characters, spaces, quotes, an empty ``<>``, a local part over 64 or an
    address over 254 characters (RFC 5321), a domain without a dot. Such an address cannot be
    answered, so a mail from it is not answered.

    >>> mailbox("<Ann@Example.ORG>"), mailbox('"ann <ann@example.org>'), mailbox("a\\x01@x.org")
    ('ann@example.org', '', '')
    """
    address = address.strip()[:300]
    if address.startswith("<") and address.endswith(">"):
        address = address[1:-1]
    local, at, domain = address.rpartition("@")
    if (
        not at
        or len(address) > 254
        or len(local) > 64
        or not _LOCAL.fullmatch(local)
        or not _DOMAIN.fullmatch(domain)
        or any(unicodedata.category(c)[0] in "CZ" for c in address)
    ):
        return ""
    return address.lower()  # local parts are case-blind in practice (we compare, never route)


def is_own_address(address: str, bot_address: str | None) -> bool:
    """Whether ``address`` is the bot's own (``bot_address``, a "Name <addr>" or bare address),
    ``+tag`` included: ``mancala+g1-x@host`` is ``mancala@host``. A challenge to it, or a mail
    from it, would be the bot mailing itself.

    >>> is_own_address("ann@bot.test", "mancala@bot.test"), is_own_address("x@y.org", None)
    (False, False)
    """
    mine = parseaddr(bot_address or "")[1].lower()
    local, _, domain = address.strip().lower().rpartition("@")
    return bool(mine) and f"{local.partition('+')[0]}@{domain}" == mine
