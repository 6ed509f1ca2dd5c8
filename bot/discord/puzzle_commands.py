"""``/mancala puzzle``: today's puzzle for the channel, another one for you, your streak, and
the server's puzzle board; a puzzle's buttons answer it.

- ``kind:daily`` (the default) posts today's puzzle in the channel for everyone, of the family
  of the server's ruleset (``/mancala settings``) where it has puzzles;
- ``kind:next`` shows you, privately, a puzzle you have not answered yet (``family``,
  ``grade`` narrow it);
- ``kind:streak`` tells you your streak; ``kind:board`` posts the server's puzzle board.

A puzzle's message is its board (the 003 text board, where the server shows it, and the
picture) and one button per pit of the player to move, legal ones enabled. A button's custom
id carries the puzzle's id and the move (``mancala:puzzle:kalah-0042:C``), so it works for as
long as the message is there, across restarts. A press answers privately: right or wrong, the
line that shows it, and the streak; the first answer to a puzzle counts, later ones are
practice. Showing a puzzle and checking an answer share the ``puzzle`` cooldown
(``cooldowns.py``). The service decides everything; this file only translates.

>>> puzzle_button_id("kalah-0042", "E<")
'mancala:puzzle:kalah-0042:E<'
>>> _rows(list("ABCDEFG"))
[['A', 'B', 'C', 'D'], ['E', 'F', 'G']]
"""

from __future__ import annotations

import io
import re
from typing import Any, Self

import discord

from bot import metrics
from bot.discord import formatting as fmt
from bot.discord.cooldowns import COOLDOWNS, HasCooldowns, OnCooldown
from bot.discord.handlers import bot_of
from bot.discord.identities import player_of
from bot.discord.known_servers import KnownServers
from bot.discord.languages import Answering
from bot.discord.replies import answer_privately
from bot.i18n import N_, _
from bot.render.board_picture import describe_board, draw_board
from bot.service import GameService, ServiceError
from bot.service.puzzles import PuzzleResult, PuzzleStanding, describe_value
from engine import render
from engine.puzzles import Puzzle
from engine.ruleset import PIT_CLASS

PUZZLE_COLOUR = discord.Colour.from_rgb(122, 84, 52)  # the board picture's wood
BUTTONS_PER_ROW = 5
KINDS = ("daily", "next", "streak", "board")
_PUZZLE_ID = r"[A-Za-z0-9][A-Za-z0-9_.-]{0,59}"


def puzzle_button_id(puzzle_id: str, move: str) -> str:
    return f"mancala:puzzle:{puzzle_id}:{move}"


