"""What the service tells players, and the interface a surface implements to hear it.

The service sends each event to every human player it concerns, except the player whose own
request caused it (that player gets the method's return value instead). Events caused by the
AI or the clock (an AI move, a reminder, a forfeit, an expired challenge) go to every human
player concerned. The event reaches the ``Notifier`` registered for the recipient's surface,
so one game can have players on different surfaces. Delivery runs in background tasks: a slow
or failing surface never delays or breaks a move (failures are logged).

A surface subclasses ``Notifier`` and overrides the ``on_*`` methods it cares about:

>>> import asyncio
>>> from bot.service.events import Notifier, Reminder
>>> class Printer(Notifier):
...     async def on_reminder(self, event):
...         print(f"tell {event.recipient}: your move in game {event.game.id}")
>>> # service.add_notifier("discord", Printer())
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from bot.service.tournament_views import Pairing, Standing, TournamentView
from bot.service.types import Challenge, GameView, Player


@dataclass(frozen=True)
class Event:
    """Base of all events; ``recipient`` is the player to tell."""

    recipient: Player


@dataclass(frozen=True)
class ChallengeReceived(Event):
    """Someone challenged the recipient."""

    challenge: Challenge


@dataclass(frozen=True)
class ChallengeAnswered(Event):
    """A challenge the recipient made or received was accepted, declined, cancelled or expired
    (``challenge.status``); when accepted, ``game`` is the new game."""

    challenge: Challenge
    game: GameView | None = None


@dataclass(frozen=True)
class MoveMade(Event):
    """A move was played: ``game`` is the game after it (``game.board()`` for the picture).
    ``answering`` is set for a conditional move the service played for ``by``: the
    opponent's move (or moves, space-separated) it answered (bot.service.premoves)."""

    game: GameView
    move: str
    by: Player
    answering: str | None = None


@dataclass(frozen=True)
class OfferMade(Event):
    """The opponent offers a draw, an agreed end, or asks to take back a move (``kind``)."""

    game: GameView
    kind: str
    by: Player


@dataclass(frozen=True)
class OfferAnswered(Event):
    """An offer the recipient made was accepted or declined; ``game`` is the game after it."""

    game: GameView
    kind: str
    accepted: bool
    by: Player


@dataclass(frozen=True)
class GameOver(Event):
    """The game ended: ``game.outcome`` says why and who won."""

    game: GameView


@dataclass(frozen=True)
class Forfeit(GameOver):
    """The game ended because ``loser`` did not move in time (a kind of GameOver)."""

    loser: Player


@dataclass(frozen=True)
class PlayerLeft(GameOver):
    """The game ended because ``leaver`` resigned every game at once on leaving the bot
    (they said ``stop`` to its mail: ``bot.service.mail_stops``); a kind of GameOver."""

    leaver: Player


@dataclass(frozen=True)
class Reminder(Event):
    """The recipient has not moved for ``idle_seconds``; the game is forfeited at
    ``forfeit_at`` (a clock time) unless they move, or never when it is None."""

    game: GameView
    idle_seconds: float
    forfeit_at: float | None


@dataclass(frozen=True)
class DigestDue(Event):
    """The recipient's daily digest (bot.service.digests): ``games``, each game where it is
    their move, as it stands; ``day`` numbers the digest (days since 1970-01-01, UTC)."""

    games: tuple[GameView, ...]
    day: int


@dataclass(frozen=True)
class LinkRequested(Event):
    """``asked_by`` asks to link their player with the recipient's account (a mail address):
    the recipient links them by sending ``code`` back from that account before ``expires_at``
    (bot.service.identities)."""

    code: str
    asked_by: Player
    expires_at: float


