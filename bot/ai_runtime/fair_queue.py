"""Who gets the next AI worker: each player's requests wait in their own queue, and the queues
are served in turn, live work before background work.

A plain first-come queue lets whoever queues most wait least: one player who moves in 30
games against the expert at once would keep everyone else waiting a minute. Here a player's
requests go to the back of the round after each one served, so another player's request
waits at most for the searches already running, not for the flood behind them.

Two more rules keep a worker free for others when the pool has more than one:

- one player runs on at most ``workers - 1`` workers at once;
- background work (reviews, puzzle mining) runs on at most ``workers - 1`` workers at once,
  and only when no live work (AI turns, hints) waits.

>>> import asyncio
>>> async def demo():
...     queue = FairQueue(workers=1)
...     order = []
...     async def job(owner, n):
...         async with queue.turn(owner):
...             order.append(f"{owner}{n}")
...             await asyncio.sleep(0)
...     await asyncio.gather(*(job("a", n) for n in range(3)), job("b", 0))
...     return order
>>> asyncio.run(demo())
['a0', 'b0', 'a1', 'a2']
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from enum import IntEnum


class Priority(IntEnum):
    """What kind of AI work a request is; a lower value is served first."""

    LIVE = 0  # a player waits for it: the AI's turn, a hint
    BACKGROUND = 1  # nobody waits at the board: a review, puzzle mining


@dataclass(frozen=True)
class Backlog:
    """One player's AI work as the queue sees it now."""

    waiting: int  # requests not started yet
    running: int  # requests on a worker now


class FairQueue:
    """Turns on ``workers`` AI workers, handed out round-robin between owners.

    ``async with queue.turn(owner, priority):`` waits for a turn and holds it for the block.
    An owner is anything hashable that names who asked (the service uses the player).
    """

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        # With several workers one stays free for others; with one, nobody can be kept off it.
        self.per_owner = max(1, self.workers - 1)
        self.background_at_once = max(1, self.workers - 1)
        self._waiting: dict[Priority, OrderedDict[Hashable, deque[asyncio.Future[None]]]] = {
            priority: OrderedDict() for priority in Priority
        }
        self._running: dict[Hashable, int] = {}
        self._running_background = 0
        # When each owner with work waiting or running was last served: the owner served
        # longest ago (or never) goes next.
        self._served_at: dict[Hashable, int] = {}
        self._turns = 0

    @asynccontextmanager
    async def turn(
        self, owner: Hashable, priority: Priority = Priority.LIVE
    ) -> AsyncIterator[None]:
        """Wait for ``owner``'s turn on a worker and hold it until the block ends."""
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[priority].setdefault(owner, deque()).append(granted)
        self._dispatch()
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self._release(owner, priority)  # granted just as the waiter gave up
            else:
                self._forget(owner, priority, granted)
            raise
        try:
            yield
        finally:
            self._release(owner, priority)

    def backlog(self, owner: Hashable) -> Backlog:
        """How many of ``owner``'s requests wait and run now."""
        waiting = sum(len(queue.get(owner, ())) for queue in self._waiting.values())
        return Backlog(waiting, self._running.get(owner, 0))

    def ahead_of(self, owner: Hashable) -> tuple[int, float]:
        """What a new live request of ``owner`` would wait for: how many requests are served
        before it (those running; ``owner``'s own waiting ones; from each other owner, one per
        round ``owner``'s take), and about how many searches' time that takes, counting that
        ``owner``'s own run on at most ``per_owner`` workers."""
        live = self._waiting[Priority.LIVE]
        own = len(live.get(owner, ())) + self._running.get(owner, 0)
        rounds = len(live.get(owner, ())) + 1
        others = sum(min(len(queue), rounds) for key, queue in live.items() if key != owner)
        others += self.busy - self._running.get(owner, 0)
        ahead = own + others
        return ahead, max(ahead / self.workers, own / self.per_owner)

    @property
    def busy(self) -> int:
        """Workers in use now."""
        return sum(self._running.values())

    def _dispatch(self) -> None:
        """Hand free workers to the waiting requests: live before background, and in each
        class to the owner whose turn it is."""
        while self.busy < self.workers:
            picked = self._next()
            if picked is None:
                return
            owner, priority, granted = picked
            self._running[owner] = self._running.get(owner, 0) + 1
            if priority is Priority.BACKGROUND:
                self._running_background += 1
            granted.set_result(None)

    def _next(self) -> tuple[Hashable, Priority, asyncio.Future[None]] | None:
        self._drop_given_up()
        for priority in Priority:
            if priority is Priority.BACKGROUND and (
                self._running_background >= self.background_at_once
                or any(self._waiting[Priority.LIVE].values())
            ):
                return None
            queues = self._waiting[priority]
            ready = [o for o in queues if self._running.get(o, 0) < self.per_owner]
            if not ready:
                continue
            owner = min(ready, key=lambda o: self._served_at.get(o, -1))
            self._turns += 1
            self._served_at[owner] = self._turns  # served: back of the round
            waiting = queues[owner]
            granted = waiting.popleft()
            if not waiting:
                del queues[owner]
            return owner, priority, granted
        return None

    def _drop_given_up(self) -> None:
        """Forget requests whose waiter was cancelled but has not run its own clean-up yet
        (a cancelled task's future is cancelled at once, its ``except`` runs later)."""
        for queues in self._waiting.values():
            for owner in list(queues):
                waiting = queues[owner]
                kept = deque(granted for granted in waiting if not granted.done())
                if len(kept) != len(waiting):
                    if kept:
                        queues[owner] = kept
                    else:
                        del queues[owner]

    def _release(self, owner: Hashable, priority: Priority) -> None:
        left = self._running[owner] - 1
        if left:
            self._running[owner] = left
        else:
            del self._running[owner]
        if priority is Priority.BACKGROUND:
            self._running_background -= 1
        self._forget_idle(owner)
        self._dispatch()

    def _forget(self, owner: Hashable, priority: Priority, granted: asyncio.Future[None]) -> None:
        queue = self._waiting[priority].get(owner)
        if queue is not None and granted in queue:
            queue.remove(granted)
            if not queue:
                del self._waiting[priority][owner]
        self._forget_idle(owner)

    def _forget_idle(self, owner: Hashable) -> None:
        """An owner with nothing waiting or running leaves the round (its place too)."""
        if owner not in self._running and not self.backlog(owner).waiting:
            self._served_at.pop(owner, None)
