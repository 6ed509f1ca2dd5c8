"""Limits every process on the database shares: a surface's counters (the mail replies per
address and in all, the challenges to strangers, the Discord cooldowns), counted in the
database by ``storage.stores.limits``, so two bots on one PostgreSQL database, or a bot
restarted, never count past a limit. The surface names its counters and windows and keeps
its own clock (``now``); this part only hands the counting to the store.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from storage.stores.limits import Hit, LimitStore

__all__ = ["Hit", "Limits"]


@dataclass(eq=False, kw_only=True)
class Limits:
    """Counting hits against limits, in the database."""

    limit_store: LimitStore

    async def count(self, hits: Sequence[Hit], now: float) -> list[bool]:
        """Count each hit still under its limit in its window at ``now``, all in one
        statement; for each, whether it was counted."""
        return await self.limit_store.count(hits, now)

    async def give_back(self, hits: Sequence[Hit], now: float) -> None:
        """Undo ``count`` of ``hits`` (what was counted was not done after all)."""
        await self.limit_store.give_back(hits, now)
