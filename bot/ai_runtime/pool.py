"""The AI in worker processes, so a search never blocks the event loop.

The pool starts on first use ("spawn": a clean process, safe beside aiosqlite's threads).
Levels are whatever ``engine.ai.LEVELS`` lists when asked, so new levels need no change here.

Every surface shares this one pool: the games' AI turns and hints, and the mail surface's
position-and-move mails, which have no stored game.

Every request names its owner (the player it is for), and ``bot.ai_runtime.fair_queue`` hands
the workers out in turn between owners, so one player's flood of searches never keeps
another player's reply waiting behind it.

Nobody waits for the compiler: while the compiled search is not in the cache (``kernel``, by
default ``bot.ai_runtime.kernel_cache``), the search levels play through the pure-Python search and one
background process compiles; the moves and hints say so (``reduced``).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections.abc import Callable, Hashable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Protocol, TypeVar

from bot.ai_runtime.fair_queue import Backlog, FairQueue, Priority
from engine import Position

if TYPE_CHECKING:  # engine.ai is imported where a search runs: in the worker
    from engine import Ruleset
    from engine.ai import AIMove, BestMove
    from engine.ai.encoding import Endgame
    from engine.review import Budget, PlyReview

T = TypeVar("T")


class Kernel(Protocol):
    """What the pool asks of the compiled search's cache (``bot.ai_runtime.kernel_cache``)."""

    def is_ready(self) -> bool: ...
    def is_compiling(self) -> bool: ...
    def start_background(self) -> bool: ...


class Tables(Protocol):
    """What the pool asks of the play tables (``bot.ai_runtime.table_cache``)."""

    def prepare(self, rules: Ruleset) -> str: ...


def known_levels() -> tuple[str, ...]:
    import engine.ai

    return tuple(engine.ai.LEVELS)


def default_level() -> str:
    """The level a player gets who names none: the product's one default, on every surface."""
    import engine.ai

    return engine.ai.DEFAULT_LEVEL


def _endgame(position: Position, compiled: bool) -> Endgame | None:
    """The play table for the position's rules, mapped in this (worker) process, if built."""
    if not compiled:
        return None
    from bot.ai_runtime.table_cache import loaded

    return loaded(position.rules)


def _choose(
    position: Position, level: str, time_limit: float | None, seed: int, compiled: bool
) -> AIMove:
    from engine.ai import choose_move  # looked up in the worker, so a new AI is picked up

    return choose_move(
        position,
        level,
        time_limit=time_limit,
        seed=seed,
        compiled=compiled,
        endgame=_endgame(position, compiled),
    )


def _hint(position: Position, time_limit: float, compiled: bool) -> BestMove:
    from engine.ai import hint  # the solver's proof when it finishes in time, else the expert

    return hint(
        position, time_limit=time_limit, compiled=compiled, endgame=_endgame(position, compiled)
    )


DEFAULT_WORKERS = 2  # with two, one player's searches never hold every worker
TYPICAL_SECONDS = 1.0  # what a search is assumed to take before any has been timed


def _review_move(
    position: Position, move: str, ply: int, budget: Budget, compiled: bool
) -> PlyReview:
    from engine.review import review_move

    return review_move(
        position,
        move,
        budget=budget,
        compiled=compiled,
        endgame=_endgame(position, compiled),
        ply=ply,
    )


