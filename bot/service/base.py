"""What every part of the game service shares: its state, players, and the one way to read,
change and announce a game. ``GameService`` (``bot.service.core``) is this plus the parts.

How a change is made, in every part: under ``self._locked(game_id)``, ``live = await
self._load(game_id)``; check who may act; ``await self._commit(live, changes, ...)`` (a
compare-and-set on the ply: ``StaleMove`` if another move or process came first); ``view =
await self._view(live)``; then, outside the lock, ``self._after_change(view, ...)`` or
``self._notify(...)`` tells the players (and lets the AI move).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Callable

from engine import Outcome, Ruleset, RulesetError, excerpt

from bot.service import errors
from bot.service.ai import AIPool, known_levels
from bot.service.events import Event, GameOver, MoveMade, Notifier
from bot.service.live import LiveCache, LiveGame
from bot.service.ratings import updated_rows
from bot.service.types import SURFACES, GameView, Player

log = logging.getLogger(__name__)
# What another process may have changed in a game row since we cached it.
CHANGING_COLUMNS = ("ply", "status", "board", "mover", "offer_kind", "offer_by", "reminded_at")


def other_side(side: str) -> str:
    """The opponent's side: ``other_side("south")`` is "north"."""
    return "north" if side == "south" else "south"


MAX_ID = 2**63 - 1  # the database's ids are signed 64-bit
MAX_PLAYER_ID = 320  # an email address is at most 254 characters, a Discord id 20


