"""The Discord client: one command group, persistent buttons, typed moves, and the service.

``MancalaBot`` builds the parts once and holds them as typed attributes (the service, the
boards, the command handlers); commands and buttons reach them with ``bot_of(interaction)``
(``handlers.py``, which describes what they call).
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
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Protocol

import discord
from discord import app_commands

from bot import metrics
from bot.config import ai_options
from bot.discord.account_commands import AccountCommands
from bot.discord.boards import Boards
from bot.discord.challenge_commands import ChallengeCommands
from bot.discord.command_group import MancalaGroup
from bot.discord.cooldowns import Cooldowns, HasCooldowns, refusal
from bot.discord.correspondence_commands import CorrespondenceCommands
from bot.discord.discord_settings import Settings
from bot.discord.followups import AIFollowups
from bot.discord.game_commands import GameCommands
from bot.discord.game_threads import GameThreads
from bot.discord.general_commands import GeneralCommands
from bot.discord.handlers import Handlers
from bot.discord.known_servers import KnownServers
from bot.discord.languages import MancalaTree
from bot.discord.notify import DiscordNotifier
from bot.discord.puzzle_commands import PuzzleButton, PuzzleCommands
from bot.discord.replies import answer_privately
from bot.discord.tournament_commands import TournamentCommands
from bot.discord.translator import CommandTranslator
from bot.discord.views import DYNAMIC_ITEMS
from bot.health import heartbeat_forever, heartbeat_path, service_status
from bot.i18n import _
from bot.service import GameService
from engine.ruleset import PIT_CLASS

log = logging.getLogger(__name__)

MOVE_TEXT = re.compile(rf"^\s*[{PIT_CLASS}][<>]?\s*$")  # what a typed move looks like


class MancalaBot(discord.Client):
    """``mail_address`` is the bot's own email address when this process also runs the mail
    surface (so email players hear of their games); None refuses challenges to addresses."""

    def __init__(
        self,
        service: GameService,
        settings: Settings | None = None,
        mail_address: str | None = None,
    ) -> None:
        settings = settings or Settings()
        intents = discord.Intents.default()
        intents.message_content = settings.message_content
        # one shard per process, the others elsewhere; None: discord.py's default, no shards
        shard_id, shard_count = settings.shard or (None, None)
        # nobody is pinged unless a message names them: no @everyone, no roles, ever
        super().__init__(
            intents=intents,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_id=shard_id,
            shard_count=shard_count,
        )
        self.settings = settings
        self.service = service
        self.mail_address = mail_address
        self.servers = KnownServers(service, self)
        self.threads = GameThreads(self)
        self.followups = AIFollowups()
        self.boards = Boards(
            self, service, self.servers, self.followups, self.threads, settings.web_url
        )
        self.game_commands = GameCommands(service, self.boards, self.servers)
        self.general_commands = GeneralCommands(service, self.servers, settings.message_content)
        self.challenges = ChallengeCommands(
            self, service, self.boards, self.servers, self.threads, mail_address
        )
        self.puzzle_commands = PuzzleCommands(service, self.servers)
        self.correspondence_commands = CorrespondenceCommands(service)
        self.account_commands = AccountCommands(service)  # link, privacy
        self.tournament_commands = TournamentCommands(
            self, service, self.boards, self.servers, self.threads
        )
        # how often each user ran the costly commands, counted in the database
        self.cooldowns = Cooldowns(service)
        # every command is answered in its interaction's language (languages.py)
        self.tree: app_commands.CommandTree[MancalaBot] = MancalaTree(self)
        self.tree.error(self._command_failed)
        # commands and buttons reach the parts above through bot_of(interaction), typed as
        # Handlers: this line has mypy check that the bot has each handler they call, as called
        _handlers: Handlers = self
        _cooldowns: HasCooldowns = self  # and that it keeps the cooldowns commands check

    async def setup_hook(self) -> None:
        self.tree.add_command(MancalaGroup())
        # the commands' names, descriptions and choices in each Discord locale we speak
        await self.tree.set_translator(CommandTranslator())
        self.add_dynamic_items(*DYNAMIC_ITEMS, PuzzleButton)
        self.service.add_notifier(
            "discord",
            DiscordNotifier(
                self,
                self.service,
                self.boards,
                self.followups,
                self.challenges,
                self.tournament_commands,
            ),
        )
        # a game of a tournament in a channel here is played in a thread of that channel
        self.service.add_place_maker("discord", self.tournament_commands.make_place)
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
        await self.game_commands.typed_move(message)

    async def _command_failed(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Every error of a command ends here (the tree's error handler): a cooldown's
        refusal is told as such (``cooldowns.py``), anything else is our failure."""
        command = interaction.command.qualified_name if interaction.command else "mancala"
        if isinstance(error, app_commands.CommandOnCooldown):
            metrics.ERRORS.labels(kind="CommandOnCooldown").inc()
            log.info("/%s refused to user %s: on cooldown", command, interaction.user.id)
            with contextlib.suppress(discord.HTTPException):
                await answer_privately(interaction, refusal(error, command))
            return
        log.exception("/%s failed", command, exc_info=error)
        with contextlib.suppress(discord.HTTPException):
            await answer_privately(
                interaction, _("Something went wrong on my side; the game is unchanged. Try again.")
            )

    async def close(self) -> None:
        """Stop pending thread archivings; the service owns the AI's worker processes."""
        self.threads.close()
        await super().close()


