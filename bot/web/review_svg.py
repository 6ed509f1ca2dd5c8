"""A finished game's evaluation graph as an inline SVG, in the look of the review picture
(``bot.render.review_picture``: the same size, colours, shaded proven stretch and marked
errors), with its alt text (``describe_review``) as the label, and the ply the page shows
marked, so stepping through the game moves the mark along the curve.

>>> from engine import Game
>>> from engine.review import review
>>> svg = review_svg(review(Game.from_moves("kalah:pits=3,seeds=2", "B A b"), compiled=False), 2)
>>> svg.startswith("<svg") and 'role="img"' in svg and 'class="at"' in svg
True
"""

from __future__ import annotations

from html import escape

from bot.i18n import _
from bot.render.review_picture import (
    AXIS,
    BACKGROUND,
    HEIGHT,
    LINE,
    MARGIN_X,
    MARGIN_Y,
    MARKS,
    PROVEN,
    WIDTH,
    describe_review,
    south_margin,
)
from bot.render.words import move_class
from engine import Side
from engine.review import Review

AT = (255, 190, 40)  # the page's highlight (style.css --highlight): the ply shown


def _rgb(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def review_svg(review: Review, at: int) -> str:
    """The graph of ``review``, the point after move ``at`` (0: the start) marked."""
    plies = review.plies
    first = plies[0] if plies else None
    start = 0 if first is None else first.value_before * (1 if first.side == Side.SOUTH else -1)
    values = [start, *(south_margin(p) for p in plies)]
    top = max(2, max(abs(v) for v in values))
    inner_w, inner_h = WIDTH - 2 * MARGIN_X, HEIGHT - 2 * MARGIN_Y
    step = inner_w / max(1, len(plies))

    def x(index: int) -> float:
        return MARGIN_X + index * step

    def y(value: float) -> float:
        return MARGIN_Y + inner_h / 2 - value / top * inner_h / 2

    parts = [f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{_rgb(BACKGROUND)}"/>']
    for index, ply in enumerate(plies, 1):
        if ply.proven:
            parts.append(
                f'<rect x="{x(index - 1):.1f}" y="{MARGIN_Y}" width="{step:.1f}" '
                f'height="{inner_h}" fill="{_rgb(PROVEN)}"/>'
            )
    axis = _rgb(AXIS)
    parts.append(
        f'<path d="M{MARGIN_X} {y(0):.1f}H{WIDTH - MARGIN_X}M{MARGIN_X} {MARGIN_Y}'
        f'V{HEIGHT - MARGIN_Y}" stroke="{axis}" fill="none"/>'
    )
    for value, label in ((top, f"+{top}"), (0, "0"), (-top, f"-{top}")):
        parts.append(
            f'<text x="{MARGIN_X - 6}" y="{y(value):.1f}" font-size="15" fill="{axis}" '
            f'text-anchor="end" dominant-baseline="central">{label}</text>'
        )
    # TRANSLATORS: the review graph's labels: above the middle line South is winning
    for text, where in ((_("South ahead"), 15), (_("North ahead"), HEIGHT - 4)):
        parts.append(
            f'<text x="{MARGIN_X + 4}" y="{where}" font-size="15" fill="{axis}">'
            f"{escape(text)}</text>"
        )
    at = max(0, min(at, len(plies)))
    parts.append(
        f'<line class="at" x1="{x(at):.1f}" y1="{MARGIN_Y}" x2="{x(at):.1f}" '
        f'y2="{HEIGHT - MARGIN_Y}" stroke="{_rgb(AT)}" stroke-width="3"/>'
    )
    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts.append(
        f'<polyline points="{points}" fill="none" stroke="{_rgb(LINE)}" stroke-width="3" '
        'stroke-linejoin="round"/>'
    )
    for index, ply in enumerate(plies, 1):
        colour = MARKS.get(ply.move_class)
        if colour is not None:
            parts.append(
                f'<circle cx="{x(index):.1f}" cy="{y(values[index]):.1f}" r="5" '
                f'fill="{_rgb(colour)}" stroke="#000"><title>'
                f"{escape(_('move {ply} ({kind})').format(ply=ply.ply, kind=move_class(ply.move_class)))}"
                "</title></circle>"
            )
    parts.append(
        f'<circle cx="{x(at):.1f}" cy="{y(values[at]):.1f}" r="6" fill="{_rgb(AT)}" '
        'stroke="#000" stroke-width="1.5"/>'
    )
    label = describe_review(review)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="graph" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(label)}">{"".join(parts)}</svg>'
    )
