"""The Discord client: one command group, persistent buttons, typed moves, and the service.

``setup_hook`` adds ``/mancala``, registers the button classes (so boards posted before a
restart still work), routes the service's events to Discord, and syncs the commands (to
``DISCORD_GUILD`` at once when it is set, else globally).

>>> from bot.discord.discord_settings import Settings
>>> MOVE_TEXT.match("E<") is not None, MOVE_TEXT.match("hello") is None
(True, True)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import signal
import sys

import discord
from discord import app_commands

from bot.discord.actions import Actions
from bot.discord.challenges import Challenges
from bot.discord.command_group import MancalaGroup
from bot.discord.discord_settings import Settings
from bot.discord.notify import DiscordNotifier
from bot.discord.views import DYNAMIC_ITEMS
from bot.health import heartbeat_forever, heartbeat_path, service_status

log = logging.getLogger(__name__)

MOVE_TEXT = re.compile(r"^\s*[A-Ha-h][<>]?\s*$")  # what a typed move looks like


class MancalaBot(discord.Client):
    """``mail_address`` is the bot's own email address when this process also runs the mail
    surface (so email players hear of their games); None refuses challenges to addresses."""

    def __init__(self, service, settings: Settings | None = None, mail_address: str | None = None):
        settings = settings or Settings()
        intents = discord.Intents.default()
        intents.message_content = settings.message_content
        # nobody is pinged unless a message names them: no @everyone, no roles, ever
        shards = (
            {"shard_id": settings.shard[0], "shard_count": settings.shard[1]}
            if settings.shard
            else {}
        )  # one shard per process, the others elsewhere
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none(), **shards)
        self.settings = settings
        self.service = service
        self.mail_address = mail_address
        self.actions = Actions(self, service)
        self.challenges = Challenges(self.actions)
        self.tree = app_commands.CommandTree(self)
        self.tree.on_error = self._command_failed

    async def setup_hook(self) -> None:
        self.tree.add_command(MancalaGroup())
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.service.add_notifier("discord", DiscordNotifier(self))
        if not self.settings.sync_commands:
            return
        if self.settings.guild_id:
            guild = discord.Object(self.settings.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or not MOVE_TEXT.match(message.content or ""):
            return
        await self.actions.typed_move(message)

    async def _command_failed(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        log.exception(
            "/%s failed", interaction.command and interaction.command.qualified_name, exc_info=error
        )
        with contextlib.suppress(discord.HTTPException):
            await self.actions.error(
                interaction, "Something went wrong on my side; the game is unchanged. Try again."
            )

    async def close(self) -> None:
        self.actions.close()
        await super().close()


async def serve(token: str, settings: Settings, mail_settings=None) -> int:
    """Open the service, log in, and answer Discord until cancelled. Returns the exit status:
    1 when Discord refuses the token or the Message Content intent.

    With ``mail_settings`` the same process also serves email on the same service, so games
    between Discord and email players are told both ways."""
    from bot.service import GameService

    service = await GameService.open(settings.database)
    mail = None
    try:
        if mail_settings is not None:
            from bot.mail.runner import start_mail_surface

            mail = await start_mail_surface(service, mail_settings)
        mail_address = mail_settings.bot_address if mail is not None else None
        async with MancalaBot(service, settings, mail_address) as bot:

            async def status() -> dict:
                surfaces = {"discord": discord_state(bot)}
                if mail is not None:
                    surfaces["mail"] = "listening"
                return {"surfaces": surfaces, **await service_status(service)}

            beat = asyncio.create_task(heartbeat_forever(heartbeat_path(settings.database), status))
            try:
                await bot.start(token)
            finally:
                beat.cancel()
                await asyncio.gather(beat, return_exceptions=True)
    except discord.LoginFailure:
        print(
            "Discord refused the token in DISCORD_TOKEN; copy it again from the "
            "Developer Portal (Bot > Reset Token).",
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print(
            "DISCORD_MESSAGE_CONTENT=yes needs the Message Content intent: switch it on "
            "in the Developer Portal (Bot > Privileged Gateway Intents), or unset it.",
            file=sys.stderr,
        )
        return 1
    finally:
        if mail is not None:
            await mail.close()
        await service.close()
    return 0


def discord_state(bot: discord.Client) -> str:
    """ "connecting" until Discord's READY, then "connected", or "disconnected" while the
    gateway is lost (discord.py reconnects by itself; a long outage fails the health check)."""
    if bot.is_closed():
        return "disconnected"
    if not bot.is_ready():
        return "connecting"
    return (
        "connected"
        if bot.latency == bot.latency and bot.latency != float("inf")
        else "disconnected"
    )


def run(token: str, settings: Settings, mail_settings=None) -> int:
    """``mancala bot``: serve until interrupted (Ctrl-C or SIGTERM from systemd). The caller
    set up logging (bot.logs) and the metrics endpoint (bot.metrics)."""

    async def until_stopped() -> int:
        # SIGTERM cancels the bot like Ctrl-C does, so the database is closed cleanly
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, asyncio.current_task().cancel)
        try:
            return await serve(token, settings, mail_settings)
        except asyncio.CancelledError:
            return 0

    try:
        return asyncio.run(until_stopped())
    except KeyboardInterrupt:
        return 0
