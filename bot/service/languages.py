"""Which language a player is answered in: one rule for every surface.

A player's own setting wins, on every surface (it is stored with the player). Without one,
the surface's own hints decide, most specific first: on Discord the interaction's locale
and then the server's preferred locale; by mail the mail's Content-Language and then the
language of its quoted attribution line; in the terminal ``--lang`` and then LANG. English
otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Language, _, choose
from bot.service import errors
from bot.service.players import Players
from bot.service.types import Player
from engine import excerpt
from storage import Storage


@dataclass(eq=False, kw_only=True)
class Languages:
    """Players' language settings, and the choice of a reply's language."""

    store: Storage
    players: Players

    async def setting(self, player: Player) -> Language | None:
        """The language ``player`` chose, or None (then surfaces go by their hints)."""
        if player.is_ai:
            return None
        record = await self.store.player(await self.players.pid(player))
        return Language.from_tag(record.language) if record else None

    async def set(self, player: Player, text: str | None) -> Language | None:
        """Remember the language ``player`` chose: a code, a tag or a name (``fr``,
        ``pt-BR``, ``Deutsch``); ``None`` or ``auto`` forgets it. Raises BadRequest."""
        if text is None or str(text).strip().lower() in {"", "auto", "default"}:
            chosen = None
        else:
            chosen = Language.from_tag(str(text))
            if chosen is None:
                accepted = ", ".join(f"{lang.value} ({lang.native_name})" for lang in Language)
                message = _(
                    "'{text}' is not a language I speak; choose one of: {accepted}, or auto"
                )
                raise errors.BadRequest(message.format(text=excerpt(str(text)), accepted=accepted))
        await self.store.set_language(await self.players.pid(player), chosen and chosen.value)
        return chosen

    async def for_player(self, player: Player | None, *hints: Language | str | None) -> Language:
        """The language to answer ``player`` in: their setting, else the first of the
        surface's ``hints`` that is a language we speak, else English."""
        setting = await self.setting(player) if player is not None else None
        return choose(setting, *hints)