class AIPool:
    """``await pool.choose(position, level, seed, owner=player)``, ``await pool.hint(...)``.

    ``workers=0`` searches in the calling process: for ``mancala mail --pipe``, which answers
    one message and exits, where starting a worker would cost more than it saves. The
    applet's strategies do not search: they answer in microseconds, less than the trip to a
    worker, so they always run here.
    """

    def __init__(
        self,
        workers: int = DEFAULT_WORKERS,
        time_limit: float | None = None,
        kernel: Kernel | None = None,
        tables: Tables | None = None,
    ) -> None:
        if kernel is None:
            import bot.ai_runtime.kernel_cache as kernel_cache

            kernel = kernel_cache
        if tables is None:
            import bot.ai_runtime.table_cache as table_cache

            tables = table_cache
        self.workers = max(0, workers)
        self.time_limit = time_limit
        self.kernel = kernel  # is_ready(), start_background(): see bot.ai_runtime.kernel_cache
        self.tables = tables  # prepare(rules): see bot.ai_runtime.table_cache
        self._pool: ProcessPoolExecutor | None = None
        self.queue = FairQueue(self.workers or 1)
        self._typical = TYPICAL_SECONDS  # a moving average of how long a request took

    def compiled(self, position: Position | None = None) -> bool:
        """Whether searches may use the compiled kernel now; if not, start compiling it. Once
        it is compiled, also start building the position's endgame table if it has none."""
        if self.kernel.is_ready():
            if position is not None:
                self.tables.prepare(position.rules)
            return True
        self.kernel.start_background()
        return False

    def status(self) -> str:
        """ "ready", "compiling" (searches play at reduced strength meanwhile) or "cold"."""
        if self.kernel.is_ready():
            return "ready"
        return "compiling" if self.kernel.is_compiling() else "cold"

    async def choose(
        self, position: Position, level: str, seed: int, *, owner: Hashable = None
    ) -> AIMove:
        """The AI's AIMove for ``position``, computed in a worker process in ``owner``'s
        turn (the player the AI plays against)."""
        from engine.ai import STRATEGIES

        if level in STRATEGIES:
            return _choose(position, level, None, seed, False)
        return await self.run(
            owner,
            Priority.LIVE,
            _choose,
            position,
            level,
            self.time_limit,
            seed,
            self.compiled(position),
        )

    async def hint(
        self, position: Position, time_limit: float, *, owner: Hashable = None
    ) -> BestMove:
        """engine.ai's BestMove for ``position`` within about ``time_limit`` seconds (capped by the
        pool's own time limit), computed in a worker process in ``owner``'s turn."""
        if self.time_limit is not None:
            time_limit = min(time_limit, self.time_limit)
        return await self.run(
            owner, Priority.LIVE, _hint, position, time_limit, self.compiled(position)
        )

    async def review_move(
        self, position: Position, move: str, ply: int, budget: Budget, *, owner: Hashable = None
    ) -> PlyReview:
        """``engine.review.review_move`` of one ply, in a worker process, as background work
        in ``owner``'s turn (live turns and hints go first)."""
        return await self.run(
            owner,
            Priority.BACKGROUND,
            _review_move,
            position,
            move,
            ply,
            budget,
            self.compiled(position),
        )

    def backlog(self, owner: Hashable) -> Backlog:
        """``owner``'s requests waiting for a worker and running now."""
        return self.queue.backlog(owner)

    def expected_wait(self, owner: Hashable) -> tuple[int, float]:
        """What a new live request of ``owner`` would wait for: how many requests come
        before it, and about how many seconds it takes to come back (theirs and its own, at
        the recent typical time of one)."""
        ahead, searches = self.queue.ahead_of(owner)
        return ahead, (searches + 1) * self._typical

    async def run(
        self, owner: Hashable, priority: Priority, function: Callable[..., T], *args: object
    ) -> T:
        """``function(*args)`` in a worker process, once it is ``owner``'s turn."""
        if self.workers == 0:
            return function(*args)
        async with self.queue.turn(owner, priority):
            started = time.monotonic()
            result = await self._run(function, *args)
            if priority is Priority.LIVE:
                self._typical = 0.8 * self._typical + 0.2 * (time.monotonic() - started)
            return result

    async def _run(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` in a worker process. A worker that died (killed, out of memory)
        is replaced once before giving up."""
        loop = asyncio.get_running_loop()
        retried = False
        while True:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn")
                )
            try:
                return await loop.run_in_executor(self._pool, function, *args)
            except BrokenProcessPool:
                self._pool = None
                if retried:
                    raise
                retried = True

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
