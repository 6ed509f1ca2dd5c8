"""Playing a game: moves (exactly once, checked by the engine), resignation, and offers
(draw, agreed end, undo) with their answers."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot import metrics
from bot.service import errors
from bot.service.announcer import Announcer
from bot.service.deadlines import clock_fields
from bot.service.events import GameOver, OfferAnswered, OfferMade
from bot.service.games import MAX_ID, Games, other_side
from bot.service.live import LiveGame, board_json, options_from_json
from bot.service.players import Players
from bot.service.tasks import Tasks
from bot.service.types import GameView, Player
from engine import Game, Outcome, Termination, excerpt
from engine import IllegalMove as EngineIllegalMove
from engine.inputs import whole_number

OFFER_KINDS = ("draw", "end", "undo")


def _as_ply(value) -> int | None:
    """An expected ply as a surface may carry it (an int, or digits from a button's id)."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return value
    try:
        return whole_number(value, "the expected move number", 0, MAX_ID)
    except (TypeError, ValueError):
        raise errors.BadRequest(
            f"the expected move number must be a whole number, not '{excerpt(value)}'"
        ) from None


log = logging.getLogger(__name__)


@dataclass(eq=False)
class Play:
    """Moves, resignation and offers in a game."""

    _clock: Callable[[], float]
    _tasks: Tasks
    _players: Players
    _games: Games
    _announcer: Announcer

    async def move(
        self, game_id: int, by: Player, move: str, expected_ply: int | None = None
    ) -> GameView:
        """Play ``move`` (a pit letter, checked by the engine) for ``by``. With
        ``expected_ply`` (the ``ply`` of the board the player saw), a move sent for an older
        board is refused: each move is applied exactly once, even when sent twice. Returns the
        game after the move (if the AI is to reply, its move arrives as a MoveMade event).

        Raises NotFound, NotAllowed (not a player here), GameFinished, NotYourTurn,
        StaleMove / DuplicateMove (ply mismatch), IllegalMove (the engine's reason)."""
        self._tasks.check_open()
        expected_ply = _as_ply(expected_ply)
        async with self._games.locked(game_id):
            live = await self._games.load(game_id)
            if expected_ply is not None and expected_ply != live.row["ply"]:
                live = await self._games.load(game_id, fresh=True)  # the player may know better
            self._games.side_of(live, by)
            if expected_ply is not None and expected_ply != live.row["ply"]:
                raise self._stale(live, move, expected_ply)
            if live.row["status"] != "active":
                raise errors.GameFinished(f"game #{game_id} is over; start a new one")
            mover = live.to_move_side
            if live.player(mover) != by:
                name = await self._players.display_name(live.player(mover))
                raise errors.NotYourTurn(
                    f"it is not your turn: {mover.title()} ({name}) is to move"
                )
            view = await self.apply(live, by, move)
        self._announcer.after_change(view, actor=by, move=view.moves[-1] if view.moves else move)
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
                    f"twice. The game is at move {ply + 1} now."
                )
            return errors.StaleMove(
                f"that board is out of date: it showed move {expected_ply + 1}, and the game "
                f"is at move {ply + 1} now; look at the board again"
            )
        return errors.StaleMove(
            f"there is no move {expected_ply + 1} yet: the game is at move {ply + 1}"
        )

    async def apply(self, live: LiveGame, by: Player, move: str) -> GameView:
        """Apply a checked player's move (the caller holds the game's lock): engine first,
        then one transaction."""
        game = live.game
        try:
            game.play(move)
        except EngineIllegalMove as err:
            raise errors.IllegalMove(str(err)) from None
        try:
            pos = game.position
            now = self._clock()
            record = dict(
                move=game.moves[-1],
                player_id=self._players.known(by),
                played_at=now,
                board=board_json(pos.board),
                mover=pos.mover,
            )
            changes = dict(
                board=record["board"],
                mover=pos.mover,
                last_move_at=now,
                offer_kind=None,
                offer_by=None,
                offer_ply=None,
                reminded_at=None,
            )
            ratings = ()
            if game.is_over():
                end, ratings = await self._games.finish_fields(live, game.outcome())
                changes.update(end)
            else:
                changes.update(
                    clock_fields(
                        options_from_json(live.row["options"]), live.player(pos.to_move), now
                    )
                )
            await self._games.commit(live, changes, move=record, ratings=ratings)
        except BaseException:
            self._games.live.drop(live.row["id"])  # the engine moved but the file did not
            raise
        metrics.MOVES.labels(surface=by.surface).inc()
        log.info(
            "move %s played (move %d)%s",
            record["move"],
            len(game.moves),
            ": game over" if game.is_over() else "",
            extra={"game": live.row["id"], "surface": by.surface, "player": by.id},
        )
        return await self._games.view(live)

    async def resign(self, game_id: int, by: Player) -> GameView:
        """``by`` resigns; the opponent wins. Raises NotFound, NotAllowed, GameFinished."""
        self._tasks.check_open()
        async with self._games.locked(game_id):
            live = await self._games.load(game_id)
            side = self._games.side_in_active_game(live, by)
            if live.south == live.north:
                side = live.to_move_side  # at one keyboard, the player to move gives up
            changes, ratings = await self._games.finish_fields(
                live,
                Outcome.of(
                    Termination.RESIGNATION,
                    live.game.position.stores,
                    by=side,
                    ply=live.row["ply"] + 1,
                ),
            )
            await self._games.commit(live, changes, ratings=ratings)
            view = await self._games.view(live)
        self._announcer.notify([view.south, view.north], lambda who: GameOver(who, view), actor=by)
        return view

    async def offer(self, game_id: int, by: Player, kind: str) -> GameView:
        """Offer a "draw", an agreed "end" (scored like an endless cycle, by the ruleset), or
        ask to take back your last move ("undo"). The AI accepts an undo at once and refuses
        draws and ends (NotAllowed). At one keyboard (the same player on both sides) every
        offer is granted at once. Offering what the opponent is offering accepts their offer.
        A new offer replaces a pending one; a move cancels it. The returned game has no
        pending offer when it was granted at once. Raises NotFound, NotAllowed, GameFinished,
        BadRequest (unknown kind, or no move of yours to undo)."""
        self._tasks.check_open()
        if kind not in OFFER_KINDS:
            raise errors.BadRequest(
                f"an offer is one of: {', '.join(OFFER_KINDS)}; not '{excerpt(kind)}'"
            )
        async with self._games.locked(game_id):
            live = await self._games.load(game_id)
            side = self._games.side_in_active_game(live, by)
            opponent = live.player(other_side(side))
            pending = live.row["offer_kind"]
            theirs = pending is not None and live.row["offer_by"] != self._players.known(by)
        if theirs and pending == kind:
            return await self.accept_offer(game_id, by)  # both want the same: agreed
        async with self._games.locked(game_id):
            live = await self._games.load(game_id)
            side = self._games.side_in_active_game(live, by)
            if kind == "undo":
                self._undo_target(live, side)  # raises if there is nothing to take back
            if opponent.is_ai and kind != "undo":
                raise errors.NotAllowed(f"the AI does not agree to a {kind}; play on or resign")
            if opponent == by or opponent.is_ai:
                view = await self._grant(live, kind, side)
                granted = True
            else:
                await self._games.commit(
                    live,
                    dict(
                        offer_kind=kind, offer_by=self._players.known(by), offer_ply=live.row["ply"]
                    ),
                )
                view = await self._games.view(live)
                granted = False
        if granted:
            self._announcer.after_change(view, actor=by)
        else:
            self._announcer.notify([opponent], lambda who: OfferMade(who, view, kind, by))
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
                changes = dict(
                    board=board_json(pos.board),
                    mover=pos.mover,
                    last_move_at=now,
                    offer_kind=None,
                    offer_by=None,
                    offer_ply=None,
                    reminded_at=None,
                    **clock_fields(
                        options_from_json(live.row["options"]), live.player(pos.to_move), now
                    ),
                )
                await self._games.commit(live, changes, take_back_to=to_ply)
            except BaseException:
                self._games.live.drop(live.row["id"])
                raise
        elif kind == "draw":
            changes, ratings = await self._games.finish_fields(
                live, Outcome.of(Termination.AGREED_DRAW, game.position.stores)
            )
            await self._games.commit(live, changes, ratings=ratings)
        else:  # an agreed end, scored by the ruleset's cycle policy
            probe = Game(game.rules, position=game.position)
            probe.agree_end()
            changes, ratings = await self._games.finish_fields(live, probe.outcome())
            await self._games.commit(live, changes, ratings=ratings)
        return await self._games.view(live)

    async def accept_offer(self, game_id: int, by: Player) -> GameView:
        """The opponent accepts the pending offer: the game ends as a draw, ends as agreed, or
        the offerer's last move (and any reply after it) is taken back. Raises NotFound,
        NotAllowed, GameFinished, NoOffer (none pending, or it is your own)."""
        self._tasks.check_open()
        async with self._games.locked(game_id):
            live = await self._games.load(game_id)
            side = self._games.side_in_active_game(live, by)
            kind = live.row["offer_kind"]
            if kind is None:
                raise errors.NoOffer("there is no offer to accept in this game")
            if live.row["offer_by"] == self._players.known(by):
                raise errors.NoOffer("you made this offer; your opponent has to accept it")
            offerer = live.player(other_side(side))
            view = await self._grant(live, kind, other_side(side))
        self._announcer.notify(
            [offerer], lambda who: OfferAnswered(who, view, kind, True, by), actor=by
        )
        self._announcer.after_change(view, actor=by)
        return view

    async def decline_offer(self, game_id: int, by: Player) -> GameView:
        """The opponent declines the pending offer (the offerer may also withdraw it). Raises
        NotFound, NotAllowed, NoOffer."""
        self._tasks.check_open()
        async with self._games.locked(game_id):
            live = await self._games.load(game_id)
            side = self._games.side_of(live, by)
            kind = live.row["offer_kind"]
            if kind is None or live.row["status"] != "active":
                raise errors.NoOffer("there is no offer to decline in this game")
            await self._games.commit(live, dict(offer_kind=None, offer_by=None, offer_ply=None))
            view = await self._games.view(live)
        self._announcer.notify(
            [live.player(other_side(side))],
            lambda who: OfferAnswered(who, view, kind, False, by),
            actor=by,
        )
        return view
