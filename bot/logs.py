"""The log: one line per event, with the game, surface and player where known, and no secrets.

``LOG_LEVEL`` (DEBUG, INFO, WARNING, ERROR; default INFO) sets what is written. A line reads
``2026-11-25T10:00:00Z INFO bot.service.play move played game=12 surface=discord player=...``:
the fields come from ``extra={"game": ..., "surface": ..., "player": ...}`` at the call.

Whatever is logged, by us or by a library, passes ``Redact`` on its way out: Discord bot
tokens (their shape) and the configured secrets (the token, the mail secret, the relay's
password) become ``[redacted]``. Mail bodies are never logged at INFO: the mail surface logs
who and why, never what a mail says.

>>> record = logging.LogRecord("bot", logging.INFO, "", 0, "token %s", ("MTIz" * 6 + ".Gx1yZw." + "a" * 30,), None)
>>> Redact(["s3cret-value"]).filter(record), record.getMessage()
(True, 'token [redacted]')
"""

from __future__ import annotations

import logging
import os
import re
import sys
import time
from collections.abc import Iterable, Mapping
from typing import TextIO

from bot.config import ConfigError

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
FIELDS = ("game", "surface", "player")  # the context a line may carry, in this order
SECRET_SETTINGS = (
    "DISCORD_TOKEN",
    "MANCALA_MAIL_SECRET",
    "MANCALA_MAIL_RELAY_PASSWORD",
    "PLAYSTRATEGY_TOKEN",
)
_HANDLER = "mancala"  # the name of the handler setup() installs, so a second call replaces it

# A Discord bot token: base64 of the bot's id, a timestamp, an HMAC, joined by dots.
_DISCORD_TOKEN = re.compile(r"[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}")


class Redact(logging.Filter):
    """Masks Discord tokens and the given secret values in a record's message, in place."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if len(s) >= 6}, key=len, reverse=True)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = _DISCORD_TOKEN.sub("[redacted]", message)
        for secret in self.secrets:
            clean = clean.replace(secret, "[redacted]")
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:  # tracebacks quote arguments too
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            text = _DISCORD_TOKEN.sub("[redacted]", record.exc_text)
            for secret in self.secrets:
                text = text.replace(secret, "[redacted]")
            record.exc_text = text
        return True


class OneLine(logging.Formatter):
    """``time level logger message key=value...``, on one line (a traceback is folded in with
    `` | `` so a log reader never splits an event)."""

    def __init__(self) -> None:
        super().__init__(
            "%(asctime)s %(levelname)s %(name)s %(message)s", datefmt="%Y-%m-%dT%H:%M:%SZ"
        )
        self.converter = time.gmtime  # UTC, as the Z in datefmt says

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        fields = [
            f"{key}={getattr(record, key)}"
            for key in FIELDS
            if getattr(record, key, None) is not None
        ]
        if fields:
            first, newline, rest = line.partition("\n")
            line = f"{first} {' '.join(fields)}{newline}{rest}"
        return line.replace("\n", " | ")


def level(environ: Mapping[str, str] | None = None) -> int:
    """``LOG_LEVEL`` as a logging level; ConfigError (one line, exit 78) for anything else."""
    environ = os.environ if environ is None else environ
    name = environ.get("LOG_LEVEL", "").strip().upper() or "INFO"
    if name == "WARN":
        name = "WARNING"
    if name not in LEVELS:
        raise ConfigError(
            f"LOG_LEVEL is one of {', '.join(LEVELS)}, not "
            f"'{name[:20].encode('ascii', 'replace').decode()}'"
        )
    return int(getattr(logging, name))


def setup(
    environ: Mapping[str, str] | None = None, stream: TextIO | None = None
) -> logging.Handler:
    """Send every logger's records (discord.py's too) to ``stream`` (stderr) as one-line
    events at ``LOG_LEVEL``, with secrets masked. Returns the handler it installed."""
    environ = os.environ if environ is None else environ
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(OneLine())
    handler.addFilter(Redact(environ.get(name, "") for name in SECRET_SETTINGS))
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _HANDLER]:
        root.removeHandler(old)
    handler.set_name(_HANDLER)
    root.addHandler(handler)
    root.setLevel(level(environ))
    return handler
