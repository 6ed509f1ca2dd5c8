"""A finished game reviewed move by move by the solver (``engine.review``), in the AI pool.

Each ply is one request to the pool, as background work in the asking player's turn, so the
AI's turns and hints of everyone go first and a review never blocks the event loop. The plies
are reviewed last first, as ``engine.review.review`` does: a worker's solver table then holds
the endings the earlier positions lead to. A review of a game is the same whoever asks (its
budgets are node counts), so once made it is kept in the database (``storage.reviews``, the
review with its budget), where every process finds it: a review asked for on Discord shows on
the pages of a separate ``mancala web``, and is never made twice for the same budget. The last
few are kept in memory too, as they were read or made.

Only finished games are reviewed: during a game a review would tell the players what to play.
A game brought as a record (``review_game``: a mail's or ``/mancala review``'s) is reviewed
the same way, but never kept: it is not the database's. A player has one review running at a
time, of either kind.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.ai_runtime.pool import AIPool
from bot.i18n import _
from bot.service import errors
from bot.service.games import Games
from bot.service.looking import Looking
from bot.service.tasks import Tasks
from bot.service.types import GameView, Player
from engine import Game, MancalaError, Position, excerpt
from engine.records import read_record, record_format
from engine.review import (
    DEFAULT_BUDGET,
    STORED_FORMAT,
    Budget,
    PlyReview,
    Review,
    budget_before,
    from_stored_json,
    game_from_record,
    stored_json,
    summarise,
)
from storage.errors import StorageError
from storage.records import ReviewRecord
from storage.stores.reviews import ReviewStore

log = logging.getLogger(__name__)
# A record brought to be reviewed (a mail's, an attachment): a long game's PGN is a few
# kilobytes, so this is room for comments and tags, and small enough to read at once.
MAX_REVIEWED_RECORD = 64 * 1024
KEPT_REVIEWS = 32  # finished games whose review is kept in memory (all are in the database)

ReviewProgress = Callable[[int, int], Awaitable[Any] | None]


@dataclass(frozen=True)
class GameReview:
    """A finished game and its review: ``positions[n]`` is the board before move ``n + 1``
    (for a key moment's board); ``budget``, the budget it was made with, as kept."""

    game: GameView
    review: Review
    positions: tuple[Position, ...]
    budget: str = field(default="", compare=False)  # what it cost per ply (``budget_key``)


@dataclass(frozen=True)
class RecordReview:
    """A game brought as a record and its review: ``positions[n]`` is the board before move
    ``n + 1``."""

    game: Game
    review: Review
    positions: tuple[Position, ...]


def record_game(text: str) -> Game:
    """The game in a record of any format we read (see ``Reviews.review_record``); BadRequest
    says what is wrong, naming the line and the ply."""
    if len(text) > MAX_REVIEWED_RECORD:
        raise errors.BadRequest(
            _("a record has at most {limit:,} characters; this one has {count:,}").format(
                limit=MAX_REVIEWED_RECORD, count=len(text)
            )
        )
    try:
        if record_format(text) is not None:  # PlayStrategy, a scoresheet, Aualé
            return read_record(text).game()
        return game_from_record(text)
    except MancalaError as err:
        raise errors.BadRequest(str(err)) from None


def budget_key(budget: Budget) -> str:
    """A budget as the database keeps it beside a review: its fields as JSON, in order.

    >>> budget_key(Budget(nodes=5)).startswith('{"nodes": 5, "seconds": 10.0')
    True
    """
    return json.dumps(dataclasses.asdict(budget))


@dataclass(eq=False, kw_only=True)
class Reviews:
    """``review(game_id, by)``: the solver's review of a finished game; ``kept(game_id)``:
    the one made already, by any process, if any."""

    tasks: Tasks
    games: Games
    looking: Looking
    pool: AIPool
    review_store: ReviewStore
    clock: Callable[[], float]
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
        kept = await self._find(view, same_budget=True)
        if kept is not None:
            return kept
        async with self._one_at_a_time(by, thinking):
            done = await self._review(view, by, progress)
        await self._store(done)
        self._remember(done)
        return done

    async def kept(self, game_id: int) -> GameReview | None:
        """The review of finished game ``game_id`` if one was made (by this process or any
        other on the database, under any budget), else None: a look, never a review started
        (a page shows a review without asking for one). Raises NotFound."""
        view = await self.games.get(game_id)
        return await self._find(view, same_budget=False) if view.is_over else None

    async def _find(self, view: GameView, same_budget: bool) -> GameReview | None:
        """The review of ``view`` kept in memory, else in the database; ``same_budget``: only
        one made with this service's budget (a review asked for again under another budget
        is made again)."""
        key = budget_key(self.budget)
        kept = self._kept.get(view.id)
        if kept is not None and (kept.budget == key or not same_budget):
            self._kept.move_to_end(view.id)
            return kept
        record = await self.review_store.get(view.id)
        if record is None or record.version != STORED_FORMAT:
            return None
        if same_budget and record.budget != key:
            return None
        try:
            review = from_stored_json(record.review)
        except ValueError:  # a damaged row: made again when asked for, and replaced
            log.warning("the stored review of game %s cannot be read", view.id, exc_info=True)
            return None
        live = await self.games.load(view.id)
        found = GameReview(
            view, review, tuple(live.game.positions[: len(review.plies)]), record.budget
        )
        self._remember(found)
        return found

    async def _store(self, done: GameReview) -> None:
        """Keep a review just made in the database, for every process. A failure to keep
        it costs the player nothing: they get their review, and it is kept in memory."""
        record = ReviewRecord(
            done.game.id, done.budget, STORED_FORMAT, stored_json(done.review), self.clock()
        )
        try:
            await self.review_store.put(record)
        except StorageError:
            log.exception("the review of game %s could not be kept", done.game.id)

    @contextlib.asynccontextmanager
    async def _one_at_a_time(
        self, by: Player, thinking: Callable[[], Awaitable[Any]] | None
    ) -> AsyncIterator[None]:
        """One review at a time for each player (TooMuchAIWork for a second), ``thinking``
        told before it starts."""
        if by in self._running:
            raise errors.TooMuchAIWork(
                _("your last review is still running; wait for it, then ask for the next")
            )
        self._running.add(by)
        try:
            if thinking is not None:
                await thinking()
            yield
        finally:
            self._running.discard(by)

    def _remember(self, done: GameReview) -> None:
        self._kept[done.game.id] = done
        self._kept.move_to_end(done.game.id)
        while len(self._kept) > KEPT_REVIEWS:
            self._kept.popitem(last=False)

    async def review_record(
        self,
        text: str,
        by: Player,
        progress: ReviewProgress | None = None,
        thinking: Callable[[], Awaitable[Any]] | None = None,
    ) -> RecordReview:
        """The review of the game in ``text``, a record brought by ``by`` rather than a game
        stored here: ours (``/mancala history``'s export), PlayStrategy's PGN, a Kazakh
        scoresheet or Aualé's OGN, found by its content. It is made in the pool as a stored
        game's is, in ``by``'s turn, one at a time for each player, but neither kept nor looked
        up (the record is the player's, not the database's). A game still going on is
        reviewed too: its record is the player's own.

        Raises BadRequest (a record over ``MAX_REVIEWED_RECORD``, or one that cannot be read: the
        message names the line and the ply), NotAllowed (no moves), TooMuchAIWork (``by`` has
        a review running already), NoReview (the AI failed)."""
        game = record_game(text)
        self.tasks.check_open()
        if not game.moves:
            raise errors.NotAllowed(_("the record has no move: there is nothing to review"))
        async with self._one_at_a_time(by, thinking):
            review = await self._judge(game, by, progress, None)
        return RecordReview(game, review, tuple(game.positions[: len(game.moves)]))

    async def _review(
        self, view: GameView, by: Player, progress: ReviewProgress | None
    ) -> GameReview:
        live = await self.games.load(view.id)
        game = live.game
        review = await self._judge(game, by, progress, view.id)
        total = len(game.moves)
        return GameReview(view, review, tuple(game.positions[:total]), budget_key(self.budget))

    async def _judge(
        self, game: Game, by: Player, progress: ReviewProgress | None, game_id: int | None
    ) -> Review:
        """Every ply of ``game`` judged in the pool, last first; ``game_id`` names a stored
        game in the log and the error (None: a record's game)."""
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
                log.exception("review of game %s failed at move %s", game_id or "(record)", ply)
                reason = excerpt(str(err), 60)
                raise errors.NoReview(
                    _(
                        "the AI could not review game #{id} ({reason}); try again in a moment"
                    ).format(id=game_id, reason=reason)
                    if game_id is not None
                    else _(
                        "the AI could not review this game ({reason}); try again in a moment"
                    ).format(reason=reason)
                ) from None
            found.append(judged)
            budget = budget_before(budget, position, judged)
            if progress is not None:
                told = progress(done, total)
                if told is not None:
                    await told
        return summarise(game.rules, found[::-1])
