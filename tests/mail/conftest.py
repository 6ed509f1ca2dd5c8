"""The mail tests' shared fixture: ``table``, the mail surface on a fresh service, its mail
caught by a loopback mailbox (tests/mail/mail_support.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.mail import runner
from bot.mail.mail_settings import MailSettings
from bot.mail.reply_limits import ReplyLimiter
from bot.service import GameService
from tests.mail.mail_support import Mailbox


@pytest.fixture
def table_options() -> dict[str, Any]:
    """The ``MailSettings`` fields in which a test file's mail surface differs from the usual
    one (its address, its secret, its AI level, its reply limits): such a file overrides this
    fixture."""
    return {}


@pytest.fixture
def table_clock() -> Callable[[], float] | None:
    """The clock of ``table``'s service and reply limits: the wall clock (None), unless a
    test file overrides this fixture with a ManualClock."""
    return None


@pytest.fixture
async def table(tmp_path, table_options, table_clock):
    """The mail surface on a fresh service (a SQLite file); every mail it sends, replies and
    notifications, goes to one loopback mailbox. Yields (surface, service, mailbox)."""
    mailbox = await Mailbox().start()
    settings = MailSettings(
        **{
            "relay": ("127.0.0.1", mailbox.port),
            "bot_address": "mancala@bot.test",
            "secret": b"test-secret",
            "database": str(tmp_path / "games.sqlite3"),
            **table_options,
        }
    )
    service = await GameService.open(settings.database, clock=table_clock, tick_every=None)
    limiter = (  # counted in the database, as open_surface does by default
        None if table_clock is None else ReplyLimiter(settings.limits, table_clock, service)
    )
    surface = await runner.open_surface(settings, service=service, limiter=limiter)
    yield surface, service, mailbox
    await surface.close()
    await service.close()
    await mailbox.stop()
