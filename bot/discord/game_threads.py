"""Threads made for one game each, archived a while after the game ends.

Discord archives an idle thread by itself after a day; a finished game's thread goes sooner,
after ``archive_after`` seconds (the service's time a finished game's place is kept). An
archived thread reopens by itself if anyone writes in it.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.service.surface_defaults import FINISHED_PLACE_KEPT

log = logging.getLogger(__name__)


class GameThreads:
    """The threads of games still going, and the archivings scheduled for finished ones."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.ids: set[int] = set()
        self.archive_after: float = FINISHED_PLACE_KEPT
        self._archiving: set[asyncio.Task[None]] = set()

    def add(self, thread_id: int) -> None:
        """A thread made for a new game."""
        self.ids.add(thread_id)

    def game_over_in(self, channel_id: int | None) -> None:
        """A game ended in ``channel_id``: archive it later if it is a game's own thread."""
        if channel_id is not None and channel_id in self.ids:
            self.ids.discard(channel_id)
            self._archiving.add(asyncio.create_task(self.archive_later(channel_id)))

    async def archive_later(self, thread_id: int) -> None:
        """Archive a finished game's thread after ``archive_after`` seconds."""
        try:
            await asyncio.sleep(self.archive_after)
            thread = self.client.get_channel(thread_id) or await self.client.fetch_channel(
                thread_id
            )
            if isinstance(thread, discord.Thread) and not thread.archived:
                await thread.edit(archived=True)
        except discord.HTTPException as err:
            log.info("could not archive thread %s: %s", thread_id, err)
        finally:
            task = asyncio.current_task()
            if task is not None:
                self._archiving.discard(task)

    def close(self) -> None:
        """Stop pending archivings (Discord archives idle threads itself after a day)."""
        for task in list(self._archiving):
            task.cancel()
