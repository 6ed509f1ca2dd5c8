"""Which Discord server each channel is on, that server's game settings and language.

A board posted for an event (a move by mail, the AI's reply) has no interaction to say
where it is: the server learnt from an earlier interaction in that channel decides its
settings (the text board, pings) and its language (the server's preferred locale, which
Discord sends with every interaction and the client keeps with each server it is on).
Unknown channels get the defaults (server "0").
"""

from __future__ import annotations

import discord

from bot.discord.identities import player_of
from bot.service import GameService
from bot.service.servers import ServerSettings


class KnownServers:
    """Channel (or thread) id -> its server's id, learnt from interactions and messages; each
    server's preferred locale, and each user's Discord language, as last seen."""

    def __init__(self, service: GameService, client: discord.Client | None = None) -> None:
        self.service = service
        self.client = client
        self.server_of: dict[int, int] = {}
        self.locales: dict[int, str] = {}  # server id -> its preferred locale ("fr")
        self.user_locales: dict[str, str] = {}  # user id -> their Discord's language

    def note(self, channel_id: int, server_id: int | None) -> None:
        """``channel_id`` is on server ``server_id`` (None: not on a server, a DM)."""
        if server_id is not None:
            self.server_of[channel_id] = server_id

    async def learn(self, interaction: discord.Interaction) -> None:
        """Which server a channel is on, its language, and that the user plays there (the
        service keeps the server's own leaderboard)."""
        self.user_locales[str(interaction.user.id)] = str(interaction.locale)
        if interaction.guild_id and interaction.channel_id:
            self.server_of[interaction.channel_id] = interaction.guild_id
            if interaction.guild_locale is not None:
                self.locales[interaction.guild_id] = str(interaction.guild_locale)
            await self.service.note_server_player(
                "discord", str(interaction.guild_id), player_of(interaction.user)
            )

    def locale_for(self, channel_id: int | str | None) -> str | None:
        """The preferred locale of the server ``channel_id`` is on; None for a DM, or a
        channel on no server we know."""
        text = str(channel_id or "")
        number = int(text) if text.isascii() and text.isdigit() and len(text) <= 20 else None
        if number is None:
            return None
        server = self.server_of.get(number)
        if server is None and self.client is not None:
            channel = self.client.get_channel(number)
            guild = getattr(channel, "guild", None)
            server = guild.id if guild is not None else None
        if server is None:
            return None
        guild = self.client.get_guild(server) if self.client is not None else None
        if guild is not None:
            return str(guild.preferred_locale)
        return self.locales.get(server)

    async def settings_for(self, channel_id: int | str | None) -> ServerSettings:
        """The settings of the server a channel is on (the defaults where it is unknown)."""
        server = self.server_of.get(int(channel_id)) if channel_id else None
        return await self.service.server_settings("discord", str(server or 0))
