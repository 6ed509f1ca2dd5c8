"""A finished game reviewed move by move by the solver (``engine.review``), in the AI pool.

Each ply is one request to the pool, as background work in the asking player's turn, so the
AI's turns and hints of everyone go first and a review never blocks the event loop. The plies
are reviewed last first, as ``engine.review.review`` does: a worker's solver table then holds
the endings the earlier positions lead to. A review of a game is the same whoever asks (its
budgets are node counts), so the last few are kept in memory and asked again at no cost.

Only finished games are reviewed: during a game a review would tell the players what to play.
A player has one review running at a time.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.ai_runtime.pool import AIPool
from bot.i18n import _
from bot.service import errors
from bot.service.games import Games
from bot.service.looking import Looking
from bot.service.tasks import Tasks
from bot.service.types import GameView, Player
from engine import Position, excerpt
from engine.review import (
    DEFAULT_BUDGET,
    Budget,
    PlyReview,
    Review,
    budget_before,
    summarise,
)

log = logging.getLogger(__name__)
KEPT_REVIEWS = 32  # finished games whose review is kept in memory

ReviewProgress = Callable[[int, int], Awaitable[Any] | None]


@dataclass(frozen=True)
class GameReview:
    """A finished game and its review: ``positions[n]`` is the board before move ``n + 1``
    (for a key moment's board)."""

    game: GameView
    review: Review
    positions: tuple[Position, ...]


@dataclass(eq=False, kw_only=True)
class Reviews:
    """``review(game_id, by)``: the solver's review of a finished game."""

    tasks: Tasks
    games: Games
    looking: Looking
    pool: AIPool
    budget: Budget = DEFAULT_BUDGET
    _kept: OrderedDict[int, GameReview] = field(default_factory=OrderedDict, init=False)
    _running: set[Player] = field(default_factory=set, init=False)

    async def review(
        self,
        game_id: int | None,
        by: Player,
        progress: ReviewProgress | None = None,
        thinking: Callable[[], Awaitable[Any]] | None = None,
    ) -> GameReview:
        """The review of finished game ``game_id`` (None: ``by``'s latest finished game), for
        anyone who asks (a game's record is no secret once it is over), with the game.
        ``thinking``, if given, is awaited once the review is allowed and will take a while
        (Discord defers its reply there); ``progress(done, total)`` hears each ply as it is
        reviewed (awaited when it returns an awaitable).

        Raises NotFound, NotAllowed (the game is still going on, or has no moves),
        TooMuchAIWork (``by`` has a review running already), NoReview (the AI failed)."""
        self.tasks.check_open()
        if game_id is None:
            finished = [g for g in await self.looking.list_games(by, True, 20) if g.is_over]
            if not finished:
                raise errors.NotFound(
                    _("you have no finished game to review; name one by its number")
                )
            game_id = finished[0].id
        view = await self.games.get(game_id)
        if not view.is_over:
            raise errors.NotAllowed(
                _(
                    "game #{id} is still going on; its review comes when it is over (during "
                    "the game it would tell the players what to play)"
                ).format(id=game_id)
            )
        if not view.moves:
            raise errors.NotAllowed(
                _("game #{id} ended before its first move: nothing to review").format(id=game_id)
            )
        kept = self._kept.get(game_id)
        if kept is not None:
            self._kept.move_to_end(game_id)
            return kept
        if by in self._running:
            raise errors.TooMuchAIWork(
                _("your last review is still running; wait for it, then ask for the next")
            )
        self._running.add(by)
        try:
            if thinking is not None:
                await thinking()
            done = await self._review(view, by, progress)
        finally:
            self._running.discard(by)
        self._kept[game_id] = done
        while len(self._kept) > KEPT_REVIEWS:
            self._kept.popitem(last=False)
        return done

    def kept(self, game_id: int) -> GameReview | None:
        """The review of game ``game_id`` if one was asked for and is still kept, else None:
        a look, never a review started (a page shows a review without asking for one)."""
        return self._kept.get(game_id)

    async def _review(
        self, view: GameView, by: Player, progress: ReviewProgress | None
    ) -> GameReview:
        game_id = view.id
        live = await self.games.load(game_id)
        game = live.game
        total = len(game.moves)
        budget = self.budget
        found: list[PlyReview] = []
        for done, ply in enumerate(range(total, 0, -1), 1):
            self.tasks.check_open()
            position = game.positions[ply - 1]
            try:
                judged = await self.pool.review_move(
                    position, game.moves[ply - 1], ply, budget, owner=by
                )
            except asyncio.CancelledError:
                raise
            except Exception as err:  # the AI's own failure, not the player's mistake
                log.exception("review of game %s failed at move %s", game_id, ply)
                raise errors.NoReview(
                    _(
                        "the AI could not review game #{id} ({reason}); try again in a moment"
                    ).format(id=game_id, reason=excerpt(str(err), 60))
                ) from None
            found.append(judged)
            budget = budget_before(budget, position, judged)
            if progress is not None:
                told = progress(done, total)
                if told is not None:
                    await told
        review = summarise(game.rules, found[::-1])
        return GameReview(view, review, tuple(game.positions[:total]))
