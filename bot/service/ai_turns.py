"""The AI's part in games: its moves when it is its turn, and hints for players. Both run in
the service's AI worker processes (``bot.ai_runtime.pool``), never on the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot import metrics
from bot.ai_runtime.pool import AIPool
from bot.i18n import _
from bot.service import errors
from bot.service.ai_limits import AIFairness, owner_of
from bot.service.announcer import Announcer
from bot.service.games import Games
from bot.service.hooks import Hooks
from bot.service.play import Play
from bot.service.players import Players
from bot.service.tasks import Tasks
from bot.service.types import Hint, Player
from engine.ai import kernel_knows
from storage.stores.games import GameStore

log = logging.getLogger(__name__)
HINT_SECONDS = 2.0  # how long the AI thinks about a hint
AI_LEASE = 120.0  # seconds a process holds an AI turn: far above any level's thinking time


@dataclass(eq=False, kw_only=True)
class AITurns:
    """The AI's moves and hints, computed by ``pool`` and played through ``play``."""

    tasks: Tasks
    players: Players
    games: Games
    announcer: Announcer
    play: Play
    pool: AIPool
    fairness: AIFairness
    game_store: GameStore  # its leases: one process of several on a database plays an AI's turn
    clock: Callable[[], float]
    hooks: Hooks  # it moves whenever the AI's turn is due (Hooks.ai_turn_due)
    _thinking: set[int] = field(default_factory=set, init=False)  # games with an AI turn task
    _holder: str = field(
        default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}",
        init=False,
    )

    def __post_init__(self) -> None:
        self.hooks.ai_turn_due.subscribe(self.schedule)

    async def hint(
        self, game_id: int, by: Player, *, thinking: Callable[[], Awaitable[Any]] | None = None
    ) -> Hint:
        """The AI's best move for ``by``, the player to move: the endgame solver's proof when
        it finishes within ``HINT_SECONDS`` (or the service's ``ai_time_limit``, if lower),
        else the strongest level's estimate. Hints are for games against the AI and unrated
        games (a hint would decide a rated game between people). ``thinking``, if given, is
        awaited once the hint is allowed, just before the AI starts (Discord defers its reply
        there, so a refusal is still the first answer).

        Raises NotFound, NotAllowed (not a player here, or a rated game between people),
        GameFinished, NotYourTurn, TooMuchAIWork (``by`` has as many requests waiting for
        the AI as allowed), NoHint (the AI failed)."""
        self.tasks.check_open()
        view = await self.games.get(game_id)
        if view.side_of(by) is None:
            raise errors.NotAllowed(_("you are not playing in game #{id}").format(id=game_id))
        if view.is_over:
            raise errors.GameFinished(
                _("game #{id} is over; there is no move to suggest").format(id=game_id)
            )
        if view.to_move != by:
            raise errors.NotYourTurn(_("hints are for the player to move, and it is not your turn"))
        if view.options.rated and not (view.south.is_ai or view.north.is_ai):
            raise errors.NotAllowed(
                _(
                    "no hints in a rated game between people: a hint would "
                    "decide it; they are for games against the AI or unrated"
                )
            )
        self.fairness.check_waiting(by)
        if thinking is not None:
            await thinking()
        try:
            found = await self.pool.hint(view.position, HINT_SECONDS, owner=by)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # the AI's own failure, not the player's mistake
            log.exception("hint in game %s failed", game_id)
            raise errors.NoHint(
                _("the AI could not suggest a move here ({reason}); try again in a moment").format(
                    reason=err
                )
            ) from None
        return Hint(
            found.move,
            found.value,
            found.exact,
            found.depth,
            found.nodes,
            found.seconds,
            view.ply,
            found.reduced,
            found.timed_out,
            found.result,
            plain=not kernel_knows(view.position.rules),
        )

    def schedule(self, game_id: int) -> None:
        """Let the AI move in this game (once: a turn already running goes on)."""
        if game_id in self._thinking or self.tasks.closed:
            return
        self._thinking.add(game_id)
        self.tasks.spawn(self._ai_turns(game_id), name=f"ai-turn-{game_id}")

    async def _ai_turns(self, game_id: int) -> None:
        """Play the AI's moves while it is the AI's turn (both sides, for AI against AI);
        nothing if another process on the database holds this game's AI turn."""
        lease = f"ai-turn:{game_id}"
        try:
            if not await self.game_store.claim_lease(lease, self._holder, self.clock(), AI_LEASE):
                return  # another process is thinking; if it dies, a later tick takes over
            while not self.tasks.closed:
                seen = await self.games.get(game_id)
                ai = seen.to_move
                if ai is None or not ai.is_ai:
                    return
                ply = seen.ply
                choice = await self.pool.choose(
                    seen.position, ai.id, seed=game_id * 1000 + ply, owner=owner_of(seen)
                )
                metrics.AI_THINK.labels(level=ai.id).observe(choice.seconds)
                try:
                    async with self.games.locked(game_id):
                        live = await self.games.load(game_id)
                        if live.record.ply != ply or not live.record.is_active:
                            continue  # an undo or resignation came first: think again
                        await self.players.pid(ai)
                        view = await self.play.apply(live, ai, choice.move)
                except errors.ServiceError as err:
                    log.error("AI move %s in game %s refused: %s", choice.move, game_id, err)
                    return
                self.announcer.after_change(
                    view, actor=None, move=view.moves[-1], schedule_ai=False, by=ai
                )
                # the loop goes on while it is still an AI's turn (a replay, or AI against AI)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception(
                "AI turn in game %s failed; it resumes when the service restarts", game_id
            )
        finally:
            self._thinking.discard(game_id)
            with contextlib.suppress(Exception):  # a restart takes the turn over at once
                await self.game_store.release_lease(lease, self._holder)
