"""Prometheus metrics, off by default: ``METRICS_PORT=9464`` serves them at ``/metrics``.

The counters always count (an increment costs well under a microsecond); only the endpoint is
optional. ``METRICS_ADDRESS`` is where it listens (default 127.0.0.1: put a scraper beside it,
or set 0.0.0.0 behind a firewall). The metrics live in a registry of their own, so tests and
a second service in one process never collide with the default one.

- ``mancala_moves_total{surface}``: moves played, by the mover's surface (ai for the AI);
- ``mancala_ai_think_seconds{level}``: how long the AI thought, per move;
- ``mancala_mail_total{direction}``: mails in (read) and out (sent);
- ``mancala_mail_refused_total{reason}``: mails not answered (or mailed challenges not sent)
  on purpose: ``spf_fail``, ``dmarc_fail`` (a trusted Authentication-Results said the sender
  is forged), ``address_limit``, ``play_limit``, ``daily_limit``, ``hourly_limit``,
  ``stranger_challenges``, ``stranger_limit`` (``bot.mail.reply_limits``);
- ``mancala_mail_limit_notices_total``: the one notice a day to an address at its limit;
- ``mancala_errors_total{kind}``: refused requests and failures, by kind;
- ``mancala_open_games``: games in progress (updated with each heartbeat);
- ``mancala_playstrategy_disagreements_total``: PlayStrategy games given up because the
  server's record and our engine disagreed (``bot.playstrategy``); it should stay 0.

>>> MOVES.labels(surface="terminal").inc(); "mancala_moves_total" in exposition()
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from bot.config import ConfigError

if TYPE_CHECKING:
    from wsgiref.simple_server import WSGIServer

REGISTRY = CollectorRegistry()
MOVES = Counter(
    "mancala_moves", "Moves played, by the mover's surface", ["surface"], registry=REGISTRY
)
AI_THINK = Histogram(
    "mancala_ai_think_seconds",
    "Seconds the AI thought per move",
    ["level"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30),
    registry=REGISTRY,
)
MAIL = Counter("mancala_mail", "Mails read (in) and sent (out)", ["direction"], registry=REGISTRY)
MAIL_REFUSED = Counter(
    "mancala_mail_refused",
    "Mails not answered on purpose (forged sender, reply limits), by reason",
    ["reason"],
    registry=REGISTRY,
)
MAIL_LIMIT_NOTICES = Counter(
    "mancala_mail_limit_notices",
    "Notices sent to an address that reached its daily reply limit",
    registry=REGISTRY,
)
MAIL_STOPS = Counter(
    "mancala_mail_stops",
    "Addresses that said stop (stop) or start again (start); never which",
    ["change"],
    registry=REGISTRY,
)
MAIL_DROPPED = Counter(
    "mancala_mail_dropped",
    "Mails not sent because their address said stop, by what they were (reply, news)",
    ["kind"],
    registry=REGISTRY,
)
ERRORS = Counter(
    "mancala_errors", "Refused requests and failures, by kind", ["kind"], registry=REGISTRY
)
OPEN_GAMES = Gauge("mancala_open_games", "Games in progress", registry=REGISTRY)
PLAYSTRATEGY_DISAGREEMENTS = Counter(
    "mancala_playstrategy_disagreements",
    "PlayStrategy games given up because the server and our engine disagreed",
    registry=REGISTRY,
)


def exposition() -> str:
    """The metrics in Prometheus' text format, as the endpoint serves them."""
    return generate_latest(REGISTRY).decode()


def endpoint(environ: Mapping[str, str] | None = None) -> tuple[str, int] | None:
    """(address, port) from ``METRICS_ADDRESS``/``METRICS_PORT``, or None when off.
    ConfigError (one line, exit 78) for a port that is not 1 to 65535."""
    environ = os.environ if environ is None else environ
    port = environ.get("METRICS_PORT", "").strip()
    if not port:
        return None
    if not (port.isascii() and port.isdigit() and len(port) <= 5 and 0 < int(port) < 65536):
        raise ConfigError(
            f"METRICS_PORT is a port number from 1 to 65535, not "
            f"'{port[:20].encode('ascii', 'replace').decode()}'"
        )
    return environ.get("METRICS_ADDRESS", "").strip() or "127.0.0.1", int(port)


def serve(environ: Mapping[str, str] | None = None) -> WSGIServer | None:
    """Start the endpoint in a thread when it is switched on; returns the server or None.
    ConfigError when the port is taken, rather than a traceback."""
    where = endpoint(environ)
    if where is None:
        return None
    from prometheus_client import start_http_server

    try:
        server, _thread = start_http_server(where[1], where[0], registry=REGISTRY)
    except OSError as err:
        raise ConfigError(f"METRICS_PORT {where[1]} on {where[0]}: {err.strerror or err}") from None
    return server
