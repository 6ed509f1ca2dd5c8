"""A game's review as a picture: South's margin with best play after each move (the evaluation
graph), the proven stretch shaded, and the inaccuracies, mistakes and blunders marked; and the
same in words (alt text). Pure functions of the review, drawn with Pillow.

The curve is always South's margin (above the middle line South is winning), so it reads the
same whoever moved; each point is the value after that move. Its words and the alt text are
in the current language (the picture's in English where no font here draws them: see
``board_picture.picture_words``).

>>> from engine import Game
>>> from engine.review import review
>>> done = review(Game.from_moves("kalah:pits=3,seeds=2", "B A b"), compiled=False)
>>> draw_review(done)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> print(describe_review(done))
Evaluation graph of 3 moves, South's margin with best play after each move, from +4 to 0; 3 moves proven, the first at move 1. Marked: move 2 (blunder).
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import _, ngettext
from bot.render.board_picture import font_for, picture_words
from bot.render.words import move_class
from engine import Side
from engine.review import ERRORS, MoveClass, PlyReview, Review

WIDTH, HEIGHT = 640, 240
MARGIN_X, MARGIN_Y = 44, 20
BACKGROUND = (250, 248, 242)
PROVEN = (222, 236, 222)
AXIS = (120, 120, 120)
LINE = (40, 60, 110)
MARKS = {
    MoveClass.INACCURACY: (220, 170, 40),
    MoveClass.MISTAKE: (230, 120, 30),
    MoveClass.BLUNDER: (200, 40, 40),
}


def south_margin(ply: PlyReview) -> int:
    """The value after the move, for South."""
    return ply.value_after if ply.side == Side.SOUTH else -ply.value_after


def draw_review(review: Review) -> bytes:
    """The evaluation graph as PNG bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    plies = review.plies
    first = plies[0] if plies else None
    start = 0 if first is None else first.value_before * (1 if first.side == Side.SOUTH else -1)
    values = [start, *(south_margin(p) for p in plies)]  # the start, then after each move
    top = max(2, max(abs(v) for v in values))
    inner_w, inner_h = WIDTH - 2 * MARGIN_X, HEIGHT - 2 * MARGIN_Y
    step = inner_w / max(1, len(plies))

    def x(index: int) -> float:
        return MARGIN_X + index * step

    def y(value: float) -> float:
        return MARGIN_Y + inner_h / 2 - value / top * inner_h / 2

    for index, ply in enumerate(plies, 1):  # the proven moves, shaded
        if ply.proven:
            draw.rectangle((x(index - 1), MARGIN_Y, x(index), HEIGHT - MARGIN_Y), fill=PROVEN)
    draw.line((MARGIN_X, y(0), WIDTH - MARGIN_X, y(0)), fill=AXIS)
    draw.line((MARGIN_X, MARGIN_Y, MARGIN_X, HEIGHT - MARGIN_Y), fill=AXIS)
    for value, label in ((top, f"+{top}"), (0, "0"), (-top, f"-{top}")):
        draw.text((4, y(value) - 6), label, fill=AXIS, font=font)
    # TRANSLATORS: the review graph's labels: above the middle line South is winning
    south = picture_words(lambda: _("South ahead"))
    north = picture_words(lambda: _("North ahead"))
    draw.text((MARGIN_X + 4, 2), south, fill=AXIS, font=font_for(10, south))
    draw.text((MARGIN_X + 4, HEIGHT - 14), north, fill=AXIS, font=font_for(10, north))
    points = [(x(i), y(v)) for i, v in enumerate(values)]
    draw.line(points, fill=LINE, width=3)
    for index, ply in enumerate(plies, 1):
        colour = MARKS.get(ply.move_class)
        if colour is not None:
            cx, cy = points[index]
            draw.ellipse((cx - 5, cy - 5, cx + 5, cy + 5), fill=colour, outline=(0, 0, 0))
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def describe_review(review: Review, most: int = 6) -> str:
    """The graph in words (alt text): its range, where the proof starts, the marked moves."""
    plies = review.plies
    first = next((p.ply for p in plies if p.proven), None)
    marked = [p for p in plies if p.move_class in ERRORS]
    shown = ", ".join(
        _("move {ply} ({kind})").format(ply=p.ply, kind=move_class(p.move_class))
        for p in marked[:most]
    )
    if len(marked) > most:
        shown += " " + _("and {n} more").format(n=len(marked) - most)
    values = [south_margin(p) for p in plies]
    parts = [
        ngettext(
            "Evaluation graph of {n} move, South's margin with best play after each move, "
            "from {high} to {low};",
            "Evaluation graph of {n} moves, South's margin with best play after each move, "
            "from {high} to {low};",
            len(plies),
        ).format(n=len(plies), high=_signed(max(values)), low=_signed(min(values)))
    ]
    if first is not None:
        parts.append(
            ngettext(
                "{n} move proven, the first at move {first}.",
                "{n} moves proven, the first at move {first}.",
                review.proven,
            ).format(n=review.proven, first=first)
        )
    else:
        parts.append(_("nothing proven."))
    if marked:
        parts.append(_("Marked: {moves}.").format(moves=shown))
    else:
        parts.append(_("No errors marked."))
    return " ".join(parts)


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"
