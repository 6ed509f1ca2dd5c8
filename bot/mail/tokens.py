"""Secret per-game, per-player tokens in mail: what authorizes a correspondence mail (never From).

A token (``bot.tokens``, shared with the web companion's links) is an HMAC of (what, id,
player address) under the bot's secret, so nothing is stored: the bot recomputes it to
check. It travels in the reply address
(``mancala+g12-<token>@host``, which mail servers deliver to ``mancala@host``) and in the
subject tag (``[mancala game 12 <token>]``), so a plain "Reply" carries it back.

>>> keys = Tokens(b"secret")
>>> token = keys.token("game", 12, "ann@example.org")
>>> len(token), keys.check("game", 12, "ann@example.org", token)
(10, True)
>>> keys.check("game", 12, "bob@example.org", token)
False
>>> subject_tag("game", 12, token) == f"[mancala game 12 {token}]"
True
>>> find_tags(f"Re: [mancala game 12 {token}] your move 7", []) == [("game", 12, token)]
True
"""

from __future__ import annotations

import re

from bot.tokens import TOKEN_LENGTH, Tokens

__all__ = [
    "TOKEN_LENGTH",
    "Tokens",
    "find_tags",
    "find_unverified_ids",
    "reply_address",
    "subject_tag",
]
KINDS = {"g": "game", "c": "challenge"}

_SUBJECT_TAG = re.compile(
    rf"\[mancala (game|challenge) (\d{{1,12}}) ([a-z2-7]{{{TOKEN_LENGTH}}})\]", re.I
)
_ADDRESS_TAG = re.compile(rf"^[^@+]+\+([gc])(\d{{1,12}})-([a-z2-7]{{{TOKEN_LENGTH}}})@", re.I)


def subject_tag(kind: str, ident: int, token: str) -> str:
    return f"[mancala {kind} {ident} {token}]"


def reply_address(bot_address: str, kind: str, ident: int, token: str) -> str:
    """The bot's address with the tag as a '+' extension.

    >>> reply_address("Mancala <mancala@bot.example>", "game", 3, "abcdefghij")
    'mancala+g3-abcdefghij@bot.example'
    """
    addr = bot_address.rpartition("<")[2].rstrip(">").strip()
    local, _, domain = addr.partition("@")
    return f"{local}+{kind[0]}{ident}-{token}@{domain}"


def find_tags(subject: str, recipients: list[str]) -> list[tuple[str, int, str]]:
    """Every (kind, id, token) in the recipients' '+' extensions and in the subject."""
    found = []
    for address in recipients:
        match = _ADDRESS_TAG.match(address)
        if match:
            found.append(
                (KINDS[match.group(1).lower()], int(match.group(2)), match.group(3).lower())
            )
    for match in _SUBJECT_TAG.finditer(subject):
        tag = (match.group(1).lower(), int(match.group(2)), match.group(3).lower())
        if tag not in found:
            found.append(tag)
    return found


def find_unverified_ids(subject: str) -> list[tuple[str, int]]:
    """Game or challenge ids named in a subject without a valid-looking token, to say why a
    mail is refused ("[mancala game 12]" typed by hand, or a token cut off).

    >>> find_unverified_ids("Re: [mancala game 12] C")
    [('game', 12)]
    """
    return [
        (m.group(1).lower(), int(m.group(2)))
        for m in re.finditer(r"\[mancala (game|challenge) (\d{1,12})\b", subject, re.I)
    ]
