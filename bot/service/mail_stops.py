"""Addresses that said ``stop``: the bot mails them nothing more, for good, until they write
``start`` (docs/privacy.md).

What a stop does to what the address has under way, decided here for every surface: each game
in progress is resigned (the opponent is told why: ``PlayerLeft``; a game against the AI simply
ends), each tournament is left (``Tournaments.withdraw``), each open challenge made is
cancelled and each received is declined. A player who wants no more mail expects no more
games that wait for them, and an opponent would rather have the point now than wait out a
deadline for a move that will not come.

Only a stop the surface can tell comes from the address's owner ends anything (a signed
unsubscribe link, a reply carrying one of the bot's tokens for that address); a From address
alone, easy to forge, only stops the mail, which its owner can undo with ``start``.

The stop is kept by a keyed hash of the address (``bot.tokens.address_key``: the surface,
which holds the secret, makes it), never the address, so it outlives the deletion of the
player's data and still names nobody. It is recorded before the games end: the mails those
endings cause to the address are already dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot import metrics
from bot.i18n import _
from bot.service import errors
from bot.service.challenges import Challenges
from bot.service.looking import Looking
from bot.service.play import Play
from bot.service.tournaments import Tournaments, TournamentStatus
from bot.service.types import Player
from storage.stores.mail_stops import MailStopStore

log = logging.getLogger(__name__)

_BATCH = 200  # games ended per read of the player's list


@dataclass(frozen=True)
class Stopped:
    """What a stop ended: games resigned against people, games against the AI ended,
    tournaments left, challenges withdrawn or declined. ``already``: the address had said
    stop before (nothing more was recorded)."""

    resigned: int = 0
    ai_games: int = 0
    tournaments: int = 0
    challenges: int = 0
    already: bool = False


class MailStops:
    """Records stops and lifts them, and ends what a stopping player has under way."""

    def __init__(
        self,
        *,
        stop_store: MailStopStore,
        clock: Callable[[], float],
        looking: Looking,
        play: Play,
        challenges: Challenges,
        tournaments: Tournaments,
    ) -> None:
        self.stop_store = stop_store
        self.clock = clock
        self.looking = looking
        self.play = play
        self.challenges = challenges
        self.tournaments = tournaments

    async def is_stopped(self, key: str) -> bool:
        """Whether the address keyed ``key`` said stop (one read, on the table's key)."""
        return await self.stop_store.stopped_at(key) is not None

    async def stop(self, player: Player, key: str, end_games: bool = True) -> Stopped:
        """``player`` (an email player, keyed ``key``) wants no more mail: record it, then,
        with ``end_games``, end what they have under way (see the module's docstring).
        Idempotent: a second stop finds nothing left to end. Without ``end_games`` (a stop
        whose sender the surface cannot tell from a forger) only the mail stops: nobody can
        resign another's games by writing in their name."""
        if player.surface != "email":
            raise errors.BadRequest(_("only an email address can stop mail"))
        fresh = await self.stop_store.stop(key, self.clock())
        if fresh:
            metrics.MAIL_STOPS.labels(change="stop").inc()
            log.info("an address stopped mail")  # never which: the point is to forget it
        if not end_games:
            return Stopped(already=not fresh)
        resigned = ai_games = 0
        while True:
            games = [
                g
                for g in await self.looking.list_games(player, limit=_BATCH)
                if not g.is_over and player in (g.south, g.north)
            ]
            for game in games:
                opponent = game.north if game.south == player else game.south
                try:
                    await self.play.resign(game.id, player, leaving=True)
                except errors.ServiceError:  # ended meanwhile (a move, a deadline)
                    continue
                if opponent.is_ai or opponent == player:
                    ai_games += 1
                else:
                    resigned += 1
            if len(games) < _BATCH:
                break
        left = 0
        for status in (TournamentStatus.OPEN, TournamentStatus.RUNNING):
            for tournament in await self.tournaments.list_tournaments(status, player, 100):
                try:
                    await self.tournaments.withdraw(tournament.id, player)
                    left += 1
                except errors.ServiceError:  # withdrawn before, or over meanwhile
                    continue
        withdrawn = 0
        for challenge in await self.challenges.open_challenges(player):
            try:
                if challenge.challenger == player:
                    await self.challenges.cancel(challenge.id, player)
                else:
                    await self.challenges.decline(challenge.id, player)
                withdrawn += 1
            except errors.ServiceError:  # answered meanwhile
                continue
        return Stopped(resigned, ai_games, left, withdrawn, already=not fresh)

    async def start(self, key: str) -> bool:
        """Lift the stop of the address keyed ``key``: the bot mails it again. False when it
        had none."""
        lifted = await self.stop_store.start(key)
        if lifted:
            metrics.MAIL_STOPS.labels(change="start").inc()
            log.info("an address started mail again")
        return lifted
