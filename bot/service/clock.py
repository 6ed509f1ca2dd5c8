"""Clocks: the service reads time only through one, so tests can move time by hand.

>>> clock = ManualClock(1000.0)
>>> clock(); clock.advance(86400); clock()
1000.0
87400.0
"""

from __future__ import annotations

import time


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
