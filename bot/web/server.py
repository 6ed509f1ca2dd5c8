"""``mancala web`` at run time: the service on the bot's database, the application, the
listening socket, until SIGTERM or SIGINT."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from bot.service import GameService
from bot.tokens import Tokens, secret_from_environ
from bot.web.activity import ActivitySettings, add_activity
from bot.web.app import app_runner, make_app
from bot.web.settings import WebSettings

log = logging.getLogger(__name__)

# How old the service's copy of a game may get before it is checked against a SQLite file
# that other processes write: a move made by ``mancala bot`` shows on the pages within it.
CACHE_TTL = 0.5


# Attaches another surface's notifier to the service (the mail surface's, so that a move
# played on a page is mailed to an email opponent); returns what closes it.
Attach = Callable[[GameService], Awaitable[Callable[[], Awaitable[None]]]]


async def start_web(service: GameService, settings: WebSettings) -> web.AppRunner:
    """The pages on an open service, listening; ``await runner.cleanup()`` stops them. For
    ``serve``, and for a surface's process that wants to serve them on its own service (so
    that its notifiers tell its players of the moves made on the pages)."""
    app = make_app(
        service,
        Tokens(secret_from_environ(os.environ)),
        settings.plays_per_minute,
        proxies=settings.proxies,
    )
    add_activity(app, ActivitySettings.from_environ(os.environ))
    runner = app_runner(app)
    await runner.setup()
    await web.TCPSite(runner, settings.listen[0], settings.listen[1]).start()
    log.info("serving the web pages on %s:%s as %s", *settings.listen, settings.url)
    return runner


class RunningWeb:
    """The pages served beside another surface in its process (``mancala bot`` with
    ``MANCALA_WEB_LISTEN``), in the shape its ``SurfaceBeside`` expects: a move played on a
    page then reaches that surface's players at once, through its notifiers."""

    name = "web"
    mail_address = None  # the pages answer no mail

    def __init__(self, runner: web.AppRunner) -> None:
        self.runner = runner
        self.state = "listening"

    async def close(self) -> None:
        await self.runner.cleanup()
        self.state = "stopped"


async def start_web_surface(service: GameService, settings: WebSettings) -> RunningWeb:
    """Serve the pages on ``service``, the process's own: for ``mancala bot``."""
    return RunningWeb(await start_web(service, settings))


async def serve(settings: WebSettings, ai: dict[str, Any], attach: Attach | None = None) -> None:
    """Serve the pages until SIGTERM or SIGINT. The service tells players of the moves made
    here only through the notifiers in this process: ``attach`` adds one (bot/web imports
    no surface itself)."""
    service = await GameService.open(settings.database, cache_ttl=CACHE_TTL, **ai)
    detach = await attach(service) if attach is not None else None
    try:
        runner = await start_web(service, settings)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(signum, stop.set)
        try:
            await stop.wait()
        finally:
            await runner.cleanup()
    finally:
        if detach is not None:
            await detach()
        await service.close()
