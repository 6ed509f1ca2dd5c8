"""A game: a position plus its history, repetition, agreed end and result.

>>> from engine import Game
>>> game = Game("kalah:pits=3,seeds=1")
>>> game.play("C"); game.play("B")
>>> game.moves, game.is_over()
(['C', 'B'], False)
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from engine.errors import IllegalMove, excerpt
from engine.outcome import Outcome, Termination, Winner
from engine.position import Key, Position, settle_by_cycle
from engine.ruleset import Ruleset
from engine.side import Side
from engine.translation import _


class Game:
    """Play a ruleset from the start (or from ``position``), keeping every position.

    A repeated position ends the game by the ruleset's ``cycle`` policy, as does an agreed end:
    ``position`` is then that board settled, over, with ``Termination.REPETITION`` or
    ``AGREED_END``, while ``positions`` keeps the boards as they were played.
    """

    def __init__(
        self,
        rules: Ruleset | str,
        position: Position | None = None,
        first: Side | str | None = None,
        seed: int | None = None,
    ) -> None:
        self.rules = Ruleset.parse(rules) if isinstance(rules, str) else rules
        start = position or Position.initial(self.rules, first, random.Random(seed))
        self.positions: list[Position] = [start]
        self.moves: list[str] = []
        self._seen: dict[Key, int] = {start.key(): 1}
        self._final: Position | None = None  # the settled end of a repetition or agreement

    @classmethod
    def from_moves(
        cls,
        rules: Ruleset | str,
        moves: str | Iterable[str],
        first: Side | str | None = None,
        seed: int | None = None,
        position: Position | None = None,
    ) -> Game:
        """Replay a move list (a list or a space-separated string) from the start, or from
        ``position``; IllegalMove names the ply."""
        game = cls(rules, position=position, first=first, seed=seed)
        for ply, move in enumerate(moves.split() if isinstance(moves, str) else moves, 1):
            try:
                game.play(move)
            except IllegalMove as err:
                # TRANSLATORS: {ply} is the move's number in the list, {move} the move as
                # written, {problem} what is wrong with it
                message = _("move {ply} ({move}): {problem}")
                raise IllegalMove(
                    message.format(ply=ply, move=excerpt(move, 10), problem=err)
                ) from None
        return game

    @property
    def position(self) -> Position:
        return self._final or self.positions[-1]

    def play(self, move: str) -> None:
        """Play a move; a repeated position ends the game by the ruleset's cycle policy."""
        after = self.position.play(move)  # IllegalMove once the game is over
        self.positions.append(after)
        assert after.last_move is not None  # play names the move it made
        self.moves.append(after.last_move)
        key = after.key()
        self._seen[key] = self._seen.get(key, 0) + 1
        if self._seen[key] > 1 and not after.is_over():
            self._settle(Termination.REPETITION)

    def undo(self) -> str:
        """Take back the last move and return it."""
        if not self.moves:
            raise IllegalMove(_("there is no move to take back"))
        self._final = None
        self._seen[self.positions.pop().key()] -= 1
        return self.moves.pop()

    def agree_end(self) -> None:
        """Both players agree the game is over (003's endless cycle): it scores like ``cycle``."""
        if not self.is_over():
            self._settle(Termination.AGREED_END)

    def _settle(self, termination: Termination) -> None:
        last = self.positions[-1]
        settled = Position(
            self.rules,
            settle_by_cycle(self.rules, last.board),
            last.mover,
            last.last_move,
            tuzdyks=last.tuzdyks,
        )
        self._final = settled.finished(termination)

    def is_over(self) -> bool:
        return self.position.is_over()

    def outcome(self) -> Outcome | None:
        return self.position.outcome()

    def score(self) -> tuple[int, int] | None:
        """(south, north) final totals once over, by the ruleset's end rules; None before."""
        outcome = self.outcome()
        return outcome.score if outcome else None

    def winner(self) -> Winner | None:
        """A ``Side``, "draw", or None while the game goes on."""
        outcome = self.outcome()
        return outcome.winner if outcome else None
