"""Who plays: players' database ids, their display names, and the check that a player is one.

Every part of the service asks this one directory, so a player is checked once, when first
seen, and the id a surface sent never reaches the database unchecked.

An account linked to another player is that player (``bot.service.identities``): its id is
theirs, and ``owner`` gives the player it plays as. Each process keeps its map of accounts for
``REFRESH_AFTER`` seconds, then reads it again, so a link made by another process holds here
within that time; what this process wrote for the old player meanwhile is gathered to the new
one as it notices (``IdentityStore.gather``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.ai_runtime.pool import known_levels
from bot.i18n import _
from bot.service import errors
from bot.service.addresses import is_own_address, mailbox
from bot.service.types import SURFACES, Player
from engine import excerpt
from storage.stores.identities import IdentityStore
from storage.stores.players import PlayerStore

MAX_PLAYER_ID = 320  # an email address is at most 254 characters, a Discord id 20
REFRESH_AFTER = 60.0  # seconds of the service's clock a process trusts its map of accounts


class Players:
    """Players of the store: ``pid`` (checked, created on first sight) and back."""

    def __init__(
        self,
        *,
        player_store: PlayerStore,
        clock: Callable[[], float],
        extra_surfaces: Callable[[], Iterable[str]] = tuple,
        identity_store: IdentityStore | None = None,
    ):
        self._player_store = player_store
        self._identity_store = identity_store
        self._clock = clock
        self._extra_surfaces = extra_surfaces  # surfaces with a notifier, beyond SURFACES
        self._ids: dict[Player, tuple[int, float]] = {}  # with when it was read
        self._by_id: dict[int, tuple[Player, float]] = {}
        self.mail_address: str | None = None  # the bot's own, once a mail surface is attached

    def email_player(self, text: str) -> Player:
        """The email player at the address ``text`` (lowercased, as mail compares them).
        BadRequest for what the bot cannot mail, and for the bot's own address (``+tag``
        included): a challenge to it would be the bot mailing itself.

        >>> Players(player_store=None, clock=lambda: 0.0).email_player(" <Ann@Example.ORG>")
        Player(surface='email', id='ann@example.org')
        """
        address = mailbox(str(text))
        if not address:
            raise errors.BadRequest(
                _("'{text}' is not an email address; write one like ann@example.org").format(
                    text=excerpt(str(text), 60)
                )
            )
        if is_own_address(address, self.mail_address):
            raise errors.BadRequest(_("that is my own address; to play me, challenge the AI"))
        return Player("email", address)

    def check(self, player: Player) -> None:
        """BadRequest unless ``player`` is a player of a known surface with a usable id."""
        if not isinstance(player, Player):
            raise errors.BadRequest(_("not a player: {what}").format(what=excerpt(repr(player))))
        if player.surface not in SURFACES and player.surface not in self._extra_surfaces():
            raise errors.BadRequest(
                _("unknown surface '{surface}'; players are on: {surfaces}").format(
                    surface=excerpt(player.surface), surfaces=", ".join(SURFACES)
                )
            )
        if not (
            isinstance(player.id, str)
            and 0 < len(player.id) <= MAX_PLAYER_ID
            and player.id.isprintable()
        ):
            raise errors.BadRequest(
                _("a player needs an id on their surface: 1 to {most} printable characters").format(
                    most=MAX_PLAYER_ID
                )
            )
        if player.is_ai and player.id not in known_levels():
            raise errors.BadRequest(
                _("unknown AI level '{level}'; levels are: {levels}").format(
                    level=excerpt(player.id), levels=", ".join(known_levels())
                )
            )

    def known(self, player: Player) -> int | None:
        """The player's id if seen already (no check, no database)."""
        entry = self._ids.get(player)
        return entry[0] if entry else None

    async def pid(self, player: Player) -> int:
        """The player's database id (a linked account's: the player's), checking and recording
        the player on first sight."""
        pid = await self._read_id(player, record=True)
        assert pid is not None  # recorded if new
        return pid

    async def _read_id(self, player: Player, record: bool) -> int | None:
        """The player's id, from the map while it is fresh; on first sight recorded (with
        ``record``) or None."""
        now = self._clock()
        entry = self._ids.get(player)
        if entry is not None and now - entry[1] < REFRESH_AFTER:
            return entry[0]
        if entry is None:
            self.check(player)
        if record:
            pid: int | None = await self._player_store.id(player.surface, player.id, now)
        else:
            pid = await self._player_store.find_id(player.surface, player.id)
        if pid is None:
            return None
        if entry is not None and entry[0] != pid and self._identity_store is not None:
            await self._identity_store.gather(entry[0], pid)  # linked meanwhile, elsewhere
            self._by_id.pop(entry[0], None)
        self._ids[player] = (pid, now)
        return pid

    async def player(self, pid: int) -> Player:
        """The player with database id ``pid``, named by their own account (the one news goes
        to)."""
        now = self._clock()
        entry = self._by_id.get(pid)
        if entry is not None and now - entry[1] < REFRESH_AFTER:
            return entry[0]
        record = await self._player_store.get(pid)
        if record is None:
            raise errors.NotFound(_("there is no player #{id}").format(id=pid))
        player = Player(record.surface, record.external_id)
        self._by_id[pid] = (player, now)
        self._ids[player] = (pid, now)
        return player

    async def owner(self, account: Player) -> Player:
        """The player ``account`` plays as: itself, or the player it is linked to, named by
        their own account. The AI is itself, and so is an account never seen (nothing is
        recorded about it: a stranger's mail answered leaves no player behind)."""
        if account.is_ai:
            return account
        pid = await self._read_id(account, record=False)
        return account if pid is None else await self.player(pid)

    def forget(self, *accounts: Player) -> None:
        """Read these accounts, and the players they were, again when next asked (they were
        linked or split here)."""
        for account in accounts:
            entry = self._ids.pop(account, None)
            if entry is not None:
                self._by_id.pop(entry[0], None)

    async def set_display_name(self, player: Player, name: str) -> None:
        """Remember how to call a player (shown on leaderboards). Raises BadRequest for an
        unknown surface or an unknown AI level."""
        name = excerpt(str(name)[:1000], 64)  # printable, one line: names reach every surface
        if not name:
            raise errors.BadRequest(_("a display name cannot be empty"))
        await self._player_store.set_display_name(await self.pid(player), name)

    async def display_name(self, player: Player) -> str:
        """The player's display name, or a readable default ("AI (hard)", the address...);
        the AI's in the current language."""
        if player.is_ai:
            # TRANSLATORS: the AI's name as a player; {level} is its level's name (hard).
            return _("AI ({level})").format(level=player.id)
        record = await self._player_store.get(await self.pid(player))
        return (record and record.display_name) or player.id
