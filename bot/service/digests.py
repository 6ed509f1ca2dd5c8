"""The daily digest: one mail a day instead of one per move, for players by mail who ask
(docs/correspondence.md).

A player with the digest on gets, once a day at their hour (UTC, ``DIGEST_HOUR`` unless they
chose one), a ``DigestDue`` event listing every game where it is their move; none on a day
when no game waits for them. While it is on, the opponents' moves are held back from them
(``held_back``, asked through ``Hooks.held_back``): a game's end, offers, challenges,
reminders and their own conditional move played still come at once. Each day's digest is claimed in the database, with the plies of
the games it lists (``ScheduleStore.claim_digest``), so it goes out once whatever the processes,
and a reply to it moves at the ply its board showed.

>>> utc_day_and_hour(86400 * 3 + 3600 * 7.5)
(3, 7)
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from bot.i18n import _
from bot.service import errors
from bot.service.announcer import Announcer
from bot.service.clock import DAY
from bot.service.events import DigestDue, Event, MoveMade
from bot.service.hooks import Hooks
from bot.service.looking import Looking
from bot.service.players import Players
from bot.service.types import GameView, Player
from engine import excerpt
from storage.stores.schedule import ScheduleStore

log = logging.getLogger(__name__)

DIGEST_HOUR = 7  # UTC: the digest's hour unless the player chose one
DIGEST_SURFACES = ("email",)  # who can have one: it is a mail


def utc_day_and_hour(at: float) -> tuple[int, int]:
    """The day (since 1970-01-01) and the hour of the clock time ``at``, in UTC."""
    day, rest = divmod(at, DAY)
    return int(day), int(rest // 3600)


@dataclass(frozen=True)
class DigestSetting:
    """Whether ``player`` gets a daily digest, at ``hour`` (UTC), the first on ``first_day``
    (days since 1970-01-01, UTC: ``first_at`` as a clock time)."""

    player: Player
    on: bool
    hour: int = DIGEST_HOUR
    first_day: int | None = None

    @property
    def first_at(self) -> float | None:
        return None if self.first_day is None else self.first_day * DAY + self.hour * 3600

    def words(self) -> str:
        """The setting in the words every surface uses (in the current language)."""
        if not self.on:
            # TRANSLATORS: 'digest on' and 'digest on at 18' are mail commands: keep them.
            return _(
                "Your daily digest is off: you get a mail for each of your opponents' moves. "
                "'digest on' (or 'digest on at 18') gives one mail a day instead, at "
                "{hour} UTC or the hour you name."
            ).format(hour=f"{DIGEST_HOUR:02d}:00")
        # TRANSLATORS: '#12 C' and 'digest off' are what a player writes: keep them.
        return _(
            "Your daily digest is on: one mail a day at {hour} UTC, listing every "
            "game where it is your move; your opponents' moves are not mailed one by one. "
            "Reply to a digest with a line per game, like '#12 C'. 'digest off' turns it off."
        ).format(hour=f"{self.hour:02d}:00")


@dataclass(eq=False, kw_only=True)
class Digests:
    """Digest settings, the daily digests, and the moves they hold back."""

    schedule_store: ScheduleStore
    clock: Callable[[], float]
    players: Players
    looking: Looking
    announcer: Announcer
    hooks: Hooks  # it sends the digests as the clock ticks, and holds moves back for them

    def __post_init__(self) -> None:
        self.hooks.tick_after.subscribe(self.tick)
        self.hooks.held_back.subscribe(self.held_back)

    async def set(self, player: Player, on: bool, hour: int | None = None) -> DigestSetting:
        """Turn ``player``'s digest on (at ``hour`` UTC, default ``DIGEST_HOUR``) or off. The
        first digest is today's if its hour is still to come, else tomorrow's. Raises
        BadRequest (not a player by mail, an hour outside 0 to 23)."""
        if player.surface not in DIGEST_SURFACES:
            raise errors.BadRequest(_("the daily digest is a mail: it is for players by email"))
        if hour is None:
            hour = DIGEST_HOUR
        if isinstance(hour, bool) or not isinstance(hour, int) or not 0 <= hour <= 23:
            raise errors.BadRequest(
                _("a digest's hour is 0 to 23 (UTC), not '{hour}'").format(
                    hour=excerpt(str(hour), 20)
                )
            )
        pid = await self.players.pid(player)
        now = self.clock()
        today, this_hour = utc_day_and_hour(now)
        first = today if hour > this_hour else today + 1
        await self.schedule_store.set_digest(pid, hour if on else None, first, now)
        return await self.setting(player)

    async def setting(self, player: Player) -> DigestSetting:
        """Whether ``player`` gets a digest, and when."""
        record = await self.schedule_store.digest_setting(await self.players.pid(player))
        if record is None:
            return DigestSetting(player, False)
        return DigestSetting(player, True, record.hour, record.first_day)

    async def listed(self, player: Player, day: int) -> dict[int, int] | None:
        """The games the player's digest of ``day`` listed, each with the ply its board
        showed; None if no digest went out that day."""
        record = await self.schedule_store.digest(await self.players.pid(player), day)
        if record is None:
            return None
        return {int(game): int(ply) for game, ply in json.loads(record.games)}

    async def tick(self) -> None:
        """Send each digest that is due, once (the claim in the database). Only a process
        that can mail them claims them."""
        if not any(surface in self.announcer.notifiers for surface in DIGEST_SURFACES):
            return
        now = self.clock()
        day, hour = utc_day_and_hour(now)
        for due in await self.schedule_store.due_digests(day, hour):
            player = await self.players.player(due.player_id)
            games = tuple(
                game for game in await self.looking.list_games(player) if game.to_move == player
            )
            listed = json.dumps([[game.id, game.ply] for game in games], separators=(",", ":"))
            if not await self.schedule_store.claim_digest(due.player_id, day, now, listed):
                continue  # another process sent it
            if games:
                self.announcer.notify([player], partial(_digest, games=games, day=day))
            log.info("digest %d: %d games", day, len(games), extra={"player": str(player)})

    async def held_back(self, event: Event) -> bool:
        """Whether ``event`` waits for the recipient's digest: an opponent's move, to a
        player who reads the digest."""
        who = event.recipient
        if not isinstance(event, MoveMade) or who.surface not in DIGEST_SURFACES:
            return False
        if event.by == who:  # their own conditional move, played for them: told at once
            return False
        pid = self.players.known(who)
        return pid is not None and await self.schedule_store.digest_setting(pid) is not None


def _digest(who: Player, games: tuple[GameView, ...], day: int) -> DigestDue:
    return DigestDue(who, games, day)
