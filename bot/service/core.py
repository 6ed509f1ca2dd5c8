"""GameService: the one place that decides who may do what. See ``bot.service`` for a usage
example. Every public method is a coroutine; each raises only ``ServiceError`` subclasses on a
user's mistake (their messages are fit to show), and never blocks the event loop.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from bot.service.events import Notifier
from bot.service.types import Challenge, Channel, GameOptions, GameView, Player, Rating


class GameService:
    """Games, challenges, clocks, AI turns and ratings, on one SQLite file."""

    # -- life cycle ---------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path, *, clock: Callable[[], float] | None = None,
                   ai_workers: int = 1, ai_time_limit: float | None = None,
                   tick_every: float | None = 60.0) -> GameService:
        """A ready service on the SQLite file at ``path`` (created, or migrated to the current
        schema, keeping all data). ``clock`` returns seconds (default: wall clock; tests pass a
        ``ManualClock``). ``ai_workers`` worker processes run AI searches (started on first
        use). ``tick_every`` seconds a background task runs ``tick()`` (reminders, forfeits,
        expiries); None turns it off (tests call ``tick()`` themselves). Pending AI turns of
        unfinished games resume at once."""
        raise NotImplementedError

    async def close(self) -> None:
        """Stop the clock task, wait for AI turns and notifications in flight, close the file."""
        raise NotImplementedError

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    def add_notifier(self, surface: str, notifier: Notifier) -> None:
        """Route events for players on ``surface`` ("discord", "email", "terminal") to
        ``notifier``. A player whose surface has no notifier simply isn't told."""
        raise NotImplementedError

    async def idle(self) -> None:
        """Wait until no AI turn and no notification is in flight (for tests and the
        terminal, which waits for the AI's reply)."""
        raise NotImplementedError

    # -- players ------------------------------------------------------------------------------

    async def set_display_name(self, player: Player, name: str) -> None:
        """Remember how to call a player (shown on leaderboards). Raises BadRequest for an
        unknown surface or an unknown AI level."""
        raise NotImplementedError

    async def display_name(self, player: Player) -> str:
        """The player's display name, or a readable default ("AI (hard)", the address...)."""
        raise NotImplementedError

    # -- challenges ---------------------------------------------------------------------------

    async def challenge(self, challenger: Player, opponent: Player, rules: str, channel: Channel,
                        options: GameOptions | None = None) -> Challenge:
        """Challenge ``opponent`` to a game of ``rules`` (a ruleset string with options, like
        "wari:captures=2-4") in ``channel``. Against the AI (``Player.ai(level)``) the game
        starts at once: the returned challenge is "accepted" with ``game_id`` set. Otherwise
        the opponent gets ChallengeReceived and the challenge is "open" until answered or
        expired (``options.expires_after``, else the opponent's surface default).

        Raises BadRules (bad ruleset), BadRequest (unknown AI level, bad option, challenging
        yourself), ChannelBusy (the channel already has an active game)."""
        raise NotImplementedError

    async def accept(self, challenge_id: int, by: Player) -> GameView:
        """The challenged player accepts: the game starts in the challenge's channel. Raises
        NotFound, NotAllowed (not the challenged player), ChallengeClosed (already answered or
        expired), ChannelBusy (a game started there meanwhile)."""
        raise NotImplementedError

    async def decline(self, challenge_id: int, by: Player) -> Challenge:
        """The challenged player declines. Raises NotFound, NotAllowed, ChallengeClosed."""
        raise NotImplementedError

    async def cancel(self, challenge_id: int, by: Player) -> Challenge:
        """The challenger withdraws. Raises NotFound, NotAllowed, ChallengeClosed."""
        raise NotImplementedError

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """A challenge by id. Raises NotFound."""
        raise NotImplementedError

    async def open_challenges(self, player: Player) -> list[Challenge]:
        """Open challenges the player made or received, newest first."""
        raise NotImplementedError

    async def start_game(self, south: Player, north: Player, rules: str, channel: Channel,
                         options: GameOptions | None = None) -> GameView:
        """Start a game at once, without a challenge: for the terminal (a human against the AI,
        or two humans at one keyboard, where ``south == north``). Raises BadRules, BadRequest,
        ChannelBusy."""
        raise NotImplementedError

    # -- play ---------------------------------------------------------------------------------

    async def move(self, game_id: int, by: Player, move: str,
                   expected_ply: int | None = None) -> GameView:
        """Play ``move`` (a pit letter, checked by the engine) for ``by``. With
        ``expected_ply`` (the ``ply`` of the board the player saw), a move sent for an older
        board is refused: each move is applied exactly once, even when sent twice. Returns the
        game after the move (if the AI is to reply, its move arrives as a MoveMade event).

        Raises NotFound, NotAllowed (not a player here), GameFinished, NotYourTurn,
        StaleMove / DuplicateMove (ply mismatch), IllegalMove (the engine's reason)."""
        raise NotImplementedError

    async def resign(self, game_id: int, by: Player) -> GameView:
        """``by`` resigns; the opponent wins. Raises NotFound, NotAllowed, GameFinished."""
        raise NotImplementedError

    async def offer(self, game_id: int, by: Player, kind: str) -> GameView:
        """Offer a "draw", an agreed "end" (scored like an endless cycle, by the ruleset), or
        ask to take back your last move ("undo"). The AI accepts an undo at once and declines
        draws and ends. A new offer replaces a pending one; a move cancels it. Raises NotFound,
        NotAllowed, GameFinished, BadRequest (unknown kind, or no move of yours to undo)."""
        raise NotImplementedError

    async def offer_draw(self, game_id: int, by: Player) -> GameView:
        """Same as ``offer(game_id, by, "draw")``."""
        return await self.offer(game_id, by, "draw")

    async def offer_end(self, game_id: int, by: Player) -> GameView:
        """Same as ``offer(game_id, by, "end")``."""
        return await self.offer(game_id, by, "end")

    async def request_undo(self, game_id: int, by: Player) -> GameView:
        """Same as ``offer(game_id, by, "undo")``."""
        return await self.offer(game_id, by, "undo")

    async def accept_offer(self, game_id: int, by: Player) -> GameView:
        """The opponent accepts the pending offer: the game ends as a draw, ends as agreed, or
        the offerer's last move (and any reply after it) is taken back. Raises NotFound,
        NotAllowed, GameFinished, NoOffer (none pending, or it is your own)."""
        raise NotImplementedError

    async def decline_offer(self, game_id: int, by: Player) -> GameView:
        """The opponent declines the pending offer (the offerer may also withdraw it). Raises
        NotFound, NotAllowed, NoOffer."""
        raise NotImplementedError

    # -- looking ------------------------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameView:
        """A game by id. Raises NotFound."""
        raise NotImplementedError

    async def active_game(self, channel: Channel) -> GameView | None:
        """The active game in a channel, or None."""
        raise NotImplementedError

    async def board(self, game_id: int, perspective: str | Player = "south") -> str:
        """The board picture, seen by "south", "north" or a player of the game. Raises
        NotFound."""
        raise NotImplementedError

    async def list_games(self, player: Player, include_finished: bool = False,
                         limit: int = 50) -> list[GameView]:
        """The player's games: active ones where it is their turn first, then the other active
        ones, then (if asked) finished ones, most recent first."""
        raise NotImplementedError

    async def export(self, game_id: int) -> str:
        """A game's record as text: tag lines ([Rules "wari"], [South "..."], [Result ...])
        then the numbered moves, which ``engine.Game.from_moves`` replays. Raises NotFound."""
        raise NotImplementedError

    # -- clocks -------------------------------------------------------------------------------

    async def tick(self) -> None:
        """Act on the clock now: expire old challenges, remind players who have not moved for
        ``reminder_after``, forfeit those silent for ``forfeit_after``. Runs by itself every
        ``tick_every`` seconds; tests call it after advancing a ManualClock."""
        raise NotImplementedError

    # -- ratings ------------------------------------------------------------------------------

    async def rating(self, player: Player, rules: str) -> Rating:
        """The player's Elo rating in a ruleset (1500 before any rated game). Raises BadRules."""
        raise NotImplementedError

    async def leaderboard(self, rules: str, limit: int = 10) -> list[Rating]:
        """The best-rated players of a ruleset, best first. Raises BadRules."""
        raise NotImplementedError
