"""Puzzles (``engine.puzzles``): the daily one, more on demand, answers, streaks and boards.

The rules of the product, the same on every surface:

- **The daily puzzle** is ``engine.puzzles.daily`` of the service clock's date in UTC: the same
  for everyone that day, of the family of a server's ruleset (``/mancala settings``) where
  that family has puzzles, else of any family.
- **More on demand** (``next_puzzle``): one the player has not answered yet, of the family and
  grade asked for, if any.
- **Answers.** A player's first answer to a puzzle *counts*: it goes into their streak and
  onto the puzzle board; later answers to the same puzzle are practice, checked and shown
  the same way but changing nothing (the database keeps it to one counted answer per player
  and puzzle, however many arrive at once). A wrong answer comes with the refutation line,
  a right one with the proof line (``engine.puzzles.Answer.line``).
- **Streaks** are a player's own, on every server alike: the counted answers right in a row
  since their last counted wrong one, and the longest such run.
- **A server's puzzle board** lists those who gave a counted answer there, by their own
  standing: most solved first, then the longest streak, then the current one (as the rating
  leaderboards rank a server's players by their own ratings).

Checking an answer (``engine.puzzles.check``) is a lookup where the puzzle carries the move's
line, as every shipped puzzle does for every legal move: it is answered at once, in the event
loop. A puzzle without the line has the solver prove it (up to ``engine.puzzles.FIND_NODES``
nodes, under half a second in plain Python): that runs in the AI pool, as live work in the
player's own turn, rather than in a thread, since it is CPU work that would hold the GIL, and
so the event loop, meanwhile; in the pool it waits its turn like a hint, one player's flood
never delays another's game, and ``check_waiting`` caps what one player may queue. The move
is read first, so a typo is refused at once and never reaches a worker.

>>> describe_value(6), describe_value(0), describe_value(-2)
('a win by 6', 'a draw', 'a loss by 2')
"""

from __future__ import annotations

import asyncio
import logging
import zlib
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from bot.ai_runtime.fair_queue import Priority
from bot.ai_runtime.pool import AIPool
from bot.i18n import _
from bot.service import errors
from bot.service.ai_limits import AIFairness
from bot.service.players import Players
from bot.service.ratings import family_of
from bot.service.servers import Servers
from bot.service.tasks import Tasks
from bot.service.types import Player
from engine import IllegalMove as EngineIllegalMove
from engine import MancalaError, RulesetError, Side, excerpt, to_perspective
from engine import puzzles as engine_puzzles
from engine.puzzles import Answer, Grade, Puzzle
from storage.records import PuzzleStandingRecord
from storage.stores.puzzles import PuzzleStore

log = logging.getLogger(__name__)
BOARD_LIMIT = 25  # players on a puzzle board at most


def describe_value(value: int) -> str:
    """A final seed margin for the player to move, in words (in the current language)."""
    if value > 0:
        # TRANSLATORS: a puzzle's result: a win by {margin} seeds.
        return _("a win by {margin}").format(margin=value)
    if value < 0:
        # TRANSLATORS: a puzzle's result: a loss by {margin} seeds.
        return _("a loss by {margin}").format(margin=-value)
    return _("a draw")


def line_text(line: Sequence[str], perspective: Side | str = Side.SOUTH) -> str:
    """A line of moves as the player at ``perspective`` writes them (their own pits
    uppercase), or a dash for none.

    >>> line_text(("C", "e", "B"), Side.NORTH), line_text(())
    ('c E b', '-')
    """
    return " ".join(to_perspective(move, perspective) for move in line) or "-"


@dataclass(frozen=True)
class PuzzleStanding:
    """A player's puzzle record: counted answers, right ones, the current and longest runs of
    right ones; ``name`` as the player is shown."""

    player: Player
    name: str
    answered: int = 0
    solved: int = 0
    streak: int = 0
    best_streak: int = 0


def verdict(answer: Answer, perspective: Side | str = Side.SOUTH) -> str:
    """An answer in a sentence or two: right or wrong, what the move leads to, and the line
    that shows it; moves written as the player at ``perspective`` writes them (by default
    South's pits uppercase, North's lowercase: the engine's notation, as boards drawn from
    South's side read)."""
    puzzle, side = answer.puzzle, perspective
    move = to_perspective(answer.move, side)
    if answer.correct:
        # TRANSLATORS: {result} is "a win by 6", "a draw"...; {line} a line of moves.
        return _("Right: {move} keeps {result} with best play. The proof line: {line}.").format(
            move=move, result=describe_value(puzzle.value), line=line_text(answer.line, side)
        )
    return _(
        "Not this one: after {move} the best is {after}, where the right move keeps "
        "{result}. The refutation: {line}."
    ).format(
        move=move,
        after=describe_value(answer.value_after),
        result=describe_value(puzzle.value),
        line=line_text(answer.line, side),
    )


