"""Conditional moves ("premoves"): "if they play f, I play C", set while it is the
opponent's move, played by the service the moment their move matches (docs/correspondence.md).

A player sets any number of pairs in a game between two people, each one opponent's turn
(one move, or several where a move earns another: ``f c``) and the answer to it; they are
shown to their owner only. When the opponent's turn ends, the pair whose condition matches is
played as the owner's move (with its notifications, ``MoveMade.answering`` saying what it
answered), and every pair is dropped, matched or not: the next turn needs new ones. Only one
step is kept (an answer's own answer is set after it is played). They are taken from the
database by the one caller that deletes them (``ScheduleStore.take_premoves``), and the move is a
compare-and-set on the ply as any other, so each is played at most once whatever the
processes.

>>> parse_conditions("if f then C; if e d then D")
[('f', 'C'), ('e d', 'D')]
>>> parse_conditions("If they play b, then A. If a, I play B")
[('b', 'A'), ('a', 'B')]
>>> parse_conditions("Move 7: C")
[]
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.i18n import _
from bot.service import errors
from bot.service.announcer import Announcer
from bot.service.games import Games
from bot.service.hooks import Hooks
from bot.service.live import LiveGame
from bot.service.play import Play
from bot.service.players import Players
from bot.service.types import GameView, Player, Side
from engine import IllegalMove, excerpt
from engine.ruleset import PIT_CLASS
from storage.records import NewPremove, PremoveRecord
from storage.stores.schedule import ScheduleStore

log = logging.getLogger(__name__)

MOST_PREMOVES = 12  # pairs per player and game: one per opponent's move, and some to spare
_PIT = rf"[{PIT_CLASS}][<>]?"
_CONDITION = re.compile(
    rf"\bif\s+(?:[a-z]+\s+(?:play|plays|move|moves)\s+)?({_PIT}(?:[\s,]+{_PIT})*)"
    rf"(?:\s*,\s*(?:then\s+)?|\s+then\s+)(?:I\s+(?:play\s+)?)?({_PIT})(?![\w'])",
    re.I,
)


def parse_conditions(text: str) -> list[tuple[str, str]]:
    """The ``if X then Y`` pairs in ``text`` as written (X one or more pits, Y one pit)."""
    pairs = []
    for found in _CONDITION.finditer(text):
        condition = " ".join(found.group(1).replace(",", " ").split())
        pairs.append((condition, found.group(2)))
    return pairs


@dataclass(frozen=True)
class Premove:
    """A conditional move: if the opponent's turn is ``if_moves`` (the engine's notation),
    the owner plays ``then_move``. ``ply``: the game's ply when it was set."""

    if_moves: tuple[str, ...]
    then_move: str
    ply: int

    def __str__(self) -> str:
        return f"if {' '.join(self.if_moves)} then {self.then_move}"

    @classmethod
    def of(cls, record: PremoveRecord) -> Premove:
        return cls(tuple(record.if_moves.split()), record.then_move, record.ply)