class TournamentNewsKind(StrEnum):
    """What happened in a tournament (``TournamentNews.kind``)."""

    JOINED = "joined"  # ``player`` joined (told in the place)
    WITHDRAWN = "withdrawn"  # ``player`` withdrew (told in the place)
    ROUND_STARTED = "round started"  # ``round`` began: ``pairings``, ``standings`` before it
    FINISHED = "finished"  # the final ``standings``
    CANCELLED = "cancelled"  # an organiser cancelled it, or too few players came


@dataclass(frozen=True)
class TournamentNews(Event):
    """News of a tournament the recipient plays in (``pairing`` is then theirs in the round,
    None for a player resting), or, when ``in_place``, news to post in the tournament's
    place (``tournament.place``, a Discord channel; the recipient is its creator, on the
    place's surface). An arena's waves are told only to the players paired. ``game``: the
    recipient's game of the round, as it starts."""

    tournament: TournamentView
    kind: TournamentNewsKind
    round: int = 0
    pairing: Pairing | None = None
    pairings: tuple[Pairing, ...] = ()
    standings: tuple[Standing, ...] = ()
    player: Player | None = None
    in_place: bool = False
    game: GameView | None = None


E = TypeVar("E", bound="Event")


class Notifier:
    """A surface's receiver of events. Override the ``on_*`` methods you need; the defaults do
    nothing (``on_forfeit`` and ``on_player_left`` fall back to ``on_game_over``). Or override ``notify`` to get every
    event in one place."""

    async def notify(self, event: Event) -> None:
        handlers: dict[type[Event], Callable[[Any], Awaitable[None]]] = {
            ChallengeReceived: self.on_challenge,
            ChallengeAnswered: self.on_challenge_answered,
            MoveMade: self.on_move,
            OfferMade: self.on_offer,
            OfferAnswered: self.on_offer_answered,
            Forfeit: self.on_forfeit,
            PlayerLeft: self.on_player_left,
            GameOver: self.on_game_over,
            Reminder: self.on_reminder,
            TournamentNews: self.on_tournament,
            DigestDue: self.on_digest,
            LinkRequested: self.on_link_requested,
        }
        handler = handlers.get(type(event))
        if handler is not None:
            await handler(event)

    async def refuses_challenge(self, challenger: Player, recipient: Player) -> str | None:
        """Why this surface will not deliver a challenge from ``challenger`` to ``recipient``
        (one of its players), or None. Asked before the challenge is made; the mail surface
        limits challenges to addresses that never wrote to the bot, so nobody can make it
        mail strangers (``bot.mail.reply_limits``). Default: every challenge is delivered."""
        return None

    async def on_challenge(self, event: ChallengeReceived) -> None: ...

    async def on_challenge_answered(self, event: ChallengeAnswered) -> None: ...

    async def on_move(self, event: MoveMade) -> None: ...

    async def on_offer(self, event: OfferMade) -> None: ...

    async def on_offer_answered(self, event: OfferAnswered) -> None: ...

    async def on_game_over(self, event: GameOver) -> None: ...

    async def on_forfeit(self, event: Forfeit) -> None:
        await self.on_game_over(event)

    async def on_player_left(self, event: PlayerLeft) -> None:
        await self.on_game_over(event)

    async def on_reminder(self, event: Reminder) -> None: ...

    async def on_tournament(self, event: TournamentNews) -> None: ...

    async def on_digest(self, event: DigestDue) -> None: ...

    async def on_link_requested(self, event: LinkRequested) -> None: ...


class Recorder(Notifier):
    """A notifier that keeps every event in ``events``: for tests and the terminal.

    >>> import asyncio
    >>> from bot.service.types import Player
    >>> rec = Recorder()
    >>> asyncio.run(rec.notify(Event(Player("terminal", "local"))))
    >>> len(rec.events)
    1
    """

    def __init__(self) -> None:
        self.events: list[Event] = []

    async def notify(self, event: Event) -> None:
        self.events.append(event)
        await super().notify(event)

    def of_type(self, kind: type[E]) -> list[E]:
        return [e for e in self.events if isinstance(e, kind)]
