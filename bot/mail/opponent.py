"""The AI opponent of position-and-move mails, searching in worker processes.

``engine.ai.choose_move`` takes and returns picklable values, so a search runs in a process
pool and never blocks the event loop that serves SMTP. The applet's strategies ("first",
"greedy"...) do not search: they answer in microseconds, less than the trip to a worker, so
they run here.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from engine import Position
from engine.ai import STRATEGIES, choose_move


class AIOpponent:
    """``await opponent.choose(position, level)`` -> the AI's move (a pit letter).

    ``workers=0`` searches in the calling process: for ``--pipe``, which handles one message
    and exits, where starting a worker would cost more than it saves.
    """

    def __init__(self, workers: int = 1, time_limit: float | None = None):
        self.workers = workers
        self.time_limit = time_limit
        self._pool: ProcessPoolExecutor | None = None

    async def choose(self, position: Position, level: str) -> str:
        if self.workers == 0 or level in STRATEGIES:
            return choose_move(position, level, self.time_limit).move
        if self._pool is None:
            # spawn, not fork: forking a process that runs an event loop and threads is unsafe
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context)
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(self._pool, choose_move, position, level,
                                            self.time_limit)
        return result.move

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
