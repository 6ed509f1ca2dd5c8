"""One player on every surface, and a player's data in their own hands (docs/privacy.md).

**Linking.** A Discord account and a mail address become one player when both sides prove
themselves with one code:

- from Discord, ``ask_link(by, "email", address)`` mails the address a code (the mail surface
  hears ``LinkRequested``); only a mail from that address with the code links them;
- from mail, ``ask_link(by, "discord")`` answers with a code; the Discord account that enters
  it (``confirm_link``) is linked.

A code works once, for ``LINK_SECONDS``, and only from the account it was meant for (a
wrong one leaves it waiting); an account may try ``TRIES_PER_DAY`` codes a day, and
a Discord account may have ``LINK_MAILS_PER_DAY`` link mails sent a day, an address receive
one: nobody can use the bot to mail strangers, or guess a code. A player has at most one
account per surface. Two accounts that play each other now, or entered one tournament, are not
linked (the player would play themselves).

Once linked the older player stays and takes in the other's games, challenges, tournament
entries, vacations, puzzle answers and settings it lacks; where both have a rating of a family,
the better established one stays (``storage.stores.identities``; docs/ratings.md says why
that keeps Glicko-2 sound). News goes to the account the player row names; ``send_news_to``
chooses another. ``unlink`` splits one account off: it starts again with nothing, the history
stays with the player.

**A player's data.** ``export`` is every row that names the player, as JSON. ``ask_delete``
gives a code that ``delete`` must be given back within ``DELETE_SECONDS``: then the player
resigns their games in progress, and a nameless stand-in ("a deleted player") takes their place
in every game, move and tournament, so their opponents' records and ratings stay as they were;
everything else about them is deleted.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.i18n import _
from bot.service import errors
from bot.service.announcer import Announcer
from bot.service.events import LinkRequested
from bot.service.games import Games
from bot.service.limits import Hit, Limits
from bot.service.looking import Looking
from bot.service.play import Play
from bot.service.players import Players
from bot.service.types import Player
from engine import excerpt
from storage.stores.identities import (
    DELETED_SURFACE,
    CodePurpose,
    Identity,
    IdentityStore,
    export_json_default,
)

LINK_SECONDS = 3_600.0  # a link code works for an hour: a mail may take minutes to arrive
DELETE_SECONDS = 900.0  # a deletion is confirmed within a quarter of an hour
TRIES_PER_DAY = 10  # codes one account may enter a day: a code is 1 in 32^8
LINK_MAILS_PER_DAY = 3  # link mails one account may have sent a day
DAY = 86_400
LINKABLE = ("discord", "email")  # the surfaces whose accounts a person proves they hold
EXPORT_FORMAT = "mancala-player-export/1"


@dataclass(frozen=True)
class LinkAsked:
    """A link asked for: the ``code`` to give back from an account on ``surface`` (``account``
    when one account only may), until ``expires_at``."""

    code: str
    surface: str
    account: Player | None
    expires_at: float


@dataclass(frozen=True)
class Linked:
    """The accounts of one player, news going to ``player`` (their own account)."""

    player: Player
    accounts: tuple[Player, ...]


@dataclass(frozen=True)
class Deleted:
    """A player deleted: ``resigned`` games in progress were resigned first, and ``kept``
    games are kept with a deleted player in their place."""

    resigned: int
    kept: int


class Identities:
    """Linking accounts, and exporting or deleting a player's data."""

    def __init__(
        self,
        *,
        identity_store: IdentityStore,
        clock: Callable[[], float],
        players: Players,
        games: Games,
        looking: Looking,
        play: Play,
        announcer: Announcer,
        limits: Limits,
    ) -> None:
        self._store = identity_store
        self._clock = clock
        self.players = players
        self.games = games
        self.looking = looking
        self.play = play
        self.announcer = announcer
        self.limits = limits

    # -- linking --------------------------------------------------------------------------------

    async def ask_link(self, by: Player, surface: str, address: str | None = None) -> LinkAsked:
        """A code that links ``by``'s player with an account on ``surface``: to the mail
        ``address`` (which is mailed the code), or to whichever Discord account enters it.
        Raises BadRequest (a surface that cannot be linked, a bad address), NotAllowed (a
        player who has an account there already, or too many link mails today)."""
        surface = str(surface).strip().lower()
        owner = await self._linkable(by)
        if surface not in LINKABLE or surface == by.surface:
            raise errors.BadRequest(
                _("an account is linked to one on another surface: {surfaces}").format(
                    surfaces=", ".join(s for s in LINKABLE if s != by.surface)
                )
            )
        target = self.players.email_player(address or "") if surface == "email" else None
        if target is not None and "email" not in self.announcer.notifiers:
            raise errors.NotAllowed(_("this bot does not send mail, so it cannot link an address"))
        pid = await self.players.pid(owner)
        accounts = await self._store.identities(pid)
        if any(a.surface == surface for a in accounts):
            raise errors.NotAllowed(
                _("you have a {surface} account linked already; unlink it first").format(
                    surface=surface
                )
            )
        now = self._clock()
        if target is not None:
            hits = [
                Hit(f"link:mails:{by.surface}:{by.id}", DAY, LINK_MAILS_PER_DAY),
                Hit(f"link:mailed:{target.id}", DAY, 1),
            ]
            counted = await self.limits.count(hits, now)
            if not all(counted):
                await self.limits.give_back(
                    [h for h, c in zip(hits, counted, strict=True) if c], now
                )
                raise errors.NotAllowed(
                    _(
                        "no more link mails today: an address gets one a day, and an account "
                        "sends {most} a day; try again tomorrow"
                    ).format(most=LINK_MAILS_PER_DAY)
                )
        code = await self._store.add_code(
            pid,
            CodePurpose.LINK,
            now,
            LINK_SECONDS,
            surface=surface,
            external_id=target.id if target else None,
        )
        asked = LinkAsked(code, surface, target, now + LINK_SECONDS)
        if target is not None:
            self.announcer.notify(
                [target], lambda who: LinkRequested(who, code, owner, asked.expires_at)
            )
        return asked

    async def confirm_link(self, by: Player, code: str) -> Linked:
        """Link ``by``'s account with the player who asked for ``code``. Raises NotAllowed (a
        wrong, used or expired code, a code for another account, too many tries, two accounts
        that play each other or entered one tournament, or an account linked already)."""
        owner = await self._linkable(by)
        now = self._clock()
        tries = Hit(f"link:tries:{by.surface}:{by.id}", DAY, TRIES_PER_DAY)
        if not (await self.limits.count([tries], now))[0]:
            raise errors.NotAllowed(
                _("too many codes tried today; try again tomorrow, or ask for a new code")
            )
        stored = await self._store.find_code(str(code)[:40], now)
        wrong = _(
            "'{code}' is not a link code that is waiting for this account: codes work once, "
            "for an hour; ask for a new one"
        ).format(code=excerpt(str(code), 20))
        if (
            stored is None
            or stored.purpose is not CodePurpose.LINK
            or stored.surface != by.surface
            or (stored.external_id is not None and stored.external_id != by.id)
        ):
            raise errors.NotAllowed(wrong)
        kept = min(stored.player_id, await self.players.pid(owner))
        other = max(stored.player_id, await self.players.pid(owner))
        if kept == other:
            raise errors.NotAllowed(_("these accounts are linked already"))
        accounts = [a for p in (kept, other) for a in await self._store.identities(p)]
        surfaces = [a.surface for a in accounts]
        if len(set(surfaces)) < len(surfaces):
            raise errors.NotAllowed(
                _(
                    "a player has one account on each surface, and these two have {surface} "
                    "accounts both; unlink one first"
                ).format(surface=next(s for s in surfaces if surfaces.count(s) > 1))
            )
        if await self._store.game_between(kept, other) is not None:
            raise errors.NotAllowed(
                _("these accounts are playing each other; link them once that game is over")
            )
        if await self._store.shared_tournament(kept, other) is not None:
            raise errors.NotAllowed(
                _("these accounts entered the same tournament, so they cannot be one player")
            )
        if await self._store.take_code(str(code)[:40], now) is None:  # taken meanwhile
            raise errors.NotAllowed(wrong)
        await self._store.merge(kept, other, now)
        self._forget(accounts)
        return await self.linked(by)

    async def linked(self, by: Player) -> Linked:
        """The accounts of ``by``'s player, their own first."""
        pid = await self.players.pid(by)
        accounts = tuple(Player(*a.account) for a in await self._store.identities(pid))
        return Linked(accounts[0], accounts)

    async def unlink(self, by: Player, surface: str) -> Linked:
        """Split the player's account on ``surface`` off: it is a new player, with nothing;
        the games, ratings and settings stay with the player's other account. The accounts
        left. Raises NotFound when no account of theirs is there."""
        pid = await self.players.pid(await self._linkable(by))
        accounts = await self._store.identities(pid)
        leaving = next((a for a in accounts if a.surface == str(surface).strip().lower()), None)
        if leaving is None or len(accounts) < 2:
            raise errors.NotFound(
                _("you have no linked account on {surface}").format(surface=excerpt(surface, 20))
            )
        if leaving.primary:  # the player row must name an account that stays
            staying = next(a for a in accounts if not a.primary)
            await self._store.make_primary(pid, staying.player_id)
            leaving = next(
                a for a in await self._store.identities(pid) if a.surface == leaving.surface
            )
        await self._store.split(leaving.player_id)
        self._forget(accounts)
        staying = next(a for a in accounts if a.surface != leaving.surface)
        return await self.linked(Player(*staying.account))

    async def send_news_to(self, by: Player, surface: str) -> Linked:
        """News of the player's games goes to their account on ``surface`` from now on.
        Raises NotFound when no account of theirs is there."""
        pid = await self.players.pid(await self._linkable(by))
        accounts = await self._store.identities(pid)
        chosen = next((a for a in accounts if a.surface == str(surface).strip().lower()), None)
        if chosen is None:
            raise errors.NotFound(
                _("you have no linked account on {surface}").format(surface=excerpt(surface, 20))
            )
        if not chosen.primary:
            await self._store.make_primary(pid, chosen.player_id)
            self._forget(accounts)
        return await self.linked(by)

    # -- a player's data ------------------------------------------------------------------------

    async def export(self, by: Player) -> str:
        """Everything stored about ``by``'s player, as JSON: their accounts, games and moves,
        ratings, challenges, tournaments, settings and the rest, one list of rows per table."""
        pid = await self.players.pid(await self._linkable(by))
        tables = await self._store.export(pid)
        exported: dict[str, Any] = {
            "format": EXPORT_FORMAT,
            "exported_at": dt.datetime.fromtimestamp(self._clock(), dt.UTC).isoformat(),
            "player_id": pid,
            "tables": tables,
        }
        return json.dumps(exported, default=export_json_default, indent=1, sort_keys=True)

    async def ask_delete(self, by: Player) -> str:
        """The code that confirms deleting ``by``'s player (``delete``)."""
        pid = await self.players.pid(await self._linkable(by))
        return await self._store.add_code(pid, CodePurpose.DELETE, self._clock(), DELETE_SECONDS)

    async def delete(self, by: Player, code: str) -> Deleted:
        """Delete ``by``'s player, confirmed by the code ``ask_delete`` gave: their games in
        progress are resigned, then a deleted player takes their place in every game, and
        the rest of their data goes. Raises NotAllowed for a wrong or expired code."""
        owner = await self._linkable(by)
        pid = await self.players.pid(owner)
        now = self._clock()
        stored = await self._store.take_code(str(code)[:40], now)
        if stored is None or stored.purpose is not CodePurpose.DELETE or stored.player_id != pid:
            raise errors.NotAllowed(
                _("'{code}' is not your deletion code, or it expired; ask for a new one").format(
                    code=excerpt(str(code), 20)
                )
            )
        resigned = 0
        for game in await self.looking.list_games(owner, include_finished=False, limit=10_000):
            try:
                await self.play.resign(game.id, owner)
                resigned += 1
            except errors.ServiceError:
                pass  # ended meanwhile
        kept = len(await self.looking.list_games(owner, include_finished=True, limit=100_000))
        accounts = await self._store.identities(pid)
        await self._store.erase(pid, now)
        self._forget(accounts)
        return Deleted(resigned, kept)

    # -- helpers --------------------------------------------------------------------------------

    async def _linkable(self, by: Player) -> Player:
        """The player behind the account ``by``; BadRequest for the AI and deleted players."""
        if by.is_ai or by.surface == DELETED_SURFACE:
            raise errors.BadRequest(_("only a person's own accounts have data to link or keep"))
        return await self.players.owner(by)

    def _forget(self, accounts: list[Identity]) -> None:
        """Read these accounts, and the players they were, again (they were just changed)."""
        self.players.forget(*(Player(*a.account) for a in accounts))
        self.games.live.clear()  # cached games name the players as they were
