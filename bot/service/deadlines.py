"""Deadlines: reminders and forfeits for silent players, expiry of unanswered challenges.
``tick()`` acts on whatever is due; ``GameService.open`` runs it every ``tick_every`` seconds.

>>> from bot.service.types import GameOptions, Player
>>> clock_fields(GameOptions(reminder_after=60.0), Player("discord", "1"), now=1000.0)
{'remind_at': 1060.0, 'forfeit_at': None}
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.service import errors
from bot.service.announcer import Announcer
from bot.service.events import Forfeit, Reminder
from bot.service.games import Games
from bot.service.types import GameOptions, Player
from engine import Outcome, Termination
from storage import Storage

if TYPE_CHECKING:  # challenges imports clock_fields from here
    from bot.service.challenges import Challenges

log = logging.getLogger(__name__)


def clock_fields(options: GameOptions, mover: Player | None, now: float) -> dict:
    """When to remind and forfeit ``mover``, who now has the turn (never the AI)."""
    human = mover is not None and not mover.is_ai
    return dict(
        remind_at=now + options.reminder_after if human and options.reminder_after else None,
        forfeit_at=now + options.forfeit_after if human and options.forfeit_after else None,
    )


@dataclass(eq=False)
class Deadlines:
    """The service's part that acts when time passes."""

    _store: Storage
    _clock: Callable[[], float]
    _games: Games
    _announcer: Announcer
    _challenges: Challenges

    async def tick(self) -> None:
        """Act on the clock now: expire old challenges, remind players who have not moved for
        ``reminder_after``, forfeit those silent for ``forfeit_after``. Runs by itself every
        ``tick_every`` seconds; tests call it after advancing a ManualClock."""
        now = self._clock()
        for row in await self._store.due_challenges(now):
            await self._challenges.expire(row)  # closed once: the store's compare-and-set
        for row in await self._store.due_clocks(now):
            try:
                await self._clock_game(row["id"], now)
            except errors.StaleMove:
                continue  # another process on the database moved or acted first
        for row in await self._store.games_awaiting_ai():
            self._announcer.ai_turn(row["id"])  # one whose process died: its lease ran out

    async def _clock_game(self, game_id: int, now: float) -> None:
        """Forfeit or remind, once even with several processes on one database: the forfeit
        is a compare-and-set on the ply, the reminder a claim of its reminded_at."""
        async with self._games.locked(game_id):
            live = await self._games.load(game_id, fresh=True)
            row = live.row
            if row["status"] != "active":
                return
            side = live.to_move_side
            mover = live.player(side)
            if row["forfeit_at"] is not None and row["forfeit_at"] <= now:
                changes, ratings = await self._games.finish_fields(
                    live,
                    Outcome.of(
                        Termination.TIME, live.game.position.stores, by=side, ply=row["ply"] + 1
                    ),
                )
                await self._games.commit(live, changes, ratings=ratings)
                view = await self._games.view(live)
                self._announcer.notify(
                    [view.south, view.north], lambda who: Forfeit(who, view, mover)
                )
            elif (
                row["remind_at"] is not None
                and row["remind_at"] <= now
                and row["reminded_at"] is None
            ):
                forfeit_at = row["forfeit_at"]
                if not await self._store.claim_reminder(row["id"], row["ply"], now):
                    self._games.live.drop(row["id"])
                    return  # another process reminded them
                row["reminded_at"], live.snapshot = now, None
                view = await self._games.view(live)
                self._announcer.notify(
                    [mover], lambda who: Reminder(who, view, now - row["last_move_at"], forfeit_at)
                )

    async def tick_forever(self, every: float) -> None:
        """``tick()`` every ``every`` seconds until cancelled; a failed tick is logged."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.tick()
            except Exception:
                log.exception("clock tick failed")
