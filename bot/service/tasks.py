"""The service's background work and its open/closed state, shared by every part.

Notifications and AI turns run as tasks, so a slow surface or a thinking AI never delays the
caller; ``idle()`` waits for them (tests, the terminal), ``close()`` stops them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from bot.i18n import _
from bot.service import errors

CLOSE_GRACE = 10.0  # seconds close() gives notifications in flight


class Tasks:
    """The service's tasks in flight, and whether it still takes requests."""

    def __init__(self) -> None:
        self.running: set[asyncio.Task[None]] = set()
        self.closed = False

    def spawn(self, coro: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(coro, name=name)
        self.running.add(task)
        task.add_done_callback(self.running.discard)

    def check_open(self) -> None:
        """ServiceClosed once ``close`` has begun: a request then is refused, not half-done."""
        if self.closed:
            raise errors.ServiceClosed(_("the game service is shutting down; try again shortly"))

    async def idle(self) -> None:
        """Wait until no task is left (new ones started meanwhile included)."""
        while self.running:
            await asyncio.gather(*list(self.running), return_exceptions=True)

    async def close(self) -> None:
        """Refuse new requests; cancel AI turns (they resume when the service opens again);
        give notifications a little while to go out, then cancel them too."""
        self.closed = True
        for task in list(self.running):
            if task.get_name().startswith("ai-turn"):
                task.cancel()
        if self.running:
            await asyncio.wait(list(self.running), timeout=CLOSE_GRACE)
            for task in list(self.running):
                task.cancel()
            await asyncio.gather(*self.running, return_exceptions=True)
