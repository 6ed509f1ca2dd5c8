"""What a server's admins set for games on their server (a Discord server; any surface with
places that have admins could use it).

==============  ==========================================================  ================
setting         what it does                                                default
==============  ==========================================================  ================
ruleset         the ruleset of a challenge that names none                  kalah
level           the AI's level when a challenge names none                  the product's
clock           time per move before forfeiting (seconds; 0: no clock;      the surface's
                None: the surface's default)
pings           "mention": the player to move is mentioned on the board;    mention
                "off": never (a player's own "dm" choice still holds)
threads         every game gets a thread of its own                         no
text_board      the 003 text board beside the picture                       yes
==============  ==========================================================  ================

>>> ServerSettings().describe()[:2]
['ruleset: kalah', 'level: (the default: medium)']
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from bot.ai_runtime.pool import default_level, known_levels
from bot.i18n import _, ngettext
from bot.service import errors
from bot.service.players import Players
from bot.service.types import Player, number_words
from engine import Ruleset, RulesetError, excerpt
from storage.stores.players import PlayerStore

SERVER_PINGS = ("mention", "off")
CLOCK_RANGE = (60.0, 30 * 86400.0)  # a minute to thirty days per move


@dataclass(frozen=True)
class ServerSettings:
    ruleset: str = "kalah"
    level: str | None = None
    clock: float | None = None
    pings: str = "mention"
    threads: bool = False
    text_board: bool = True

    def describe(self) -> list[str]:
        """One line per setting, for a settings command's answer (in the current language;
        the values a setting takes, ruleset and level names, stay as they are written)."""
        if self.clock is None:
            clock = _("clock: the default")
        elif self.clock == 0:
            clock = _("clock: off")
        else:
            hours = self.clock / 3600
            count = int(hours) if hours == int(hours) else 2  # 2: a fraction reads plural
            clock = ngettext(
                "clock: {hours} hour per move", "clock: {hours} hours per move", count
            ).format(hours=number_words(hours))
        if self.level:
            level = _("level: {level}").format(level=self.level)
        else:
            level = _("level: (the default: {level})").format(level=default_level())
        return [
            _("ruleset: {ruleset}").format(ruleset=self.ruleset),
            level,
            clock,
            # TRANSLATORS: {pings} is the setting's keyword (mention, off): keep it.
            _("pings: {pings}").format(pings=self.pings),
            _("threads: every game in its own thread")
            if self.threads
            else _("threads: when asked"),
            _("text board: shown beside the picture") if self.text_board else _("text board: off"),
        ]


def _checked(name: str, value: Any) -> Any:
    """``value`` as setting ``name`` takes it; BadRequest/BadRules say what is accepted."""
    if name == "ruleset":
        try:
            return str(Ruleset.parse(str(value)))
        except RulesetError as err:
            raise errors.BadRules(str(err)) from None
    if name == "level":
        if value is None or value in known_levels():
            return value
        raise errors.BadRequest(
            _("level is one of {levels}; not '{value}'").format(
                levels=", ".join(known_levels()), value=excerpt(str(value))
            )
        )
    if name == "clock":
        if value is None or value == 0:  # the surface's default, or no clock at all
            return None if value is None else 0.0
        if not isinstance(value, (int, float)) or not CLOCK_RANGE[0] <= value <= CLOCK_RANGE[1]:
            raise errors.BadRequest(_("the clock is a minute to thirty days per move, or off"))
        return float(value)
    if name == "pings":
        if value in SERVER_PINGS:
            return value
        raise errors.BadRequest(
            _("pings is one of {modes}; not '{value}'").format(
                modes=", ".join(SERVER_PINGS), value=excerpt(str(value))
            )
        )
    if name in ("threads", "text_board"):
        if isinstance(value, bool):
            return value
        if name == "threads":
            raise errors.BadRequest(_("threads is yes or no"))
        raise errors.BadRequest(_("text board is yes or no"))
    raise errors.BadRequest(
        _("there is no server setting '{name}'; the settings are {settings}").format(
            name=excerpt(str(name)), settings=", ".join(f.name for f in fields(ServerSettings))
        )
    )


@dataclass(eq=False, kw_only=True)
class Servers:
    """Each server's settings, read through and written in the store, and who plays where
    (for a server's own leaderboard)."""

    player_store: PlayerStore
    clock: Callable[[], float]
    players: Players
    _seen: set[tuple[str, str, Player]] = field(default_factory=set, init=False)  # noted

    async def note_player(self, surface: str, server_id: str, player: Player) -> None:
        """``player`` plays on this server: they stand on its leaderboard. Cheap to repeat."""
        key = (surface, str(server_id), player)
        if key in self._seen or player.is_ai:
            return
        await self.player_store.add_server_player(
            surface, str(server_id), await self.players.pid(player)
        )
        self._seen.add(key)

    async def get(self, surface: str, server_id: str) -> ServerSettings:
        """The server's settings (the defaults where it set nothing). Stored settings that
        no longer check (a level since removed) fall back to their defaults."""
        stored = await self.player_store.server_settings(surface, str(server_id))
        settings = ServerSettings()
        for name, value in (json.loads(stored) if stored else {}).items():
            try:
                settings = replace(settings, **{name: _checked(name, value)})
            except (errors.ServiceError, TypeError):
                continue
        return settings

    async def update(self, surface: str, server_id: str, **changes: Any) -> ServerSettings:
        """Change some settings (each checked first: nothing is stored unless all are good).
        Raises BadRequest or BadRules."""
        settings = await self.get(surface, server_id)
        checked = {name: _checked(name, value) for name, value in changes.items()}
        settings = replace(settings, **checked)
        defaults = asdict(ServerSettings())
        changed = {k: v for k, v in asdict(settings).items() if v != defaults[k]}
        await self.player_store.set_server_settings(
            surface, str(server_id), json.dumps(changed, sort_keys=True), self.clock()
        )
        return settings
