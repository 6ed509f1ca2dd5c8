"""Playing a game: moves (exactly once, checked by the engine), resignation, and offers
(draw, agreed end, undo) with their answers."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot import metrics
from bot.i18n import N_, _
from bot.service import errors
from bot.service.ai_limits import AIFairness
from bot.service.announcer import Announcer
from bot.service.clock import turn_clock
from bot.service.events import GameOver, OfferAnswered, OfferMade, PlayerLeft
from bot.service.games import MAX_ID, NO_OFFER, Games
from bot.service.live import LiveGame, board_json
from bot.service.players import Players
from bot.service.tasks import Tasks
from bot.service.types import GameView, OfferKind, Player, side_name
from engine import Game, Outcome, Side, Termination, excerpt
from engine import IllegalMove as EngineIllegalMove  # the service's IllegalMove wraps it
from engine.inputs import whole_number
from storage.records import GameChanges, NewMove, RatingRecord

_AI_REFUSES = {  # the AI's answer to an offer it never accepts, by the offer's kind
    OfferKind.DRAW: N_("the AI does not agree to a draw; play on or resign"),
    OfferKind.END: N_("the AI does not agree to an agreed end; play on or resign"),
}


def _offer_kind(kind: object) -> OfferKind:
    """An offer's kind as a surface may send it ("draw", "end", "undo"), or BadRequest."""
    try:
        return OfferKind(str(kind))
    except ValueError:
        kinds = ", ".join(OfferKind)
        raise errors.BadRequest(
            # TRANSLATORS: {kinds} are the offers' keywords (draw, end, undo): kept as they are.
            _("an offer is one of: {kinds}; not '{kind}'").format(kinds=kinds, kind=excerpt(kind))
        ) from None


