"""News of a game for its open pages: one watcher per game that has a page open, however
many pages, telling each page's event stream when the game changed.

Where a change comes from, and how it is seen here, through ``GameService.get_game`` alone:

- in this process (a move played from a page, the AI's reply, a forfeit by the clock): the
  service's own copy of the game changes when the move commits, and ``get_game`` hands out
  that copy without a read; a page's own play also wakes the watcher at once (``kick``);
- in another process (``mancala bot``, ``mancala mail``): on PostgreSQL the database tells
  the service of every change (LISTEN/NOTIFY, ``GameStore.watch``) and the service
  forgets its copy at once; on SQLite the service checks its copy against the file once it
  is ``cache_ttl`` seconds old. ``mancala web`` opens the service with a short ``cache_ttl``
  so either way a page hears of a move within a second.

The watcher asks every ``interval`` seconds: a look in memory while nothing changed (or one
small row read on SQLite each ``cache_ttl``), for the games that have a page open only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from bot.service import GameService, GameView, ServiceError

log = logging.getLogger(__name__)


def signature(view: GameView) -> tuple[object, ...]:
    """What a page shows that can change: the ply, the end, an offer, the deadline."""
    offer = (view.offer.kind, view.offer.by) if view.offer else None
    return view.ply, view.status, offer, view.deadline, view.away


@dataclass(eq=False)
class _Watch:
    queues: set[asyncio.Queue[GameView | None]] = field(default_factory=set)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class GameFeeds:
    """The watchers of the games whose pages are open."""

    def __init__(self, service: GameService, interval: float = 0.2):
        self._service = service
        self._interval = interval
        self._watches: dict[int, _Watch] = {}

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: int) -> AsyncIterator[asyncio.Queue[GameView | None]]:
        """A queue that gets the game each time it changes, while the block runs, and None
        when the server is closing (the page's stream ends; the page reconnects)."""
        watch = self._watches.get(game_id)
        if watch is None:
            watch = self._watches[game_id] = _Watch()
            watch.task = asyncio.create_task(self._watch(game_id, watch), name=f"feed {game_id}")
        queue: asyncio.Queue[GameView | None] = asyncio.Queue(maxsize=8)
        watch.queues.add(queue)
        try:
            yield queue
        finally:
            watch.queues.discard(queue)
            if not watch.queues and self._watches.get(game_id) is watch:
                del self._watches[game_id]
                if watch.task is not None:
                    watch.task.cancel()

    def kick(self, game_id: int) -> None:
        """Look at the game now (a page just played in it)."""
        watch = self._watches.get(game_id)
        if watch is not None:
            watch.wake.set()

    async def close(self) -> None:
        """Stop watching; every stream is told to end, so the server's shutdown does not
        wait for the pages to go away."""
        watches = list(self._watches.values())
        self._watches.clear()
        for watch in watches:
            for queue in watch.queues:
                if queue.full():
                    queue.get_nowait()
                queue.put_nowait(None)
        tasks = [w.task for w in watches if w.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _watch(self, game_id: int, watch: _Watch) -> None:
        seen: tuple[object, ...] | None = None
        while True:
            try:
                view = await self._service.get_game(game_id)
            except ServiceError:  # the database is away a moment: ask again
                view = None
            except Exception:
                log.exception("watching game %s failed", game_id)
                view = None
            if view is not None:
                now = signature(view)
                if seen is not None and now != seen:
                    for queue in list(watch.queues):
                        if queue.full():  # a page that does not read: only the newest counts
                            queue.get_nowait()
                        queue.put_nowait(view)
                seen = now
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(watch.wake.wait(), self._interval)
            watch.wake.clear()
