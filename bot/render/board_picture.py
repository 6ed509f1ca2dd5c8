"""The board as a picture (PNG, drawn with Pillow) and in words (alt text for screen readers).

Both are pure functions of a position: the same position gives the same bytes, on any
surface. The picture follows the 003 board the players know: South's pits A, B, C... along
the bottom from the left, North's a, b, c... along the top from the right, North's store on
the left and South's on the right (captured counts, where the ruleset has no stores; Togyz
Kumalak's kazans). The last move's pit is ringed, the side to move is marked, and every pit
carries its letter. A tuzdyk (Togyz Kumalak) is a dark well with an X and its owner's name.

It has its own opaque background with dark seeds-and-numbers on light wells, so it reads the
same in Discord's dark and light themes, and its numbers are at least 26 px high at the
width a phone shows (about 400 px for the widest board).

Its few words (the title, the sides' names) and the alt text are in the current language
(``bot.i18n.speaking``). Pillow's own font has no accented or Cyrillic letters: such words
are drawn in DejaVu Sans where the system has it, else in English (``picture_words``).

>>> from engine import Game, Ruleset
>>> pos = Game.from_moves(Ruleset.parse("kalah"), "C").position
>>> draw_board(pos)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> describe_board(pos)[:60]
'Kalah board. South to move again. North, pits a to f: 4, 4, '
"""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import lru_cache, partial

from PIL import Image, ImageDraw, ImageFont

from bot.i18n import Language, _, current_language, speaking
from bot.render.words import side_name
from engine import SIDES, Position, Side, result_lines

CELL = 76  # a pit's square, in pixels
GAP = 8
MARGIN = 18
TITLE = 40  # the band above the board for the title line
LETTERS = 28  # the bands above and below the rows for the pit letters

BACKGROUND = (38, 30, 24)  # an opaque dark wood: the same on light and dark themes
BOARD = (122, 84, 52)
WELL = (240, 225, 196)
STORE = (232, 214, 180)
INK = (34, 24, 16)  # numbers in the wells
LABEL = (245, 236, 220)  # letters and the title on the wood
HIGHLIGHT = (255, 190, 40)  # the last move's pit
TURN = (120, 220, 120)  # the side to move
TUZDYK = (70, 46, 30)  # a tuzdyk's well: dark, its X and owner's name light on it


Font = ImageFont.ImageFont | ImageFont.FreeTypeFont
# Where Pillow's own font lacks a letter (é, ü, ж...): a font most systems have, by name.
FALLBACK_FONTS = ("DejaVuSans.ttf", "NotoSans-Regular.ttf", "LiberationSans-Regular.ttf")


def font_for(size: int, text: str = "") -> Font:
    """Pillow's own font (built in since 10.1: nothing to install, the same everywhere), or
    the system's fallback font for a ``text`` with letters Pillow's lacks."""
    if _fits(text, False) or not _fits(text, True):
        return _sized(size, False)
    return _sized(size, True)


@lru_cache(maxsize=32)
def _sized(size: int, fallback: bool) -> Font:
    name = _fallback_font() if fallback else None
    return ImageFont.truetype(name, size) if name else ImageFont.load_default(size=size)


@lru_cache(maxsize=1)
def _fallback_font() -> str | None:
    for name in FALLBACK_FONTS:
        try:
            ImageFont.truetype(name, 10)
        except OSError:
            continue
        return name
    return None


@lru_cache(maxsize=4096)
def _glyph(char: str, fallback: bool) -> bytes:
    image = Image.new("L", (40, 40))
    ImageDraw.Draw(image).text((4, 4), char, font=_sized(20, fallback), fill=255)
    return image.tobytes()


def _fits(text: str, fallback: bool) -> bool:
    """Whether the font draws every letter of ``text`` (none comes out as its empty box)."""
    if fallback and _fallback_font() is None:
        return False
    missing = _glyph("\uffff", fallback)  # a code point no font has
    return all(char.isspace() or _glyph(char, fallback) != missing for char in set(text))


