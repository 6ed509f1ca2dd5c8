"""The email surface's settings, from the environment (``mancala mail`` loads ``.env`` first).

==========================  ===============================================================
MANCALA_MAIL_LISTEN         where the SMTP server listens (default 127.0.0.1:8025)
MANCALA_MAIL_RELAY          the SMTP relay replies go through (default 127.0.0.1:25)
MANCALA_MAIL_RELAY_USER     optional login at the relay (with MANCALA_MAIL_RELAY_PASSWORD)
MANCALA_MAIL_RELAY_TLS      starttls, tls or none (default none: a local Postfix)
MANCALA_MAIL_ADDRESS        the bot's own address (default Mancala <mancala@localhost>)
MANCALA_MAIL_SECRET         the secret behind game tokens (else kept in MANCALA_MAIL_SECRET_FILE,
                            default mail.secret in the data directory, created on first use)
MANCALA_MAIL_MAX_BYTES      larger messages are refused (default 1048576)
MANCALA_MAIL_LEVEL          the AI level when a mail names none (default: engine.ai's default)
MANCALA_MAIL_TRUSTED_AUTHSERV
                            authserv-ids whose Authentication-Results are believed, comma
                            separated, beside the bot's own mail domain and its subdomains
                            (default: none more; see bot.mail.authentication)
MANCALA_MAIL_REPLIES_PER_ADDRESS   automatic replies to one address a day (default 10)
MANCALA_MAIL_PLAYS_PER_ADDRESS     position-mail answers to one address a day (default 100)
MANCALA_MAIL_REPLIES_PER_DAY       limited replies in all a day (default 500)
MANCALA_MAIL_REPLIES_PER_HOUR      limited replies in all an hour (default 100)
MANCALA_MAIL_STRANGER_CHALLENGES   challenges one sender may mail a day to addresses that never
                                   wrote to the bot (default 3); see bot.mail.reply_limits
MANCALA_WEB_URL             the web companion's address: each game mail links to the game's
                            page with the player's token, to play there (default: no links)
MANCALA_DB                  the games database, shared with the other surfaces (bot.config)
==========================  ===============================================================

>>> s = MailSettings.from_environ({"MANCALA_MAIL_LISTEN": "0.0.0.0:2525",
...                                "MANCALA_MAIL_SECRET": "s3cret-value"})
>>> s.listen, s.relay, s.bot_address, s.secret
(('0.0.0.0', 2525), ('127.0.0.1', 25), 'Mancala <mancala@localhost>', b's3cret-value')
>>> s = MailSettings.from_environ({"MANCALA_MAIL_TRUSTED_AUTHSERV": "mx1.isp.net, MX2.isp.net",
...                                "MANCALA_MAIL_REPLIES_PER_ADDRESS": "5"})
>>> s.trusted_authserv, s.limits.replies_per_address, s.limits.replies_per_day
(('mx1.isp.net', 'mx2.isp.net'), 5, 500)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.config import data_dir, database_path
from bot.i18n import _
from bot.mail.authentication import AuthservTrust
from bot.mail.reading import DEFAULT_MAX_BYTES
from bot.mail.reply_limits import ReplyLimits
from bot.tokens import SECRET_FILE, token_secret
from bot.web.links import web_base
from engine.errors import excerpt


class MailSettingsError(ValueError):
    """A setting has a value we cannot use; the message names it and what is accepted."""


@dataclass(frozen=True)
class MailSettings:
    listen: tuple[str, int] = ("127.0.0.1", 8025)
    relay: tuple[str, int] = ("127.0.0.1", 25)
    relay_user: str | None = None
    relay_password: str | None = None
    relay_tls: str = "none"  # none | starttls | tls
    bot_address: str = "Mancala <mancala@localhost>"
    secret: bytes | None = None  # None: read or create the secret file
    secret_file: str = SECRET_FILE  # from_environ: in the data directory
    max_bytes: int = DEFAULT_MAX_BYTES
    level: str | None = None
    database: str = "mancala.sqlite3"
    trusted_authserv: tuple[str, ...] = ()  # beyond the bot's own mail domain
    limits: ReplyLimits = ReplyLimits()
    web_url: str | None = None  # MANCALA_WEB_URL: game mails link to their game's page

    def authserv_trust(self) -> AuthservTrust:
        """Whose Authentication-Results headers this bot believes."""
        return AuthservTrust.for_address(self.bot_address, self.trusted_authserv)

    @classmethod
    def from_environ(cls, env: Mapping[str, str]) -> MailSettings:
        def get(name: str) -> str:
            return env.get(name, "").strip()

        tls = get("MANCALA_MAIL_RELAY_TLS").lower() or "none"
        if tls not in ("none", "starttls", "tls"):
            raise MailSettingsError(
                _("{name} is none, starttls or tls, not '{value}'").format(
                    name="MANCALA_MAIL_RELAY_TLS", value=excerpt(tls)
                )
            )
        max_bytes = get("MANCALA_MAIL_MAX_BYTES") or str(DEFAULT_MAX_BYTES)
        # ASCII digits, bounded, before int(): str.isdigit() passes '¹', which int() refuses
        if not re.fullmatch(r"[0-9]{1,12}", max_bytes) or int(max_bytes) < 1024:
            raise MailSettingsError(
                _("{name} is a byte count of at least 1024, not '{value}'").format(
                    name="MANCALA_MAIL_MAX_BYTES", value=excerpt(max_bytes)
                )
            )
        return cls(
            listen=_host_port("MANCALA_MAIL_LISTEN", get("MANCALA_MAIL_LISTEN"), cls.listen),
            relay=_host_port("MANCALA_MAIL_RELAY", get("MANCALA_MAIL_RELAY"), cls.relay),
            relay_user=get("MANCALA_MAIL_RELAY_USER") or None,
            relay_password=get("MANCALA_MAIL_RELAY_PASSWORD") or None,
            relay_tls=tls,
            bot_address=get("MANCALA_MAIL_ADDRESS") or cls.bot_address,
            secret=get("MANCALA_MAIL_SECRET").encode() or None,
            secret_file=get("MANCALA_MAIL_SECRET_FILE") or str(data_dir() / cls.secret_file),
            max_bytes=int(max_bytes),
            level=get("MANCALA_MAIL_LEVEL").lower() or None,
            database=str(database_path(env)),  # the other surfaces' database: a file or a URL
            trusted_authserv=_authserv_ids(get("MANCALA_MAIL_TRUSTED_AUTHSERV")),
            web_url=_web_url(env),
            limits=ReplyLimits(
                **{
                    name: _count(
                        f"MANCALA_MAIL_{name.upper()}", get(f"MANCALA_MAIL_{name.upper()}"), default
                    )
                    for name, default in (
                        ("replies_per_address", ReplyLimits.replies_per_address),
                        ("plays_per_address", ReplyLimits.plays_per_address),
                        ("replies_per_day", ReplyLimits.replies_per_day),
                        ("replies_per_hour", ReplyLimits.replies_per_hour),
                        ("stranger_challenges", ReplyLimits.stranger_challenges),
                    )
                }
            ),
        )

    def token_secret(self) -> bytes:
        """The configured secret, else the secret file's (created, private, on first use)."""
        return token_secret(self.secret, self.secret_file)


