"""What a tournament looks like from outside: its time control, its pairings, its standings
and the tournament itself, as the service hands them to surfaces and as its events
(``bot.service.events.TournamentNews``) carry them. ``bot.service.tournaments`` makes and
moves tournaments on; these are its plain values, in a module of their own so the events and
hooks can name them without importing the part that sends them (``bot.service.tournaments``
re-exports them, where surfaces import them from).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.i18n import N_, _, ngettext
from bot.service import errors
from bot.service.types import Channel, Player
from engine import excerpt
from storage.records import (
    Pace,
    PairingKind,
    PairingResult,
    TournamentFormat,
    TournamentStatus,
)

Format = TournamentFormat
__all__ = [
    "Format",
    "Pace",
    "Pairing",
    "PairingKind",
    "PairingResult",
    "PlaceMaker",
    "Standing",
    "TimeControl",
    "TournamentStatus",
    "TournamentView",
    "whole_within",
]

MINUTE, DAY = 60.0, 86400.0
LIVE_MINUTES = (1, 60)  # a live tournament's minutes per move
CORRESPONDENCE_DAYS = (1, 14)  # a correspondence tournament's days per move


@dataclass(frozen=True)
class TimeControl:
    """A tournament's time control: ``live``, minutes per move, or ``correspondence``, days
    per move. Each move has that long: the player to move is reminded (after a third of a
    live move's time; when a day is left of a correspondence move's, as in any game of days
    a move) and forfeits the game when it runs out (``bot.service.deadlines``; the games keep
    no clock for a whole game, so a live tournament's time is per move too).

    >>> str(TimeControl.live(5)), str(TimeControl.correspondence(3))
    ('5 minutes a move', '3 days a move')
    >>> TimeControl.correspondence(15)
    Traceback (most recent call last):
    bot.service.errors.BadRequest: a correspondence tournament gives 1 to 14 days a move, not 15
    """

    pace: Pace
    per_move: int  # minutes (live) or days (correspondence)

    @classmethod
    def live(cls, minutes: object) -> TimeControl:
        return cls(
            Pace.LIVE,
            whole_within(
                minutes,
                LIVE_MINUTES,
                N_("a live tournament gives {low} to {high} minutes a move, not {value}"),
            ),
        )

    @classmethod
    def correspondence(cls, days: object) -> TimeControl:
        return cls(
            Pace.CORRESPONDENCE,
            whole_within(
                days,
                CORRESPONDENCE_DAYS,
                N_("a correspondence tournament gives {low} to {high} days a move, not {value}"),
            ),
        )

    @classmethod
    def of(cls, pace: Pace, seconds: float) -> TimeControl:
        unit = MINUTE if pace is Pace.LIVE else DAY
        return cls(pace, round(seconds / unit))

    @property
    def seconds(self) -> float:
        """Each move's time in seconds."""
        return self.per_move * (MINUTE if self.pace is Pace.LIVE else DAY)

    def __str__(self) -> str:
        """The time control in words, in the current language: "5 minutes a move"."""
        n = self.per_move
        if self.pace is Pace.LIVE:
            return ngettext("{n} minute a move", "{n} minutes a move", n).format(n=n)
        return ngettext("{n} day a move", "{n} days a move", n).format(n=n)


def whole_within(value: object, bounds: tuple[int, int], message: str) -> int:
    """``value`` as a whole number within ``bounds``, else BadRequest with ``message`` (marked
    with ``N_``; its fields are ``{low}``, ``{high}`` and ``{value}``)."""
    low, high = bounds
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or value != int(value)
        or not low <= value <= high
    ):
        raise errors.BadRequest(_(message).format(low=low, high=high, value=excerpt(value)))
    return int(value)


@dataclass(frozen=True)
class Pairing:
    """Board ``board`` of round ``round``: ``south`` (who moves first) against ``north``, or a
    bye when ``north`` is None; ``game_id`` once the game exists (None for a bye or a
    forfeit); ``result`` once known."""

    round: int
    board: int
    south: Player
    north: Player | None
    kind: PairingKind
    game_id: int | None = None
    result: PairingResult | None = None

    def has(self, player: Player) -> bool:
        return player in (self.south, self.north)

    def opponent_of(self, player: Player) -> Player | None:
        return self.north if player == self.south else self.south


@dataclass(frozen=True)
class Standing:
    """A player's line in a tournament's standings (ranked as ``bot.service.pairing.standings``
    says: points, Buchholz, Sonneborn-Berger, rating)."""

    rank: int
    player: Player
    points: float
    buchholz: float
    sonneborn_berger: float
    rating: float
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    withdrawn: bool = False


@dataclass(frozen=True)
class TournamentView:
    """A tournament as stored. ``rounds``: a Swiss's as set, a round robin's from the start
    (0 before), an arena's 0 (it runs ``arena_minutes``); ``current_round``: the round under
    way (an arena's latest wave of pairings). ``place``: the Discord channel its news is
    posted in (None: by mail, each player's inbox); ``server``: the Discord server whose
    admins organise it. ``players``: those still in; ``withdrawn``: those who withdrew."""

    id: int
    name: str
    format: Format
    rules: str
    status: TournamentStatus
    rounds: int
    current_round: int
    time_control: TimeControl
    creator: Player
    place: Channel | None
    server: str | None
    players: tuple[Player, ...]
    withdrawn: tuple[Player, ...]
    created_at: float
    starts_at: float | None = None
    started_at: float | None = None
    ended_at: float | None = None
    arena_minutes: int | None = None

    @property
    def arena_ends_at(self) -> float | None:
        """When an arena stops pairing (None before it starts, and for other formats)."""
        if self.arena_minutes is None or self.started_at is None:
            return None
        return self.started_at + self.arena_minutes * MINUTE


PlaceMaker = Callable[[TournamentView, Pairing], Awaitable[Channel | None]]
"""A surface's maker of a place for one game of a tournament in its place (Discord: a thread
of the tournament's channel), or None to leave the game without one."""
