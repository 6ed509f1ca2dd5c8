"""A second, deliberately plain Togyz Kumalak (and Bestemshe), written from the rules text in
docs/rules.md and nothing of the engine's, and the harness that plays random games through
the engine and another implementation side by side, move for move.

The model is the board as players see it: each player's row of pits numbered 0 to n-1 from
their own left, a kazan each, and each player's tuzdyk as the number of a pit in the other's
row. ``tests/engine/test_togyz_diff.py`` runs it; ``bench/togyz_diff.py`` runs 10,000 games and
more, against it and against an independent program given its path.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from engine import Position, Ruleset


class Implementation(Protocol):
    """What the harness needs of another implementation of the game."""

    def moves(self) -> list[int]: ...  # the mover's pit numbers that may be played, 0-based
    def play(self, number: int) -> None: ...
    def pits(self) -> list[int]: ...  # South's row, then North's, each from its owner's left
    def kazans(self) -> tuple[int, int]: ...  # (South's, North's)
    def tuzdyks(self) -> tuple[int | None, int | None]: ...  # pit numbers in the other's row
    def to_move(self) -> int: ...  # 0 South, 1 North
    def over(self) -> bool: ...
    def winner(self) -> str: ...  # "south", "north" or "draw" once over


class Plain:
    """Togyz Kumalak from the rules text: ``Plain(9, 9, True)``; Bestemshe is (5, 5, False)."""

    def __init__(self, pits: int = 9, stones: int = 9, tuzdyk_rule: bool = True) -> None:
        self.n = pits
        self.row = [[stones] * pits, [stones] * pits]
        self.kazan = [0, 0]
        self.tuzdyk: list[int | None] = [None, None]
        self.turn = 0
        self.finished = False
        self.half = pits * stones  # half of all the stones
        self.tuzdyk_rule = tuzdyk_rule

    def moves(self) -> list[int]:
        if self.finished:
            return []
        return [number for number in range(self.n) if self.row[self.turn][number] > 0]

    def _is_tuzdyk(self, side: int, number: int) -> bool:
        return self.tuzdyk[1 - side] == number  # a tuzdyk is the other player's pit

    def _drop(self, side: int, number: int) -> None:
        if self._is_tuzdyk(side, number):
            self.kazan[1 - side] += 1  # everything sown into a tuzdyk is its owner's
        else:
            self.row[side][number] += 1

    def _next(self, side: int, number: int) -> tuple[int, int]:
        number += 1
        if number == self.n:  # past your ninth pit comes the opponent's first
            return 1 - side, 0
        return side, number

    def play(self, number: int) -> None:
        me, you = self.turn, 1 - self.turn
        stones = self.row[me][number]
        assert stones > 0 and not self.finished
        self.row[me][number] = 0
        side, pit = me, number
        if stones == 1:  # a lone stone moves to the next pit, its own left empty
            side, pit = self._next(side, pit)
            self._drop(side, pit)
        else:  # the first stone back into the lifted pit, then one a pit
            self._drop(side, pit)
            for _ in range(stones - 1):
                side, pit = self._next(side, pit)
                self._drop(side, pit)
        if side == you and not self._is_tuzdyk(side, pit):
            count = self.row[you][pit]
            if count % 2 == 0:  # even: the mover takes them all
                self.kazan[me] += count
                self.row[you][pit] = 0
            elif (
                count == 3
                and self.tuzdyk_rule
                and self.tuzdyk[me] is None  # one a game
                and pit != self.n - 1  # never the opponent's ninth pit
                and self.tuzdyk[you] != pit  # never the number of the opponent's tuzdyk
            ):
                self.tuzdyk[me] = pit
                self.kazan[me] += 3
                self.row[you][pit] = 0
        self.turn = you
        if sum(self.row[you]) == 0:  # atsyrau: the stones left go to their row's owner
            self.kazan[me] += sum(self.row[me])
            self.row[me] = [0] * self.n
            self.finished = True
        elif max(self.kazan) > self.half:  # more than half wins
            self.finished = True

    def pits(self) -> list[int]:
        return self.row[0] + self.row[1]

    def kazans(self) -> tuple[int, int]:
        return self.kazan[0], self.kazan[1]

    def tuzdyks(self) -> tuple[int | None, int | None]:
        return self.tuzdyk[0], self.tuzdyk[1]

    def to_move(self) -> int:
        return self.turn

    def over(self) -> bool:
        return self.finished

    def winner(self) -> str:
        south, north = self.kazan
        return "south" if south > north else "north" if north > south else "draw"


@dataclass
class Tally:
    """What a differential run compared, and where the two disagreed."""

    games: int = 0
    plies: int = 0
    finished: int = 0  # games both played to the end
    ends: dict[str, int] = field(default_factory=dict)  # how they ended, by the engine
    tuzdyks: int = 0  # tuzdyks made
    winners: dict[str, int] = field(default_factory=dict)
    divergences: list[str] = field(default_factory=list)


def engine_view(pos: Position) -> tuple[list[int], tuple[int, int], tuple[int | None, ...]]:
    """The engine's position in the reference's terms: pits, kazans, tuzdyk numbers."""
    n = pos.rules.pits
    numbers = tuple(None if t is None else t % n for t in pos.tuzdyks)
    return list(pos.pits), pos.stores, numbers


def compare(
    rules: Ruleset,
    make: Callable[[], Implementation],
    games: int,
    seed: int,
    max_plies: int = 2000,
    tally: Tally | None = None,
    compare_finished_pits: bool = True,
) -> Tally:
    """Play ``games`` seeded random games through the engine and ``make()``'s implementation
    side by side: at every ply the legal moves, and after every move the pits, kazans,
    tuzdyks, the player to move and whether the game is over; at the end the winner.
    ``compare_finished_pits``: whether the other implementation empties the board when it
    ends a game (one that only adds the stones to a kazan is compared on the kazans)."""
    tally = tally or Tally()
    for game in range(games):
        rng = random.Random(seed * 1_000_003 + game)
        tally.games += 1
        trail: list[str] = []
        problem = _one_game(rules, make(), rng, tally, trail, max_plies, compare_finished_pits)
        if problem is not None:
            moves = " ".join(trail) or "the start"
            tally.divergences.append(f"game {game} (seed {seed}) after {moves}: {problem}")
    return tally


def _one_game(
    rules: Ruleset,
    other: Implementation,
    rng: random.Random,
    tally: Tally,
    trail: list[str],
    max_plies: int,
    compare_finished_pits: bool,
) -> str | None:
    """One random game through both; the first disagreement, or None."""
    letters = rules.letters
    pos = Position.initial(rules)
    for _ in range(max_plies):
        mover = pos.mover
        ours = [letters.index(m.upper()) for m in pos.legal_moves()]
        if ours != other.moves():
            return f"legal moves: engine {ours}, other {other.moves()}"
        if not ours:
            return None
        number = rng.choice(ours)
        made = sum(t is not None for t in pos.tuzdyks)
        pos = pos.play(letters[number] if mover == 0 else letters[number].lower())
        other.play(number)
        trail.append(pos.last_move or "?")
        tally.plies += 1
        tally.tuzdyks += sum(t is not None for t in pos.tuzdyks) - made
        pits, kazans, tuzdyks = engine_view(pos)
        over = pos.is_over()
        checks: list[tuple[str, object, object]] = [
            ("game over", over, other.over()),
            ("kazans", kazans, other.kazans()),
            ("tuzdyks", tuzdyks, other.tuzdyks()),
        ]
        if compare_finished_pits or not over:
            checks.append(("pits", pits, other.pits()))
        if not over:
            checks.append(("player to move", pos.mover, other.to_move()))
        for what, mine, theirs in checks:
            if mine != theirs:
                return f"{what}: engine {mine}, other {theirs}"
        if over:
            outcome = pos.outcome()
            assert outcome is not None
            winner = str(outcome.winner)
            if winner != other.winner():
                return f"winner: engine {winner}, other {other.winner()}"
            tally.finished += 1
            end = outcome.termination.value
            tally.ends[end] = tally.ends.get(end, 0) + 1
            tally.winners[winner] = tally.winners.get(winner, 0) + 1
            return None
    return None  # still going after max_plies: counted as not finished
