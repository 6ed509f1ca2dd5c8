"""``/mancala activity``: opens the board as a Discord Activity in the channel or call it is
used in (the web companion's ``/activity``, bot/web/activity.py), where everyone present
sees the channel's game, its players play it and the others watch. Discord launches it
itself (the interaction's answer is "launch the application's Activity"); an application
without Activities turned on gets Discord's refusal, and the user a word on why.
"""

from __future__ import annotations

import logging

import discord

from bot.i18n import _

log = logging.getLogger(__name__)


async def launch_activity(interaction: discord.Interaction) -> None:
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as err:  # Activities are off for this application
        log.warning("launching the Activity failed: %s", err)
        await interaction.response.send_message(
            _(
                "The Activity cannot be opened: it is not turned on for this bot. Its "
                "operator can turn it on (Activities, in Discord's developer portal)."
            ),
            ephemeral=True,
        )
