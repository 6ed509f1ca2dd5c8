"""GameService: the one place that decides who may do what. See ``bot.service`` for a usage
example. Every public method is a coroutine; each raises only ``ServiceError`` subclasses on a
user's mistake (their messages are fit to show), and never blocks the event loop.

How it keeps a move exactly-once: moves of one game run one at a time under that game's lock;
the stored ply is compared-and-set in the same transaction that appends to the move log, whose
primary key is (game, ply). A move is acknowledged (the method returns) only after its commit.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Callable

from storage import open_storage

from bot.service.ai import AIPool
from bot.service.ai_turns import AITurns
from bot.service.challenges import Challenges
from bot.service.clock import SystemClock
from bot.service.deadlines import Deadlines
from bot.service.events import Notifier
from bot.service.looking import Looking
from bot.service.play import Play

CLOSE_GRACE = 10.0  # seconds close() waits for notifications in flight


class GameService(Challenges, Play, AITurns, Deadlines, Looking):
    """Games, challenges, clocks, AI turns and ratings, on one SQLite file.

    Each responsibility is a part in its own module, all built on ``ServiceBase``
    (``bot.service.base``: state, players, loading and committing games, notifying):

    - ``challenges``: challenge, accept, decline, cancel, expiry, start_game
    - ``play``: move, resign, offers (draw, agreed end, undo) and their answers
    - ``ai_turns``: the AI's moves, and hints
    - ``deadlines``: tick (reminders, forfeits, expiries)
    - ``looking``: games, boards, a game's record, ratings, leaderboards

    This class adds the life cycle: open, close, notifiers, idle.
    """

    @classmethod
    async def open(cls, path: str | Path, *, clock: Callable[[], float] | None = None,
                   ai_workers: int = 1, ai_time_limit: float | None = None,
                   tick_every: float | None = 60.0, cache_ttl: float = 1.0) -> GameService:
        """A ready service on the SQLite file at ``path`` (created, or migrated to the current
        schema, keeping all data). ``clock`` returns seconds (default: wall clock; tests pass a
        ``ManualClock``). ``ai_workers`` worker processes run AI searches (started on first
        use). ``tick_every`` seconds a background task runs ``tick()`` (reminders, forfeits,
        expiries); None turns it off (tests call ``tick()`` themselves). Pending AI turns of
        unfinished games resume at once. A game cached in memory is checked against the file
        when older than ``cache_ttl`` seconds, for other processes on the same file."""
        store = await open_storage(path)
        service = cls(store, clock or SystemClock(), AIPool(ai_workers, ai_time_limit))
        service._cache_ttl = cache_ttl
        for row in await store.games_awaiting_ai():
            service._schedule_ai(row["id"])
        if tick_every:
            service._ticker = asyncio.create_task(service._tick_forever(tick_every))
        return service

    async def close(self) -> None:
        """Stop the clock task, wait for AI turns and notifications in flight, close the file.

        AI turns still thinking are abandoned; they resume when the service opens again."""
        if self._closed:
            return
        self._closed = True
        if self._ticker:
            self._ticker.cancel()
        for task in list(self._tasks):
            if task.get_name().startswith("ai-turn"):
                task.cancel()
        if self._tasks:  # notifications get a little while to go out, not forever
            await asyncio.wait(list(self._tasks), timeout=CLOSE_GRACE)
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
        self._ai.close()
        await self._store.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    def add_notifier(self, surface: str, notifier: Notifier) -> None:
        """Route events for players on ``surface`` ("discord", "email", "terminal") to
        ``notifier``. A player whose surface has no notifier simply isn't told."""
        self._notifiers[surface] = notifier

    def ai_status(self) -> str:
        """The AI's compiled search: "ready", or "compiling" / "cold" while the search levels
        play through the quicker-to-start pure-Python search (a few plies shallower)."""
        return self._ai.status()

    async def idle(self) -> None:
        """Wait until no AI turn and no notification is in flight (for tests and the
        terminal, which waits for the AI's reply)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
