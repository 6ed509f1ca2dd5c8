"""GameService: the one place that decides who may do what. See ``bot.service`` for a usage
example. Every public method is a coroutine; each raises only ``ServiceError`` subclasses on a
user's mistake (their messages are fit to show), and never blocks the event loop.

How it keeps a move exactly-once: moves of one game run one at a time under that game's lock;
the stored ply is compared-and-set in the same transaction that appends to the move log, whose
primary key is (game, ply). A move is acknowledged (the method returns) only after its commit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from bot.ai_runtime.pool import AIPool
from bot.service.ai_turns import AITurns
from bot.service.announcer import Announcer
from bot.service.challenges import Challenges
from bot.service.clock import SystemClock
from bot.service.deadlines import Deadlines
from bot.service.events import Notifier
from bot.service.games import Games
from bot.service.looking import Looking
from bot.service.pings import Pings
from bot.service.play import Play
from bot.service.players import Players
from bot.service.servers import Servers
from bot.service.tasks import Tasks
from storage import open_storage


class GameService:
    """Games, challenges, clocks, AI turns and ratings, on one SQLite file: the facade every
    surface calls. Each responsibility is a part in its own module, built with the parts it
    uses, so each file says what it depends on:

    - ``players`` (``Players``): who plays, their ids and display names
    - ``games`` (``Games``): loading, locking, committing and ending a game
    - ``announcer`` (``Announcer``): telling the players; hands AI turns to ``ai_turns``
    - ``challenges``: challenge, accept, decline, cancel, expiry, start_game
    - ``play``: move, resign, offers (draw, agreed end, undo) and their answers
    - ``ai_turns``: the AI's moves, and hints (the worker pool is ``ai_turns.pool``)
    - ``deadlines``: tick (reminders, forfeits, expiries)
    - ``looking``: games, boards, a game's record, ratings, leaderboards
    - ``pings``: whom to ping when it is their move, and how

    The public verbs below are the parts' own methods (their docstrings say the rules); this
    class adds the life cycle: open, close, notifiers, idle.
    """

    def __init__(self, store, clock: Callable[[], float], ai: AIPool, cache_ttl: float = 1.0):
        """Use ``await GameService.open(path)``; this only wires the parts together."""
        self._store = store
        self.tasks = Tasks()
        self.announcer = Announcer(self.tasks)
        self.players = Players(store, clock, lambda: self.announcer.notifiers)
        self.games = Games(store, clock, self.players, cache_ttl)
        parts = (self.tasks, self.players, self.games, self.announcer)
        self.challenges = Challenges(store, clock, *parts)
        self.play = Play(clock, *parts)
        self.ai = ai  # the one worker pool, shared with surfaces that play without a game
        self.ai_turns = AITurns(*parts, self.play, ai, store, clock)
        self.announcer.ai_turn = self.ai_turns.schedule
        self.deadlines = Deadlines(store, clock, self.games, self.announcer, self.challenges)
        self.looking = Looking(store, self.players, self.games)
        self.pings = Pings(store, clock, self.players)
        self.servers = Servers(store, clock, self.players)
        self._ticker: asyncio.Task | None = None

        # The verbs surfaces use, each answered by the part that owns it.
        challenges, play, looking = self.challenges, self.play, self.looking
        self.challenge, self.accept = challenges.challenge, challenges.accept
        self.decline, self.cancel = challenges.decline, challenges.cancel
        self.get_challenge, self.open_challenges = (
            challenges.get_challenge,
            challenges.open_challenges,
        )
        self.start_game, self.rematch = challenges.start_game, challenges.rematch
        self.move, self.resign, self.offer = play.move, play.resign, play.offer
        self.offer_draw, self.offer_end, self.request_undo = (
            play.offer_draw,
            play.offer_end,
            play.request_undo,
        )
        self.accept_offer, self.decline_offer = play.accept_offer, play.decline_offer
        self.hint, self.tick = self.ai_turns.hint, self.deadlines.tick
        self.get_game = self.games.get
        self.active_game, self.board = looking.active_game, looking.board
        self.open_game_count = looking.open_game_count
        self.list_games, self.export = looking.list_games, looking.export
        self.rating, self.leaderboard = looking.rating, looking.leaderboard
        self.set_display_name = self.players.set_display_name
        self.set_ping_mode, self.ping_for_turn = self.pings.set_mode, self.pings.for_turn
        self.server_settings, self.set_server_settings = self.servers.get, self.servers.update
        self.note_server_player = self.servers.note_player
        self.display_name = self.players.display_name
        self.email_player = self.players.email_player

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], float] | None = None,
        ai_workers: int = 1,
        ai_time_limit: float | None = None,
        tick_every: float | None = 60.0,
        cache_ttl: float = 1.0,
    ) -> GameService:
        """A ready service on the SQLite file at ``path`` (created, or migrated to the current
        schema, keeping all data). ``clock`` returns seconds (default: wall clock; tests pass a
        ``ManualClock``). ``ai_workers`` worker processes run AI searches (started on first
        use). ``tick_every`` seconds a background task runs ``tick()`` (reminders, forfeits,
        expiries); None turns it off (tests call ``tick()`` themselves). Pending AI turns of
        unfinished games resume at once. A game cached in memory is checked against the file
        when older than ``cache_ttl`` seconds, for other processes on the same file."""
        store = await open_storage(path)
        service = cls(store, clock or SystemClock(), AIPool(ai_workers, ai_time_limit), cache_ttl)
        # Where the database says when other processes change a game (PostgreSQL), cached
        # games are forgotten at once; elsewhere they are checked after cache_ttl seconds.
        await store.watch_games(service.games.live.drop)
        for row in await store.games_awaiting_ai():
            service.ai_turns.schedule(row["id"])
        if tick_every:
            service._ticker = asyncio.create_task(service.deadlines.tick_forever(tick_every))
        return service

    async def close(self) -> None:
        """Stop the clock task, wait for AI turns and notifications in flight, close the file.

        AI turns still thinking are abandoned; they resume when the service opens again."""
        if self.tasks.closed:
            return
        if self._ticker:
            self._ticker.cancel()
        await self.tasks.close()
        self.ai_turns.pool.close()
        await self._store.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    def add_notifier(self, surface: str, notifier: Notifier) -> None:
        """Route events for players on ``surface`` ("discord", "email", "terminal") to
        ``notifier``. A player whose surface has no notifier simply isn't told."""
        self.announcer.notifiers[surface] = notifier

    def ai_status(self) -> str:
        """The AI's compiled search: "ready", or "compiling" / "cold" while the search levels
        play through the quicker-to-start pure-Python search (a few plies shallower)."""
        return self.ai_turns.pool.status()

    async def idle(self) -> None:
        """Wait until no AI turn and no notification is in flight (for tests and the
        terminal, which waits for the AI's reply)."""
        await self.tasks.idle()
