"""Counters of limits shared by every process on the database (docs/limits.md): how many
times something was done in a window of time (an address's mail replies today, the bot's this
hour), counted and checked against its limit in one statement, so two processes can never
both take the last one, and a restart forgets nothing.

A window starts at a multiple of its length since the epoch (a day: 00:00 UTC). A counter is a
row per (name, window start); ``count`` adds one to each of several counters in one
statement, each only while it is under its limit, and says which it counted. The rows of
windows that ended are deleted now and then (at most once per ``PRUNE_EVERY`` seconds of the
caller's clock, per process).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from storage.driver import Driver

PRUNE_EVERY = 3_600.0  # seconds between two deletions of ended windows, per process

# One row of VALUES per counter: name, window start, window end, 1, limit. A row that is there
# already gets one more only while under its limit (the WHERE of DO UPDATE is evaluated on the
# row as it is once locked, on both engines): a counter at its limit is not returned.
COUNT_HITS = (
    "INSERT INTO limit_counters (name, window_start, window_end, hits, hit_limit) VALUES {rows} "
    "ON CONFLICT (name, window_start) DO UPDATE SET hits = limit_counters.hits + 1, "
    "hit_limit = excluded.hit_limit WHERE limit_counters.hits < excluded.hit_limit "
    "RETURNING name"
)
GIVE_BACK = (
    "UPDATE limit_counters SET hits = hits - 1 WHERE name = ? AND window_start = ? AND hits > 0"
)
HITS = "SELECT hits FROM limit_counters WHERE name = ? AND window_start = ?"
PRUNE = "DELETE FROM limit_counters WHERE window_end <= ?"


class Hit(NamedTuple):
    """One more of something counted: its counter's ``name`` (e.g. ``mail:reply:ann@x.org``),
    the ``window``'s length in seconds, and the most hits a window may hold."""

    name: str
    window: int
    limit: int


def window_start(window: int, now: float) -> int:
    """The start of the window of length ``window`` that ``now`` falls in.

    >>> window_start(86400, 86400 * 3 + 5.5), window_start(3600, 3599.9)
    (259200, 0)
    """
    return int(now // window) * window


class LimitStore:
    def __init__(self, db: Driver) -> None:
        self.db = db
        self._pruned_at: float | None = None

    async def count(self, hits: Sequence[Hit], now: float) -> list[bool]:
        """Count each of ``hits`` (distinct names) that is under its limit in the window of
        ``now``, in one statement; for each, whether it was counted. A limit of 0 or less
        allows none (its hit is not written at all)."""
        allowed = [hit for hit in hits if hit.limit > 0]
        if not allowed:
            return [False] * len(hits)
        await self._prune(now)
        rows, args = [], []
        # PostgreSQL locks the rows in this order: always the same order, so two statements on
        # the same counters wait for each other instead of deadlocking.
        for hit in sorted(allowed):
            start = window_start(hit.window, now)
            rows.append("(?, ?, ?, 1, ?)")
            args += [hit.name, start, start + hit.window, hit.limit]
        counted = await self.db.change_returning(COUNT_HITS.format(rows=", ".join(rows)), *args)
        names = {row["name"] for row in counted}
        return [hit.limit > 0 and hit.name in names for hit in hits]

    async def give_back(self, hits: Sequence[Hit], now: float) -> None:
        """Undo ``count`` of ``hits`` (the thing counted was not done after all), in the
        window of ``now``."""
        # One statement per counter, each on its own: one holds a single row's lock, so it
        # can never close a circle of waits with ``count``'s several (a deadlock, on
        # PostgreSQL). Only a refused hit gives back, so this is the rare path.
        for hit in sorted(hits):
            await self.db.execute(GIVE_BACK, hit.name, window_start(hit.window, now))

    async def hits(self, name: str, window: int, now: float) -> int:
        """How many were counted in ``name``'s window of ``now``."""
        row = await self.db.one(HITS, name, window_start(window, now))
        return int(row["hits"]) if row else 0

    async def prune(self, now: float) -> int:
        """Delete the counters of windows that ended by ``now``; how many."""
        self._pruned_at = now
        return await self.db.execute(PRUNE, int(now))  # whole seconds, as the windows are

    async def _prune(self, now: float) -> None:
        if self._pruned_at is None or not 0 <= now - self._pruned_at < PRUNE_EVERY:
            await self.prune(now)
