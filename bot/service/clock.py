"""Clocks: the service reads time only through one, so tests can move time by hand; and the
game clock of a turn (``turn_clock``: when to remind the player to move, when they forfeit).

>>> clock = ManualClock(1000.0)
>>> clock(); clock.advance(86400); clock()
1000.0
87400.0
>>> turn_clock(GameOptions(reminder_after=60.0), Player("discord", "1"), now=1000.0)
{'remind_at': 1060.0, 'forfeit_at': None}
>>> [seconds / 3600 for seconds in days_per_move_clock(3)], days_per_move_clock(1)[0] / 3600
([48.0, 72.0], 12.0)
"""

from __future__ import annotations

import time

from bot.service.types import GameOptions, Player
from storage.records import GameChanges

DAY = 86400.0
DAYS_PER_MOVE = (1, 14)  # a correspondence time control's bounds, in whole days


def days_per_move_clock(days: int) -> tuple[float, float]:
    """``(reminder_after, forfeit_after)`` for ``days`` days a move: the move is due when the
    days are up, and the player is reminded when one day is left (half a day, at one day a
    move)."""
    forfeit = days * DAY
    return (forfeit - DAY if days > 1 else DAY / 2), forfeit


def turn_clock(options: GameOptions, mover: Player | None, now: float) -> GameChanges:
    """When to remind and forfeit ``mover``, who now has the turn (never the AI)."""
    human = mover is not None and not mover.is_ai
    return {
        "remind_at": now + options.reminder_after if human and options.reminder_after else None,
        "forfeit_at": now + options.forfeit_after if human and options.forfeit_after else None,
    }


class SystemClock:
    """Wall-clock seconds since the epoch."""

    def __call__(self) -> float:
        return time.time()


class ManualClock:
    """A clock that moves only when told: ``advance(seconds)`` or ``set(t)``."""

    def __init__(self, start: float = 1_700_000_000.0):
        self.now = float(start)

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def set(self, t: float) -> None:
        self.now = float(t)
