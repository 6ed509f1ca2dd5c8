"""Putting the email surface together: the relay, the AI, the game service, the bot; then
either an SMTP server that runs until stopped, or one message from a pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.ai_runtime.pool import DEFAULT_WORKERS, AIPool
from bot.config import ai_options
from bot.health import heartbeat_forever, heartbeat_path, service_status
from bot.i18n import _
from bot.mail.bot import MailBot
from bot.mail.mail_settings import MailSettings, MailSettingsError
from bot.mail.reading import MailTooLarge
from bot.mail.reply_limits import ReplyLimiter
from bot.mail.transport import Relay, TransientMailError, start_server
from engine.errors import excerpt

if TYPE_CHECKING:  # opened only when games are on
    from bot.mail.correspondence import Correspondence
    from bot.mail.stop_mail import StopMail
    from bot.service import GameService

log = logging.getLogger(__name__)

EX_OK, EX_DATAERR, EX_SOFTWARE, EX_TEMPFAIL = 0, 65, 70, 75  # sysexits.h, as Postfix reads them


@dataclass
class MailSurface:
    """Everything the bot needs, opened together and closed together."""

    bot: MailBot
    relay: Relay
    service: GameService | None = None  # the service this surface opened (and so closes)
    ai: AIPool | None = None  # the pool it opened, when there is no service to share

    async def close(self) -> None:
        if self.service is not None:
            await self.service.close()
        await self.relay.close()
        if self.ai is not None:
            self.ai.close()


async def open_surface(
    settings: MailSettings,
    *,
    with_games: bool = True,
    service: GameService | None = None,
    ai_workers: int | None = None,
    limiter: ReplyLimiter | None = None,
) -> MailSurface:
    """The relay, the AI and (``with_games``) the game service on ``settings.database`` with
    the email notifier attached; pass ``service`` to share one that is already open.
    ``ai_workers`` (default: ``MANCALA_AI_WORKERS``, else the pool's default) worker
    processes search, within the AI caps of ``bot.config.ai_options``.
    ``limiter`` counts the automatic replies (default: ``settings.limits`` on the wall clock,
    counted in the database through the service, or in memory without games; tests pass one
    on a ManualClock)."""
    from engine.ai import LEVELS

    if settings.level and settings.level not in LEVELS:
        raise MailSettingsError(
            _("{name} is one of {levels}, not '{value}'").format(
                name="MANCALA_MAIL_LEVEL", levels=", ".join(LEVELS), value=excerpt(settings.level)
            )
        )
    relay = Relay(
        settings.relay[0],
        settings.relay[1],
        user=settings.relay_user,
        password=settings.relay_password,
        tls=settings.relay_tls,
    )
    ai = ai_options()
    if ai_workers is not None:
        ai["ai_workers"] = ai_workers
    correspondence: Correspondence | None = None
    stops: StopMail | None = None
    owned_service: GameService | None = None
    owned_ai: AIPool | None = None
    if with_games:
        from bot.mail.correspondence import Correspondence, attach_email

        if service is None:
            from bot.service import GameService

            service = owned_service = await GameService.open(settings.database, **ai)
        # the replies are counted in the database: every process on it shares the limits
        limiter = limiter or ReplyLimiter(settings.limits, counter=service)
        notifier = attach_email(service, settings, relay, limiter)
        correspondence = Correspondence(service, notifier, limiter)
        stops = stop_mail(service, settings, relay, limiter)
        pool = service.ai  # one pool for the games' AI turns and the position mails
    else:
        pool = owned_ai = AIPool(ai.get("ai_workers", DEFAULT_WORKERS))
        limiter = limiter or ReplyLimiter(settings.limits)  # no database: this process's memory
    bot = MailBot(settings, pool, relay, correspondence, limiter=limiter, stops=stops)
    return MailSurface(bot, relay, owned_service, owned_ai)


def stop_mail(
    service: GameService, settings: MailSettings, relay: Relay, limiter: ReplyLimiter
) -> StopMail:
    """Stopping mail (docs/privacy.md): ``relay`` asks the gate before each mail it sends
    (the unsubscribe headers; nothing to an address that said stop), and ``stop`` and
    ``start`` are answered."""
    from bot.mail.stop_mail import StopMail
    from bot.mail.unsubscribe import MailStopGate
    from bot.tokens import Tokens

    gate = MailStopGate(
        service, Tokens(settings.token_secret()), settings.bot_address, settings.web_url
    )
    relay.gate = gate
    return StopMail(service, gate, limiter, settings.bot_address)


@dataclass
class RunningMail:
    """The mail surface started inside another surface's process (see start_mail_surface):
    the shape ``bot.discord.client.serve`` asks of a surface beside it (``SurfaceBeside``)."""

    surface: MailSurface
    server: asyncio.base_events.Server

    @property
    def name(self) -> str:
        return "mail"

    @property
    def state(self) -> str:
        return "listening"

    @property
    def mail_address(self) -> str:
        """The bot's own address: players of the other surface may challenge addresses."""
        return self.surface.bot.settings.bot_address

    async def close(self) -> None:
        self.server.close()
        await self.server.wait_closed()
        await self.surface.close()  # the service belongs to the caller: it stays open


async def start_mail_surface(service: GameService, settings: MailSettings) -> RunningMail:
    """Listen for mail and notify email players from a process that already runs the game
    service (the Discord bot's), so games between Discord and email players are told both
    ways."""
    surface = await open_surface(settings, service=service)
    host, port = settings.listen
    server = await start_server(surface.bot.process, host, port, settings.max_bytes)
    return RunningMail(surface, server)


async def serve(
    settings: MailSettings,
    stop: asyncio.Event | None = None,
    ready: asyncio.Event | None = None,
    with_games: bool = True,
) -> None:
    """Run the SMTP server until ``stop`` is set (or SIGINT/SIGTERM)."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    surface = await open_surface(settings, with_games=with_games)
    host, port = settings.listen
    try:
        server = await start_server(surface.bot.process, host, port, settings.max_bytes)
    except OSError:
        await surface.close()
        raise
    log.info("mancala mail: listening on %s:%s, replies via %s:%s", host, port, *settings.relay)

    async def status() -> dict[str, Any]:
        games = await service_status(surface.service) if surface.service is not None else {}
        return {"surfaces": {"mail": "listening"}, **games}

    beat = asyncio.create_task(heartbeat_forever(heartbeat_path(settings.database), status))
    if ready is not None:
        ready.set()
    try:
        await stop.wait()
    finally:
        beat.cancel()
        await asyncio.gather(beat, return_exceptions=True)
        server.close()
        await server.wait_closed()
        await surface.close()


async def pipe(
    settings: MailSettings,
    raw: bytes,
    sender: str | None,
    recipients: list[str],
    with_games: bool = True,
) -> int:
    """Handle one message delivered by a mail server; the exit status it expects."""
    if len(raw) > settings.max_bytes:
        print(f"message refused: {len(raw)} bytes, the limit is {settings.max_bytes}")
        return EX_DATAERR
    try:
        surface = await open_surface(settings, with_games=with_games, ai_workers=0)
    except Exception as err:  # noqa: BLE001 - e.g. the database is locked: retry later
        print(f"cannot start the mail bot, will retry: {err}")
        return EX_TEMPFAIL
    try:
        await surface.bot.process(raw, sender, recipients)
        if surface.service is not None:
            await surface.service.idle()  # notifications to the opponent go out before exit
    except MailTooLarge as err:
        print(f"message refused: {err}")
        return EX_DATAERR
    except TransientMailError as err:
        print(f"cannot answer now, will retry: {err}")
        return EX_TEMPFAIL
    except Exception as err:  # noqa: BLE001 - let the mail server keep the message and retry
        log.exception("failed to handle a piped message")
        print(f"internal error, will retry: {err}")
        return EX_TEMPFAIL
    finally:
        await surface.close()
    return EX_OK
