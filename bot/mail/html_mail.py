"""The HTML part of every mail the bot sends: the plain text, readable on a phone, with each
board in a monospace block and its picture inline.

Phone mail apps show plain text in a proportional font, where the 003 board's columns no
longer line up. So every mail also carries this HTML: the text in paragraphs, each board
the text holds in a ``<pre>`` block (a monospace font stack, ``white-space: pre``), and
above it the board's picture (``bot.render.board_picture``), sent inline (``cid:``) with
the board in words as its alt text. Nothing is fetched from elsewhere; the CSS is inline,
as mail clients want it.

It needs no more than the text, so every mail gets it from one place (``bot.mail.replies``):
the boards are found in the text (``find_boards``) and read with the engine's parser, the
ruleset from the nearest ``Rules:`` line above a board, else the nearest ruleset name
("Game 3: wari."), and the side it is seen from from the ``Side:`` line, the order of the
``Captured:`` line, the tuzdyks, the result line or the last move, else as the side to move
sees it. Where the text cannot say (Kalah's stores, after an extra turn), the caller names
the positions its boards show, and each board is read from the side that gives one of them.

>>> text = '''You played E. I (easy) played a.
...
... Rules: wari
... Side: south
...
...    f  e  d  c  b  a
...    5  5  5  6  6  -
...    4  4  4  4  -  5
...    A  B  C  D  E  F
... Captured: North 0, South 0.
... South to move; last move a.
...
... Move: '''
>>> [(b.position.rules.name, b.seen_from.value, b.position.last_move) for b in find_boards(text)]
[('wari', 'south', 'a')]
>>> mail = html_mail(text, "bot.example")
>>> len(mail.pictures), mail.pictures[0].alt[:34]
(1, 'Wari board. South to move. North, ')
>>> f'src="cid:{mail.pictures[0].cid}"' in mail.html and "white-space:pre;" in mail.html
True
"""

from __future__ import annotations

import html
import io
import re
import secrets
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from bot.i18n import current_language
from bot.render.board_picture import describe_board, draw_board
from engine import SIDES, Position, PositionError, Ruleset, RulesetError, Side, parse_position

MAIL_LIMIT = 100_000  # bytes: a whole reply, headers, text, HTML and pictures, stays under it
HEADERS = 4_000  # bytes kept for the headers and the MIME structure
MOST_PICTURES = 6  # pictures in one mail; later boards are shown in their monospace block only
MONOSPACE = "ui-monospace,Menlo,Consolas,'Courier New',monospace"
SANS = "-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif"

_BODY_STYLE = (
    f"margin:0;padding:12px;font-family:{SANS};font-size:16px;line-height:1.45;"
    "color:#1f1a14;background:#fff"
)
# a board: short, as a digest repeats it fifty times
_BOARD_STYLE = (
    f"font-family:{MONOSPACE};white-space:pre;font-size:15px;margin:0 0 16px;padding:8px;"
    "background:#f4eee4"
)
# in a mail too big for the above (fifty boards of a digest in Kazakh): the least that keeps a
# board's columns, then a bare <pre>, monospace and unwrapped in every client
_LEAN_BOARD_STYLES = ("font-family:monospace;white-space:pre", "")
_TABLE_STYLE = f"font-family:{MONOSPACE};white-space:pre-wrap;font-size:13px"  # the help's columns
_IMG_STYLE = "display:block;max-width:100%;height:auto;border:0;margin:0 0 6px"

# The lines of a written board (engine.notation): counts, letters, and the lines under it.
_COUNT_TOKEN = re.compile(r"^(\d{1,5}|-|[xX])$")
_NOTE_LINE = re.compile(
    r"^\s*(captured|stores?|kazans?|tuzdyks?)\b|\b(south|north) to move\b|^\s*last move\b"
    r"|^\s*game over\b|^\s*south \d+, north \d+",
    re.I,
)
_RULES_LINE = re.compile(r"^\s*(?:rules|rule|ruleset|variant)\s*[:=]\s*(\S+)", re.I)
_SIDE_LINE = re.compile(r"^\s*side\s*[:=]\s*(south|north)\b", re.I)
_CAPTURED = re.compile(r"^\s*captured\b\W*(south|north)\b.*?\b(south|north)\b", re.I)
_TOTALS = re.compile(r"^\s*south (\d+), north (\d+)", re.I | re.M)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*(?::[A-Za-z0-9_=,.-]+)?")
# "mancala" names Kalah, but in our own sentences it is the bot's name ("[mancala game 3 ...]")
_NOT_A_RULESET_HERE = {"mancala"}


