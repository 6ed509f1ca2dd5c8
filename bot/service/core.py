"""GameService: the one place that decides who may do what. See ``bot.service`` for a usage
example. Every public method is a coroutine; each raises only ``ServiceError`` subclasses on a
user's mistake (their messages are fit to show), and never blocks the event loop.

How it keeps a move exactly-once: moves of one game run one at a time under that game's lock;
the stored ply is compared-and-set in the same transaction that appends to the move log, whose
primary key is (game, ply). A move is acknowledged (the method returns) only after its commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Awaitable, Callable

from engine import Game, IllegalMove as EngineIllegalMove, Ruleset, RulesetError
from storage import ChannelTaken, open_storage

from bot.service import errors
from bot.service.ai import AIPool, known_levels
from bot.service.clock import SystemClock
from bot.service.events import (
    ChallengeAnswered, ChallengeReceived, Event, Forfeit, GameOver, MoveMade, Notifier,
    OfferAnswered, OfferMade, Reminder,
)
from bot.service.live import LiveCache, LiveGame, board_json, options_from_json, options_json
from bot.service.ratings import START, updated_rows
from bot.service.settings import defaults_for
from bot.service.types import (
    SIDES, SURFACES, Challenge, Channel, GameOptions, GameView, Hint, Player, Rating,
)

log = logging.getLogger(__name__)
OFFER_KINDS = ("draw", "end", "undo")
CLOSE_GRACE = 10.0  # seconds close() waits for notifications in flight
HINT_SECONDS = 2.0  # how long the AI thinks about a hint
# What another process may have changed in a game row since we cached it.
CHANGING_COLUMNS = ("ply", "status", "board", "mover", "offer_kind", "offer_by", "reminded_at")


def _other(side: str) -> str:
    return "north" if side == "south" else "south"


def _as_ply(value) -> int | None:
    """An expected ply as a surface may carry it (an int, or digits from a button's id)."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    raise errors.BadRequest(f"the expected move number must be a whole number, not {value!r}")


def _parse_rules(text: str) -> Ruleset:
    try:
        return Ruleset.parse(text)
    except RulesetError as err:
        raise errors.BadRules(str(err)) from None


class GameService:
    """Games, challenges, clocks, AI turns and ratings, on one SQLite file."""

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

    # -- life cycle ---------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path, *, clock: Callable[[], float] | None = None,
                   ai_workers: int = 1, ai_time_limit: float | None = None,
                   tick_every: float | None = 60.0, cache_ttl: float = 1.0) -> GameService:
        """A ready service on the SQLite file at ``path`` (created, or migrated to the current
        schema, keeping all data). ``clock`` returns seconds (default: wall clock; tests pass a
        ``ManualClock``). ``ai_workers`` worker processes run AI searches (started on first
        use). ``tick_every`` seconds a background task runs ``tick()`` (reminders, forfeits,
        expiries); None turns it off (tests call ``tick()`` themselves). Pending AI turns of
        unfinished games resume at once. A game cached in memory is checked against the file
        when older than ``cache_ttl`` seconds, for other processes on the same file."""
        store = await open_storage(path)
        service = cls(store, clock or SystemClock(), AIPool(ai_workers, ai_time_limit))
        service._cache_ttl = cache_ttl
        for row in await store.games_awaiting_ai():
            service._schedule_ai(row["id"])
        if tick_every:
            service._ticker = asyncio.create_task(service._tick_forever(tick_every))
        return service

    async def close(self) -> None:
        """Stop the clock task, wait for AI turns and notifications in flight, close the file.

        AI turns still thinking are abandoned; they resume when the service opens again."""
        if self._closed:
            return
        self._closed = True
        if self._ticker:
            self._ticker.cancel()
        for task in list(self._tasks):
            if task.get_name().startswith("ai-turn"):
                task.cancel()
        if self._tasks:  # notifications get a little while to go out, not forever
            await asyncio.wait(list(self._tasks), timeout=CLOSE_GRACE)
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
        self._ai.close()
        await self._store.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    def add_notifier(self, surface: str, notifier: Notifier) -> None:
        """Route events for players on ``surface`` ("discord", "email", "terminal") to
        ``notifier``. A player whose surface has no notifier simply isn't told."""
        self._notifiers[surface] = notifier

    async def idle(self) -> None:
        """Wait until no AI turn and no notification is in flight (for tests and the
        terminal, which waits for the AI's reply)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _spawn(self, coro, name: str) -> None:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tick_forever(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.tick()
            except Exception:
                log.exception("clock tick failed")

    def _check_open(self) -> None:
        if self._closed:
            raise errors.ServiceClosed("the game service is shutting down; try again shortly")

    # -- players ------------------------------------------------------------------------------

    def _check_player(self, player: Player) -> None:
        if not isinstance(player, Player):
            raise errors.BadRequest(f"not a player: {player!r}")
        if player.surface not in SURFACES and player.surface not in self._notifiers:
            raise errors.BadRequest(
                f"unknown surface '{player.surface}'; players are on: {', '.join(SURFACES)}")
        if not player.id:
            raise errors.BadRequest("a player needs an id on their surface")
        if player.is_ai and player.id not in known_levels():
            raise errors.BadRequest(f"unknown AI level '{player.id}'; levels are: "
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
        name = " ".join(str(name).split())[:64]
        if not name:
            raise errors.BadRequest("a display name cannot be empty")
        await self._store.set_display_name(await self._pid(player), name)

    async def display_name(self, player: Player) -> str:
        """The player's display name, or a readable default ("AI (hard)", the address...)."""
        if player.is_ai:
            return f"AI ({player.id})"
        row = await self._store.player(await self._pid(player))
        return (row and row["display_name"]) or player.id

    # -- challenges ---------------------------------------------------------------------------

    def _resolve_options(self, options: GameOptions | None,
                         players: tuple[Player, ...]) -> GameOptions:
        """Fill unset times from the human players' surfaces (the slower surface's default
        wins, so nobody is hurried by the other's medium); 0 means off."""
        options = options or GameOptions()
        if options.side not in (*SIDES, "random"):
            raise errors.BadRequest(f"side must be south, north or random, not {options.side!r}")
        humans = [p for p in players if not p.is_ai] or list(players)

        def pick(value, attr):
            if value is not None:
                if not isinstance(value, (int, float)) or value < 0:
                    raise errors.BadRequest(f"{attr} must be a number of seconds (0 for never)")
                return float(value) or None
            found = [getattr(defaults_for(p.surface), attr) for p in humans]
            return None if None in found else max(found)

        return replace(options,
                       reminder_after=pick(options.reminder_after, "reminder_after"),
                       forfeit_after=pick(options.forfeit_after, "forfeit_after"),
                       expires_after=pick(options.expires_after, "challenge_expires_after"))

    async def _challenge_view(self, row: dict) -> Challenge:
        return Challenge(
            id=row["id"], challenger=await self._player(row["challenger_id"]),
            opponent=await self._player(row["opponent_id"]), rules=row["rules"],
            channel=Channel(row["channel_surface"], row["channel_id"]),
            options=options_from_json(row["options"]), status=row["status"],
            created_at=row["created_at"], expires_at=row["expires_at"], game_id=row["game_id"])

    async def challenge(self, challenger: Player, opponent: Player, rules: str, channel: Channel,
                        options: GameOptions | None = None) -> Challenge:
        """Challenge ``opponent`` to a game of ``rules`` (a ruleset string with options, like
        "wari:captures=2-4") in ``channel``. Against the AI (``Player.ai(level)``) the game
        starts at once: the returned challenge is "accepted" with ``game_id`` set. Otherwise
        the opponent gets ChallengeReceived and the challenge is "open" until answered or
        expired (``options.expires_after``, else the slower of the two surfaces' defaults;
        unset clock times are filled the same way, see ``bot.service.settings``).

        Raises BadRules (bad ruleset), BadRequest (unknown AI level, bad option, challenging
        yourself), ChannelBusy (the channel already has an active game)."""
        self._check_open()
        ruleset = _parse_rules(rules)
        if challenger == opponent:
            raise errors.BadRequest("you cannot challenge yourself; challenge another player "
                                    "or the AI")
        if challenger.is_ai:
            raise errors.BadRequest("the AI does not send challenges")
        options = self._resolve_options(options, (challenger, opponent))
        await self._check_channel_free(channel)
        now = self._clock()
        row = dict(challenger_id=await self._pid(challenger), opponent_id=await self._pid(opponent),
                   rules=str(ruleset), channel_surface=channel.surface, channel_id=channel.id,
                   options=options_json(options), created_at=now,
                   expires_at=now + options.expires_after if options.expires_after else None)
        challenge_id = await self._store.create_challenge(row)
        if opponent.is_ai:
            await self.accept(challenge_id, opponent)
            return await self.get_challenge(challenge_id)
        view = await self.get_challenge(challenge_id)
        self._notify([opponent], lambda who: ChallengeReceived(who, view))
        return view

    async def _check_channel_free(self, channel: Channel) -> None:
        if not isinstance(channel, Channel):
            raise errors.BadRequest(f"not a channel: {channel!r}")
        if await self._store.active_game_in(channel.surface, channel.id):
            raise errors.ChannelBusy("this channel already has a game going; finish it first "
                                     "or play in another channel")

    async def _open_challenge(self, challenge_id: int, by: Player, role: str) -> dict:
        row = await self._store.challenge(challenge_id)
        if row is None:
            raise errors.NotFound(f"there is no challenge #{challenge_id}")
        allowed = row["opponent_id"] if role == "opponent" else row["challenger_id"]
        if self._player_ids.get(by) != allowed and await self._pid(by) != allowed:
            who = "the challenged player" if role == "opponent" else "the challenger"
            raise errors.NotAllowed(f"only {who} can do that with challenge #{challenge_id}")
        if row["status"] == "open" and row["expires_at"] is not None \
                and row["expires_at"] <= self._clock():
            await self._expire(row)
            row["status"] = "expired"
        if row["status"] != "open":
            raise errors.ChallengeClosed(f"challenge #{challenge_id} is {row['status']} already")
        return row

    async def accept(self, challenge_id: int, by: Player) -> GameView:
        """The challenged player accepts: the game starts in the challenge's channel. Raises
        NotFound, NotAllowed (not the challenged player), ChallengeClosed (already answered or
        expired), ChannelBusy (a game started there meanwhile)."""
        self._check_open()
        row = await self._open_challenge(challenge_id, by, "opponent")
        options = options_from_json(row["options"])
        side = options.side if options.side != "random" else random.choice(SIDES)
        south_id, north_id = ((row["challenger_id"], row["opponent_id"]) if side == "south"
                              else (row["opponent_id"], row["challenger_id"]))
        game_row = self._new_game_row(row["rules"], south_id, north_id,
                                      Channel(row["channel_surface"], row["channel_id"]), options)
        try:
            game_id = await self._store.accept_challenge(challenge_id, game_row, self._clock())
        except ChannelTaken:
            raise errors.ChannelBusy("a game started in this channel meanwhile; accept again "
                                     "once it is over, or play elsewhere") from None
        if game_id is None:
            raise errors.ChallengeClosed(f"challenge #{challenge_id} was answered meanwhile")
        view = await self.get_game(game_id)
        challenge = await self.get_challenge(challenge_id)
        if not by.is_ai:  # a challenge to the AI is answered by the method's return value
            self._notify([challenge.challenger],
                         lambda who: ChallengeAnswered(who, challenge, view), actor=by)
        self._after_change(view)
        return view

    async def _expire(self, row: dict) -> None:
        if await self._store.close_challenge(row["id"], "expired", self._clock()):
            challenge = await self.get_challenge(row["id"])
            self._notify([challenge.challenger, challenge.opponent],
                         lambda who: ChallengeAnswered(who, challenge))

    async def _close_challenge(self, challenge_id: int, by: Player, role: str,
                               status: str) -> Challenge:
        self._check_open()
        await self._open_challenge(challenge_id, by, role)
        if not await self._store.close_challenge(challenge_id, status, self._clock()):
            raise errors.ChallengeClosed(f"challenge #{challenge_id} was answered meanwhile")
        challenge = await self.get_challenge(challenge_id)
        self._notify([challenge.challenger, challenge.opponent],
                     lambda who: ChallengeAnswered(who, challenge), actor=by)
        return challenge

    async def decline(self, challenge_id: int, by: Player) -> Challenge:
        """The challenged player declines. Raises NotFound, NotAllowed, ChallengeClosed."""
        return await self._close_challenge(challenge_id, by, "opponent", "declined")

    async def cancel(self, challenge_id: int, by: Player) -> Challenge:
        """The challenger withdraws. Raises NotFound, NotAllowed, ChallengeClosed."""
        return await self._close_challenge(challenge_id, by, "challenger", "cancelled")

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """A challenge by id. Raises NotFound."""
        row = await self._store.challenge(challenge_id)
        if row is None:
            raise errors.NotFound(f"there is no challenge #{challenge_id}")
        return await self._challenge_view(row)

    async def open_challenges(self, player: Player) -> list[Challenge]:
        """Open challenges the player made or received, newest first."""
        now = self._clock()
        rows = await self._store.open_challenges(await self._pid(player))
        return [await self._challenge_view(r) for r in rows
                if r["expires_at"] is None or r["expires_at"] > now]

    async def start_game(self, south: Player, north: Player, rules: str, channel: Channel,
                         options: GameOptions | None = None) -> GameView:
        """Start a game at once, without a challenge: for the terminal (a human against the AI,
        or two humans at one keyboard, where ``south == north``). Raises BadRules, BadRequest,
        ChannelBusy."""
        self._check_open()
        ruleset = _parse_rules(rules)
        options = self._resolve_options(options, (south, north))
        if south == north:
            options = replace(options, rated=False)  # one person on both sides
        await self._check_channel_free(channel)
        row = self._new_game_row(str(ruleset), await self._pid(south), await self._pid(north),
                                 channel, options)
        try:
            game_id = await self._store.create_game(row)
        except ChannelTaken:
            raise errors.ChannelBusy("this channel already has a game going") from None
        view = await self.get_game(game_id)
        self._after_change(view)
        return view

    def _new_game_row(self, rules: str, south_id: int, north_id: int, channel: Channel,
                      options: GameOptions) -> dict:
        ruleset = Ruleset.parse(rules)
        start = Game(ruleset).position if ruleset.first != "random" else \
            Game(ruleset, first=random.choice(SIDES)).position
        now = self._clock()
        row = dict(rules=str(ruleset), south_id=south_id, north_id=north_id,
                   channel_surface=channel.surface, channel_id=channel.id,
                   first=start.to_move, board=board_json(start.board), mover=start.mover,
                   options=options_json(options), rated=int(options.rated), created_at=now,
                   last_move_at=now)
        mover_id = south_id if start.mover == 0 else north_id
        row.update(self._clock_fields(options, self._players.get(mover_id), now))
        return row

    @staticmethod
    def _clock_fields(options: GameOptions, mover: Player | None, now: float) -> dict:
        """When to remind and forfeit the player who now has the turn (never for the AI)."""
        human = mover is not None and not mover.is_ai
        return dict(
            remind_at=now + options.reminder_after if human and options.reminder_after else None,
            forfeit_at=now + options.forfeit_after if human and options.forfeit_after else None)

    # -- loading games ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _locked(self, game_id: int):
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
        live = self._live.get(game_id)
        if live is not None:
            if not fresh and time.monotonic() - live.checked_at < self._cache_ttl:
                return live
            row = await self._store.game(game_id)
            if row is not None and all(row[k] == live.row[k] for k in CHANGING_COLUMNS):
                live.checked_at = time.monotonic()
                return live
            self._live.drop(game_id)
        if not isinstance(game_id, int) or isinstance(game_id, bool):
            raise errors.NotFound(f"there is no game {game_id!r}")
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

    async def _player_of(self, live: LiveGame, by: Player) -> str:
        side = live.side_of(by)
        if side is None:
            raise errors.NotAllowed(f"you are not playing in game #{live.row['id']}")
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

    async def _finish_fields(self, live: LiveGame, reason: str, score, winner: str) -> tuple:
        """The changes that end a game, and the rating rows to write with them."""
        now = self._clock()
        changes = dict(status="over", result_reason=reason, result_winner=winner,
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

    # -- play ---------------------------------------------------------------------------------

    async def move(self, game_id: int, by: Player, move: str,
                   expected_ply: int | None = None) -> GameView:
        """Play ``move`` (a pit letter, checked by the engine) for ``by``. With
        ``expected_ply`` (the ``ply`` of the board the player saw), a move sent for an older
        board is refused: each move is applied exactly once, even when sent twice. Returns the
        game after the move (if the AI is to reply, its move arrives as a MoveMade event).

        Raises NotFound, NotAllowed (not a player here), GameFinished, NotYourTurn,
        StaleMove / DuplicateMove (ply mismatch), IllegalMove (the engine's reason)."""
        self._check_open()
        expected_ply = _as_ply(expected_ply)
        async with self._locked(game_id):
            live = await self._load(game_id)
            if expected_ply is not None and expected_ply != live.row["ply"]:
                live = await self._load(game_id, fresh=True)  # the player may know better
            await self._player_of(live, by)
            if expected_ply is not None and expected_ply != live.row["ply"]:
                raise self._stale(live, move, expected_ply)
            if live.row["status"] != "active":
                raise errors.GameFinished(f"game #{game_id} is over; start a new one")
            mover = live.to_move_side
            if live.player(mover) != by:
                name = await self.display_name(live.player(mover))
                raise errors.NotYourTurn(f"it is not your turn: {mover.title()} ({name}) is "
                                         "to move")
            view = await self._play(live, by, move)
        self._after_change(view, actor=by, move=view.moves[-1] if view.moves else move)
        return view

    def _stale(self, live: LiveGame, move: str, expected_ply: int) -> errors.ServiceError:
        ply = live.row["ply"]
        if isinstance(expected_ply, int) and 0 <= expected_ply < ply:
            done = live.game.moves[expected_ply]
            then = live.game.positions[expected_ply]  # the board the player was looking at
            try:
                same = then.parse_move(move) == then.parse_move(done)
            except EngineIllegalMove:
                same = False
            if same:
                return errors.DuplicateMove(
                    f"move {expected_ply + 1} ({done}) was already played; it is not played "
                    f"twice. The game is at move {ply + 1} now.")
            return errors.StaleMove(
                f"that board is out of date: it showed move {expected_ply + 1}, and the game "
                f"is at move {ply + 1} now; look at the board again")
        return errors.StaleMove(f"there is no move {expected_ply + 1} yet: the game is at "
                                f"move {ply + 1}")

    async def _play(self, live: LiveGame, by: Player, move: str) -> GameView:
        """Apply a checked player's move: engine first, then one transaction."""
        game = live.game
        try:
            game.play(move)
        except EngineIllegalMove as err:
            raise errors.IllegalMove(str(err)) from None
        try:
            pos = game.position
            now = self._clock()
            record = dict(move=game.moves[-1], player_id=self._player_ids[by], played_at=now,
                          board=board_json(pos.board), mover=pos.mover)
            changes = dict(board=record["board"], mover=pos.mover, last_move_at=now,
                           offer_kind=None, offer_by=None, offer_ply=None, reminded_at=None)
            ratings = ()
            if game.is_over():
                outcome = game.outcome()
                end, ratings = await self._finish_fields(live, outcome.reason, outcome.score,
                                                         outcome.winner)
                changes.update(end)
            else:
                changes.update(self._clock_fields(options_from_json(live.row["options"]),
                                                  live.player(pos.to_move), now))
            await self._commit(live, changes, move=record, ratings=ratings)
        except BaseException:
            self._live.drop(live.row["id"])  # the engine moved but the file did not
            raise
        return await self._view(live)

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

    async def resign(self, game_id: int, by: Player) -> GameView:
        """``by`` resigns; the opponent wins. Raises NotFound, NotAllowed, GameFinished."""
        self._check_open()
        async with self._locked(game_id):
            live = await self._load(game_id)
            side = await self._player_of(live, by)
            if live.row["status"] != "active":
                raise errors.GameFinished(f"game #{game_id} is over already")
            if live.south == live.north:
                side = live.to_move_side  # at one keyboard, the player to move gives up
            changes, ratings = await self._finish_fields(
                live, f"{side.title()} resigned", live.game.position.stores, _other(side))
            await self._commit(live, changes, ratings=ratings)
            view = await self._view(live)
        self._notify([view.south, view.north], lambda who: GameOver(who, view), actor=by)
        return view

    async def offer(self, game_id: int, by: Player, kind: str) -> GameView:
        """Offer a "draw", an agreed "end" (scored like an endless cycle, by the ruleset), or
        ask to take back your last move ("undo"). The AI accepts an undo at once and refuses
        draws and ends (NotAllowed). At one keyboard (the same player on both sides) every
        offer is granted at once. A new offer replaces a pending one; a move cancels it.
        Raises NotFound, NotAllowed, GameFinished, BadRequest (unknown kind, or no move of
        yours to undo)."""
        self._check_open()
        if kind not in OFFER_KINDS:
            raise errors.BadRequest(f"an offer is one of: {', '.join(OFFER_KINDS)}; not {kind!r}")
        async with self._locked(game_id):
            live = await self._load(game_id)
            side = await self._player_of(live, by)
            if live.row["status"] != "active":
                raise errors.GameFinished(f"game #{game_id} is over already")
            opponent = live.player(_other(side))
            if kind == "undo":
                self._undo_target(live, side)  # raises if there is nothing to take back
            if opponent.is_ai and kind != "undo":
                raise errors.NotAllowed(f"the AI does not agree to a {kind}; play on or resign")
            if opponent == by or opponent.is_ai:
                view = await self._grant(live, kind, side)
                granted = True
            else:
                await self._commit(live, dict(offer_kind=kind, offer_by=self._player_ids[by],
                                              offer_ply=live.row["ply"]))
                view = await self._view(live)
                granted = False
        if granted:
            self._after_change(view, actor=by)
        else:
            self._notify([opponent], lambda who: OfferMade(who, view, kind, by))
        return view

    async def offer_draw(self, game_id: int, by: Player) -> GameView:
        """Same as ``offer(game_id, by, "draw")``."""
        return await self.offer(game_id, by, "draw")

    async def offer_end(self, game_id: int, by: Player) -> GameView:
        """Same as ``offer(game_id, by, "end")``."""
        return await self.offer(game_id, by, "end")

    async def request_undo(self, game_id: int, by: Player) -> GameView:
        """Same as ``offer(game_id, by, "undo")``."""
        return await self.offer(game_id, by, "undo")

    def _undo_target(self, live: LiveGame, side: str) -> int:
        """The ply to go back to so that ``side``'s last move is taken back."""
        game = live.game
        one_keyboard = live.south == live.north
        for ply in range(len(game.moves), 0, -1):
            if one_keyboard or live.mover_of_ply(ply) == side:
                return ply - 1
        raise errors.BadRequest("there is no move of yours to take back")

    async def _grant(self, live: LiveGame, kind: str, side: str) -> GameView:
        """Carry out an accepted offer made by ``side``; the caller holds the game's lock."""
        game = live.game
        if kind == "undo":
            to_ply = self._undo_target(live, side)
            try:
                while len(game.moves) > to_ply:
                    game.undo()
                pos = game.position
                now = self._clock()
                changes = dict(board=board_json(pos.board), mover=pos.mover, last_move_at=now,
                               offer_kind=None, offer_by=None, offer_ply=None, reminded_at=None,
                               **self._clock_fields(options_from_json(live.row["options"]),
                                                    live.player(pos.to_move), now))
                await self._commit(live, changes, take_back_to=to_ply)
            except BaseException:
                self._live.drop(live.row["id"])
                raise
        elif kind == "draw":
            changes, ratings = await self._finish_fields(
                live, "draw agreed", game.position.stores, "draw")
            await self._commit(live, changes, ratings=ratings)
        else:  # an agreed end, scored by the ruleset's cycle policy
            probe = Game(game.rules, position=game.position)
            probe.agree_end()
            outcome = probe.outcome()
            changes, ratings = await self._finish_fields(live, outcome.reason, outcome.score,
                                                         outcome.winner)
            await self._commit(live, changes, ratings=ratings)
        return await self._view(live)

    async def accept_offer(self, game_id: int, by: Player) -> GameView:
        """The opponent accepts the pending offer: the game ends as a draw, ends as agreed, or
        the offerer's last move (and any reply after it) is taken back. Raises NotFound,
        NotAllowed, GameFinished, NoOffer (none pending, or it is your own)."""
        self._check_open()
        async with self._locked(game_id):
            live = await self._load(game_id)
            side = await self._player_of(live, by)
            if live.row["status"] != "active":
                raise errors.GameFinished(f"game #{game_id} is over already")
            kind = live.row["offer_kind"]
            if kind is None:
                raise errors.NoOffer("there is no offer to accept in this game")
            if live.row["offer_by"] == self._player_ids[by]:
                raise errors.NoOffer("you made this offer; your opponent has to accept it")
            offerer = live.player(_other(side))
            view = await self._grant(live, kind, _other(side))
        self._notify([offerer], lambda who: OfferAnswered(who, view, kind, True, by), actor=by)
        self._after_change(view, actor=by)
        return view

    async def decline_offer(self, game_id: int, by: Player) -> GameView:
        """The opponent declines the pending offer (the offerer may also withdraw it). Raises
        NotFound, NotAllowed, NoOffer."""
        self._check_open()
        async with self._locked(game_id):
            live = await self._load(game_id)
            side = await self._player_of(live, by)
            kind = live.row["offer_kind"]
            if kind is None or live.row["status"] != "active":
                raise errors.NoOffer("there is no offer to decline in this game")
            await self._commit(live, dict(offer_kind=None, offer_by=None, offer_ply=None))
            view = await self._view(live)
        self._notify([live.player(_other(side))],
                     lambda who: OfferAnswered(who, view, kind, False, by), actor=by)
        return view

    # -- hints --------------------------------------------------------------------------------

    async def hint(self, game_id: int, by: Player, *,
                   thinking: Callable[[], Awaitable] | None = None) -> Hint:
        """The AI's best move for ``by``, the player to move: the endgame solver's proof when
        it finishes within ``HINT_SECONDS`` (or the service's ``ai_time_limit``, if lower),
        else the strongest level's estimate. Hints are for games against the AI and unrated
        games (a hint would decide a rated game between people). ``thinking``, if given, is
        awaited once the hint is allowed, just before the AI starts (Discord defers its reply
        there, so a refusal is still the first answer).

        Raises NotFound, NotAllowed (not a player here, or a rated game between people),
        GameFinished, NotYourTurn, NoHint (the AI failed)."""
        self._check_open()
        view = await self.get_game(game_id)
        if view.side_of(by) is None:
            raise errors.NotAllowed(f"you are not playing in game #{game_id}")
        if view.is_over:
            raise errors.GameFinished(f"game #{game_id} is over; there is no move to suggest")
        if view.to_move != by:
            raise errors.NotYourTurn("hints are for the player to move, and it is not your turn")
        if view.options.rated and not (view.south.is_ai or view.north.is_ai):
            raise errors.NotAllowed("no hints in a rated game between people: a hint would "
                                    "decide it; they are for games against the AI or unrated")
        if thinking is not None:
            await thinking()
        try:
            found = await self._ai.hint(view.position, HINT_SECONDS)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # the AI's own failure, not the player's mistake
            log.exception("hint in game %s failed", game_id)
            raise errors.NoHint(f"the AI could not suggest a move here ({err}); "
                                "try again in a moment") from None
        return Hint(found.move, found.value, found.exact, found.depth, found.nodes,
                    found.seconds, view.ply)

    # -- AI turns -----------------------------------------------------------------------------

    def _schedule_ai(self, game_id: int) -> None:
        if game_id in self._ai_games or self._closed:
            return
        self._ai_games.add(game_id)
        self._spawn(self._ai_turns(game_id), name=f"ai-turn-{game_id}")

    async def _ai_turns(self, game_id: int) -> None:
        """Play the AI's moves while it is the AI's turn (both sides, for AI against AI)."""
        try:
            while not self._closed:
                seen = await self.get_game(game_id)
                ai = seen.to_move
                if ai is None or not ai.is_ai:
                    return
                ply = seen.ply
                choice = await self._ai.choose(seen.position, ai.id, seed=game_id * 1000 + ply)
                try:
                    async with self._locked(game_id):
                        live = await self._load(game_id)
                        if live.row["ply"] != ply or live.row["status"] != "active":
                            continue  # an undo or resignation came first: think again
                        await self._pid(ai)
                        view = await self._play(live, ai, choice.move)
                except errors.ServiceError as err:
                    log.error("AI move %s in game %s refused: %s", choice.move, game_id, err)
                    return
                self._after_change(view, actor=None, move=view.moves[-1], schedule_ai=False,
                                   by=ai)
                # the loop goes on while it is still an AI's turn (a replay, or AI against AI)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("AI turn in game %s failed; it resumes when the service restarts",
                          game_id)
        finally:
            self._ai_games.discard(game_id)

    # -- notifications ------------------------------------------------------------------------

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

    # -- looking ------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameView:
        """A game by id. Raises NotFound."""
        live = self._live.get(game_id)
        if live is not None and live.snapshot is not None \
                and time.monotonic() - live.checked_at < self._cache_ttl:
            return live.snapshot  # never shows a move whose commit is still in flight
        async with self._locked(game_id):
            return await self._view(await self._load(game_id))

    async def active_game(self, channel: Channel) -> GameView | None:
        """The active game in a channel, or None."""
        row = await self._store.active_game_in(channel.surface, channel.id)
        return await self.get_game(row["id"]) if row else None

    async def board(self, game_id: int, perspective: str | Player = "south") -> str:
        """The board picture, seen by "south", "north" or a player of the game. Raises
        NotFound."""
        view = await self.get_game(game_id)
        if isinstance(perspective, Player):
            perspective = view.side_of(perspective) or "south"
        if perspective not in SIDES:
            raise errors.BadRequest("a board is seen from south or north")
        return view.board(perspective)

    async def list_games(self, player: Player, include_finished: bool = False,
                         limit: int = 50) -> list[GameView]:
        """The player's games: active ones where it is their turn first, then the other active
        ones, then (if asked) finished ones, most recent first."""
        rows = await self._store.games_of(await self._pid(player), include_finished, limit)
        views = [await self.get_game(row["id"]) for row in rows]

        def order(view: GameView):
            group = 0 if view.to_move == player else 1 if not view.is_over else 2
            return group, -view.last_move_at

        return sorted(views, key=order)

    async def export(self, game_id: int) -> str:
        """A game's record as text: tag lines ([Rules "wari"], [South "..."], [Result ...])
        then the moves in order, space-separated, as ``engine.Game.from_moves`` reads them
        (with the ``First`` tag as its ``first``). Raises NotFound."""
        view = await self.get_game(game_id)
        live = await self._load(game_id)
        if view.outcome:
            out = view.outcome
            result = f"{out.winner} (South {out.score[0]}, North {out.score[1]}; {out.reason})"
        else:
            result = "*"
        tags = [("Game", str(view.id)), ("Rules", view.rules),
                ("South", await self.display_name(view.south)),
                ("North", await self.display_name(view.north)),
                ("First", live.row["first"]), ("Result", result)]
        lines = [f'[{key} "{value}"]' for key, value in tags]
        words, line = list(view.moves), ""
        body = []
        for word in words:
            if len(line) + len(word) + 1 > 72:
                body.append(line)
                line = ""
            line = f"{line} {word}".strip()
        if line:
            body.append(line)
        return "\n".join(lines + [""] + body) + "\n"

    # -- clocks -------------------------------------------------------------------------------

    async def tick(self) -> None:
        """Act on the clock now: expire old challenges, remind players who have not moved for
        ``reminder_after``, forfeit those silent for ``forfeit_after``. Runs by itself every
        ``tick_every`` seconds; tests call it after advancing a ManualClock."""
        now = self._clock()
        for row in await self._store.due_challenges(now):
            await self._expire(row)
        for row in await self._store.due_clocks(now):
            await self._clock_game(row["id"], now)

    async def _clock_game(self, game_id: int, now: float) -> None:
        async with self._locked(game_id):
            live = await self._load(game_id)
            row = live.row
            if row["status"] != "active":
                return
            side = live.to_move_side
            mover = live.player(side)
            if row["forfeit_at"] is not None and row["forfeit_at"] <= now:
                changes, ratings = await self._finish_fields(
                    live, f"{side.title()} ran out of time", live.game.position.stores,
                    _other(side))
                await self._commit(live, changes, ratings=ratings)
                view = await self._view(live)
                self._notify([view.south, view.north], lambda who: Forfeit(who, view, mover))
            elif row["remind_at"] is not None and row["remind_at"] <= now \
                    and row["reminded_at"] is None:
                forfeit_at = row["forfeit_at"]
                await self._commit(live, dict(reminded_at=now))
                view = await self._view(live)
                self._notify([mover], lambda who: Reminder(who, view, now - row["last_move_at"],
                                                           forfeit_at))

    # -- ratings ------------------------------------------------------------------------------

    async def rating(self, player: Player, rules: str) -> Rating:
        """The player's Elo rating in a ruleset (1500 before any rated game). Raises BadRules."""
        rules = str(_parse_rules(rules))
        row = await self._store.rating(await self._pid(player), rules) or {}
        return Rating(player, rules, row.get("rating", START), row.get("games", 0),
                      row.get("wins", 0), row.get("losses", 0), row.get("draws", 0))

    async def leaderboard(self, rules: str, limit: int = 10) -> list[Rating]:
        """The best-rated players of a ruleset, best first. Raises BadRules."""
        rules = str(_parse_rules(rules))
        return [Rating(Player(r["surface"], r["external_id"]), rules, r["rating"], r["games"],
                       r["wins"], r["losses"], r["draws"], r["display_name"])
                for r in await self._store.leaderboard(rules, max(1, min(int(limit), 100)))]
