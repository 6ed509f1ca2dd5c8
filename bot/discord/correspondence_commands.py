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

from bot.discord import formatting as fmt
from bot.discord.handlers import CorrespondenceHandlers, bot_of
from bot.discord.identities import channel_of, player_of
from bot.discord.replies import answer_privately
from bot.i18n import N_, _, ngettext
from bot.service import GameService, ServiceError
from bot.service.premoves import Premove
from bot.service.vacations import VacationStatus, days_words


def vacation_words(status: VacationStatus) -> str:
    """A vacation's status, its end in each reader's own time (``<t:...:f>``)."""
    if status.until is not None:
        head = _(
            "You are on vacation until {time} (or until you move or {stop}): your clocks "
            "stand still and you get no reminders."
        ).format(time=f"<t:{int(status.until)}:f>", stop=fmt.command("vacation stop"))
    else:
        head = _("You are not on vacation.")
    used = _("Used in {year}: {used} of {allowance}; {left} left.").format(
        year=status.year,
        used=days_words(status.used),
        allowance=days_words(status.allowance),
        left=days_words(status.left),
    )
    return f"{head} {used}"


def premove_lines(premoves: list[Premove]) -> str:
    if not premoves:
        return _("You have no conditional moves in this game.")
    pairs = "\n".join(
        "- "
        + _("if **{moves}** then **{move}**").format(moves=" ".join(p.if_moves), move=p.then_move)
        for p in premoves
    )
    return "\n".join(
        [
            _("Your conditional moves (only you see them):"),
            pairs,
            _("Played the moment your opponent's move matches; all dropped after their next move."),
        ]
    )


class VacationGroup(app_commands.Group):
    """``/mancala vacation``: start, stop, status."""

    def __init__(self) -> None:
        super().__init__(name="vacation", description=N_("Stop your clocks for a while"))

    @app_commands.command(description=N_("Go on vacation: your clocks stand still, no reminders"))
    @app_commands.describe(days=N_("how long (1 to 30; default: until you stop or move)"))
    async def start(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 30] | None = None
    ) -> None:
        await _handler(interaction).vacation(interaction, "start", days)

    @app_commands.command(description=N_("End your vacation: your clocks run again"))
    async def stop(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).vacation(interaction, "stop", None)

    @app_commands.command(description=N_("Your vacation and the days you have left this year"))
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
                        _(
                            "There is no game in this channel; give {game} (its number, from "
                            "{games})."
                        ).format(game=f"`{fmt.command_word('game')}`", games=fmt.command("games")),
                    )
                game_id = game.id
            if clear:
                count = await self.service.clear_premoves(game_id, me)
                text = ngettext(
                    "Dropped {n} conditional move.", "Dropped {n} conditional moves.", count
                ).format(n=count)
            elif condition is None and answer is None:
                text = premove_lines(await self.service.my_premoves(game_id, me))
            elif condition is None or answer is None:
                text = _(
                    "Give both: {if_} (your opponent's move) and {then} (your answer), like "
                    "{example}."
                ).format(
                    if_=f"`{fmt.command_word('if')}`",
                    then=f"`{fmt.command_word('then')}`",
                    example=fmt.command("premove", **{"if": "f", "then": "C"}),
                )
            else:
                premoves = await self.service.set_premoves(game_id, me, [(condition, answer)])
                text = premove_lines(premoves)
        except ServiceError as err:
            text = str(err)
        await answer_privately(interaction, text)
