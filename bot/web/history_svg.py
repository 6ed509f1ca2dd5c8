"""A player's rating history in one family as a small inline SVG line (one point per rated
game, oldest on the left), drawn on the server with nothing fetched, and labelled with the
same history in words, so a screen reader hears what the line shows.

>>> from bot.service import RatingStep
>>> steps = [RatingStep(1, 1500.0, 350.0, 0.0), RatingStep(2, 1662.3, 290.0, 60.0)]
>>> svg = history_svg("kalah", steps)
>>> svg.startswith("<svg") and 'role="img"' in svg and "from 1500 to 1662" in svg
True
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from bot.i18n import _
from bot.service import RatingStep

WIDTH, HEIGHT, MARGIN = 240, 48, 4


def describe_history(family: str, steps: Sequence[RatingStep]) -> str:
    """The history in words: how many games, the first and last rating, the range."""
    ratings = [round(step.rating) for step in steps]
    if len(ratings) == 1:
        # TRANSLATORS: a rating history's alt text; {rules} is a family of rulesets (kalah, wari)
        return _("Rating in {rules} after one rated game: {last}.").format(
            rules=family, last=ratings[0]
        )
    # TRANSLATORS: a rating history's alt text; {rules} is a family of rulesets (kalah, wari)
    return _(
        "Rating in {rules}, game by game: from {first} to {last} (lowest {low}, highest "
        "{high}); rated games shown: {n}."
    ).format(
        rules=family,
        n=len(ratings),
        first=ratings[0],
        last=ratings[-1],
        low=min(ratings),
        high=max(ratings),
    )


def history_svg(family: str, steps: Sequence[RatingStep]) -> str:
    """The line of ``steps`` (at least one, oldest first), its range filling the height."""
    ratings = [step.rating for step in steps]
    low, high = min(ratings), max(ratings)
    spread = max(high - low, 1.0)  # a flat history is a flat line in the middle
    step_x = (WIDTH - 2 * MARGIN) / max(1, len(ratings) - 1)

    def y(rating: float) -> float:
        if high == low:
            return HEIGHT / 2
        return MARGIN + (high - rating) / spread * (HEIGHT - 2 * MARGIN)

    points = [(MARGIN + i * step_x, y(r)) for i, r in enumerate(ratings)]
    line = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
    last_x, last_y = points[-1]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="history" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(describe_history(family, steps))}">'
        f'<polyline points="{line}" fill="none" stroke="currentColor" stroke-width="2" '
        'stroke-linejoin="round"/>'
        f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="3" fill="currentColor"/></svg>'
    )
