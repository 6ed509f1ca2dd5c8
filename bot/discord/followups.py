"""The AI's replies as follow-ups of the player's own interaction.

In a game against the AI, the player's latest interaction is remembered: the AI's reply is
posted as its follow-up (so it appears under the player's command) while the interaction's
token lasts, and only once the board that interaction shows is posted (an AI that answers
at once waits for it). It speaks the language that interaction was answered in.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

import discord

from bot.i18n import Language, current_language
from bot.service import GameView

FOLLOWUP_WAIT = 10.0  # seconds an AI reply waits for the board it answers to be posted
FOLLOWUP_LIFETIME = 14 * 60  # seconds; an interaction token lasts 15 minutes


@dataclass
class Followup:
    """The interaction whose follow-up carries the AI's reply in one game."""

    interaction: discord.Interaction
    since: float  # time.monotonic() when it was made
    # the language the interaction was answered in, which its follow-ups speak too
    language: Language = field(default_factory=current_language)
    posted: asyncio.Event = field(default_factory=asyncio.Event)  # its own board is out


class AIFollowups:
    """The latest usable interaction of each game against the AI."""

    def __init__(self) -> None:
        self.latest: dict[int, Followup] = {}

    def expect(self, game: GameView, interaction: discord.Interaction) -> Followup | None:
        """Remember ``interaction`` for the AI's reply in ``game``, if the AI plays in it and
        the game goes on; its ``posted`` is set once the interaction's own board is out."""
        if (game.south.is_ai or game.north.is_ai) and not game.is_over:
            followup = Followup(interaction, time.monotonic())
            self.latest[game.id] = followup
            return followup
        return None

    async def pending(self, game_id: int) -> Followup | None:
        """The interaction whose follow-up should carry the AI's reply, if still usable, once
        the board it answers is posted."""
        followup = self.latest.get(game_id)
        if followup is None or time.monotonic() - followup.since > FOLLOWUP_LIFETIME:
            return None
        try:
            await asyncio.wait_for(followup.posted.wait(), FOLLOWUP_WAIT)
        except TimeoutError:
            return None
        return followup

    def forget(self, game_id: int) -> None:
        """The game is over: nothing will be followed up any more."""
        self.latest.pop(game_id, None)