def _web_url(env: Mapping[str, str]) -> str | None:
    try:
        return web_base(env)
    except ValueError as err:
        raise MailSettingsError(str(err)) from None


def _host_port(name: str, text: str, default: tuple[str, int]) -> tuple[str, int]:
    if not text:
        return default
    host, sep, port = text.rpartition(":")
    if not sep or not re.fullmatch(r"[0-9]{1,5}", port) or not 0 < int(port) < 65536:
        raise MailSettingsError(
            _("{name} is host:port (like 127.0.0.1:8025), not '{value}'").format(
                name=name, value=excerpt(text)
            )
        )
    return host.strip("[]") or default[0], int(port)


_AUTHSERV_ID = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,252})")


def _authserv_ids(text: str) -> tuple[str, ...]:
    ids = tuple(part.strip().rstrip(".").lower() for part in text.split(",") if part.strip())
    for ident in ids:
        if not _AUTHSERV_ID.fullmatch(ident):
            raise MailSettingsError(
                _(
                    "{name} is a comma-separated list of authserv-ids, the names your mail "
                    "server writes first in Authentication-Results (like mx.example.org), "
                    "not '{value}'"
                ).format(name="MANCALA_MAIL_TRUSTED_AUTHSERV", value=excerpt(ident))
            )
    return ids


def _count(name: str, text: str, default: int) -> int:
    if not text:
        return default
    if not re.fullmatch(r"[0-9]{1,9}", text):  # ASCII digits, bounded, before int()
        raise MailSettingsError(
            _("{name} is a whole number of mails (like {default}), not '{value}'").format(
                name=name, default=default, value=excerpt(text)
            )
        )
    return int(text)
