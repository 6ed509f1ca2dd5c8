"""Deadlines: reminders and forfeits for silent players, expiry of unanswered challenges.
``tick()`` acts on whatever is due; ``GameService.open`` runs it every ``tick_every`` seconds.
When a turn's deadlines fall is ``bot.service.clock.turn_clock``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot.service import errors
from bot.service.announcer import Announcer
from bot.service.challenges import Challenges
from bot.service.events import Forfeit, Reminder
from bot.service.games import Games
from bot.service.hooks import Hooks
from engine import Outcome, Termination
from storage.stores.challenges import ChallengeStore
from storage.stores.games import GameStore

log = logging.getLogger(__name__)


@dataclass(eq=False, kw_only=True)
class Deadlines:
    """The service's part that acts when time passes."""

    challenge_store: ChallengeStore
    game_store: GameStore
    clock: Callable[[], float]
    games: Games
    announcer: Announcer
    challenges: Challenges
    # Work before the tick's own and after it (Hooks.tick_first, tick_after), and whether
    # the player to move is away (Hooks.is_away: no reminder, no forfeit; their deadlines
    # move on when they are back).
    hooks: Hooks

    async def tick(self) -> None:
        """Act on the clock now: expire old challenges, remind players who have not moved for
        ``reminder_after``, forfeit those silent for ``forfeit_after``. Runs by itself every
        ``tick_every`` seconds; tests call it after advancing a ManualClock."""
        now = self.clock()
        await self.games.listen_again()  # if the database stopped telling (a restart)
        await self.hooks.tick_first.run()
        for challenge in await self.challenge_store.due(now):
            await self.challenges.expire(challenge)  # closed once: the store's compare-and-set
        for game in await self.game_store.due_clocks(now):
            if self.hooks.is_away(game.south_id if game.mover == 0 else game.north_id):
                continue  # their clock stands still
            try:
                await self._act_on_clock(game.id, now)
            except errors.StaleMove:
                continue  # another process on the database moved or acted first
        for game in await self.game_store.awaiting_ai():
            self.hooks.ai_turn_due.emit(game.id)  # one whose process died: its lease ran out
        await self.hooks.tick_after.run()

    async def _act_on_clock(self, game_id: int, now: float) -> None:
        """Forfeit or remind, once even with several processes on one database: the forfeit
        is a compare-and-set on the ply, the reminder a claim of its reminded_at."""
        async with self.games.locked(game_id):
            live = await self.games.load(game_id, fresh=True)
            record = live.record
            if not record.is_active:
                return
            side = live.to_move_side
            mover = live.player(side)
            if self.hooks.is_away(record.south_id if record.mover == 0 else record.north_id):
                return  # away since the list was read: their clock stands still
            if record.forfeit_at is not None and record.forfeit_at <= now:
                ending = await self.games.ending(
                    live,
                    Outcome.of(
                        Termination.TIME, live.game.position.stores, by=side, ply=record.ply + 1
                    ),
                )
                await self.games.commit(live, ending.changes, ratings=ending.ratings)
                view = await self.games.view(live)
                self.announcer.notify(
                    [view.south, view.north], lambda who: Forfeit(who, view, mover)
                )
            elif (
                record.remind_at is not None
                and record.remind_at <= now
                and record.reminded_at is None
            ):
                if not await self.game_store.claim_reminder(record.id, record.ply, now):
                    self.games.live.drop(record.id)
                    return  # another process reminded them
                live.record, live.snapshot = record.changed({"reminded_at": now}), None
                view = await self.games.view(live)
                silent_for, forfeit_at = now - record.last_move_at, record.forfeit_at
                self.announcer.notify(
                    [mover], lambda who: Reminder(who, view, silent_for, forfeit_at)
                )

    async def tick_forever(self, every: float) -> None:
        """``tick()`` every ``every`` seconds until cancelled; a failed tick is logged."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.tick()
            except Exception:
                log.exception("clock tick failed")
