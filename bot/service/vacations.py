"""Vacations: a player away is not reminded, and their clocks stand still in every
correspondence game (docs/correspondence.md).

Each player has ``ALLOWANCE_DAYS`` of vacation a calendar year (UTC), counted to the second
(shown in days). A vacation ends when the player says so, when they move (a conditional move
played for them does not count), at the length they asked for, or when the year's allowance
runs out, whichever comes first; a vacation over New Year draws on the new year's allowance
from then on. How the clocks stand still: while the player to move is away, ``Deadlines``
passes their game by; when the vacation ends, the deadlines of every game where it is their
move move on by the part of the vacation that fell in that turn, in the transaction that ends
it (``ScheduleStore.end_vacation``), so they end exactly once whatever the processes. Only
correspondence clocks stand still: a game with a day or more a move (or no clock at all); a
live game's minutes run on.

Who is away is kept in memory too (``away``), read again from the database every tick, so a
board can say "on vacation until ..." without a read; a vacation started in another process
shows within a tick.

>>> calendar_year(1_700_000_000.0)
(2023, 1672531200.0, 1704067200.0)
>>> days_words(86400 * 2.5), days_words(3600 * 5), days_words(0)
('2.5 days', '5 hours', '0 days')
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.i18n import _, ngettext
from bot.service import errors
from bot.service.clock import DAY
from bot.service.games import Games
from bot.service.hooks import Hooks
from bot.service.players import Players
from bot.service.types import Away, GameView, Player, number_words
from engine import excerpt
from storage.records import VacationRecord
from storage.stores.schedule import ScheduleStore

log = logging.getLogger(__name__)

ALLOWANCE_DAYS = 30  # vacation days per player and calendar year (UTC)
ALLOWANCE = ALLOWANCE_DAYS * DAY


def calendar_year(at: float) -> tuple[int, float, float]:
    """The UTC calendar year of the clock time ``at``: (year, its start, the next's start)."""
    year = dt.datetime.fromtimestamp(at, dt.UTC).year
    start = dt.datetime(year, 1, 1, tzinfo=dt.UTC).timestamp()
    return year, start, dt.datetime(year + 1, 1, 1, tzinfo=dt.UTC).timestamp()


def days_words(seconds: float) -> str:
    """A length as people say it: hours under a day, else days to a tenth (in the current
    language)."""
    if 0 < seconds < DAY:
        hours = max(1, round(seconds / 3600))
        return ngettext("{n} hour", "{n} hours", hours).format(n=hours)
    days = round(seconds / DAY, 1)
    count = int(days) if days == int(days) else 2  # 2: a fraction reads plural
    return ngettext("{n} day", "{n} days", count).format(n=number_words(days))


def when_words(at: float) -> str:
    """A clock time as every surface can show it: ``2026-03-14 10:00 UTC``.

    >>> when_words(1_700_000_000.0)
    '2023-11-14 22:13 UTC'
    """
    return dt.datetime.fromtimestamp(at, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


@dataclass(frozen=True)
class VacationStatus:
    """A player's vacation as of now: ``until`` is set while they are away (when it ends by
    itself); ``used`` and ``allowance`` are seconds of ``year`` (the UTC calendar year)."""

    player: Player
    until: float | None
    started_at: float | None
    used: float
    allowance: float
    year: int

    @property
    def away(self) -> bool:
        return self.until is not None

    @property
    def left(self) -> float:
        return max(0.0, self.allowance - self.used)

    def words(self) -> str:
        """The status in the words every surface uses (in the current language)."""
        head = (
            _(
                "You are on vacation until {when} (or until you move or end it): your clocks "
                "stand still and you get no reminders."
            ).format(when=when_words(self.until))
            if self.until is not None
            else _("You are not on vacation.")
        )
        # TRANSLATORS: {used}, {allowance} and {left} are lengths: "2.5 days", "5 hours".
        used = _("Vacation used in {year}: {used} of {allowance}; {left} left.").format(
            year=self.year,
            used=days_words(self.used),
            allowance=days_words(self.allowance),
            left=days_words(self.left),
        )
        return f"{head} {used}"


@dataclass(eq=False, kw_only=True)
class Vacations:
    """Starting and ending vacations, and who is away now."""

    schedule_store: ScheduleStore
    clock: Callable[[], float]
    players: Players
    games: Games
    # It ends vacations first in every tick, says who is away to the clocks and on the
    # boards (Hooks.tick_first, is_away, decorate).
    hooks: Hooks

    def __post_init__(self) -> None:
        self.hooks.tick_first.subscribe(self.tick)
        self.hooks.is_away.subscribe(self.is_away)
        self.hooks.decorate.subscribe(self.decorate)
        self.away: dict[int, float] = {}  # player id -> when their vacation ends by itself
        self._begun: dict[int, float] = {}  # vacations begun here since the last read

    # -- what players ask ----------------------------------------------------------------------

    async def start(self, player: Player, days: int | None = None) -> VacationStatus:
        """``player`` goes on vacation now, for ``days`` (1 to the allowance) or until they
        come back. Raises BadRequest (bad days, away already, not a person), NotAllowed (no
        allowance left this year)."""
        if player.is_ai:
            raise errors.BadRequest(_("the AI takes no vacations"))
        if days is not None and (
            isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= ALLOWANCE_DAYS
        ):
            raise errors.BadRequest(
                _("a vacation lasts 1 to {most} days (or until you end it), not '{days}'").format(
                    most=ALLOWANCE_DAYS, days=excerpt(str(days), 20)
                )
            )
        pid = await self.players.pid(player)
        now = self.clock()
        await self._settle(pid, now)
        status = await self._status(player, pid, now)
        if status.until is not None:
            raise errors.BadRequest(
                _(
                    "you are on vacation already, until {when}; end it first to start another"
                ).format(when=when_words(status.until))
            )
        if status.left <= 0:
            raise errors.NotAllowed(
                _(
                    "you have used all {most} vacation days of {year}; the next year's come on "
                    "1 January"
                ).format(most=ALLOWANCE_DAYS, year=status.year)
            )
        next_year = calendar_year(now)[2]
        # past New Year, the new year's allowance carries it on
        ends_at = now + status.left if now + status.left < next_year else next_year + ALLOWANCE
        if days is not None:
            ends_at = min(ends_at, now + days * DAY)
        if not await self.schedule_store.start_vacation(pid, now, ends_at):
            raise errors.BadRequest(_("you are on vacation already; end it first to start another"))
        self.away[pid] = self._begun[pid] = ends_at
        log.info("vacation until %s", when_words(ends_at), extra={"player": str(player)})
        return await self._status(player, pid, now)

    async def stop(self, player: Player) -> VacationStatus:
        """``player`` is back: their clocks run again, each deadline moved on by the time the
        clock stood still in that turn. Raises BadRequest when they are not away."""
        pid = await self.players.pid(player)
        found = await self.schedule_store.open_vacations(pid)
        if not found:
            self.away.pop(pid, None)
            raise errors.BadRequest(_("you are not on vacation"))
        await self._end(found[0], self.clock())
        return await self._status(player, pid, self.clock())

    async def status(self, player: Player) -> VacationStatus:
        """Whether ``player`` is away, until when, and their allowance this year."""
        pid, now = await self.players.pid(player), self.clock()
        await self._settle(pid, now)
        return await self._status(player, pid, now)

    async def moved(self, player: Player) -> None:
        """``player`` moved (by their own hand): a vacation of theirs ends now."""
        pid = self.players.known(player)
        if pid is None or pid not in self.away:
            return
        for vacation in await self.schedule_store.open_vacations(pid):
            await self._end(vacation, self.clock())

    # -- the clock -----------------------------------------------------------------------------

    async def tick(self) -> None:
        """Read who is away again, and end the vacations whose time has come (at that time,
        not now: the clocks stood still until then). Runs first in every tick."""
        now = self.clock()
        away: dict[int, float] = {}
        self._begun = {}
        for vacation in await self.schedule_store.open_vacations():
            if vacation.ends_at <= now:
                await self._end(vacation, vacation.ends_at)
            else:
                away[vacation.player_id] = vacation.ends_at
        self.away = {**away, **self._begun}  # and those begun here while it read

    refresh = tick  # at start-up, what the database says

    def is_away(self, player_id: int) -> bool:
        """Whether the player (a database id) is on vacation: their clocks stand still."""
        return player_id in self.away

    def decorate(self, view: GameView) -> GameView:
        """``view`` with its players who are away (``GameView.away``)."""
        if not self.away or view.is_over:
            return view
        away = []
        for player in dict.fromkeys((view.south, view.north)):
            pid = self.players.known(player)
            if pid is not None and pid in self.away:
                away.append(Away(player, self.away[pid]))
        return replace(view, away=tuple(away)) if away else view

    # -- inside --------------------------------------------------------------------------------

    async def _end(self, vacation: VacationRecord, at: float) -> None:
        """End a vacation at ``at`` (once: the store's compare-and-set), its player's
        deadlines moved on in the same transaction."""
        moved = await self.schedule_store.end_vacation(vacation, at)
        self.away.pop(vacation.player_id, None)
        self._begun.pop(vacation.player_id, None)
        for game_id in moved or ():
            self.games.live.drop(game_id)  # its deadlines moved: read it again
        if moved is not None:
            log.info(
                "vacation ended after %s; %d deadlines moved",
                days_words(at - vacation.started_at),
                len(moved),
                extra={"player_id": vacation.player_id},
            )

    async def _settle(self, pid: int, now: float) -> None:
        """End the player's vacation if its time has come (before the tick does)."""
        for vacation in await self.schedule_store.open_vacations(pid):
            if vacation.ends_at <= now:
                await self._end(vacation, vacation.ends_at)

    async def _status(self, player: Player, pid: int, now: float) -> VacationStatus:
        year, start, end = calendar_year(now)
        used = 0.0
        until = started = None
        for vacation in await self.schedule_store.vacations_since(pid, start):
            stop = vacation.ended_at
            if stop is None:
                until, started = vacation.ends_at, vacation.started_at
                stop = min(now, vacation.ends_at)
            used += max(0.0, min(stop, end) - max(vacation.started_at, start))
        return VacationStatus(player, until, started, used, ALLOWANCE, year)
