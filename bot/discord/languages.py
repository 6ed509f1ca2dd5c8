"""Which language the bot speaks on Discord (docs/languages.md), chosen in one place each:

- an answer to an interaction (a command, its autocomplete, a button): the user's own setting
  (``/mancala settings language``), else their Discord's language (the interaction's locale),
  else the server's preferred locale (``language_of``). Every command goes through
  ``MancalaTree._call`` and every button and menu through ``Answering.callback``, which
  answer inside ``speaking(language_of(interaction))``: what the handlers format, and the
  service's refusals, come out in it;
- a typed move: its author's setting, else the language their Discord last showed us, else
  the server's preferred locale;
- a post nobody asked for in a channel (the AI's move, a move by mail, a reminder, a
  tournament's news): the server's preferred locale (``KnownServers.locale_for``); in a
  direct message, or a DM channel, its recipient's language (``Speakers.for_post``). The
  AI's move that follows up a player's own interaction speaks that interaction's language.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord.handlers import bot_of
from bot.discord.identities import player_of
from bot.discord.known_servers import KnownServers
from bot.i18n import Language, choose, speaking
from bot.service import Channel, GameService, Player

log = logging.getLogger(__name__)


def _hints(interaction: discord.Interaction) -> tuple[str, str | None]:
    guild = interaction.guild_locale if interaction.guild_id else None
    return str(interaction.locale), (str(guild) if guild else None)


async def language_of(interaction: discord.Interaction) -> Language:
    """The language to answer ``interaction`` in (the user's setting, their Discord's
    language, the server's); English where none is ours."""
    hints = _hints(interaction)
    try:
        return await bot_of(interaction).service.language_for(player_of(interaction.user), *hints)
    except Exception:  # the setting could not be read: the locales still say something
        log.exception("could not read the language of user %s", interaction.user.id)
        return choose(None, *hints)


class MancalaTree(app_commands.CommandTree[Any]):
    """The command tree: every command and autocomplete is answered (errors included, a
    cooldown's refusal say) in the language of its interaction."""

    # discord.py's own dispatch of a command (a private method, but the one place every
    # command and autocomplete passes through; the public interaction_check runs before the
    # command, it cannot wrap it, nor the error handler after it)
    async def _call(self, interaction: discord.Interaction) -> None:
        with speaking(await language_of(interaction)):
            try:
                await super()._call(interaction)
            except app_commands.AppCommandError as error:
                # told here, in the same language, rather than after the block ends
                await self._dispatch_error(interaction, error)


class Answering:
    """A button or menu (mixed in before ``discord.ui.DynamicItem``): a press is answered
    in the presser's language. Subclasses write ``pressed`` instead of ``callback``."""

    async def callback(self, interaction: discord.Interaction) -> None:
        with speaking(await language_of(interaction)):
            await self.pressed(interaction)

    async def pressed(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class Speakers:
    """The language of the posts nobody asked for: a channel speaks its server's preferred
    locale; a direct message (or a DM channel) its recipient's language."""

    def __init__(self, service: GameService, servers: KnownServers) -> None:
        self.service = service
        self.servers = servers

    async def for_post(self, channel: Channel | None, recipient: Player | None) -> Language:
        """The language of a post in ``channel`` (a direct message when it is None or not
        on Discord) for ``recipient``."""
        on_discord = channel is not None and channel.surface == "discord"
        locale = self.servers.locale_for(channel.id) if channel is not None and on_discord else None
        if locale is not None:
            return choose(None, locale)
        return await self.for_player(recipient)

    async def for_player(self, player: Player | None) -> Language:
        """A direct message's language: its recipient's setting, else the language their
        Discord last showed us."""
        if player is None or player.surface != "discord":
            return Language.EN
        return await self.service.language_for(player, self.servers.user_locales.get(player.id))
