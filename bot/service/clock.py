"""Clocks: the service reads time only through one, so tests can move time by hand; and the
game clock of a turn (``turn_clock``: when to remind the player to move, when they forfeit).

>>> clock = ManualClock(1000.0)
>>> clock(); clock.advance(86400); clock()
1000.0
87400.0
>>> turn_clock(GameOptions(reminder_after=60.0), Player("discord", "1"), now=1000.0)
{'remind_at': 1060.0, 'forfeit_at': None}
"""

from __future__ import annotations

import time

from bot.service.types import GameOptions, Player
from storage.records import GameChanges


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
