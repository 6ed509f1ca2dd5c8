"""Per-surface defaults for clocks and challenges (seconds; None means never).

Correspondence play is slow: by email a player is reminded after two days and forfeits after
a week; on Discord after a day and three days. The terminal and the AI have no clock.

>>> SURFACE_DEFAULTS["email"].forfeit_after / 86400
7.0
"""

from __future__ import annotations

from dataclasses import dataclass

DAY = 86400.0


@dataclass(frozen=True)
class SurfaceDefaults:
    reminder_after: float | None
    forfeit_after: float | None
    challenge_expires_after: float | None


SURFACE_DEFAULTS: dict[str, SurfaceDefaults] = {
    "terminal": SurfaceDefaults(None, None, None),
    "discord": SurfaceDefaults(1 * DAY, 3 * DAY, 1 * DAY),
    "email": SurfaceDefaults(2 * DAY, 7 * DAY, 7 * DAY),
    "ai": SurfaceDefaults(None, None, None),
}
FALLBACK = SurfaceDefaults(1 * DAY, 7 * DAY, 7 * DAY)  # a surface added later

# A finished game's own place (a Discord thread made for it) stays open this long for the
# players' last words and a rematch, then is archived.
FINISHED_PLACE_KEPT = 600.0


def defaults_for(surface: str) -> SurfaceDefaults:
    return SURFACE_DEFAULTS.get(surface, FALLBACK)
