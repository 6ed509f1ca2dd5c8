"""Small helpers for answering: a private answer, "no view", and a best-effort request.

Nothing here decides a rule; a refusal's text is the service's ``ServiceError`` as it is.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable
from typing import Any

import discord

from bot.discord import formatting as fmt


async def answer_privately(interaction: discord.Interaction, text: str) -> None:
    """A private (ephemeral) answer, whether or not the interaction was answered already:
    how every refusal and error is told."""
    text = fmt.fit(text)
    none = discord.AllowedMentions.none()
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=none)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=none)


def or_missing(view: discord.ui.View | None) -> Any:
    """discord.py wants MISSING, not None, for "no view" when sending."""
    return discord.utils.MISSING if view is None else view


async def quietly(request: Awaitable[Any]) -> None:
    """Await a Discord request whose failure changes nothing (tidying up)."""
    with contextlib.suppress(discord.HTTPException):
        await request