class SurfaceBeside(Protocol):
    """Another surface served from this process on the same service, so games between its
    players and Discord's are told both ways: the mail surface (``bot.mail.runner``'s
    ``RunningMail``), which ``mancala bot`` starts when MANCALA_MAIL_ADDRESS is set, and the
    web pages (``bot.web.server``'s ``RunningWeb``) when MANCALA_WEB_LISTEN is. Discord
    knows them only by this shape, so the surfaces never import each other."""

    @property
    def name(self) -> str:
        """The surface's name in the health status ("mail", "web")."""
        ...

    @property
    def state(self) -> str:
        """Its state in the health status ("listening")."""
        ...

    @property
    def mail_address(self) -> str | None:
        """The bot's own email address if this surface answers mail (Discord players may then
        challenge email addresses), else None."""
        ...

    async def close(self) -> None: ...


StartSurface = Callable[[GameService], Awaitable[SurfaceBeside]]


async def serve(
    token: str, settings: Settings, beside: StartSurface | Sequence[StartSurface] | None = None
) -> int:
    """Open the service, log in, and answer Discord until cancelled. Returns the exit status:
    1 when Discord refuses the token or the Message Content intent.

    With ``beside`` the same process also serves other surfaces on the same service: each
    ``start(service)`` starts one once the service is open, in order, and they are closed,
    last first, before the service."""
    starts = [] if beside is None else [beside] if callable(beside) else list(beside)
    service = await GameService.open(settings.database, **ai_options())
    others: list[SurfaceBeside] = []
    try:
        for start in starts:
            others.append(await start(service))
        mail_address = next((o.mail_address for o in others if o.mail_address), None)
        async with MancalaBot(service, settings, mail_address) as bot:

            async def status() -> dict[str, Any]:
                surfaces: dict[str, str] = {"discord": discord_state(bot)}
                for other in others:
                    surfaces[other.name] = other.state
                return {"surfaces": surfaces, **await service_status(service)}

            beat = asyncio.create_task(heartbeat_forever(heartbeat_path(settings.database), status))
            try:
                await bot.start(token)
            finally:
                beat.cancel()
                await asyncio.gather(beat, return_exceptions=True)
    except discord.LoginFailure:
        print(
            _(
                "Discord refused the token in DISCORD_TOKEN; copy it again from the "
                "Developer Portal (Bot > Reset Token)."
            ),
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print(
            _(
                "DISCORD_MESSAGE_CONTENT=yes needs the Message Content intent: switch it on "
                "in the Developer Portal (Bot > Privileged Gateway Intents), or unset it."
            ),
            file=sys.stderr,
        )
        return 1
    finally:
        for other in reversed(others):
            await other.close()
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


def run(
    token: str, settings: Settings, beside: StartSurface | Sequence[StartSurface] | None = None
) -> int:
    """``mancala bot``: serve until interrupted (Ctrl-C or SIGTERM from systemd). The caller
    set up logging (bot.logs) and the metrics endpoint (bot.metrics)."""

    async def until_stopped() -> int:
        # SIGTERM cancels the bot like Ctrl-C does, so the database is closed cleanly
        task = asyncio.current_task()
        assert task is not None  # asyncio.run runs this as a task
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
        try:
            return await serve(token, settings, beside)
        except asyncio.CancelledError:
            return 0

    try:
        return asyncio.run(until_stopped())
    except KeyboardInterrupt:
        return 0
