"""What commands and buttons call, and the typed way to it from an interaction.

Commands and buttons are built by discord.py, not by us (a button after a restart is rebuilt
from its custom id alone), so they cannot be handed the bot's parts: they reach them through
the interaction's client with ``bot_of(interaction)``, as in ``bot_of(interaction)
.game_commands.move(...)``. That client is the ``MancalaBot`` (the only client this package
makes), which builds the handlers and holds them; here it is only described, by the
protocols below, so this file imports nothing of the package and nothing imports back.
``client.py`` has mypy check that ``MancalaBot`` fits ``Handlers``: a handler renamed there
or a signature changed shows up as an error there, not as a click that fails.

>>> isinstance(object(), Handlers)
False
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import discord

from bot.service import GameService
from bot.service.types import OfferKind


class GameHandlers(Protocol):
    """A game in progress (``game_commands.py``): moves, the board, offers, hints."""

    async def move(
        self,
        interaction: discord.Interaction,
        game_id: int | None,
        move: str,
        ply: int | None = None,
        from_board: bool = False,
    ) -> None: ...

    async def board(self, interaction: discord.Interaction, text: bool | None = None) -> None: ...

    async def resign(self, interaction: discord.Interaction) -> None: ...

    async def offer(self, interaction: discord.Interaction, kind: OfferKind) -> None: ...

    async def answer_offer(
        self, interaction: discord.Interaction, game_id: int, ply: int, accept: bool
    ) -> None: ...

    async def hint(self, interaction: discord.Interaction) -> None: ...
    async def review(
        self,
        interaction: discord.Interaction,
        game_id: int | None,
        record: discord.Attachment | None = None,
        text: str | None = None,
    ) -> None: ...

    async def history(self, interaction: discord.Interaction) -> None: ...


class GeneralHandlers(Protocol):
    """Outside any one game (``general_commands.py``): help, rules, lists, settings."""

    async def help(self, interaction: discord.Interaction) -> None: ...

    async def rules(self, interaction: discord.Interaction, ruleset: str | None) -> None: ...

    async def games(self, interaction: discord.Interaction) -> None: ...

    async def set_pings(self, interaction: discord.Interaction, mode: str) -> None: ...

    async def leaderboard(
        self,
        interaction: discord.Interaction,
        ruleset: str | None,
        everywhere: bool = False,
        opponent: discord.abc.User | None = None,
    ) -> None: ...

    async def server_settings(self, interaction: discord.Interaction, **given: Any) -> None: ...


class ChallengeHandlers(Protocol):
    """Challenges (``challenge_commands.py``): making, answering, withdrawing, rematches."""

    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.abc.User | None,
        ruleset: str | None,
        level: str | None = None,
        first: str = "me",
        clock: str | None = None,
        thread: bool | None = None,
        email: str | None = None,
        days: int | None = None,
    ) -> None: ...

    async def accept(
        self, interaction: discord.Interaction, challenge_id: int | None, from_card: bool = False
    ) -> None: ...

    async def decline(
        self, interaction: discord.Interaction, challenge_id: int | None, from_card: bool = False
    ) -> None: ...

    async def cancel(self, interaction: discord.Interaction, challenge_id: int | None) -> None: ...

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None: ...


class PuzzleHandlers(Protocol):
    """Puzzles (``puzzle_commands.py``): showing them, answering them, streaks, the board."""

    async def puzzle(
        self,
        interaction: discord.Interaction,
        kind: str = "daily",
        family: str | None = None,
        grade: str | None = None,
    ) -> None: ...

    async def answer(self, interaction: discord.Interaction, puzzle_id: str, move: str) -> None: ...


class TournamentHandlers(Protocol):
    """Tournaments (``tournament_commands.py``): ``/mancala tournament ...``."""

    async def create(
        self,
        interaction: discord.Interaction,
        name: str,
        format: str,
        ruleset: str | None,
        rounds: int | None,
        minutes: int | None,
        days: int | None,
        length: int | None,
        start_in: str | None,
    ) -> None: ...

    async def join(self, interaction: discord.Interaction, tournament_id: int) -> None: ...

    async def withdraw(self, interaction: discord.Interaction, tournament_id: int) -> None: ...

    async def start(self, interaction: discord.Interaction, tournament_id: int) -> None: ...

    async def cancel(self, interaction: discord.Interaction, tournament_id: int) -> None: ...

    async def pairings(
        self, interaction: discord.Interaction, tournament_id: int, round_no: int | None
    ) -> None: ...

    async def standings(self, interaction: discord.Interaction, tournament_id: int) -> None: ...

    async def list_open(self, interaction: discord.Interaction) -> None: ...


class CorrespondenceHandlers(Protocol):
    """Correspondence on a human schedule (``correspondence_commands.py``): vacations and
    conditional moves."""

    async def vacation(
        self, interaction: discord.Interaction, action: str, days: int | None
    ) -> None: ...

    async def premove(
        self,
        interaction: discord.Interaction,
        condition: str | None,
        answer: str | None,
        clear: bool = False,
        game_id: int | None = None,
    ) -> None: ...


class AccountHandlers(Protocol):
    """A player's accounts and data (``account_commands.py``): linking, export, deletion."""

    async def link(
        self, interaction: discord.Interaction, action: str, value: str | None
    ) -> None: ...

    async def privacy(
        self, interaction: discord.Interaction, action: str, code: str | None
    ) -> None: ...


@runtime_checkable
class Handlers(Protocol):
    """The bot as commands and buttons see it: its handlers, and the service (which the
    autocomplete of moves reads)."""

    @property
    def service(self) -> GameService: ...

    @property
    def game_commands(self) -> GameHandlers: ...

    @property
    def general_commands(self) -> GeneralHandlers: ...

    @property
    def challenges(self) -> ChallengeHandlers: ...

    @property
    def tournament_commands(self) -> TournamentHandlers: ...

    @property
    def puzzle_commands(self) -> PuzzleHandlers: ...

    @property
    def correspondence_commands(self) -> CorrespondenceHandlers: ...

    @property
    def account_commands(self) -> AccountHandlers: ...


def bot_of(interaction: discord.Interaction) -> Handlers:
    """The handlers of the bot that received ``interaction``."""
    client = interaction.client
    if not isinstance(client, Handlers):
        raise TypeError(
            f"a mancala command or button reached a {type(client).__name__}, which has no "
            "game_commands, general_commands, challenges or service: only the MancalaBot "
            "(bot.discord.client) can answer it"
        )
    return client
