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
- ``PLAYSTRATEGY_CHALLENGE_BOTS``: ``yes`` to challenge the bots online when a game's place
  is free (default ``no``): one challenge each ``PLAYSTRATEGY_CHALLENGE_EVERY`` seconds
  (default 600), unrated, at ``PLAYSTRATEGY_CHALLENGE_CLOCK`` (minutes+increment seconds,
  default ``5+3``), the bots in turn and the accepted variants in turn.

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
    challenge_every: int = 600  # seconds between two challenges to bots
    challenge_clock: tuple[int, int] = (300, 3)  # initial seconds, increment seconds

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
        if bots not in ("yes", "no", "1", "0", "true", "false"):
            raise bad("PLAYSTRATEGY_CHALLENGE_BOTS", bots, "yes, no")
        every = get("PLAYSTRATEGY_CHALLENGE_EVERY") or "600"
        if not every.isdigit() or not 10 <= int(every) <= 86_400:
            raise bad("PLAYSTRATEGY_CHALLENGE_EVERY", every, "10-86400")
        clock = get("PLAYSTRATEGY_CHALLENGE_CLOCK") or "5+3"
        minutes, plus, increment = clock.partition("+")
        if not (minutes.isdigit() and increment.isdigit() and plus) or not (
            1 <= int(minutes) <= 180 and int(increment) <= 60
        ):
            raise bad("PLAYSTRATEGY_CHALLENGE_CLOCK", clock, "MINUTES+SECONDS, like 5+3")
        return cls(
            token=token,
            url=(get("PLAYSTRATEGY_URL") or DEFAULT_URL).rstrip("/"),
            levels=levels,
            default_level=default_level,
            variants=variants,
            max_games=numbers["PLAYSTRATEGY_MAX_GAMES"],
            time_controls=controls,
            min_seconds=numbers["PLAYSTRATEGY_MIN_SECONDS"],
            challenge_bots=bots in ("yes", "1", "true"),
            challenge_every=int(every),
            challenge_clock=(int(minutes) * 60, int(increment)),
        )


def _words(text: str) -> tuple[str, ...]:
    return tuple(word.strip().lower() for word in text.split(",") if word.strip())
