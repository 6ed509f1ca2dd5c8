"""The board as an inline SVG, in the look of the pictures (``bot.render.board_picture``: the
same colours, wells, letters and layout), for the web pages.

Why SVG and not the PNG: a few kilobytes of text inside the page instead of a second request
for a ~20 kB picture, sharp at any zoom on any screen, and each well is an element the
page's script can answer a click on (``data-pit``, the pit's letter as its owner writes it).
Its words are the alt text of the pictures (``describe_board``) as the SVG's label.

>>> from engine import Game, Ruleset
>>> svg = board_svg(Game.from_moves(Ruleset.parse("kalah"), "C").position)
>>> svg.startswith("<svg") and 'role="img"' in svg and 'data-pit="D"' in svg
True
"""

from __future__ import annotations

from html import escape

from bot.render.board_picture import (
    BACKGROUND,
    BOARD,
    CELL,
    GAP,
    HIGHLIGHT,
    INK,
    LABEL,
    LETTERS,
    MARGIN,
    STORE,
    TURN,
    TUZDYK,
    WELL,
    describe_board,
)
from bot.render.words import side_name
from engine import SIDES, Position, Side


def _rgb(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _moved_pit(position: Position) -> int | None:
    """The index in ``position.pits`` of the pit the last move sowed, if known."""
    move = (position.last_move or "").rstrip("<>")
    letters = position.rules.letters
    if len(move) == 1 and move in letters:
        return letters.index(move)
    if len(move) == 1 and move in letters.lower():
        return position.rules.pits + letters.lower().index(move)
    return None


def _text(x: float, y: float, text: str, colour: tuple[int, int, int], size: int) -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{_rgb(colour)}" '
        f'text-anchor="middle" dominant-baseline="central">{escape(text)}</text>'
    )


def _count_size(text: str) -> int:
    """The numbers' size in a well, as the picture shrinks long ones."""
    return 34 if len(text) <= 2 else 28 if len(text) == 3 else max(12, 84 // len(text))


def board_svg(
    position: Position,
    seen_from: Side = Side.SOUTH,
    names: dict[str, str] | None = None,
    label: str | None = None,
    ended: bool = False,
) -> str:
    """The SVG of ``position`` as ``seen_from`` sees it (their row at the bottom, lettered
    A, B, ... from the left as they write their moves, their store on the right). ``label``
    replaces the words read out for it (``describe_board``: a game ended by resignation
    knows its result only from the service); ``ended``: the game is over though the board
    is not (a resignation, a loss on time), so nobody is marked to move."""
    n = position.rules.pits
    width = 2 * MARGIN + (n + 2) * CELL + (n + 1) * GAP
    height = 2 * LETTERS + 2 * CELL + GAP + 2 * MARGIN
    top, left = MARGIN + LETTERS, MARGIN
    words = label or describe_board(position, names)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(words)}" font-family="DejaVu Sans, Verdana, sans-serif">',
        f'<rect width="{width}" height="{height}" rx="14" fill="{_rgb(BACKGROUND)}"/>',
        f'<rect x="{left - 6}" y="{top - 6}" width="{width - 2 * MARGIN + 12}" '
        f'height="{2 * CELL + GAP + 12}" rx="28" fill="{_rgb(BOARD)}"/>',
    ]
    letters = position.rules.letters
    near_letters, far_letters = letters, letters.lower()
    moved = _moved_pit(position)
    pits = position.pits
    owners = {
        pit: side for side, pit in zip(SIDES, position.tuzdyks, strict=True) if pit is not None
    }
    near = 0 if seen_from is Side.SOUTH else n
    far = n - near
    half = CELL / 2
    for i in range(n):
        x = left + (i + 1) * (CELL + GAP)
        for index, y, letter, label_y in (
            (far + (n - 1 - i), top, far_letters[n - 1 - i], top - LETTERS / 2),
            (near + i, top + CELL + GAP, near_letters[i], top + 2 * CELL + GAP + LETTERS / 2 + 2),
        ):
            cx, cy = x + half, y + half
            parts.append(f'<g class="pit" data-pit="{letter}">')
            if index == moved:
                parts.append(
                    f'<circle cx="{cx:g}" cy="{cy:g}" r="{half + 5:g}" fill="{_rgb(HIGHLIGHT)}"/>'
                )
            if index in owners:  # nobody sows from it: an X, and whose it is
                parts.append(
                    f'<circle cx="{cx:g}" cy="{cy:g}" r="{half:g}" fill="{_rgb(TUZDYK)}"/>'
                )
                parts.append(_text(cx, cy - 7, "X", LABEL, 34))
                parts.append(_text(cx, y + CELL - 20, side_name(owners[index]), LABEL, 14))
            else:
                count = str(pits[index])
                parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{half:g}" fill="{_rgb(WELL)}"/>')
                parts.append(_text(cx, cy, count, INK, _count_size(count)))
            parts.append(_text(cx, label_y, letter, LABEL, 22))
            parts.append("</g>")

    store_height = 2 * CELL + GAP
    stores = dict(zip((Side.SOUTH, Side.NORTH), position.stores, strict=True))
    for x, side in ((left, seen_from.other), (left + (n + 1) * (CELL + GAP), seen_from)):
        parts.append(
            f'<rect x="{x}" y="{top}" width="{CELL}" height="{store_height}" rx="{CELL // 2}" '
            f'fill="{_rgb(STORE)}"/>'
        )
        count = str(stores[side])
        parts.append(_text(x + half, top + store_height / 2, count, INK, _count_size(count)))
        label_y = (
            top - LETTERS / 2 if side is not seen_from else top + store_height + LETTERS / 2 + 2
        )
        parts.append(_text(x + half, label_y, side_name(side), LABEL, 16))

    if not (ended or position.is_over()):  # a bar along the row of the side to move
        y = top - 4 if position.to_move != seen_from else top + store_height + 1
        x0, x1 = left + CELL + GAP, left + (n + 1) * (CELL + GAP) - GAP
        parts.append(f'<rect x="{x0}" y="{y}" width="{x1 - x0}" height="4" fill="{_rgb(TURN)}"/>')
    parts.append("</svg>")
    return "".join(parts)
