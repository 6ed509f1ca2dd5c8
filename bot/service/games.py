"""The one way every part of the service reads, locks, changes and ends a game.

How a change is made: under ``games.locked(game_id)``, ``live = await games.load(game_id)``;
check who may act; ``await games.commit(live, changes, ...)`` (a compare-and-set on the ply:
``StaleMove`` if another move or process came first); ``view = await games.view(live)``; then,
outside the lock, the ``Announcer`` tells the players (and lets the AI move).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter

from bot.i18n import N_, _
from bot.service import errors
from bot.service.hooks import Hooks
from bot.service.live import LiveCache, LiveGame
from bot.service.players import Players
from bot.service.ratings import family_of, updated_ratings
from bot.service.types import GameView, Player
from engine import Outcome, Ruleset, RulesetError, Side, excerpt
from storage import StorageError
from storage.records import GameChanges, GameStatus, NewMove, RatingRecord
from storage.stores.games import GameStore
from storage.stores.ratings import RatingStore

# What another process may have changed in a game since we cached it (its players too: a
# player linked to another is that one from then on, bot.service.identities).
_CHANGING = attrgetter(
    "south_id",
    "north_id",
    "ply",
    "status",
    "board",
    "mover",
    "offer_kind",
    "offer_by",
    "reminded_at",
    "forfeit_at",
    "premoves",
)  # and the deadline: a vacation's end moves it
MAX_ID = 2**63 - 1  # the database's ids are signed 64-bit
NO_OFFER: GameChanges = {"offer_kind": None, "offer_by": None, "offer_ply": None}
_NO_SUCH = {  # by the kind of thing an id names
    "game": N_("there is no game '{id}'"),
    "challenge": N_("there is no challenge '{id}'"),
    "tournament": N_("there is no tournament '{id}'"),
}


def known_id(value: object, kind: str = "game") -> int:
    """``value`` if it can be the id of a stored ``kind`` (game, challenge, tournament),
    else NotFound (an id past the database's range, a negative one or not a number at all
    names nothing stored)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ID:
        return value
    raise errors.NotFound(_(_NO_SUCH.get(kind, _NO_SUCH["game"])).format(id=excerpt(value)))


def parse_rules(text: str) -> Ruleset:
    """The engine's Ruleset, or BadRules with the engine's message (what is accepted)."""
    try:
        return Ruleset.parse(text)
    except RulesetError as err:
        raise errors.BadRules(str(err)) from None


@dataclass(frozen=True)
class Ending:
    """What ends a game: the changes to its record and the ratings written with them."""

    changes: GameChanges
    ratings: Sequence[RatingRecord] = ()


@dataclass(eq=False)
class _GameLock:
    lock: asyncio.Lock
    users: int = 0  # coroutines holding or waiting for it; at 0 the entry goes