class PuzzleButton(
    Answering,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"mancala:puzzle:(?P<puzzle>{_PUZZLE_ID}):(?P<move>[{PIT_CLASS}][<>]?)",
):
    """One pit of a puzzle's board: pressing it answers the puzzle with that move."""

    def __init__(
        self, puzzle_id: str, move: str, legal: bool = True, row: int | None = None
    ) -> None:
        self.puzzle_id, self.move = puzzle_id, move
        super().__init__(
            discord.ui.Button(
                label=move,
                custom_id=puzzle_button_id(puzzle_id, move),
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
        return cls(match["puzzle"], match["move"])

    async def pressed(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).puzzle_commands.answer(interaction, self.puzzle_id, self.move)


def _rows(pits: list[str]) -> list[list[str]]:
    """A row of pits in even parts of at most five buttons: 6 -> 3+3, 7 -> 4+3."""
    parts = -(-len(pits) // BUTTONS_PER_ROW)
    size = -(-len(pits) // parts)
    return [pits[i : i + size] for i in range(0, len(pits), size)]


def puzzle_view(puzzle: Puzzle) -> discord.ui.View:
    """A button per pit of the player to move, in the order the board shows them (North's
    row reads right to left on top); the legal moves enabled. Where a move also names a
    direction, a button per legal move instead."""
    position = puzzle.position
    legal = position.legal_moves()
    view = discord.ui.View(timeout=None)
    if any(move[-1:] in "<>" for move in legal):
        pits = legal[: BUTTONS_PER_ROW * 5]
    else:
        letters = position.rules.letters
        pits = list(letters) if position.to_move == "south" else list(letters.lower())[::-1]
    for row, part in enumerate(_rows(pits)):
        for move in part:
            view.add_item(PuzzleButton(puzzle.id, move, move in legal, row=row))
    return view


_GRADES = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def puzzle_text(puzzle: Puzzle, title: str, text_board: bool = True) -> str:
    """A puzzle's message: what it is, what to find, and the 003 board (from South's side, as
    every Discord board is drawn)."""
    grade = puzzle.grade.value
    lines = [
        f"**{title}** · `{puzzle.id}` · {puzzle.family} · {_(_GRADES.get(grade, grade))}",
        _("{side} to move: one move keeps {value} with best play. Find it!").format(
            side=fmt.side_name(puzzle.position.to_move), value=describe_value(puzzle.value)
        ),
    ]
    if text_board:
        lines.append(fmt.code_block(render(puzzle.position)))
    lines.append(_("Press a pit to answer; only your first answer counts for your streak."))
    return fmt.fit("\n".join(lines))


def puzzle_picture(puzzle: Puzzle) -> tuple[discord.File, discord.Embed]:
    """The puzzle's board as a PNG with its alt text, in an embed."""
    filename = f"puzzle-{re.sub(r'[^A-Za-z0-9-]', '-', puzzle.id)}.png"
    picture = discord.File(
        io.BytesIO(draw_board(puzzle.position)),
        filename=filename,
        description=describe_board(puzzle.position)[:1000],
    )
    embed = discord.Embed(colour=PUZZLE_COLOUR).set_image(url=f"attachment://{filename}")
    return picture, embed


def answer_text(result: PuzzleResult) -> str:
    """The private answer to a press: the verdict with its line, the streak, what next."""
    another = fmt.command("puzzle", kind=_("another puzzle for me"))
    more = (
        _("{another} for another.").format(another=another)
        if result.correct
        else _("Try another pit (practice), or {another} for another puzzle.").format(
            another=another
        )
    )
    text = f"{result.verdict()}\n{result.streak_words()}\n{more}"
    return fmt.fit(f"`{result.puzzle.id}`: {text}")


def streak_text(standing: PuzzleStanding) -> str:
    if not standing.answered:
        return _("You have not answered a puzzle yet: {puzzle} shows today's.").format(
            puzzle=fmt.command("puzzle")
        )
    if standing.best_streak:
        return _(
            "Your puzzles: {solved} solved of {answered}. Streak: {streak} in a row, your "
            "best {best}."
        ).format(
            solved=standing.solved,
            answered=standing.answered,
            streak=standing.streak,
            best=standing.best_streak,
        )
    return _("Your puzzles: {solved} solved of {answered}. Streak: {streak} in a row.").format(
        solved=standing.solved, answered=standing.answered, streak=standing.streak
    )


def board_text(standings: list[PuzzleStanding]) -> str:
    """A server's puzzle board: a line per player, best first."""
    if not standings:
        return _("Nobody has answered a puzzle on this server yet: {puzzle} shows today's.").format(
            puzzle=fmt.command("puzzle")
        )
    lines = [_("**Puzzle board** (this server: most solved, then the longest streak)")]
    for rank, s in enumerate(standings, 1):
        line = _("{player}: {solved} solved of {answered} · streak {streak} · best {best}")
        lines.append(
            f"{rank}. "
            + line.format(
                player=fmt.who(s.player),
                solved=s.solved,
                answered=s.answered,
                streak=s.streak,
                best=s.best_streak,
            )
        )
    return fmt.fit("\n".join(lines))


class PuzzleCommands:
    """The puzzle command and buttons. ``service`` decides; this answers."""

    def __init__(self, service: GameService, servers: KnownServers) -> None:
        self.service = service
        self.servers = servers

    async def puzzle(
        self,
        interaction: discord.Interaction,
        kind: str = "daily",
        family: str | None = None,
        grade: str | None = None,
    ) -> None:
        """``/mancala puzzle``: see the module."""
        await self.servers.learn(interaction)
        me = player_of(interaction.user)
        server = ("discord", str(interaction.guild_id)) if interaction.guild_id else None
        none = discord.AllowedMentions.none()
        try:
            if kind == "streak":
                standing = await self.service.puzzle_streak(me)
                return await answer_privately(interaction, streak_text(standing))
            if kind == "board":
                if server is None:
                    return await answer_privately(
                        interaction, _("The puzzle board belongs to a server; ask in one.")
                    )
                standings = await self.service.puzzle_board(server[1], limit=10)
                await interaction.response.send_message(
                    board_text(standings), allowed_mentions=none
                )
                return
            if kind == "next":
                puzzle = await self.service.next_puzzle(me, family, grade)
                title, private = _("A puzzle for you"), True
            else:
                puzzle = await self.service.daily_puzzle(server, family)
                title, private = _("Puzzle of the day"), False
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        place = await self.servers.settings_for(interaction.channel_id)
        picture, embed = puzzle_picture(puzzle)
        await interaction.response.send_message(
            puzzle_text(puzzle, title, place.text_board),
            embed=embed,
            file=picture,
            view=puzzle_view(puzzle),
            ephemeral=private,
            allowed_mentions=none,
        )

    async def answer(self, interaction: discord.Interaction, puzzle_id: str, move: str) -> None:
        """A puzzle's button: check the answer, privately. The reply is deferred while the
        solver checks it."""
        refusal = await self._cooldown(interaction)
        if refusal:
            return await answer_privately(interaction, refusal)
        server = str(interaction.guild_id) if interaction.guild_id else None
        try:
            result = await self.service.answer_puzzle(
                player_of(interaction.user),
                puzzle_id,
                move,
                server,
                thinking=lambda: interaction.response.defer(ephemeral=True, thinking=True),
            )
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        await answer_privately(interaction, answer_text(result))

    async def _cooldown(self, interaction: discord.Interaction) -> str | None:
        """The ``puzzle`` cooldown's refusal of this press, if it is one too many (the
        command's check does the same for ``/mancala puzzle``)."""
        client = interaction.client
        if not isinstance(client, HasCooldowns):
            return None
        try:
            await client.cooldowns.spend(COOLDOWNS["puzzle"], interaction.user.id)
        except OnCooldown as err:
            metrics.ERRORS.labels(kind="CommandOnCooldown").inc()
            return err.named.message(err.retry_after)
        return None
