"""The web companion's settings, from the environment (``mancala web`` loads ``.env`` first).

=======================  ==================================================================
MANCALA_WEB_LISTEN       where the HTTP server listens (default 127.0.0.1:8080); put a
                         reverse proxy with TLS in front of it (deploy/Caddyfile)
MANCALA_WEB_URL          the public address pages are reached at, which messages link to
                         (default http://127.0.0.1:8080)
MANCALA_WEB_PLAYS_PER_MINUTE   plays (moves, offers, resignations) one address may send a
                         minute (default 60)
MANCALA_WEB_TRUSTED_PROXIES    networks whose X-Forwarded-For is believed, comma separated,
                         beside this machine's own (a proxy in front of a container:
                         10.0.0.0/8, 172.16.0.0/12); default none more
MANCALA_MAIL_SECRET      the secret behind the players' tokens, shared with the mail surface
                         (else MANCALA_MAIL_SECRET_FILE; see bot.tokens)
MANCALA_DB               the games database, shared with the other surfaces (bot.config)
=======================  ==================================================================

>>> s = WebSettings.from_environ({"MANCALA_WEB_LISTEN": "0.0.0.0:9000",
...                               "MANCALA_WEB_URL": "https://mancala.example/"})
>>> s.listen, s.url, s.plays_per_minute, s.proxies
(('0.0.0.0', 9000), 'https://mancala.example', 60, ())
>>> WebSettings.from_environ({"MANCALA_WEB_TRUSTED_PROXIES": "10.0.0.0/8, fd00::1"}).proxies
(IPv4Network('10.0.0.0/8'), IPv6Network('fd00::1/128'))
>>> WebSettings.from_environ({"MANCALA_WEB_LISTEN": "nowhere"})
Traceback (most recent call last):
bot.config.ConfigError: MANCALA_WEB_LISTEN is host:port (like 127.0.0.1:8080), not 'nowhere'
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.config import ConfigError, database_path
from bot.i18n import _
from bot.web.links import checked_base
from engine.errors import excerpt


@dataclass(frozen=True)
class WebSettings:
    listen: tuple[str, int] = ("127.0.0.1", 8080)
    url: str = "http://127.0.0.1:8080"
    plays_per_minute: int = 60
    proxies: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
    database: str = "mancala.sqlite3"

    @classmethod
    def from_environ(cls, env: Mapping[str, str]) -> WebSettings:
        def get(name: str) -> str:
            return env.get(name, "").strip()

        listen = cls.listen
        text = get("MANCALA_WEB_LISTEN")
        if text:
            host, sep, port = text.rpartition(":")
            # ASCII digits, bounded, before int(): str.isdigit() passes '¹'
            if not sep or not re.fullmatch(r"[0-9]{1,5}", port) or not 0 < int(port) < 65536:
                raise ConfigError(
                    _("{name} is host:port (like 127.0.0.1:8080), not '{value}'").format(
                        name="MANCALA_WEB_LISTEN", value=excerpt(text)
                    )
                )
            listen = (host.strip("[]") or cls.listen[0], int(port))
        url = get("MANCALA_WEB_URL") or f"http://{listen[0]}:{listen[1]}"
        try:
            url = checked_base(url)
        except ValueError as err:
            raise ConfigError(str(err)) from None
        plays = get("MANCALA_WEB_PLAYS_PER_MINUTE") or str(cls.plays_per_minute)
        if not re.fullmatch(r"[0-9]{1,6}", plays) or int(plays) < 1:
            raise ConfigError(
                _("{name} is a whole number from 1, not '{value}'").format(
                    name="MANCALA_WEB_PLAYS_PER_MINUTE", value=excerpt(plays)
                )
            )
        proxies = []
        for part in get("MANCALA_WEB_TRUSTED_PROXIES").split(","):
            if not part.strip():
                continue
            try:
                proxies.append(ipaddress.ip_network(part.strip()[:64], strict=False))
            except ValueError:
                raise ConfigError(
                    _("{name} is a list of networks like 10.0.0.0/8, not '{value}'").format(
                        name="MANCALA_WEB_TRUSTED_PROXIES", value=excerpt(part.strip())
                    )
                ) from None
        return cls(
            listen=listen,
            proxies=tuple(proxies),
            url=url,
            plays_per_minute=int(plays),
            database=str(database_path(env)),
        )
