"""Who is pinged, and how: one policy for every surface.

Only the player to move is pinged, only when a move (or the start of a game) gives them the
turn, never when someone just looks at the board, and not again within ``COOLDOWN`` seconds
in the same game (a fast game would ping on every move). Each player chooses how: a mention
where the game is (the default), a direct message, or nothing.

>>> [mode.value for mode in PingMode]
['mention', 'dm', 'off']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from bot.i18n import _
from bot.service import errors
from bot.service.players import Players
from bot.service.servers import ServerSettings
from bot.service.types import GameView, Player
from engine import excerpt
from storage.records import PingMode
from storage.stores.players import PlayerStore

COOLDOWN = 120.0  # seconds between two pings of one player in one game


class Ping(NamedTuple):
    """Whom to mention in the game's place, and whom to tell by direct message."""

    mention: Player | None = None
    direct: Player | None = None


NOBODY = Ping()


@dataclass(eq=False, kw_only=True)
class Pings:
    """The one policy for pinging the player to move."""

    player_store: PlayerStore
    clock: Callable[[], float]
    players: Players
    _last: dict[tuple[int, Player], float] = field(default_factory=dict, init=False)

    async def set_mode(self, player: Player, mode: PingMode | str) -> None:
        """How ``player`` wants to hear it is their move. Raises BadRequest."""
        try:
            chosen = PingMode(mode)
        except ValueError:
            modes = ", ".join(PingMode)
            raise errors.BadRequest(
                # TRANSLATORS: {modes} are the settings' keywords (mention, dm, off): keep them.
                _("pings are one of: {modes}; not '{mode}'").format(modes=modes, mode=excerpt(mode))
            ) from None
        await self.player_store.set_ping(await self.players.pid(player), chosen)

    async def mode(self, player: Player) -> PingMode:
        record = await self.player_store.get(await self.players.pid(player))
        return record.ping if record else PingMode.MENTION

    async def for_turn(
        self, game: GameView, actor: Player | None = None, place: ServerSettings | None = None
    ) -> Ping:
        """Whom to ping now that a move or a new game gives ``game.to_move`` the turn
        (``actor``, who caused it, is answered directly and never pinged). ``place``: the
        settings of the server the game is on, whose ``pings="off"`` silences mentions (a
        player's own choice of direct messages still holds)."""
        player = game.to_move
        if (
            game.is_over
            or player is None
            or player.is_ai
            or game.south == game.north
            or player == actor
        ):
            return NOBODY
        now = self.clock()
        key = (game.id, player)
        if now - self._last.get(key, float("-inf")) < COOLDOWN:
            return NOBODY
        mode = await self.mode(player)
        if mode == "off" or (mode == "mention" and place is not None and place.pings == "off"):
            return NOBODY
        self._last[key] = now
        return Ping(direct=player) if mode == "dm" else Ping(mention=player)