def _as_ply(value: int | str | None) -> int | None:
    """An expected ply as a surface may carry it (an int, or digits from a button's id)."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return value
    try:
        return whole_number(str(value), "the expected move number", 0, MAX_ID)
    except (TypeError, ValueError):
        raise errors.BadRequest(
            _("the expected move number must be a whole number, not '{value}'").format(
                value=excerpt(value)
            )
        ) from None


log = logging.getLogger(__name__)


@dataclass(eq=False, kw_only=True)
class Play:
    """Moves, resignation and offers in a game."""

    clock: Callable[[], float]
    tasks: Tasks
    players: Players
    games: Games
    announcer: Announcer
    fairness: AIFairness

    async def move(
        self, game_id: int, by: Player, move: str, expected_ply: int | str | None = None
    ) -> GameView:
        """Play ``move`` (a pit letter, checked by the engine) for ``by``. With
        ``expected_ply`` (the ``ply`` of the board the player saw), a move sent for an older
        board is refused: each move is applied exactly once, even when sent twice. Returns the
        game after the move (if the AI is to reply, its move arrives as a MoveMade event).

        Raises NotFound, NotAllowed (not a player here), GameFinished, NotYourTurn,
        StaleMove / DuplicateMove (ply mismatch), IllegalMove (the engine's reason),
        TooMuchAIWork (the AI would reply, and ``by`` has as many requests waiting for it
        as allowed: the move is not played)."""
        self.tasks.check_open()
        expected_ply = _as_ply(expected_ply)
        async with self.games.locked(game_id):
            live = await self.games.load(game_id)
            if expected_ply is not None and expected_ply > live.record.ply:
                # The player saw a later board (shown by another process): the database may
                # be ahead of our copy. A board older than our copy is stale whatever the
                # database holds, so it costs no read.
                live = await self.games.load(game_id, fresh=True)
            self.games.side_of(live, by)
            if expected_ply is not None and expected_ply != live.record.ply:
                raise self._stale(live, move, expected_ply)
            if not live.record.is_active:
                raise errors.GameFinished(
                    _("game #{id} is over; start a new one").format(id=game_id)
                )
            mover = live.to_move_side
            if live.player(mover) != by:
                name = await self.players.display_name(live.player(mover))
                raise errors.NotYourTurn(
                    # TRANSLATORS: {side} is South or North; {name} the player's name.
                    _("it is not your turn: {side} ({name}) is to move").format(
                        side=side_name(mover), name=name
                    )
                )
            if live.player(mover.other).is_ai:
                self.fairness.check_waiting(by)
            view = await self.apply(live, by, move)
        self.announcer.after_change(view, actor=by, move=view.moves[-1] if view.moves else move)
        return view

    def _stale(self, live: LiveGame, move: str, expected_ply: int) -> errors.ServiceError:
        ply = live.record.ply
        if isinstance(expected_ply, int) and 0 <= expected_ply < ply:
            done = live.game.moves[expected_ply]
            then = live.game.positions[expected_ply]  # the board the player was looking at
            try:
                same = then.parse_move(move) == then.parse_move(done)
            except EngineIllegalMove:
                same = False
            if same:
                return errors.DuplicateMove(
                    _(
                        "move {number} ({move}) was already played; it is not played twice. "
                        "The game is at move {now} now."
                    ).format(number=expected_ply + 1, move=done, now=ply + 1)
                )
            return errors.StaleMove(
                _(
                    "that board is out of date: it showed move {number}, and the game is at "
                    "move {now} now; look at the board again"
                ).format(number=expected_ply + 1, now=ply + 1)
            )
        return errors.StaleMove(
            _("there is no move {number} yet: the game is at move {now}").format(
                number=expected_ply + 1, now=ply + 1
            )
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
            now = self.clock()
            changes = self._turn_changes(live, now)
            record: NewMove = {
                "move": game.moves[-1],
                "player_id": await self.players.pid(by),
                "played_at": now,
                "board": changes["board"],
                "mover": pos.mover,
            }
            ratings: Sequence[RatingRecord] = ()
            outcome = game.outcome()
            if outcome is not None:
                ending = await self.games.ending(live, outcome)
                changes.update(ending.changes)
                ratings = ending.ratings
            await self.games.commit(live, changes, move=record, ratings=ratings)
        except BaseException:
            self.games.live.drop(live.id)  # the engine moved but the file did not
            raise
        metrics.MOVES.labels(surface=by.surface).inc()
        log.info(
            "move %s played (move %d)%s",
            record["move"],
            len(game.moves),
            ": game over" if game.is_over() else "",
            extra={"game": live.id, "surface": by.surface, "player": by.id},
        )
        return await self.games.view(live)

    def _turn_changes(self, live: LiveGame, now: float) -> GameChanges:
        """What changes when the turn passes (after a move or a take-back): the board, who
        moves, their clock; a pending offer and the last reminder lapse."""
        pos = live.game.position
        changes: GameChanges = {
            "board": board_json(pos.board),
            "mover": pos.mover,
            "last_move_at": now,
            "reminded_at": None,
            **NO_OFFER,
        }
        changes.update(turn_clock(live.options, live.player(pos.to_move), now))
        return changes

    async def resign(self, game_id: int, by: Player, leaving: bool = False) -> GameView:
        """``by`` resigns; the opponent wins. ``leaving``: they resign because they leave the
        bot (``PlayerLeft`` tells the opponent so). Raises NotFound, NotAllowed,
        GameFinished."""
        self.tasks.check_open()
        async with self.games.locked(game_id):
            live = await self.games.load(game_id)
            side = self.games.side_in_active_game(live, by)
            if live.south == live.north:
                side = live.to_move_side  # at one keyboard, the player to move gives up
            ending = await self.games.ending(
                live,
                Outcome.of(
                    Termination.RESIGNATION,
                    live.game.position.stores,
                    by=side,
                    ply=live.record.ply + 1,
                ),
            )
            await self.games.commit(live, ending.changes, ratings=ending.ratings)
            view = await self.games.view(live)
        if leaving:
            self.announcer.notify(
                [view.south, view.north], lambda who: PlayerLeft(who, view, by), actor=by
            )
        else:
            self.announcer.notify(
                [view.south, view.north], lambda who: GameOver(who, view), actor=by
            )
        return view

    async def offer(self, game_id: int, by: Player, kind: OfferKind | str) -> GameView:
        """Offer a "draw", an agreed "end" (scored like an endless cycle, by the ruleset), or
        ask to take back your last move ("undo"). The AI accepts an undo at once and refuses
        draws and ends (NotAllowed). At one keyboard (the same player on both sides) every
        offer is granted at once. Offering what the opponent is offering accepts their offer.
        A new offer replaces a pending one; a move cancels it. The returned game has no
        pending offer when it was granted at once. Raises NotFound, NotAllowed, GameFinished,
        BadRequest (unknown kind, or no move of yours to undo)."""
        self.tasks.check_open()
        kind = _offer_kind(kind)
        async with self.games.locked(game_id):
            live = await self.games.load(game_id)
            side = self.games.side_in_active_game(live, by)
            opponent = live.player(side.other)
            pending = live.record.offer_kind
            theirs = pending is not None and live.record.offer_by != self.players.known(by)
        if theirs and pending == kind:
            return await self.accept_offer(game_id, by)  # both want the same: agreed
        async with self.games.locked(game_id):
            live = await self.games.load(game_id)
            side = self.games.side_in_active_game(live, by)
            if kind is OfferKind.UNDO:
                self._undo_target(live, side)  # raises if there is nothing to take back
            if opponent.is_ai and kind is not OfferKind.UNDO:
                raise errors.NotAllowed(_(_AI_REFUSES[kind]))
            if opponent == by or opponent.is_ai:
                view = await self._grant(live, kind, side)
                granted = True
            else:
                await self.games.commit(
                    live,
                    {
                        "offer_kind": kind,
                        "offer_by": await self.players.pid(by),
                        "offer_ply": live.record.ply,
                    },
                )
                view = await self.games.view(live)
                granted = False
        if granted:
            self.announcer.after_change(view, actor=by)
        else:
            self.announcer.notify([opponent], lambda who: OfferMade(who, view, kind, by))
        return view

    async def offer_draw(self, game_id: int, by: Player) -> GameView:
        """Same as ``offer(game_id, by, "draw")``."""
        return await self.offer(game_id, by, OfferKind.DRAW)

    async def offer_end(self, game_id: int, by: Player) -> GameView:
        """Same as ``offer(game_id, by, "end")``."""
        return await self.offer(game_id, by, OfferKind.END)

    async def request_undo(self, game_id: int, by: Player) -> GameView:
        """Same as ``offer(game_id, by, "undo")``."""
        return await self.offer(game_id, by, OfferKind.UNDO)

    def _undo_target(self, live: LiveGame, side: Side) -> int:
        """The ply to go back to so that ``side``'s last move is taken back."""
        game = live.game
        one_keyboard = live.south == live.north
        for ply in range(len(game.moves), 0, -1):
            if one_keyboard or live.mover_of_ply(ply) == side:
                return ply - 1
        raise errors.BadRequest(_("there is no move of yours to take back"))

    async def _grant(self, live: LiveGame, kind: OfferKind, side: Side) -> GameView:
        """Carry out an accepted offer made by ``side``; the caller holds the game's lock."""
        game = live.game
        if kind is OfferKind.UNDO:
            to_ply = self._undo_target(live, side)
            try:
                while len(game.moves) > to_ply:
                    game.undo()
                changes = self._turn_changes(live, self.clock())
                await self.games.commit(live, changes, take_back_to=to_ply)
            except BaseException:
                self.games.live.drop(live.id)
                raise
            return await self.games.view(live)
        if kind is OfferKind.DRAW:
            outcome = Outcome.of(Termination.AGREED_DRAW, game.position.stores)
        else:  # an agreed end, scored by the ruleset's cycle policy
            probe = Game(game.rules, position=game.position)
            probe.agree_end()
            ended = probe.outcome()
            if ended is None:
                raise errors.BadRequest(_("this game cannot be ended by agreement here"))
            outcome = ended
        ending = await self.games.ending(live, outcome)
        await self.games.commit(live, ending.changes, ratings=ending.ratings)
        return await self.games.view(live)

    async def accept_offer(self, game_id: int, by: Player) -> GameView:
        """The opponent accepts the pending offer: the game ends as a draw, ends as agreed, or
        the offerer's last move (and any reply after it) is taken back. Raises NotFound,
        NotAllowed, GameFinished, NoOffer (none pending, or it is your own)."""
        self.tasks.check_open()
        async with self.games.locked(game_id):
            live = await self.games.load(game_id)
            side = self.games.side_in_active_game(live, by)
            kind = live.record.offer_kind
            if kind is None:
                raise errors.NoOffer(_("there is no offer to accept in this game"))
            if live.record.offer_by == self.players.known(by):
                raise errors.NoOffer(_("you made this offer; your opponent has to accept it"))
            offerer = live.player(side.other)
            view = await self._grant(live, kind, side.other)
        self.announcer.notify(
            [offerer], lambda who: OfferAnswered(who, view, kind, True, by), actor=by
        )
        self.announcer.after_change(view, actor=by)
        return view

    async def decline_offer(self, game_id: int, by: Player) -> GameView:
        """The opponent declines the pending offer (the offerer may also withdraw it). Raises
        NotFound, NotAllowed, NoOffer."""
        self.tasks.check_open()
        async with self.games.locked(game_id):
            live = await self.games.load(game_id)
            side = self.games.side_of(live, by)
            kind = live.record.offer_kind
            if kind is None or not live.record.is_active:
                raise errors.NoOffer(_("there is no offer to decline in this game"))
            await self.games.commit(live, {**NO_OFFER})
            view = await self.games.view(live)
        self.announcer.notify(
            [live.player(side.other)],
            lambda who: OfferAnswered(who, view, kind, False, by),
            actor=by,
        )
        return view
