"""Buttons and menus. Their custom ids carry everything a click needs, so they keep working
after a restart (the classes are registered in ``setup_hook``) and a click on an old board is
recognised by its ply.

Custom ids, each well under Discord's 100 characters:

- ``mancala:move:GAME:PLY:MOVE`` a pit button (``MOVE`` like ``E``, ``e`` or ``E<``);
- ``mancala:pick:GAME:PLY:PART`` a select menu of moves, when there are too many for buttons;
- ``mancala:challenge:ID:accept`` / ``:decline``;
- ``mancala:offer:GAME:PLY:accept`` / ``:decline`` (a draw, end or undo offer).

>>> move_id(12, 3, "E<")
'mancala:move:12:3:E<'

The callbacks only hand the click to the bot's command handlers (``bot_of(interaction)``):
the service decides.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Self

import discord

from bot.discord.handlers import bot_of
from bot.discord.languages import Answering
from bot.i18n import N_, _
from bot.service import Challenge, GameView
from bot.service.types import OfferKind
from engine.ruleset import PIT_CLASS

BUTTONS_PER_ROW = 5
ROWS = 5
SELECT_OPTIONS = 25
CUSTOM_ID_LIMIT = 100


_ID = "[0-9]{1,19}"  # an id as we write them: ASCII digits, at most 64 bits


def move_id(game_id: int, ply: int, move: str) -> str:
    return f"mancala:move:{game_id}:{ply}:{move}"


class PitButton(
    Answering,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"mancala:move:(?P<game>{_ID}):(?P<ply>{_ID}):(?P<move>[{PIT_CLASS}][<>]?)",
):
    """One pit of the board; enabled when sowing it is a legal move."""

    def __init__(
        self, game_id: int, ply: int, move: str, legal: bool = True, row: int | None = None
    ) -> None:
        self.game_id, self.ply, self.move = game_id, ply, move
        super().__init__(
            discord.ui.Button(
                label=move,
                custom_id=move_id(game_id, ply, move),
                row=row,
                disabled=not legal,
                style=discord.ButtonStyle.primary if legal else discord.ButtonStyle.secondary,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["game"]), int(match["ply"]), match["move"])

    async def pressed(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).game_commands.move(
            interaction, self.game_id, self.move, self.ply, from_board=True
        )


class MoveSelect(
    Answering,
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=rf"mancala:pick:(?P<game>{_ID}):(?P<ply>{_ID}):(?P<part>[0-9])",
):
    """A menu of legal moves, for rulesets with more moves than buttons fit (direction=choice)."""

    def __init__(
        self,
        game_id: int,
        ply: int,
        part: int = 0,
        moves: Sequence[str] = (),
        row: int | None = None,
    ) -> None:
        self.game_id, self.ply = game_id, ply
        options = [
            discord.SelectOption(label=m, value=m, description=_move_description(m)) for m in moves
        ] or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"mancala:pick:{game_id}:{ply}:{part}",
                options=options,
                row=row,
                placeholder=_("Choose a move (more)") if part else _("Choose a move"),
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["game"]), int(match["ply"]), int(match["part"]))

    async def pressed(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # the menu's choice, which discord.py reads off the click
        await bot_of(interaction).game_commands.move(
            interaction, self.game_id, values[0] if values else "", self.ply, from_board=True
        )


class ChallengeButton(
    Answering,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"mancala:challenge:(?P<id>{_ID}):(?P<answer>accept|decline)",
):
    def __init__(self, challenge_id: int, answer: str) -> None:
        self.challenge_id, self.answer = challenge_id, answer
        super().__init__(
            discord.ui.Button(
                label=_("Accept") if answer == "accept" else _("Decline"),
                custom_id=f"mancala:challenge:{challenge_id}:{answer}",
                style=discord.ButtonStyle.success
                if answer == "accept"
                else discord.ButtonStyle.danger,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["id"]), match["answer"])

    async def pressed(self, interaction: discord.Interaction) -> None:
        challenges = bot_of(interaction).challenges
        if self.answer == "accept":
            await challenges.accept(interaction, self.challenge_id, from_card=True)
        else:
            await challenges.decline(interaction, self.challenge_id, from_card=True)


class OfferButton(
    Answering,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"mancala:offer:(?P<game>{_ID}):(?P<ply>{_ID}):"
    r"(?P<answer>accept|decline)",
):
    def __init__(self, game_id: int, ply: int, answer: str, label: str | None = None) -> None:
        self.game_id, self.ply, self.answer = game_id, ply, answer
        super().__init__(
            discord.ui.Button(
                label=label or (_("Accept") if answer == "accept" else _("Decline")),
                custom_id=f"mancala:offer:{game_id}:{ply}:{answer}",
                style=discord.ButtonStyle.success
                if answer == "accept"
                else discord.ButtonStyle.secondary,
                row=ROWS - 1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["game"]), int(match["ply"]), match["answer"])

    async def pressed(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).game_commands.answer_offer(
            interaction, self.game_id, self.ply, self.answer == "accept"
        )


class RematchButton(
    Answering,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"mancala:rematch:(?P<game>{_ID})",
):
    """On a final board: the same match again, sides swapped (the service decides the rest)."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=_("Rematch"),
                custom_id=f"mancala:rematch:{game_id}",
                style=discord.ButtonStyle.success,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["game"]))

    async def pressed(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).challenges.rematch(interaction, self.game_id)


