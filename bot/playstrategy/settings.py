"""The operator's settings for the PlayStrategy bot, read from the environment.

- ``PLAYSTRATEGY_TOKEN`` (required): the bot account's API token;
- ``PLAYSTRATEGY_URL``: the server, default https://playstrategy.org;
- ``PLAYSTRATEGY_LEVEL``: the AI level for every variant (default ``hard``), and
  ``PLAYSTRATEGY_LEVEL_OWARE``, ``_TOGYZKUMALAK``, ``_BESTEMSHE`` for one variant;
- ``PLAYSTRATEGY_VARIANTS``: the variants accepted, PlayStrategy's keys, comma-separated
  (default all three);
- ``PLAYSTRATEGY_MAX_GAMES``: games at once (default 4); more challenges are declined "later";
- ``PLAYSTRATEGY_TIME_CONTROLS``: the kinds accepted, ``clock``, ``correspondence``,
  ``unlimited`` (default all three), and ``PLAYSTRATEGY_MIN_SECONDS``, the least initial clock
  time accepted (default 60: the AI thinks in seconds, not in tenths);
- ``PLAYSTRATEGY_CHALLENGE_BOTS``: whether the bot challenges other bots; only ``no`` for now.

>>> settings = PlaystrategySettings.from_environ(
...     {"PLAYSTRATEGY_TOKEN": "t", "PLAYSTRATEGY_LEVEL_OWARE": "expert"})
>>> settings.level_for("oware"), settings.level_for("bestemshe"), settings.max_games
('expert', 'hard', 4)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.config import ConfigError
from bot.i18n import _
from bot.playstrategy.notation import VARIANTS
from engine.errors import excerpt

DEFAULT_URL = "https://playstrategy.org"
DEFAULT_LEVEL = "hard"
TIME_CONTROLS = ("clock", "correspondence", "unlimited")


@dataclass(frozen=True)
class PlaystrategySettings:
    token: str
    url: str = DEFAULT_URL
    levels: dict[str, str] = field(default_factory=dict)  # variant key -> AI level
    default_level: str = DEFAULT_LEVEL
    variants: tuple[str, ...] = tuple(VARIANTS)
    max_games: int = 4
    time_controls: tuple[str, ...] = TIME_CONTROLS
    min_seconds: int = 60
    challenge_bots: bool = False

    def level_for(self, variant: str) -> str:
        return self.levels.get(variant, self.default_level)

    @classmethod
    def from_environ(cls, env: Mapping[str, str]) -> PlaystrategySettings:
        """The settings in ``env``; ConfigError names a missing or bad one."""
        from engine.ai import LEVELS

        def get(name: str) -> str:
            return env.get(name, "").strip()

        def bad(name: str, value: str, accepted: str) -> ConfigError:
            # TRANSLATORS: {accepted} lists the values a setting takes (codes, not words)
            return ConfigError(
                _("{name} is '{value}'; it takes {accepted}").format(
                    name=name, value=excerpt(value), accepted=accepted
                )
            )

        token = get("PLAYSTRATEGY_TOKEN")
        if not token:
            raise ConfigError(
                _("{name} is not set: give the API token of the bot account").format(
                    name="PLAYSTRATEGY_TOKEN"
                )
            )
        levels: dict[str, str] = {}
        default_level = get("PLAYSTRATEGY_LEVEL") or DEFAULT_LEVEL
        for name, value in [("PLAYSTRATEGY_LEVEL", default_level)] + [
            (f"PLAYSTRATEGY_LEVEL_{key.upper()}", get(f"PLAYSTRATEGY_LEVEL_{key.upper()}"))
            for key in VARIANTS
        ]:
            if value and value not in LEVELS:
                raise bad(name, value, ", ".join(LEVELS))
            if value and name != "PLAYSTRATEGY_LEVEL":
                levels[name.removeprefix("PLAYSTRATEGY_LEVEL_").lower()] = value
        variants = _words(get("PLAYSTRATEGY_VARIANTS")) or tuple(VARIANTS)
        if any(v not in VARIANTS for v in variants):
            raise bad("PLAYSTRATEGY_VARIANTS", get("PLAYSTRATEGY_VARIANTS"), ", ".join(VARIANTS))
        controls = _words(get("PLAYSTRATEGY_TIME_CONTROLS")) or TIME_CONTROLS
        if any(c not in TIME_CONTROLS for c in controls):
            raise bad(
                "PLAYSTRATEGY_TIME_CONTROLS",
                get("PLAYSTRATEGY_TIME_CONTROLS"),
                ", ".join(TIME_CONTROLS),
            )
        numbers = {}
        for name, default, low, high in (
            ("PLAYSTRATEGY_MAX_GAMES", 4, 1, 100),
            ("PLAYSTRATEGY_MIN_SECONDS", 60, 0, 86_400),
        ):
            text = get(name) or str(default)
            if not text.isdigit() or not low <= int(text) <= high:
                raise bad(name, text, f"{low}-{high}")
            numbers[name] = int(text)
        bots = get("PLAYSTRATEGY_CHALLENGE_BOTS").lower() or "no"
        if bots not in ("no", "0", "false"):
            # Challenging other bots is not built yet: say so rather than silently ignore it.
            raise bad("PLAYSTRATEGY_CHALLENGE_BOTS", bots, "no")
        return cls(
            token=token,
            url=(get("PLAYSTRATEGY_URL") or DEFAULT_URL).rstrip("/"),
            levels=levels,
            default_level=default_level,
            variants=variants,
            max_games=numbers["PLAYSTRATEGY_MAX_GAMES"],
            time_controls=controls,
            min_seconds=numbers["PLAYSTRATEGY_MIN_SECONDS"],
        )


def _words(text: str) -> tuple[str, ...]:
    return tuple(word.strip().lower() for word in text.split(",") if word.strip())