def picture_words(make: Callable[[], str]) -> str:
    """Words for a picture, ``make()`` in the current language where a font here draws them,
    else in English."""
    text = make()
    if current_language() is not Language.EN and not (_fits(text, False) or _fits(text, True)):
        with speaking(Language.EN):
            text = make()
    return text


def _pit_letters(pits: int) -> tuple[str, str]:
    south = "ABCDEFGHIJKL"[:pits]
    return south, south.lower()


def _moved_pit(position: Position) -> int | None:
    """The index in ``position.pits`` of the pit the last move sowed, if known."""
    move = (position.last_move or "").rstrip("<>")
    south, north = _pit_letters(position.rules.pits)
    if len(move) == 1 and move in south:
        return south.index(move)
    if len(move) == 1 and move in north:
        return position.rules.pits + north.index(move)
    return None


def draw_board(position: Position, seen_from: Side = Side.SOUTH) -> bytes:
    """The PNG of ``position``: any ruleset's board (2 to 12 pits a side, counts of any size
    that fits a well: 3 digits at full size, more in a smaller font), as ``seen_from`` sees
    it across the board: their row at the bottom lettered A, B, ... from the left and their
    store on the right, as the 003 board is drawn from their side (a mail to North)."""
    n = position.rules.pits
    width = 2 * MARGIN + (n + 2) * CELL + (n + 1) * GAP
    height = TITLE + 2 * LETTERS + 2 * CELL + GAP + 2 * MARGIN
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    top = MARGIN + TITLE + LETTERS
    left = MARGIN
    draw.rounded_rectangle(
        (left - 6, top - 6, width - MARGIN + 6, top + 2 * CELL + GAP + 6), radius=28, fill=BOARD
    )
    title = picture_words(partial(_title, position))
    draw.text((MARGIN, MARGIN), title, font=font_for(24, title), fill=LABEL)

    near_letters, far_letters = _pit_letters(n)  # near: A, B, ...; far: ..., b, a
    moved = _moved_pit(position)
    pits = position.pits
    owners = _tuzdyk_owners(position)
    near = 0 if seen_from is Side.SOUTH else n  # the first pit of the bottom row
    far = n - near
    for i in range(n):
        x = left + (i + 1) * (CELL + GAP)
        # the far row's pit i sits above the near row's pit n-1-i: sowing runs counter-
        # clockwise; each row is lettered from its owner's side, as in 003
        for index, y, letter, label_y in (
            (far + (n - 1 - i), top, far_letters[n - 1 - i], top - LETTERS),
            (near + i, top + CELL + GAP, near_letters[i], top + 2 * CELL + GAP + 2),
        ):
            box = (x, y, x + CELL, y + CELL)
            if index == moved:
                draw.ellipse((x - 5, y - 5, x + CELL + 5, y + CELL + 5), fill=HIGHLIGHT)
            if index in owners:  # nobody sows from it: an X, and whose it is
                draw.ellipse(box, fill=TUZDYK)
                _centred(draw, (x, y, x + CELL, y + CELL - 14), "X", LABEL)
                owner = picture_words(partial(side_name, owners[index]))
                _centred(draw, (x, y + CELL - 30, x + CELL, y + CELL - 10), owner, LABEL, 14)
            else:
                draw.ellipse(box, fill=WELL)
                _centred(draw, box, str(pits[index]), INK)
            _centred(draw, (x, label_y, x + CELL, label_y + LETTERS), letter, LABEL, 22)

    store_height = 2 * CELL + GAP
    stores = dict(zip((Side.SOUTH, Side.NORTH), position.stores, strict=True))
    for x, side in (
        (left, seen_from.other),
        (left + (n + 1) * (CELL + GAP), seen_from),
    ):
        box = (x, top, x + CELL, top + store_height)
        draw.rounded_rectangle(box, radius=CELL // 2, fill=STORE)
        _centred(draw, box, str(stores[side]), INK)
        label_y = top - LETTERS if side is not seen_from else top + store_height + 2
        name = picture_words(partial(side_name, side))
        _centred(draw, (x, label_y, x + CELL, label_y + LETTERS), name, LABEL, 18)

    if not position.is_over():  # a bar along the row of the side to move
        y = top - 4 if position.to_move != seen_from else top + store_height + 1
        x0, x1 = left + CELL + GAP, left + (n + 1) * (CELL + GAP) - GAP
        draw.rectangle((x0, y, x1, y + 3), fill=TURN)

    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()


def _centred(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    text: str,
    fill: tuple[int, int, int],
    size: int | None = None,
) -> None:
    width = box[2] - box[0]
    size = size or (34 if len(text) <= 2 else 28 if len(text) == 3 else max(12, 84 // len(text)))
    font = font_for(size, text)
    while size > 10 and draw.textlength(text, font=font) > width - 8:
        size -= 2
        font = font_for(size, text)
    draw.text(
        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, font=font, fill=fill, anchor="mm"
    )


def _tuzdyk_owners(position: Position) -> dict[int, Side]:
    """Each tuzdyk's pit index and its owner's side: the owner's tuzdyk lies in the
    opponent's row."""
    return {pit: side for side, pit in zip(SIDES, position.tuzdyks, strict=True) if pit is not None}


def _title(position: Position) -> str:
    rules = str(position.rules)
    if len(rules) > 40:
        rules = rules[:39] + "…"
    outcome = position.outcome()
    if outcome is not None:
        return f"{rules}: {result_lines(outcome)[1]}"
    # TRANSLATORS: the picture's title: "kalah: South to move"
    return _("{rules}: {side} to move").format(rules=rules, side=side_name(position.to_move))


def describe_board(position: Position, names: dict[str, str] | None = None) -> str:
    """The board in plain words, for screen readers (an image's alt text): whose turn, every
    pit's count with its letter, the stores, the last move.

    ``names`` may name the sides ({"south": "Ann"}).
    """
    n = position.rules.pits
    south_letters, north_letters = _pit_letters(n)
    pits = position.pits
    owners = _tuzdyk_owners(position)

    def count(index: int) -> str:
        if index in owners:
            return _("{side}'s tuzdyk").format(side=side_name(owners[index]))
        return str(pits[index])

    # TRANSLATORS: {game} is the ruleset's name: "Kalah board."
    parts = [_("{game} board.").format(game=str(position.rules).split(":")[0].title())]
    outcome = position.outcome()
    if outcome is not None:
        parts.append(" ".join(result_lines(outcome, names)))
    else:
        side = position.to_move
        who = (names or {}).get(side, side_name(side))
        if position.last_move and _last_mover(position) == side:
            parts.append(_("{who} to move again.").format(who=who))
        else:
            parts.append(_("{who} to move.").format(who=who))
    # TRANSLATORS: "North, pits a to f: 4, 4, 4, 4, 4, 4." (the letters are the pits')
    row = _("{side}, pits {first} to {last}: {counts}.")
    parts.append(
        row.format(
            side=side_name(Side.NORTH),
            first=north_letters[0],
            last=north_letters[-1],
            counts=", ".join(count(n + i) for i in range(n)),
        )
    )
    parts.append(
        row.format(
            side=side_name(Side.SOUTH),
            first=south_letters[0],
            last=south_letters[-1],
            counts=", ".join(count(i) for i in range(n)),
        )
    )
    south, north = position.stores
    if position.rules.stores:
        parts.append(_("Stores: South {south}, North {north}.").format(south=south, north=north))
    elif position.rules.shows_stores:
        # TRANSLATORS: Togyz Kumalak's kazans, where each side keeps what it captured
        parts.append(_("Kazans: South {south}, North {north}.").format(south=south, north=north))
    else:
        parts.append(_("Captured: South {south}, North {north}.").format(south=south, north=north))
    if position.last_move:
        parts.append(_("Last move: {move}.").format(move=position.last_move))
    return " ".join(parts)


def _last_mover(position: Position) -> Side:
    move = (position.last_move or "").rstrip("<>")
    return Side.SOUTH if move[:1].isupper() else Side.NORTH