class ReviewButton(
    Answering,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"mancala:review:(?P<game>{_ID})",
):
    """On a final board: the solver's move-by-move review of the game."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=_("Review this game"),
                custom_id=f"mancala:review:{game_id}",
                style=discord.ButtonStyle.secondary,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> Self:
        return cls(int(match["game"]))

    async def pressed(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).game_commands.review(interaction, self.game_id)


# the offer buttons' labels: accept, decline
_OFFER_BUTTONS = {
    OfferKind.DRAW: (N_("Accept draw"), N_("Decline draw")),
    OfferKind.END: (N_("Agree to end"), N_("Play on")),
    OfferKind.UNDO: (N_("Allow take-back"), N_("Refuse take-back")),
}

DYNAMIC_ITEMS = (
    PitButton,
    MoveSelect,
    ChallengeButton,
    OfferButton,
    RematchButton,
    ReviewButton,
)


def challenge_view(challenge: Challenge) -> discord.ui.View | None:
    """Accept and Decline, while the challenge is open and its opponent is on Discord (an
    email player answers by mail: nobody here could press them)."""
    if challenge.status != "open" or challenge.opponent.surface != "discord":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(challenge.id, "accept"))
    view.add_item(ChallengeButton(challenge.id, "decline"))
    return view


def board_view(game: GameView) -> discord.ui.View | None:
    """Pit buttons for the player to move (only legal ones enabled), or menus when the moves
    outnumber the buttons; offer buttons below while an offer is pending. No pits while the
    AI or an email player is to move (they do not press buttons); None when nothing is left
    to press. A final board offers a rematch to the players on Discord, and the solver's
    review of the game (of a game with moves)."""
    if game.is_over:
        view = discord.ui.View(timeout=None)
        if game.south != game.north and "discord" in (game.south.surface, game.north.surface):
            view.add_item(RematchButton(game.id))
        if game.moves:
            view.add_item(ReviewButton(game.id))
        return view if view.children else None
    mover = game.to_move
    if mover is None or mover.is_ai:
        return None  # nothing to press: the AI is thinking
    view = discord.ui.View(timeout=None)
    if mover.surface == "discord":
        _add_moves(view, game)
    answerer = game.opponent_of(game.offer.by) if game.offer else None
    if game.offer and (answerer is None or answerer.surface == "discord"):
        accept, decline = _OFFER_BUTTONS[game.offer.kind]
        view.add_item(OfferButton(game.id, game.ply, "accept", _(accept)))
        view.add_item(OfferButton(game.id, game.ply, "decline", _(decline)))
    return view if view.children else None


def _add_moves(view: discord.ui.View, game: GameView) -> None:
    legal = game.position.legal_moves()
    rows_of_pits = _pit_rows(game)
    if any("<" in m for m in legal) or len(rows_of_pits) > ROWS - 1:
        for part, start in enumerate(range(0, len(legal), SELECT_OPTIONS)):
            view.add_item(
                MoveSelect(game.id, game.ply, part, legal[start : start + SELECT_OPTIONS], row=part)
            )
    else:
        for row, pits in enumerate(rows_of_pits):
            for move in pits:
                view.add_item(PitButton(game.id, game.ply, move, move in legal, row=row))


def _pit_rows(game: GameView) -> list[list[str]]:
    """The pits the mover may choose from, in the order the board shows them (North's row
    reads right to left on top), split into rows of at most five buttons."""
    rules = game.position.rules
    south = list(rules.letters)
    north = list(rules.letters.lower())[::-1]
    if rules.choose == "any":
        rows = [north, south]
    else:
        rows = [south if game.position.to_move == "south" else north]
    return [part for row in rows for part in _split(row)]


def _split(pits: list[str]) -> list[list[str]]:
    """Split a row into even parts of at most five: 6 -> 3+3, 7 -> 4+3, 8 -> 4+4.

    >>> _split(list("ABCDEFG"))
    [['A', 'B', 'C', 'D'], ['E', 'F', 'G']]
    """
    parts = -(-len(pits) // BUTTONS_PER_ROW)
    size = -(-len(pits) // parts)
    return [pits[i : i + size] for i in range(0, len(pits), size)]


def _move_description(move: str) -> str:
    if move.endswith("<"):
        return _("sow pit {pit} clockwise").format(pit=move[0])
    return _("sow pit {pit} counter-clockwise").format(pit=move[0])
