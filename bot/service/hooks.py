"""The service's internal hooks: every way one part of the service reacts to another, named
and typed in one place, in the spirit of an event bus.

A part that reacts gets the ``Hooks`` in its constructor and subscribes itself there; a part
that emits calls the hook. No part is handed another's callback after it is built, and no part
imports the parts that react to it. ``GameService`` makes one ``Hooks`` and passes it to each
part, so reactions run in the order the parts subscribe: the order ``GameService`` builds
them in (its constructor says which comes first where it matters).

Five shapes, after what the emitter wants back:

- ``Signal``: news, told to each subscriber in turn; each must only schedule work (the
  emitter may hold a game's lock);
- ``Work``: coroutines awaited one after the other (a tick's steps);
- ``Check``: a question; yes if any subscriber says yes (no subscriber: no);
- ``AsyncCheck``: the same, asked of coroutines, stopping at the first yes;
- ``Transform``: a value passed through each subscriber in turn (no subscriber: unchanged);

and ``PerSurface``, where a surface (through ``GameService``) registers what the service asks
of it, one for each surface.

>>> told = Signal[int]()
>>> told.subscribe(lambda game_id: print("game", game_id))
>>> told.emit(7)
game 7
>>> away = Check[int]()
>>> away(3)
False
>>> away.subscribe(lambda player_id: player_id == 3)
>>> away(3), away(4)
(True, False)
>>> shout = Transform[str]()
>>> shout.subscribe(str.upper)
>>> shout.subscribe(lambda text: text + "!")
>>> shout("hi")
'HI!'
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from bot.service.events import Event
from bot.service.tournament_views import PlaceMaker
from bot.service.types import GameView

T = TypeVar("T")
F = TypeVar("F")


class Subscribers(Generic[F]):
    """The reactions to a hook, in the order they subscribed."""

    def __init__(self) -> None:
        self._reactions: list[F] = []

    def subscribe(self, reaction: F) -> None:
        self._reactions.append(reaction)

    def unsubscribe(self, reaction: F) -> None:
        """Stop asking ``reaction`` (tests that want a part deaf to the hook)."""
        self._reactions.remove(reaction)

    @property
    def subscribers(self) -> tuple[F, ...]:
        return tuple(self._reactions)


class Signal(Subscribers[Callable[[T], None]]):
    """News of a ``T``: each subscriber is called with it, in the order they subscribed."""

    def emit(self, value: T) -> None:
        for reaction in self._reactions:
            reaction(value)


class Work(Subscribers[Callable[[], Awaitable[None]]]):
    """Steps of work awaited one after the other, in the order they subscribed."""

    async def run(self) -> None:
        for step in self._reactions:
            await step()


class Check(Subscribers[Callable[[T], bool]]):
    """A yes-or-no question about a ``T``: yes if any subscriber says so."""

    def __call__(self, value: T) -> bool:
        return any(answer(value) for answer in self._reactions)


class AsyncCheck(Subscribers[Callable[[T], Awaitable[bool]]]):
    """A yes-or-no question about a ``T`` that takes a coroutine to answer: yes if any
    subscriber says so (asked in the order they subscribed, until one does)."""

    async def __call__(self, value: T) -> bool:
        for answer in self._reactions:
            if await answer(value):
                return True
        return False


class Transform(Subscribers[Callable[[T], T]]):
    """A ``T`` passed through each subscriber in the order they subscribed."""

    def __call__(self, value: T) -> T:
        for step in self._reactions:
            value = step(value)
        return value


class PerSurface(Generic[F]):
    """One ``F`` for each surface that registered one (a later one replaces it)."""

    def __init__(self) -> None:
        self._by_surface: dict[str, F] = {}

    def register(self, surface: str, provider: F) -> None:
        self._by_surface[surface] = provider

    def get(self, surface: str) -> F | None:
        return self._by_surface.get(surface)


@dataclass(eq=False)
class Hooks:
    """Every reaction of one part of the service to another. Each hook says who emits it and
    who reacts (in the order ``GameService`` builds the parts)."""

    ai_turn_due: Signal[int] = field(default_factory=Signal)
    """The AI is to move in a game (its id). Emitted by ``Announcer.after_change`` after a
    change that leaves it the AI's turn, and by ``Deadlines.tick`` for a game whose AI turn
    a stopped process left. ``AITurns.schedule`` reacts: the AI moves in the background."""

    game_over: Signal[int] = field(default_factory=Signal)
    """A game (its id) ended, just committed. Emitted by ``Games.commit`` with the game's lock
    held. ``Tournaments.game_over`` reacts: a tournament's game moves the tournament on, in
    the background."""

    moved: Signal[GameView] = field(default_factory=Signal)
    """A move was made (the game after it), after its announcement. Emitted by
    ``Announcer.after_change``. ``Premoves.after_move`` reacts: the player to move may have
    a conditional move ready, played in the background."""

    tick_first: Work = field(default_factory=Work)
    """Work each clock tick does before its own (expiries, reminders, forfeits). Run by
    ``Deadlines.tick``. ``Vacations.tick`` reacts: vacations whose time came end, and who is
    away is read again, before anyone's clock is looked at."""

    tick_after: Work = field(default_factory=Work)
    """Work each clock tick does after its own. Run by ``Deadlines.tick``. Reacting, in this
    order: ``Tournaments.tick`` (tournaments start and move on), ``Digests.tick`` (the daily
    digests that are due go out)."""

    is_away: Check[int] = field(default_factory=Check)
    """Whether a player (a database id) is on vacation: their clock stands still, no
    reminder, no forfeit. Asked by ``Deadlines`` of the player to move. ``Vacations.is_away``
    answers."""

    decorate: Transform[GameView] = field(default_factory=Transform)
    """What every game view handed out gets added as of now (cached snapshots stay as
    committed). Applied by ``Games.view`` and ``Games.get``. ``Vacations.decorate`` adds who
    is away (``GameView.away``)."""

    held_back: AsyncCheck[Event] = field(default_factory=AsyncCheck)
    """Whether an event is held back from its recipient. Asked by ``Announcer`` before each
    delivery. ``Digests.held_back`` answers: an opponent's move waits for the daily digest
    of a player who reads one."""

    place_for_game: PerSurface[PlaceMaker] = field(default_factory=PerSurface)
    """Where a tournament's game is played, by the surface of the tournament's place.
    Registered by a surface through ``GameService.add_place_maker`` (Discord: a thread of the
    tournament's channel); asked by ``Tournaments`` as it creates a round's games (none
    registered: the game gets a place of its own)."""
