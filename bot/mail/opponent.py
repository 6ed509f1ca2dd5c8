"""The AI opponent of position-and-move mails, searching in worker processes.

``engine.ai.choose_move`` takes and returns picklable values, so it runs in a process pool
and a long search never blocks the event loop that serves SMTP. A level that does not search
at all (depth 0: the applet's strategies, like "first") costs less than the trip to a worker,
so once a worker reports depth 0 for a level, that level runs here.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from engine import Position
from engine.ai import choose_move


class AIOpponent:
    """``await opponent.choose(position, level)`` -> the AI's move (a pit letter).

    ``workers=0`` searches in the calling process: for ``--pipe``, which handles one message
    and exits, where starting a worker would cost more than the search.
    """

    def __init__(self, workers: int = 1, time_limit: float | None = None):
        self.workers = workers
        self.time_limit = time_limit
        self._pool: ProcessPoolExecutor | None = None
        self._no_search: set[str] = set()  # levels seen to answer without searching

    async def choose(self, position: Position, level: str) -> str:
        if self.workers == 0 or level in self._no_search:
            return choose_move(position, level, self.time_limit).move
        if self._pool is None:
            # spawn, not fork: forking a process that runs an event loop and threads is unsafe
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context)
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(self._pool, choose_move, position, level,
                                            self.time_limit)
        if result.depth == 0:
            self._no_search.add(level)
        return result.move

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