class Games:
    """Games as the store holds them, cached in memory and locked one change at a time."""

    def __init__(
        self,
        *,
        game_store: GameStore,
        rating_store: RatingStore,
        clock: Callable[[], float],
        players: Players,
        hooks: Hooks,
        cache_ttl: float = 1.0,
    ):
        self._game_store = game_store
        self._rating_store = rating_store
        # Told each game that ends, after its commit (Hooks.game_over); adds what every view
        # handed out shows as of now (Hooks.decorate).
        self._hooks = hooks
        self._clock = clock
        self._players = players
        self.cache_ttl = cache_ttl
        # True while the database tells this process of every other process's change
        # (PostgreSQL): a cached game is then current without a read.
        self.told_of_changes = False
        self.notifications_lost = False  # they were on, and the database stopped sending them
        self.live = LiveCache()
        self._locks: dict[int, _GameLock] = {}
        self._ratings_lock = asyncio.Lock()

    async def listen(self) -> None:
        """Where the database says when other processes change a game (PostgreSQL), forget a
        cached game at once, and use it without a read until then; elsewhere a cached game is
        checked against the database after ``cache_ttl`` seconds."""
        self.told_of_changes = await self._game_store.watch(self.changed_elsewhere)

    async def listen_again(self) -> None:
        """Listen again if the database stopped telling (its server restarted); a database
        still out of reach is tried again at the next tick."""
        if self.notifications_lost:
            with contextlib.suppress(StorageError):
                await self.listen()
                self.notifications_lost = not self.told_of_changes

    def changed_elsewhere(self, game_id: int | None) -> None:
        """Another process changed a game (None: any game may have changed, and the database
        will no longer say): forget what we hold."""
        if game_id is None:
            self.told_of_changes = False
            self.notifications_lost = True
            self.live.clear()
        else:
            self.live.drop(game_id)

    def _current(self, live: LiveGame) -> bool:
        """Whether a cached game can be used without asking the database."""
        return self.told_of_changes or time.monotonic() - live.checked_at < self.cache_ttl

    @contextlib.asynccontextmanager
    async def locked(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game's lock: changes to one game happen one at a time in this process
        (the ply compare-and-set in ``commit`` orders them across processes)."""
        game_id = known_id(game_id)  # before it becomes a key: it may be anything a surface sent
        entry = self._locks.get(game_id)
        if entry is None:
            entry = self._locks[game_id] = _GameLock(asyncio.Lock())
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._locks[game_id]

    async def load(self, game_id: int, fresh: bool = False) -> LiveGame:
        """The game, from the cache when it still matches the file. Another process on the
        same file (``mancala mail`` beside ``mancala bot``) may have moved: a cached game is
        checked against its row when older than ``cache_ttl`` seconds, or when ``fresh``."""
        game_id = known_id(game_id)
        live = self.live.get(game_id)
        if live is not None:
            if not fresh and self._current(live):
                return live
            record = await self._game_store.get(game_id)
            if record is not None and _CHANGING(record) == _CHANGING(live.record):
                live.checked_at = time.monotonic()
                return live
            self.live.drop(game_id)
        found, moves = await self._game_store.with_moves(game_id)
        if found is None:
            raise errors.NotFound(_("there is no game #{id}").format(id=game_id))
        live = LiveGame.build(
            found,
            moves,
            await self._players.player(found.south_id),
            await self._players.player(found.north_id),
            Ruleset.parse(found.rules),
        )
        live.checked_at = time.monotonic()
        self.live.put(live)
        return live

    async def view(self, live: LiveGame) -> GameView:
        """The game as committed; call with the game's lock held (or from its snapshot)."""
        if live.snapshot is None:
            offer_by = live.record.offer_by
            by = await self._players.player(offer_by) if offer_by else None
            live.snapshot = live.view(by)
        return self._hooks.decorate(live.snapshot)

    async def get(self, game_id: int) -> GameView:
        """A game by id. Raises NotFound."""
        live = self.live.get(known_id(game_id))
        if live is not None and live.snapshot is not None and self._current(live):
            return self._hooks.decorate(live.snapshot)  # never a move whose commit is in flight
        async with self.locked(game_id):
            return await self.view(await self.load(game_id))

    @staticmethod
    def side_of(live: LiveGame, by: Player) -> Side:
        """``by``'s side in the game (NotAllowed if not a player of it)."""
        side = live.side_of(by)
        if side is None:
            raise errors.NotAllowed(_("you are not playing in game #{id}").format(id=live.id))
        return side

    def side_in_active_game(self, live: LiveGame, by: Player) -> Side:
        """``by``'s side in a game that is still going on (NotAllowed, GameFinished)."""
        side = self.side_of(live, by)
        if not live.record.is_active:
            raise errors.GameFinished(_("game #{id} is over already").format(id=live.id))
        return side

    async def commit(
        self,
        live: LiveGame,
        changes: GameChanges,
        move: NewMove | None = None,
        ratings: Sequence[RatingRecord] = (),
        take_back_to: int | None = None,
    ) -> None:
        """Write ``changes`` (and a move, or a take-back) if nobody changed the game since we
        read it; else drop our copy and say so."""
        game_id, ply = live.id, live.record.ply
        if move is not None:
            ok = await self._game_store.record_move(game_id, ply, move, changes, ratings)
            changes = {**changes, "ply": ply + 1}
        elif take_back_to is not None:
            ok = await self._game_store.take_back(game_id, ply, take_back_to, changes)
            changes = {**changes, "ply": take_back_to}
        else:
            ok = await self._game_store.update(game_id, ply, changes, ratings)
        if not ok:
            self.live.drop(game_id)
            raise errors.StaleMove(
                _(
                    "the game changed meanwhile (another move or session); "
                    "look at the board again and retry"
                )
            )
        live.record = live.record.changed(changes)
        live.snapshot = None
        if changes.get("status") == GameStatus.OVER:
            self._hooks.game_over.emit(game_id)  # with the lock held: it only schedules

    async def ending(self, live: LiveGame, outcome: Outcome) -> Ending:
        """The changes that end a game, and the rating rows to write with them."""
        now = self._clock()
        winner, score = outcome.winner, outcome.score
        changes: GameChanges = {
            "status": GameStatus.OVER,
            "result_reason": outcome.words,
            "result_termination": outcome.termination.value,
            "result_by": Side(outcome.by) if outcome.by else None,
            "result_ply": outcome.ply,
            "result_winner": winner,
            "score_south": score[0],
            "score_north": score[1],
            "ended_at": now,
            "remind_at": None,
            "forfeit_at": None,
            **NO_OFFER,
        }
        record = live.record
        if not record.rated or record.south_id == record.north_id:
            return Ending(changes)
        # Serialised so two games ending at once for one player both count.
        family = family_of(record.rules)
        async with self._ratings_lock:
            ratings = updated_ratings(
                family,
                record.south_id,
                record.north_id,
                winner,
                await self._rating_store.get(record.south_id, family),
                await self._rating_store.get(record.north_id, family),
                now,
            )
        return Ending(changes, ratings)
