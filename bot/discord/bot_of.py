"""The typed way from an interaction to the bot that received it, and so to its parts.

Commands and buttons are built by discord.py, not by us: they reach the service and the
command handlers through the interaction's client, which is always the ``MancalaBot`` (the
only client this package makes). ``bot_of(interaction).game_commands.move`` is a path an
editor and mypy can follow, where ``interaction.client`` is only a ``discord.Client``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import discord

if TYPE_CHECKING:  # the client imports the views and commands that call this
    from bot.discord.client import MancalaBot


def bot_of(interaction: discord.Interaction) -> MancalaBot:
    """The ``MancalaBot`` that received ``interaction``."""
    return cast("MancalaBot", interaction.client)
