"""Discord's users and channels as the service's players and channels, and whom a message
may ping.

>>> player_of(discord.Object(42)), channel_of(7)
(Player(surface='discord', id='42'), Channel(surface='discord', id='7'))
"""

from __future__ import annotations

import discord

from bot.discord import formatting as fmt
from bot.service import Channel, Player


def player_of(user: discord.abc.Snowflake) -> Player:
    return Player("discord", str(user.id))


def channel_of(channel_id: int | None) -> Channel:
    """The service's name for a Discord channel or thread (an interaction always has one;
    without, the channel named "None" simply has no game)."""
    return Channel("discord", str(channel_id))


def mentions(*players: Player) -> discord.AllowedMentions:
    """Pings for these players only: never @everyone, roles, or anyone named in user text."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(i) for i in fmt.discord_ids(*players)],
    )