@dataclass(frozen=True)
class Board:
    """A board found in a mail's text: its lines ``first`` to ``last`` (indexes into the
    text's lines), the position it shows (None where it cannot be read: it is then shown as
    written, without a picture) and the side it is seen from."""

    first: int
    last: int
    position: Position | None
    seen_from: Side


@dataclass(frozen=True)
class Picture:
    """A board's picture for a ``cid:`` reference: its Content-ID (without the angle
    brackets), the PNG and the alt text."""

    cid: str
    png: bytes
    alt: str


@dataclass(frozen=True)
class HtmlMail:
    html: str
    pictures: list[Picture]


def _kind(line: str) -> str | None:
    """'count' (a row of counts, or a stores line), 'label' (pit letters), 'note' (a line
    under a board: captured counts, tuzdyks, whose move, the result), or None."""
    tokens = line.split()
    if len(tokens) >= 2 and all(_COUNT_TOKEN.match(t) for t in tokens):
        return "count"
    if len(tokens) >= 2 and all(len(t) == 1 and t.isalpha() for t in tokens):
        return "label"
    if _NOTE_LINE.search(line) and len(line) < 120:
        return "note"
    return None


def _blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(first, last) of each run of board lines holding at least two rows of counts."""
    found = []
    i = 0
    while i < len(lines):
        if _kind(lines[i]) is None:
            i += 1
            continue
        j = i
        while j + 1 < len(lines) and _kind(lines[j + 1]) is not None:
            j += 1
        kinds = [_kind(x) for x in lines[i : j + 1]]
        if kinds.count("count") >= 2:
            first, last = i, j
            while _kind(lines[first]) == "note":  # a block begins with its rows
                first += 1
            found.append((first, last))
        i = j + 1
    return found


_RULESET_NAMES = set(Ruleset.presets()) | set(Ruleset.aliases())


def _rules_named(line: str) -> list[Ruleset]:
    """The rulesets a line names: its ``Rules:`` value, else the ruleset names among its
    words, nearest the end first."""
    found = _RULES_LINE.match(line)
    words = [found.group(1)] if found else [w.rstrip(".,:;=") for w in _WORD.findall(line)][::-1]
    named = []
    for word in words:
        name = word.partition(":")[0].lower()
        if not found and (name in _NOT_A_RULESET_HERE or name not in _RULESET_NAMES):
            continue
        try:
            named.append(Ruleset.parse(word))
        except RulesetError:
            continue
    return named


def _candidate_rules(lines: list[str], first: int, pits: int) -> list[Ruleset]:
    """The rulesets a board at line ``first`` may be played under, most likely first: the
    nearest ``Rules:`` line or ruleset name above it, then every preset with its pits."""
    named: list[Ruleset] = []
    for line in reversed(lines[:first]):
        named += [r for r in _rules_named(line) if r.pits == pits]
        if named:
            break
    presets = [Ruleset.parse(name) for name in Ruleset.presets()]
    return named + [r for r in presets if r.pits == pits and r not in named]


def _stated_side(lines: list[str], since: int, first: int, last: int) -> Side | None:
    """The side a board is seen from, where the text says: its ``Captured:`` line (the top
    row's side is named first), or a ``Side:`` line between the board before (which ends
    at ``since``) and this one."""
    for line in lines[first : last + 1]:
        found = _CAPTURED.match(line)
        if found and found.group(1).lower() != found.group(2).lower():
            return Side(found.group(2).lower())
    for line in reversed(lines[since:first]):
        side = _SIDE_LINE.match(line)
        if side:
            return Side(side.group(1).lower())
    return None


def _readings(block: str, rules: Ruleset, sides: Sequence[Side]) -> list[tuple[Position, Side]]:
    """The position ``block`` shows under ``rules`` from each of ``sides`` where it reads."""
    read = []
    for side in sides:
        try:
            read.append((parse_position(block, rules, perspective=side), side))
        except (PositionError, ValueError):
            continue
    return read


def _plausible(position: Position, seen_from: Side, block: str) -> int:
    """How well a board read from ``seen_from`` agrees with what its lines say, where it
    reads from both sides (Kalah's stores do not say): a finished game's result line names
    each side's total; where the rules give no extra turns, the side that played the last
    move is not the side to move. Else the board is taken as seen by the side to move: the
    bot's mails with a board mostly go to the player whose move it is (a game's notice, a
    digest, a puzzle)."""
    totals = _TOTALS.search(block)
    if totals:
        return 4 if position.stores == (int(totals.group(1)), int(totals.group(2))) else 0
    move = position.last_move
    rules = position.rules
    if move and not rules.replay and not position.is_over() and move[0].upper() in rules.letters:
        mover = Side.SOUTH if move[0].isupper() else Side.NORTH
        return 4 if mover != position.to_move else 0
    return 2 if not position.is_over() and position.to_move == seen_from else 1


def _same(a: Position, b: Position) -> bool:
    return a.pits == b.pits and a.stores == b.stores and a.tuzdyks == b.tuzdyks


def find_boards(text: str, positions: Sequence[Position] = ()) -> list[Board]:
    """Every board written in ``text`` (as engine.notation renders one), read where it can
    be. ``positions``: the positions the text's boards show, when the caller knows them;
    they settle from which side each board is seen."""
    lines = text.split("\n")
    boards: list[Board] = []
    for first, last in _blocks(lines):
        block = "\n".join(lines[first : last + 1])
        rows = [x.split() for x in lines[first : last + 1] if _kind(x) == "count"]
        pits = max(len(r) for r in rows)
        stated = _stated_side(lines, boards[-1].last + 1 if boards else 0, first, last)
        sides = [stated] if stated else list(map(Side, SIDES))
        found: tuple[Position, Side] | None = None
        for rules in _candidate_rules(lines, first, pits):
            read = _readings(block, rules, sides)
            known = [r for r in read if any(_same(r[0], p) for p in positions)]
            if known:
                found = known[0]
            elif read:
                # both sides read (stores, not captured counts): see _plausible
                found = max(read, key=lambda r: _plausible(r[0], r[1], block))
            if found:
                break
        if found is None:
            boards.append(Board(first, last, None, stated or Side.SOUTH))
        else:
            boards.append(Board(first, last, found[0], found[1]))
    return boards


# -- pictures -------------------------------------------------------------------------------

_PICTURES: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
_CACHED = 64  # both players of a game often get the same picture: draw it once


def board_png(position: Position, seen_from: Side = Side.SOUTH) -> bytes:
    """``position``'s picture from ``seen_from``'s side (the reader's: the same side as the
    text board beside it), as small as it stays sharp: the drawing's flat colours fit a
    palette of 32, which makes the PNG a third of its size (about 6 to 9 KB)."""
    key = (
        current_language(),  # the picture's few words are in the reader's language
        str(position.rules),
        position.pits,
        position.stores,
        position.to_move,
        position.last_move,
        position.is_over() and position.outcome(),
        position.tuzdyks,
        seen_from,
    )
    if key in _PICTURES:
        _PICTURES.move_to_end(key)
        return _PICTURES[key]
    image = Image.open(io.BytesIO(draw_board(position, seen_from)))
    # the fast quantizer and no optimize pass: a few ms, where the best took 30 for 10% less
    small = image.quantize(colors=32, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG")
    png = out.getvalue()
    _PICTURES[key] = png
    if len(_PICTURES) > _CACHED:
        _PICTURES.popitem(last=False)
    return png


def encoded_size(data: bytes) -> int:
    """Bytes ``data`` takes in base64 with line breaks (how a picture travels)."""
    chars = (len(data) + 2) // 3 * 4
    return chars + 2 * (chars // 76 + 1)


_PART_OVERHEAD = 300  # a picture part's headers and boundary


def _png_width(png: bytes) -> int:
    return int.from_bytes(png[16:20], "big")  # the IHDR chunk's width


# -- the HTML -------------------------------------------------------------------------------


def _linked(text: str, links: Sequence[str]) -> str:
    """``text`` escaped, each of ``links`` in it a link. Only these, which the bot wrote:
    an address a player typed (in a name) stays text, so no mail of ours links elsewhere.

    >>> _linked("Play: https://m.example/game/1 & more", ["https://m.example/game/1"])
    'Play: <a href="https://m.example/game/1">https://m.example/game/1</a> &amp; more'
    """
    out = html.escape(text, quote=False)
    for link in links:
        shown = html.escape(link, quote=False)
        out = out.replace(shown, f'<a href="{html.escape(link)}">{shown}</a>')
    return out


def _paragraphs(lines: list[str], links: Sequence[str] = ()) -> list[str]:
    """Prose lines as HTML paragraphs: a blank line ends one, a line break stays a ``<br>``;
    indented lines (the help's columns, the games list) keep their layout in a wrapping
    monospace block; ``links`` become links in either (``_linked``)."""
    out = []
    chunk: list[str] = []
    for line in [*lines, ""]:
        if line.strip():
            chunk.append(line.rstrip())
            continue
        if not chunk:
            continue
        if any(x.startswith("  ") for x in chunk[1:]) or chunk[0].startswith("    "):
            out.append(f'<pre style="{_TABLE_STYLE}">{_linked(chr(10).join(chunk), links)}</pre>')
        else:
            inner = "<br>\n".join(_linked(x, links) for x in chunk)
            out.append(f"<p>{inner}</p>")
        chunk = []
    return out


def transfer_encoding(text: str) -> str:
    """How a text part travels: 7bit when ASCII in short lines, quoted-printable when mostly
    ASCII (French, German: it stays readable in the source), base64 where a fifth of the
    bytes is not (Cyrillic), which is then the smaller by far."""
    data = text.encode()
    wide = sum(1 for b in data if b > 127)
    if not wide and max(map(len, text.split("\n"))) < 900:
        return "7bit"
    return "base64" if wide * 5 > len(data) else "quoted-printable"


def part_size(text: str) -> int:
    """Bytes ``text`` takes as a mail part, in its ``transfer_encoding``."""
    encoding = transfer_encoding(text)
    data = text.encode()
    if encoding == "base64":
        return encoded_size(data)
    if encoding == "7bit":
        return len(data) + text.count("\n")  # CRLF on the wire
    return len(data) + 2 * sum(1 for b in data if b > 127 or b == 61) + len(data) // 70 * 3


def _document(
    lines: list[str],
    boards: list[Board],
    figures: dict[int, Picture],
    board_style: str = _BOARD_STYLE,
    links: Sequence[str] = (),
) -> str:
    """The HTML of ``lines``: paragraphs, and each board in its monospace block, under its
    picture where ``figures`` has one (by the board's index)."""
    parts: list[str] = []
    start = 0
    for index, board in enumerate(boards):
        parts += _paragraphs(lines[start : board.first], links)
        start = board.last + 1
        block = "\n".join(line.rstrip() for line in lines[board.first : board.last + 1])
        figure = ""
        if index in figures:
            picture = figures[index]
            width = _png_width(picture.png) // 2  # sharp on a phone's dense screen
            figure = (
                f'<img src="cid:{html.escape(picture.cid)}" alt="{html.escape(picture.alt)}" '
                f'width="{width}" style="{_IMG_STYLE}">\n'
            )
        style = f' style="{board_style}"' if board_style else ""
        pre = f"<pre{style}>{html.escape(block, quote=False)}</pre>"
        parts.append(f"<div>\n{figure}{pre}\n</div>" if figure else pre)
    parts += _paragraphs(lines[start:], links)
    language = html.escape(current_language().value)
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{language}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light">\n</head>\n'
        f'<body style="{_BODY_STYLE}">\n' + "\n".join(parts) + "\n</body>\n</html>\n"
    )


def html_mail(
    text: str,
    domain: str = "localhost",
    positions: Sequence[Position] = (),
    budget: int = MAIL_LIMIT - HEADERS,
    most_pictures: int = MOST_PICTURES,
    links: Sequence[str] = (),
) -> HtmlMail:
    """The HTML of a mail whose plain text is ``text``, and the pictures it shows. Boards
    get pictures in order while the text, the HTML and the pictures fit in ``budget`` bytes
    as sent (at most ``most_pictures``); the boards after that are shown in their monospace
    block only. ``positions``: see ``find_boards``; ``links``: the addresses in ``text`` the
    HTML makes links of."""
    lines = text.split("\n")
    boards = find_boards(text, positions)
    style = _BOARD_STYLE
    bare = _document(lines, boards, {}, style, links)
    for lean in _LEAN_BOARD_STYLES:  # a mail too big even without pictures: shorter styles
        if part_size(text) + part_size(bare) <= budget:
            break
        style = lean
        bare = _document(lines, boards, {}, style, links)
    spent = part_size(text) + part_size(bare)
    figures: dict[int, Picture] = {}
    for index, board in enumerate(boards):
        if board.position is None:
            continue
        if len(figures) >= most_pictures:
            break
        png = board_png(board.position, board.seen_from)
        alt = describe_board(board.position)
        tag = 2 * len(alt.encode()) + 400  # the <img> tag in the HTML, as sent
        cost = encoded_size(png) + _PART_OVERHEAD + tag
        if spent + cost > budget:
            break  # pictures for the first boards, then the monospace blocks alone
        spent += cost
        cid = f"board{len(figures) + 1}.{secrets.token_hex(6)}@{domain}"
        figures[index] = Picture(cid, png, alt)
    markup = _document(lines, boards, figures, style, links) if figures else bare
    return HtmlMail(markup, list(figures.values()))