@dataclass(frozen=True)
class PuzzleResult:
    """The answer to a puzzle as checked by the solver (``answer``: right or wrong, the line,
    the value after the move), whether it ``counted`` (the player's first answer to this
    puzzle) or was practice, and the player's ``standing`` after it."""

    answer: Answer
    counted: bool
    standing: PuzzleStanding

    @property
    def puzzle(self) -> Puzzle:
        return self.answer.puzzle

    @property
    def correct(self) -> bool:
        return self.answer.correct

    @property
    def streak(self) -> int:
        """The player's streak after this answer."""
        return self.standing.streak

    def verdict(self, perspective: Side | str = Side.SOUTH) -> str:
        """The answer in a sentence or two (``verdict``)."""
        return verdict(self.answer, perspective)

    def streak_words(self) -> str:
        """Where the answer leaves the player: their streak, or that it was practice."""
        s = self.standing
        if not self.counted:
            return _(
                "Practice: only your first answer to a puzzle counts (your streak stays {streak})."
            ).format(streak=s.streak)
        if self.correct:
            if s.best_streak > s.streak:
                message = _(
                    "Streak: {streak} in a row, your best {best}; {solved} solved of {answered}."
                )
            else:
                message = _("Streak: {streak} in a row; {solved} solved of {answered}.")
            return message.format(
                streak=s.streak, best=s.best_streak, solved=s.solved, answered=s.answered
            )
        return _("Your streak starts again from 0 (your best: {best}).").format(best=s.best_streak)


