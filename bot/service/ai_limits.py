"""How much of the AI one player may use, so nobody's flood starves the others.

The AI pool serves players in turn (``bot.ai_runtime.fair_queue``); on top of that a player
has two caps, refused at once with a message that says what to do, so nothing is queued
silently and nothing is lost (a refused move is not played; the player sends it again):

- ``games_per_player`` games against the AI in progress at once (a new challenge to the
  AI, a rematch or a terminal game past it is refused);
- ``waiting_per_player`` AI requests waiting for a worker (the AI's turns in their games
  and their hints): a move that would hand the AI one more turn, or a hint, past it is
  refused.

And when the AI's reply to a move will come later than ``busy_after`` seconds, ``reply_after``
says so, with the expected wait, for the surface to show beside the move.

The games in progress are read from the games table, so the cap holds over every process on
the database (the check and the new game are two steps: two processes at once may each pass
the last place). The requests waiting are this process's pool's (``AIPool.backlog``): only
its workers serve them, and the fair queue already keeps one player's backlog from delaying
the others, so the cap bounds one player's share of one pool; a gauge of requests that come
and go does not fit the database's windowed counters (docs/limits.md says why).

The caps themselves are settings (``bot.config.AILimits``, read from ``MANCALA_AI_*`` by
``bot.config.ai_options``); they are imported here, so the settings never import the service.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bot.ai_runtime.pool import AIPool
from bot.config import AILimits
from bot.i18n import ngettext
from bot.service import errors
from bot.service.players import Players
from bot.service.types import GameView, Player
from storage.stores.games import GameStore

ACTIVE_GAMES_READ = 1000  # a player's games in progress read to count those against the AI

__all__ = ["ACTIVE_GAMES_READ", "AIBusy", "AIFairness", "AILimits", "owner_of"]


@dataclass(frozen=True)
class AIBusy:
    """The AI's reply will come late: about ``seconds`` from now, behind ``ahead`` requests.
    ``str()`` of it is in the current language."""

    seconds: float
    ahead: int

    def __str__(self) -> str:
        wait = max(1, math.ceil(self.seconds))
        return ngettext(
            "The AI is busy: {ahead} request before this one, so its reply comes in about "
            "{wait} s. Your move is saved.",
            "The AI is busy: {ahead} requests before this one, so its reply comes in about "
            "{wait} s. Your move is saved.",
            self.ahead,
        ).format(ahead=self.ahead, wait=wait)


def owner_of(game: GameView) -> Player | None:
    """Whose turn queue the AI's moves in ``game`` go to: the person it plays against (None
    for the AI against itself)."""
    people = [p for p in (game.south, game.north) if not p.is_ai]
    return people[0] if people else None


@dataclass(eq=False, kw_only=True)
class AIFairness:
    """The caps of ``limits``, checked against the pool's queue and the stored games."""

    limits: AILimits
    pool: AIPool
    game_store: GameStore
    players: Players

    def check_waiting(self, player: Player) -> None:
        """``TooMuchAIWork`` when ``player`` has as many AI requests waiting as allowed."""
        waiting = self.pool.backlog(player).waiting
        cap = self.limits.waiting_per_player
        if waiting >= cap:
            raise errors.TooMuchAIWork(
                ngettext(
                    "you have {waiting} request waiting for the AI (at most {cap}); wait for "
                    "its replies, then try again",
                    "you have {waiting} requests waiting for the AI (at most {cap}); wait for "
                    "its replies, then try again",
                    waiting,
                ).format(waiting=waiting, cap=cap)
            )

    async def check_new_game(self, player: Player) -> None:
        """``TooMuchAIWork`` when ``player`` already plays as many games against the AI as
        allowed."""
        cap = self.limits.games_per_player
        records = await self.game_store.of_player(
            await self.players.pid(player), include_finished=False, limit=ACTIVE_GAMES_READ
        )
        against_ai = 0
        for record in records:
            if not record.is_active:
                continue
            south = await self.players.player(record.south_id)
            north = await self.players.player(record.north_id)
            against_ai += south.is_ai or north.is_ai
        if against_ai >= cap:
            raise errors.TooMuchAIWork(
                ngettext(
                    "you have {count} game against the AI in progress (at most {cap}); "
                    "finish or resign one first",
                    "you have {count} games against the AI in progress (at most {cap}); "
                    "finish or resign one first",
                    against_ai,
                ).format(count=against_ai, cap=cap)
            )

    def reply_after(self, game: GameView) -> AIBusy | None:
        """If the AI is to move in ``game`` and its reply will come later than
        ``busy_after`` seconds, how late."""
        mover = game.to_move
        if game.is_over or mover is None or not mover.is_ai:
            return None
        ahead, seconds = self.pool.expected_wait(owner_of(game))
        if seconds <= self.limits.busy_after:
            return None
        return AIBusy(seconds, ahead)