@dataclass(eq=False, kw_only=True)
class Premoves:
    """Setting, showing and playing conditional moves."""

    schedule_store: ScheduleStore
    clock: Callable[[], float]
    players: Players
    games: Games
    play: Play
    announcer: Announcer
    hooks: Hooks  # it answers each move (Hooks.moved)

    def __post_init__(self) -> None:
        self.hooks.moved.subscribe(self.after_move)

    async def set(
        self,
        game_id: int,
        by: Player,
        pairs: Sequence[tuple[str, str]],
        replace: bool = False,
    ) -> list[Premove]:
        """Set conditional moves for ``by`` in the game: each pair is (the opponent's turn,
        the answer), moves in the engine's notation (South's pits uppercase), checked by the
        engine against the board now. With ``replace`` they replace ``by``'s others; else a
        pair replaces only one with the same condition. Returns all of ``by``'s. Raises
        NotFound, NotAllowed, GameFinished, BadRequest (not between two people, it is
        ``by``'s move, a condition or answer the rules refuse, too many)."""
        async with self.games.locked(game_id):
            live = await self.games.load(game_id)
            side = self.games.side_in_active_game(live, by)
            self._check_game(live, side)
            rows: dict[str, NewPremove] = {}
            for condition, answer in pairs:
                moves, then = self._checked(live, side, condition, answer)
                rows[" ".join(moves)] = {
                    "ply": live.record.ply,
                    "if_moves": " ".join(moves),
                    "then_move": then,
                }
            pid = await self.players.pid(by)
            kept = [] if replace else await self.schedule_store.premoves(live.id, pid)
            start = self._turn_start(live, side)
            conditions = {r.if_moves for r in kept if r.ply >= start} | set(rows)
            if len(conditions) > MOST_PREMOVES:
                raise errors.BadRequest(
                    _("at most {most} conditional moves a game; clear some first").format(
                        most=MOST_PREMOVES
                    )
                )
            if not live.record.premoves:
                # Flag the game first (a change of its row, which other processes hear of):
                # moves look the table up only in flagged games.
                await self.games.commit(live, {"premoves": 1})
            await self.schedule_store.set_premoves(
                live.id, pid, list(rows.values()), self.clock(), replace
            )
        return await self.mine(game_id, by)

    async def mine(self, game_id: int, by: Player) -> list[Premove]:
        """``by``'s conditional moves in the game (nobody else's: they are private)."""
        async with self.games.locked(game_id):
            live = await self.games.load(game_id)
            side = self.games.side_of(live, by)
            if not live.record.is_active or live.to_move_side == side:
                return []  # any left are stale: dropped when the opponent's next turn ends
            start = self._turn_start(live, side)
        records = await self.schedule_store.premoves(live.id, await self.players.pid(by))
        return [Premove.of(r) for r in records if r.ply >= start]

    async def clear(self, game_id: int, by: Player) -> int:
        """Drop ``by``'s conditional moves in the game; how many there were."""
        async with self.games.locked(game_id):
            self.games.side_of(await self.games.load(game_id), by)
        return len(await self.schedule_store.take_premoves(game_id, await self.players.pid(by)))

    # -- playing them --------------------------------------------------------------------------

    def after_move(self, view: GameView) -> None:
        """A move was made: if it ended the opponent's turn, the player to move may have an
        answer ready (looked up in the background, as notifications are)."""
        owner = view.to_move
        if owner is None or owner.is_ai or view.south == view.north:
            return
        live = self.games.live.get(view.id)
        if live is not None and self.games.told_of_changes and not live.record.premoves:
            return  # nobody set one: setting one flags the game, and we hear of every change
        opponent = view.opponent_of(owner)
        if opponent is None or opponent.is_ai:
            return
        self.announcer.spawn(self._answer(view.id, owner), name="premove")

    async def _answer(self, game_id: int, owner: Player) -> None:
        try:
            pid = await self.players.pid(owner)
            if not await self.schedule_store.premoves(game_id, pid):
                return
            await self._play(game_id, owner, pid)
        except errors.ServiceError as err:  # the game moved on meanwhile: nothing to answer
            log.info("no conditional move played: %s", err, extra={"game": game_id})
        except Exception:
            log.exception("a conditional move failed", extra={"game": game_id})

    async def _play(self, game_id: int, owner: Player, pid: int) -> None:
        async with self.games.locked(game_id):
            live = await self.games.load(game_id, fresh=True)
            side = live.side_of(owner)
            if not live.record.is_active or side is None or live.to_move_side != side:
                return  # not their move (yet): their pairs wait
            records = await self.schedule_store.take_premoves(game_id, pid)
            if live.record.premoves:
                await self.games.commit(live, {"premoves": 0})  # all are used up now
            start, ply = self._turn_start(live, side), live.record.ply
            moves = live.game.moves
            chosen = next(
                (
                    r
                    for r in records
                    if start <= r.ply < ply and " ".join(moves[r.ply : ply]) == r.if_moves
                ),
                None,
            )
            if chosen is None:
                log.info("conditional moves dropped", extra={"game": game_id})
                return
            view = await self.play.apply(live, owner, chosen.then_move)
        log.info("conditional move %s played", chosen.then_move, extra={"game": game_id})
        self.announcer.after_change(
            view, move=view.moves[-1] if view.moves else None, by=owner, answering=chosen.if_moves
        )

    @staticmethod
    def _turn_start(live: LiveGame, owner: Side) -> int:
        """The ply the opponent's latest turn began at: just after ``owner``'s last move (0
        when they have not moved). Their moves since are ``live.game.moves[start:]``."""
        start = live.record.ply
        while start > 0 and live.mover_of_ply(start) != owner:
            start -= 1
        return start

    # -- checks --------------------------------------------------------------------------------

    @staticmethod
    def _check_game(live: LiveGame, side: Side) -> None:
        opponent = live.player(side.other)
        if opponent.is_ai or opponent == live.player(side):
            raise errors.BadRequest(
                _("conditional moves are for games between two people: the AI answers at once")
            )
        if live.to_move_side == side:
            raise errors.BadRequest(
                _(
                    "it is your move: play it first; a conditional move answers your "
                    "opponent's next move"
                )
            )

    @staticmethod
    def _checked(live: LiveGame, side: Side, condition: str, answer: str) -> tuple[list[str], str]:
        """The opponent's turn and the answer, as the engine names them, or BadRequest."""
        written = str(condition).replace(",", " ").split()
        if not written or len(written) > 8:
            raise errors.BadRequest(
                _(
                    "a condition is your opponent's move, like 'f' (or their moves, where one "
                    "earns another: 'f c'), not '{condition}'"
                ).format(condition=excerpt(str(condition)))
            )
        position = live.game.position
        moves: list[str] = []
        try:
            for move in written:
                if position.is_over() or position.to_move != side.other:
                    raise errors.BadRequest(
                        _(
                            "after {moves} it is no longer your opponent's turn; "
                            "a condition is one turn of theirs"
                        ).format(moves=" ".join(moves))
                    )
                position = position.play(move)
                assert position.last_move is not None  # play names the move it made
                moves.append(position.last_move)
        except IllegalMove as err:
            raise errors.BadRequest(
                # TRANSLATORS: "if" is the keyword of a conditional move as written: keep it.
                _("if {moves}: {reason}").format(moves=excerpt(" ".join(written), 40), reason=err)
            ) from None
        if position.is_over():
            raise errors.BadRequest(
                _("after {moves} the game is over: nothing to answer").format(moves=" ".join(moves))
            )
        if position.to_move != side:
            raise errors.BadRequest(
                # TRANSLATORS: 'if ... then ...' is a conditional move as written: keep it.
                _(
                    "after {moves} your opponent moves again: write their whole turn, "
                    "like 'if {moves} b then C'"
                ).format(moves=" ".join(moves))
            )
        try:
            after = position.play(answer)
        except IllegalMove as err:
            raise errors.BadRequest(
                # TRANSLATORS: "then" is the keyword of a conditional move as written: keep it.
                _("then {move}: {reason}").format(move=excerpt(str(answer), 40), reason=err)
            ) from None
        assert after.last_move is not None
        return moves, after.last_move
