"""Secret per-game, per-player tokens, shared by the surfaces that hand them out: the mail
surface puts a player's token in its reply address, the web companion in the player's link
(``/game/12/play/<token>``). Both check it the same way; neither imports the other.

A token is an HMAC of (what, id, whose) under the bot's secret, so nothing is stored: the
bot recomputes it to check. A game's token is whose seat it is (``south``, ``north``), a
challenge's whose role, a digest's the player's address.

>>> keys = Tokens(b"secret")
>>> token = keys.token("game", 12, "ann@example.org")
>>> len(token), keys.check("game", 12, "ann@example.org", token)
(10, True)
>>> keys.check("game", 12, "bob@example.org", token), keys.check("game", 12, "x", "short")
(False, False)

A session (the Discord Activity's sign-in) is signed, not stored either: what it names, until
when, and an HMAC of both; it holds no secret of the user's, only who they are.

>>> session = keys.session("activity", "1234 fr", expires=1000)
>>> keys.session_subject("activity", session, now=999)
'1234 fr'
>>> keys.session_subject("activity", session, now=1000), keys.session_subject("game", session, 0)
(None, None)
>>> keys.session_subject("activity", session.replace("1234", "1235"), now=0) is None
True

An unsubscribe token (``List-Unsubscribe``, docs/privacy.md) names its address as well, so
the page it opens knows whom to stop with nothing stored; forged or cut, it names nobody:

>>> link = keys.unsubscribe_token("Ann@Example.org")
>>> keys.unsubscribe_address(link), keys.unsubscribe_address("YW5uQGV4YW1wbGUub3Jn.aaaaaaaaaa")
('ann@example.org', None)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Mapping
from pathlib import Path

TOKEN_LENGTH = 10  # 50 bits of base32: guessing one by mail or by web is hopeless
TOKEN_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"  # base32, lowercase
_BASE64URL = re.compile(r"[A-Za-z0-9_-]+")
_MAC = re.compile(rf"[{TOKEN_ALPHABET}{TOKEN_ALPHABET.upper()}]{{{TOKEN_LENGTH}}}")
SECRET_FILE = "mail.secret"  # in the data directory, unless MANCALA_MAIL_SECRET_FILE says


class Tokens:
    """Make and check tokens under one secret."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 6:
            raise ValueError("the token secret must be at least 6 bytes")
        self._secret = secret

    def token(self, kind: str, ident: int, address: str) -> str:
        message = f"{kind}:{ident}:{address.lower()}".encode()
        digest = hmac.new(self._secret, message, hashlib.sha256).digest()
        return base64.b32encode(digest).decode()[:TOKEN_LENGTH].lower()

    def check(self, kind: str, ident: int, address: str, token: str) -> bool:
        return hmac.compare_digest(self.token(kind, ident, address), token.lower())

    def session(self, kind: str, subject: str, expires: float) -> str:
        """A signed token naming ``subject`` (printable ASCII, no ``~``) until ``expires``
        (seconds since the epoch); read back by ``session_subject``."""
        body = f"{subject}~{int(expires)}"
        return f"{body}~{self._seal(kind, body)}"

    def session_subject(self, kind: str, session: str, now: float) -> str | None:
        """What a session of ``kind`` names, or None if it is forged, of another kind, or
        expired by ``now``."""
        body, _sep, seal = session[:200].rpartition("~")
        subject, _sep, expires = body.rpartition("~")
        if not subject or not expires.isascii() or not expires.isdigit():
            return None
        if not hmac.compare_digest(self._seal(kind, body), seal) or now >= int(expires):
            return None
        return subject

    def _seal(self, kind: str, body: str) -> str:
        message = f"session:{kind}:{body}".encode()
        digest = hmac.new(self._secret, message, hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:18]).decode()  # 144 bits

    def unsubscribe_token(self, address: str) -> str:
        """The token of ``address``'s unsubscribe link: the address (base64url, lowercased)
        and its HMAC, so that checking it needs nothing stored."""
        address = normal_address(address)
        name = base64.urlsafe_b64encode(address.encode()).decode().rstrip("=")
        return f"{name}.{self.token('unsubscribe', 0, address)}"

    def address_key(self, address: str) -> str:
        """``address_key`` under this secret: what a stop is kept by."""
        return address_key(address, self._secret)

    def unsubscribe_address(self, token: str) -> str | None:
        """The address an unsubscribe token was made for, or None for a forged or malformed
        one."""
        name, dot, mac = token.partition(".")
        if not dot or len(name) > 700 or not _BASE64URL.fullmatch(name):
            return None
        if not _MAC.fullmatch(mac):  # compare_digest takes ASCII only
            return None
        try:
            address = base64.urlsafe_b64decode(name + "=" * (-len(name) % 4)).decode()
        except (ValueError, UnicodeDecodeError):
            return None
        if "@" not in address or not self.check("unsubscribe", 0, address, mac):
            return None
        return address


def normal_address(address: str) -> str:
    """An address as the bot compares them: trimmed, lowercased."""
    return address.strip().lower()


def address_key(address: str, secret: bytes | None) -> str:
    """What stands for ``address`` where it must not be stored (``mail_stops``): an
    HMAC-SHA256 of the normal address under the deployment's ``secret``, so a stolen table
    cannot be checked against a list of addresses without it; a plain SHA-256 without one.

    >>> address_key(" Ann@Example.org", b"secret") == address_key("ann@example.org", b"secret")
    True
    >>> len(address_key("ann@example.org", None))
    64
    """
    data = f"mail-stop:{normal_address(address)}".encode()
    if secret:
        return hmac.new(secret, data, hashlib.sha256).hexdigest()
    return hashlib.sha256(data).hexdigest()


def token_secret(secret: bytes | None, secret_file: str | os.PathLike[str]) -> bytes:
    """``secret`` when configured, else the secret file's (created, private, on first use),
    so every process on one data directory makes the same tokens."""
    if secret:
        return secret
    path = Path(secret_file)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it a moment ago: read theirs
            return path.read_text().strip().encode()
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(32) + "\n")
    return path.read_text().strip().encode()


def secret_from_environ(environ: Mapping[str, str]) -> bytes:
    """The tokens' secret as the mail surface configures it: ``MANCALA_MAIL_SECRET``, else
    the file ``MANCALA_MAIL_SECRET_FILE`` (default ``mail.secret`` in the data directory)."""
    from bot.config import data_dir

    secret = environ.get("MANCALA_MAIL_SECRET", "").strip().encode() or None
    path = environ.get("MANCALA_MAIL_SECRET_FILE", "").strip() or str(data_dir() / SECRET_FILE)
    return token_secret(secret, path)
