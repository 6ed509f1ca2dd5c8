"""Which Discord server each channel is on, and that server's game settings.

A board posted for an event (a move by mail, the AI's reply) has no interaction to say
where it is: the server learnt from an earlier interaction in that channel decides its
settings (the text board, pings). Unknown channels get the defaults (server "0").
"""

from __future__ import annotations

import discord

from bot.discord.identities import player_of
from bot.service import GameService
from bot.service.servers import ServerSettings


class KnownServers:
    """Channel (or thread) id -> its server's id, learnt from interactions and messages."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.server_of: dict[int, int] = {}

    def note(self, channel_id: int, server_id: int | None) -> None:
        """``channel_id`` is on server ``server_id`` (None: not on a server, a DM)."""
        if server_id is not None:
            self.server_of[channel_id] = server_id

    async def learn(self, interaction: discord.Interaction) -> None:
        """Which server a channel is on, and that the user plays there (the service keeps
        the server's own leaderboard)."""
        if interaction.guild_id and interaction.channel_id:
            self.server_of[interaction.channel_id] = interaction.guild_id
            await self.service.note_server_player(
                "discord", str(interaction.guild_id), player_of(interaction.user)
            )

    async def settings_for(self, channel_id: int | str | None) -> ServerSettings:
        """The settings of the server a channel is on (the defaults where it is unknown)."""
        server = self.server_of.get(int(channel_id)) if channel_id else None
        return await self.service.server_settings("discord", str(server or 0))
