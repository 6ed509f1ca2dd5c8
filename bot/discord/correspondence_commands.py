"""Correspondence on a human schedule on Discord: ``/mancala vacation start|stop|status`` and
``/mancala premove`` (docs/correspondence.md). Both answer privately: a vacation is shown to
the opponent on the game's board, and conditional moves are their owner's alone.

``/mancala premove if:f then:C`` adds a conditional move in this channel's game (or the one
``game`` names): if the opponent plays f, the service plays C for you. ``if`` may name the
opponent's whole turn where a move earns another (``c f``). Without ``if`` and ``then`` it
lists yours; ``clear:true`` drops them. Moves are written as on the board: South's pits
uppercase, North's lowercase (your own pits in either case).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.handlers import CorrespondenceHandlers, bot_of
from bot.discord.identities import channel_of, player_of
from bot.discord.replies import answer_privately
from bot.service import GameService, ServiceError
from bot.service.premoves import Premove
from bot.service.vacations import VacationStatus, days_words


def vacation_words(status: VacationStatus) -> str:
    """A vacation's status, its end in each reader's own time (``<t:...:f>``)."""
    if status.until is not None:
        head = (
            f"You are on vacation until <t:{int(status.until)}:f> (or until you move or "
            "`/mancala vacation stop`): your clocks stand still and you get no reminders."
        )
    else:
        head = "You are not on vacation."
    return (
        f"{head} Used in {status.year}: {days_words(status.used)} of "
        f"{days_words(status.allowance)}; {days_words(status.left)} left."
    )


def premove_lines(premoves: list[Premove]) -> str:
    if not premoves:
        return "You have no conditional moves in this game."
    pairs = "\n".join(f"- if **{' '.join(p.if_moves)}** then **{p.then_move}**" for p in premoves)
    return (
        f"Your conditional moves (only you see them):\n{pairs}\nPlayed the moment your "
        "opponent's move matches; all dropped after their next move."
    )


class VacationGroup(app_commands.Group):
    """``/mancala vacation``: start, stop, status."""

    def __init__(self) -> None:
        super().__init__(name="vacation", description="Stop your clocks for a while")

    @app_commands.command(description="Go on vacation: your clocks stand still, no reminders")
    @app_commands.describe(days="how long (1 to 30; default: until you stop or move)")
    async def start(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 30] | None = None
    ) -> None:
        await _handler(interaction).vacation(interaction, "start", days)

    @app_commands.command(description="End your vacation: your clocks run again")
    async def stop(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).vacation(interaction, "stop", None)

    @app_commands.command(description="Your vacation and the days you have left this year")
    async def status(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).vacation(interaction, "status", None)


def _handler(interaction: discord.Interaction) -> CorrespondenceHandlers:
    return bot_of(interaction).correspondence_commands


class CorrespondenceCommands:
    """Vacations and conditional moves, translated for the service."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def vacation(
        self, interaction: discord.Interaction, action: str, days: int | None
    ) -> None:
        me = player_of(interaction.user)
        try:
            if action == "start":
                status = await self.service.start_vacation(me, days)
            elif action == "stop":
                status = await self.service.stop_vacation(me)
            else:
                status = await self.service.vacation(me)
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        await answer_privately(interaction, vacation_words(status))

    async def premove(
        self,
        interaction: discord.Interaction,
        condition: str | None,
        answer: str | None,
        clear: bool = False,
        game_id: int | None = None,
    ) -> None:
        me = player_of(interaction.user)
        try:
            if game_id is None:
                game = await self.service.active_game(channel_of(interaction.channel_id))
                if game is None:
                    return await answer_privately(
                        interaction,
                        "There is no game in this channel; give `game` (its number, from "
                        "`/mancala games`).",
                    )
                game_id = game.id
            if clear:
                count = await self.service.clear_premoves(game_id, me)
                text = f"Dropped {count} conditional move{'s' if count != 1 else ''}."
            elif condition is None and answer is None:
                text = premove_lines(await self.service.my_premoves(game_id, me))
            elif condition is None or answer is None:
                text = (
                    "Give both: `if` (your opponent's move) and `then` (your answer), like "
                    "`/mancala premove if:f then:C`."
                )
            else:
                premoves = await self.service.set_premoves(game_id, me, [(condition, answer)])
                text = premove_lines(premoves)
        except ServiceError as err:
            text = str(err)
        await answer_privately(interaction, text)
