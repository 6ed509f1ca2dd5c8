"""Which language a player is answered in: one rule for every surface.

A player's own setting wins, on every surface (it is stored with the player). Without one,
the surface's own hints decide, most specific first: on Discord the interaction's locale
and then the server's preferred locale; by mail the mail's Content-Language and then the
language of its quoted attribution line; in the terminal ``--lang`` and then LANG. News sent
to a player unasked has no hints: it goes in the language last seen from them. English
otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import Language, _
from bot.service import errors
from bot.service.players import Players
from bot.service.types import Player
from engine import excerpt
from storage.records import PlayerRecord
from storage.stores.players import PlayerStore


@dataclass(eq=False, kw_only=True)
class Languages:
    """Players' language settings, and the choice of a reply's language."""

    player_store: PlayerStore
    players: Players

    async def _record(self, player: Player) -> PlayerRecord | None:
        """The player's row, without adding one: a stranger's mail makes no player."""
        if player.is_ai:
            return None
        return await self.player_store.find(player.surface, player.id)

    async def setting(self, player: Player) -> Language | None:
        """The language ``player`` chose, or None (then surfaces go by their hints)."""
        record = await self._record(player)
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
        await self.player_store.set_language(
            await self.players.pid(player), chosen and chosen.value
        )
        return chosen

    async def for_player(self, player: Player | None, *hints: Language | str | None) -> Language:
        """The language to answer ``player`` in: their setting, else the first of the
        surface's ``hints`` that is a language we speak, else the language a surface last
        saw them use (so news sent to them unasked reads as their replies do), else English.
        A hint that decides is remembered as the language seen, when it changed."""
        record = await self._record(player) if player is not None else None
        setting = Language.from_tag(record.language) if record else None
        if setting is not None:
            return setting
        hinted = next(filter(None, map(Language.from_tag, hints)), None)
        if hinted is None:
            seen = Language.from_tag(record.language_seen) if record else None
            return seen or Language.EN
        if record is not None and record.language_seen != hinted.value:
            await self.player_store.set_language_seen(record.id, hinted.value)
        return hinted