def known_id(value, kind: str = "game") -> int:
    """``value`` if it can be the id of a stored ``kind``, else NotFound (an id past the
    database's range, a negative one or not a number at all names nothing stored)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ID:
        return value
    raise errors.NotFound(f"there is no {kind} '{excerpt(value)}'")


def parse_rules(text: str) -> Ruleset:
    """The engine's Ruleset, or BadRules with the engine's message (what is accepted)."""
    try:
        return Ruleset.parse(text)
    except RulesetError as err:
        raise errors.BadRules(str(err)) from None


class ServiceBase:
    """The shared state and steps. Each part of the service (challenges, play, AI turns,
    deadlines, looking) is a subclass of this; ``GameService`` combines them, so the parts call
    each other's methods through ``self`` (``_after_change`` asks for an AI turn, for one)."""

    def __init__(self, store, clock: Callable[[], float], ai: AIPool):
        """Use ``await GameService.open(path)``; this only wires the parts together."""
        self._store = store
        self._clock = clock
        self._ai = ai
        self._notifiers: dict[str, Notifier] = {}
        self._player_ids: dict[Player, int] = {}
        self._players: dict[int, Player] = {}
        self._live = LiveCache()
        self._cache_ttl = 1.0
        self._locks: dict[int, list] = {}  # game id -> [lock, users]
        self._ratings_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task] = set()
        self._ai_games: set[int] = set()  # games with an AI turn task running
        self._ticker: asyncio.Task | None = None
        self._closed = False

    def _spawn(self, coro, name: str) -> None:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _check_open(self) -> None:
        if self._closed:
            raise errors.ServiceClosed("the game service is shutting down; try again shortly")

    # -- players ------------------------------------------------------------------------------

    def _check_player(self, player: Player) -> None:
        if not isinstance(player, Player):
            raise errors.BadRequest(f"not a player: {excerpt(repr(player))}")
        if player.surface not in SURFACES and player.surface not in self._notifiers:
            raise errors.BadRequest(f"unknown surface '{excerpt(player.surface)}'; players are "
                                    f"on: {', '.join(SURFACES)}")
        if not (isinstance(player.id, str) and 0 < len(player.id) <= MAX_PLAYER_ID
                and player.id.isprintable()):
            raise errors.BadRequest(f"a player needs an id on their surface: 1 to "
                                    f"{MAX_PLAYER_ID} printable characters")
        if player.is_ai and player.id not in known_levels():
            raise errors.BadRequest(f"unknown AI level '{excerpt(player.id)}'; levels are: "
                                    f"{', '.join(known_levels())}")

    async def _pid(self, player: Player) -> int:
        pid = self._player_ids.get(player)
        if pid is None:
            self._check_player(player)
            pid = await self._store.player_id(player.surface, player.id, self._clock())
            self._player_ids[player] = pid
            self._players[pid] = player
        return pid

    async def _player(self, pid: int) -> Player:
        player = self._players.get(pid)
        if player is None:
            row = await self._store.player(pid)
            player = Player(row["surface"], row["external_id"])
            self._players[pid] = player
            self._player_ids[player] = pid
        return player

    async def set_display_name(self, player: Player, name: str) -> None:
        """Remember how to call a player (shown on leaderboards). Raises BadRequest for an
        unknown surface or an unknown AI level."""
        name = excerpt(str(name)[:1000], 64)  # printable, one line: names reach every surface
        if not name:
            raise errors.BadRequest("a display name cannot be empty")
        await self._store.set_display_name(await self._pid(player), name)

    async def display_name(self, player: Player) -> str:
        """The player's display name, or a readable default ("AI (hard)", the address...)."""
        if player.is_ai:
            return f"AI ({player.id})"
        row = await self._store.player(await self._pid(player))
        return (row and row["display_name"]) or player.id

    # -- loading and changing games -----------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _locked(self, game_id: int):
        game_id = known_id(game_id)  # before it becomes a key: it may be anything a surface sent
        entry = self._locks.get(game_id)
        if entry is None:
            entry = self._locks[game_id] = [asyncio.Lock(), 0]
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0:
                del self._locks[game_id]

    async def _load(self, game_id: int, fresh: bool = False) -> LiveGame:
        """The game, from the cache when it still matches the file. Another process on the
        same file (``mancala mail`` beside ``mancala bot``) may have moved: a cached game is
        checked against its row when older than ``cache_ttl`` seconds, or when ``fresh``."""
        game_id = known_id(game_id)
        live = self._live.get(game_id)
        if live is not None:
            if not fresh and time.monotonic() - live.checked_at < self._cache_ttl:
                return live
            row = await self._store.game(game_id)
            if row is not None and all(row[k] == live.row[k] for k in CHANGING_COLUMNS):
                live.checked_at = time.monotonic()
                return live
            self._live.drop(game_id)
        row, moves = await self._store.game_with_moves(game_id)
        if row is None:
            raise errors.NotFound(f"there is no game #{game_id}")
        live = LiveGame.build(row, moves, await self._player(row["south_id"]),
                              await self._player(row["north_id"]), Ruleset.parse(row["rules"]))
        live.checked_at = time.monotonic()
        self._live.put(live)
        return live

    async def _view(self, live: LiveGame) -> GameView:
        """The game as committed; call with the game's lock held (or from its snapshot)."""
        if live.snapshot is None:
            by = await self._player(live.row["offer_by"]) if live.row["offer_by"] else None
            live.snapshot = live.view(by)
        return live.snapshot

    async def get_game(self, game_id: int) -> GameView:
        """A game by id. Raises NotFound."""
        live = self._live.get(known_id(game_id))
        if live is not None and live.snapshot is not None \
                and time.monotonic() - live.checked_at < self._cache_ttl:
            return live.snapshot  # never shows a move whose commit is still in flight
        async with self._locked(game_id):
            return await self._view(await self._load(game_id))

    async def _player_of(self, live: LiveGame, by: Player) -> str:
        side = live.side_of(by)
        if side is None:
            raise errors.NotAllowed(f"you are not playing in game #{live.row['id']}")
        return side

    async def _player_in_active_game(self, live: LiveGame, by: Player) -> str:
        """``by``'s side in a game that is still going on (NotAllowed, GameFinished)."""
        side = await self._player_of(live, by)
        if live.row["status"] != "active":
            raise errors.GameFinished(f"game #{live.row['id']} is over already")
        return side

    async def _commit(self, live: LiveGame, changes: dict, move: dict | None = None,
                      ratings=(), take_back_to: int | None = None) -> None:
        """Write ``changes`` (and a move, or a take-back) if nobody changed the game since we
        read it; else drop our copy and say so."""
        game_id, ply = live.row["id"], live.row["ply"]
        if move is not None:
            ok = await self._store.record_move(game_id, ply, move, changes, ratings)
            changes = {**changes, "ply": ply + 1}
        elif take_back_to is not None:
            ok = await self._store.take_back(game_id, ply, take_back_to, changes)
            changes = {**changes, "ply": take_back_to}
        else:
            ok = await self._store.update_game(game_id, ply, changes, ratings)
        if not ok:
            self._live.drop(game_id)
            raise errors.StaleMove("the game changed meanwhile (another move or session); "
                                   "look at the board again and retry")
        live.row.update(changes)
        live.snapshot = None

    async def _finish_fields(self, live: LiveGame, outcome: Outcome) -> tuple:
        """The changes that end a game, and the rating rows to write with them."""
        now = self._clock()
        winner, score = outcome.winner, outcome.score
        changes = dict(status="over", result_reason=outcome.words,
                       result_termination=outcome.termination.value, result_by=outcome.by,
                       result_ply=outcome.ply, result_winner=winner,
                       score_south=score[0], score_north=score[1], ended_at=now,
                       offer_kind=None, offer_by=None, offer_ply=None, remind_at=None,
                       forfeit_at=None)
        ratings = ()
        row = live.row
        if row["rated"] and row["south_id"] != row["north_id"]:
            # Serialised so two games ending at once for one player both count.
            async with self._ratings_lock:
                ratings = updated_rows(row["rules"], row["south_id"], row["north_id"], winner,
                                       await self._store.rating(row["south_id"], row["rules"]),
                                       await self._store.rating(row["north_id"], row["rules"]))
        return changes, ratings

    # -- telling the players ------------------------------------------------------------------

    def _after_change(self, view: GameView, actor: Player | None = None,
                      move: str | None = None, schedule_ai: bool = True,
                      by: Player | None = None) -> None:
        """Tell the players (``actor`` is answered by the return value instead; ``by`` made
        ``move``, the actor unless the AI did), and let the AI move if it is its turn."""
        humans = [view.south, view.north]
        if move is not None:
            mover = by or actor
            self._notify(humans, lambda who: MoveMade(who, view, move, mover), actor=actor)
        if view.is_over:
            self._notify(humans, lambda who: GameOver(who, view), actor=actor)
        elif view.to_move.is_ai and schedule_ai:
            self._schedule_ai(view.id)

    def _notify(self, recipients, make: Callable[[Player], Event],
                actor: Player | None = None) -> None:
        seen = set()
        for who in recipients:
            if who is None or who.is_ai or who == actor or who in seen:
                continue
            seen.add(who)
            notifier = self._notifiers.get(who.surface)
            if notifier is not None:
                self._spawn(self._deliver(notifier, make(who)), name="notify")

    @staticmethod
    async def _deliver(notifier: Notifier, event: Event) -> None:
        try:
            await notifier.notify(event)
        except Exception:
            log.exception("delivering %s to %s failed", type(event).__name__, event.recipient)