@dataclass(eq=False, kw_only=True)
class Puzzles:
    """``daily``, ``next_puzzle``, ``answer``, ``streak``, ``board``: see the module."""

    puzzle_store: PuzzleStore
    clock: Callable[[], float]
    tasks: Tasks
    players: Players
    servers: Servers
    pool: AIPool
    fairness: AIFairness

    def today(self) -> date:
        """The service clock's date in UTC: the daily puzzle changes at 00:00 UTC."""
        return datetime.fromtimestamp(self.clock(), UTC).date()

    def puzzle(self, puzzle_id: str) -> Puzzle:
        """A puzzle by its id (``kalah-0042``). Raises UnknownPuzzle."""
        try:
            return engine_puzzles.by_id(str(puzzle_id)[:100])
        except MancalaError as err:  # the engine says which ids and families there are
            raise errors.UnknownPuzzle(str(err)) from None

    def family(self, family: str | None) -> str | None:
        """``family`` (a family's name, or a ruleset of it) as the puzzles name it; None for
        any. Raises BadRequest for one without puzzles, saying which have them."""
        if family is None or not str(family).strip():
            return None
        have = engine_puzzles.families()
        try:
            name = family_of(str(family)).value
        except RulesetError:
            name = str(family).strip().lower()
        if name not in have:
            raise errors.BadRequest(
                _("there are no puzzles of '{family}'; puzzles are of {families}").format(
                    family=excerpt(str(family), 30), families=", ".join(have)
                )
            )
        return name

    def grade(self, grade: Grade | str | None) -> Grade | None:
        """``grade`` as a ``Grade``; None for any. Raises BadRequest listing the grades."""
        if grade is None or not str(grade).strip():
            return None
        try:
            return Grade(str(grade).strip().lower())
        except ValueError:
            raise errors.BadRequest(
                # TRANSLATORS: {grades} are the grades' keywords: keep them.
                _("a puzzle's grade is {grades}; not '{grade}'").format(
                    grades=", ".join(g.value for g in Grade), grade=excerpt(str(grade), 20)
                )
            ) from None

    async def daily(
        self, server: tuple[str, str] | None = None, family: str | None = None
    ) -> Puzzle:
        """Today's puzzle: of ``family`` if given, else of the family of ``server``'s
        (surface, server id) ruleset where it has puzzles, else of any family. Raises
        BadRequest (a family without puzzles)."""
        self.tasks.check_open()
        wanted = self.family(family)
        if wanted is None and server is not None:
            settings = await self.servers.get(*server)
            try:
                wanted = self.family(settings.ruleset)
            except errors.BadRequest:
                wanted = None  # a server playing the applet's games: any family's
        return engine_puzzles.daily(self.today(), family=wanted)

    async def next_puzzle(
        self, player: Player, family: str | None = None, grade: Grade | str | None = None
    ) -> Puzzle:
        """A puzzle ``player`` has not answered yet, of ``family`` and ``grade`` if given.
        Asking again without answering may give another. Raises BadRequest (a family
        without puzzles, an unknown grade), NotFound (every such puzzle answered)."""
        self.tasks.check_open()
        wanted, level = self.family(family), self.grade(grade)
        seen = await self.puzzle_store.seen(await self.players.pid(player))
        # a seed of the player and the second: asking twice may give two different puzzles
        seed = zlib.crc32(str(player).encode()) ^ int(self.clock())
        try:
            found = engine_puzzles.pick(frozenset(seen), family=wanted, grade=level, seed=seed)
        except MancalaError as err:  # none of that grade in that family: the engine says so
            raise errors.NotFound(str(err)) from None
        if found.id in seen:  # every one answered: pick gives one again
            what = " ".join(x for x in (level and level.value, wanted) if x)
            if what:
                # TRANSLATORS: {kind} is a grade and/or a family, as keywords: "easy kalah".
                message = _(
                    "you have answered every {kind} puzzle there is; well done! Try another "
                    "family or grade"
                )
            else:
                message = _(
                    "you have answered every puzzle there is; well done! Try another family or "
                    "grade"
                )
            raise errors.NotFound(message.format(kind=what))
        return found

    async def answer(
        self,
        player: Player,
        puzzle_id: str,
        move: str,
        server: str | None = None,
        thinking: Callable[[], Awaitable[Any]] | None = None,
    ) -> PuzzleResult:
        """``player`` answers puzzle ``puzzle_id`` with ``move`` (the engine's notation: South's
        pits uppercase), on ``server`` (a Discord server's id, 'email', 'terminal'; None in a
        direct message), for that server's board. ``thinking``, if given, is awaited before
        the solver proves an answer whose line the puzzle lacks (Discord defers there).

        Raises UnknownPuzzle, IllegalMove (not a move, or not legal here: the engine's
        reason), TooMuchAIWork (``player`` has as many requests waiting as allowed),
        NoReview (the solver failed checking it; asking again may work)."""
        self.tasks.check_open()
        puzzle = self.puzzle(puzzle_id)
        try:
            move = puzzle.position.play(move).last_move or move  # as the engine writes it
        except EngineIllegalMove as err:
            raise errors.IllegalMove(str(err)) from None
        pid = await self.players.pid(player)
        if move == puzzle.solution or puzzle.refutation(move) is not None:
            checked = engine_puzzles.check(puzzle, move)  # the line is there: a lookup
        else:
            checked = await self._prove(player, puzzle, move, thinking)
        counted = await self.puzzle_store.record_attempt(
            {
                "player_id": pid,
                "puzzle_id": puzzle.id,
                "server": server,
                "move": checked.move,
                "correct": checked.correct,
                "attempted_at": self.clock(),
            }
        )
        return PuzzleResult(checked, counted, await self.streak(player))

    def practise(self, puzzle_id: str, move: str) -> Answer:
        """``move`` checked as an answer to puzzle ``puzzle_id`` for nobody: recorded nowhere
        (for a visitor without a player's identity). Only a lookup: a puzzle without the
        move's line (no shipped one) is not proven for an anonymous visitor.

        Raises UnknownPuzzle, IllegalMove, NoReview (the line is not in the puzzle)."""
        puzzle = self.puzzle(puzzle_id)
        try:
            move = puzzle.position.play(move).last_move or move  # as the engine writes it
        except EngineIllegalMove as err:
            raise errors.IllegalMove(str(err)) from None
        if move != puzzle.solution and puzzle.refutation(move) is None:
            raise errors.NoReview(
                _("this answer needs the solver: answer it on Discord or by mail")
            )
        return engine_puzzles.check(puzzle, move)

    async def _prove(
        self,
        player: Player,
        puzzle: Puzzle,
        move: str,
        thinking: Callable[[], Awaitable[Any]] | None,
    ) -> Answer:
        """``engine.puzzles.check`` in the AI pool, for a move whose line the puzzle lacks."""
        self.fairness.check_waiting(player)
        if thinking is not None:
            await thinking()
        try:
            return await self.pool.run(player, Priority.LIVE, engine_puzzles.check, puzzle, move)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # the solver's own failure, not the player's mistake
            log.exception("checking %s on puzzle %s failed", move, puzzle.id)
            raise errors.NoReview(
                _(
                    "the solver could not check your answer ({reason}); try again in a moment"
                ).format(reason=excerpt(str(err), 60))
            ) from None

    async def streak(self, player: Player) -> PuzzleStanding:
        """``player``'s puzzle record (all zero before their first counted answer)."""
        self.tasks.check_open()
        record = await self.puzzle_store.standing(await self.players.pid(player))
        return await self._standing(player, record)

    async def board(self, server: str, limit: int = 10) -> list[PuzzleStanding]:
        """The puzzle board of ``server`` (a Discord server's id, 'email', 'terminal'): those
        who gave a counted answer there, best first (see the module), at most ``limit``."""
        self.tasks.check_open()
        limit = max(1, min(int(limit), BOARD_LIMIT))
        records = await self.puzzle_store.board(str(server), limit)
        return [
            await self._standing(Player(r.surface or "", r.external_id or ""), r)
            for r in records
            if r.surface
        ]

    async def _standing(
        self, player: Player, record: PuzzleStandingRecord | None
    ) -> PuzzleStanding:
        if record is None:
            return PuzzleStanding(player, await self.players.display_name(player))
        return PuzzleStanding(
            player,
            record.display_name or player.id,
            record.answered,
            record.solved,
            record.streak,
            record.best_streak,
        )
