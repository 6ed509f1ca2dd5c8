"""The opening book: proven values of Kalah's first plies, read before any search.

``bench/build_book.py`` takes every position of a ruleset's first plies (every move of both
players), proves each one's exact value with the solver and finds every move that keeps it,
and writes them to ``engine/data/kalah_book.json``. ``lookup(position)`` reads that file:
the position's value, its best moves and the value of every move the book proves, or None
where the book does not hold the position (other rules, or deeper than the book goes).

>>> from engine import Position, Ruleset
>>> start = Position.initial(Ruleset.parse("kalah:pits=6,seeds=3"))
>>> entry = lookup(start)
>>> entry.value, entry.best
(2, ('E',))
>>> entry.values  # every move from the start: the book holds the boards they leave
{'A': -12, 'B': -16, 'C': -10, 'D': -2, 'E': 2, 'F': 0}

Kalah is played the same from a board whatever its stores hold (they only add to the margin),
and North sows as South does, so the book keeps each board once: turned so that the player to
move sits South, with the value that the rest of the game adds to the stores' margin.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from engine.ai.move_proofs import MoveProver, margin_for
from engine.position import Position
from engine.ruleset import Ruleset

if TYPE_CHECKING:  # numba loads only when a proof is wanted
    from engine.ai.search import Searcher

FORMAT = "mancala-book/1"
BOOK_FILE = "kalah_book.json"  # in engine/data

# A board turned so that the player to move sits South: its pits, South's row first.
Board = tuple[int, ...]
# What the book keeps for a board: the value still to come for the player to move, and the
# pits (0 to n-1, South's frame) of every move that keeps it.
Stored = tuple[int, tuple[int, ...]]
PlayKey = tuple[Any, ...]


@dataclass(frozen=True)
class BookEntry:
    """What the book proves about a position: values are final seed margins for the player
    to move, with best play from there."""

    value: int
    best: tuple[str, ...]  # every move that keeps ``value``, in sowing order
    values: Mapping[str, int]  # the exact value of each move the book proves (the best ones
    # always, others where the book holds the position they leave or they end the game)


def play_key(rules: Ruleset) -> PlayKey:
    """What a ruleset plays by: every parameter but its name, so that two spellings of one
    game share the book."""
    return tuple(getattr(rules, f.name) for f in fields(rules) if f.name != "name")


def book_board(position: Position) -> Board:
    """``position``'s pits turned so that the player to move sits South."""
    pits = position.pits
    n = position.rules.pits
    return pits if position.mover == 0 else pits[n:] + pits[:n]


def to_come(position: Position, value: int) -> int:
    """What ``value`` (the final margin for the player to move) adds to the stores' margin."""
    return value - margin_for(position, position.mover)


def lookup(position: Position) -> BookEntry | None:
    """The book's entry for ``position``, or None where the book does not hold it."""
    found = _stored(position)
    if found is None or position.is_over():
        return None
    value, best_pits = found
    best: tuple[str, ...] = ()
    values: dict[str, int] = {}
    n = position.rules.pits
    for move in position.legal_moves():
        pit = position.parse_move(move)[0] % n
        if pit in best_pits:
            best += (move,)
            values[move] = value
            continue
        known = _value_after(position, move)
        if known is not None:
            values[move] = known
    return BookEntry(value, best, values)


def _stored(position: Position) -> tuple[int, tuple[int, ...]] | None:
    """(the position's value, the pits of its best moves), if the book holds it."""
    book = _books().get(play_key(position.rules))
    if book is None:
        return None
    found = book.get(book_board(position))
    if found is None:
        return None
    rest, best = found
    return margin_for(position, position.mover) + rest, best


def _value_after(position: Position, move: str) -> int | None:
    """The exact value of ``move`` for the player making it, if the game ends with it or the
    book holds the position it leaves."""
    child = position.play(move)
    mover = position.mover
    if child.is_over():
        return margin_for(child, mover)
    found = _stored(child)
    if found is None:
        return None
    return found[0] if child.mover == mover else -found[0]


def opening_tree(rules: Ruleset, plies: int) -> tuple[list[tuple[Board, Position]], list[Position]]:
    """Every board of the first ``plies`` plies once, in the order first reached (breadth
    first, moves in sowing order), with a position of it; and the positions of the last ply,
    the ones to prove."""
    start = Position.initial(rules)
    order = [(book_board(start), start)]
    seen = {order[0][0]}
    layer = [start]
    for _ in range(plies):
        following = []
        for position in layer:
            for move in position.legal_moves():
                child = position.play(move)
                board = book_board(child)
                if child.is_over() or board in seen:
                    continue
                seen.add(board)
                order.append((board, child))
                following.append(child)
        layer = following
    return order, layer


def derive(order: list[tuple[Board, Position]], done: dict[Board, Stored]) -> dict[Board, Stored]:
    """Every board's value and best moves from the proven boards of the last ply: each
    earlier board's best value over its moves (an extra turn keeps the sign, a handover
    flips it), its children's values first."""
    positions = dict(order)
    book: dict[Board, Stored] = dict(done)

    def stored(board: Board) -> Stored:
        if board not in book:
            position = positions[board]
            mover = position.mover
            n = position.rules.pits
            values: dict[int, int] = {}
            for move in position.legal_moves():
                child = position.play(move)
                if child.is_over():
                    final = margin_for(child, mover)
                else:
                    value = margin_for(child, child.mover) + stored(book_board(child))[0]
                    final = value if child.mover == mover else -value
                values[position.parse_move(move)[0] % n] = final
            best_value = max(values.values())
            best = tuple(sorted(pit for pit, value in values.items() if value == best_value))
            book[board] = (to_come(position, best_value), best)
        return book[board]

    for board, _position in order:
        stored(board)
    return book


def prove(position: Position, searcher: Searcher) -> Stored:
    """The book's entry for ``position``, proven: the solver's exact value (MTD(f)), then a
    null-window test of each move for whether it keeps it. ``searcher``: a compiled solver for
    these rules, its table kept from one board to the next. RuntimeError where a line was
    cut at the kernel's longest ply (no proof could be trusted then)."""
    # numba loads only when a proof is wanted
    from engine.ai.search import UNLIMITED, solve
    from engine.ai.search_kernel import TRUNCATED

    result = solve(position, searcher=searcher)
    value = int(result.value)
    best = MoveProver(searcher, UNLIMITED).best_moves(position, value)
    if not result.complete or searcher.stats[TRUNCATED] or not best:
        raise RuntimeError(f"the proof of {position.board} did not complete")
    n = position.rules.pits
    return to_come(position, value), tuple(sorted(position.parse_move(m)[0] % n for m in best))


def parse_book(text: str) -> dict[PlayKey, dict[Board, Stored]]:
    """The books in a book file's text (see ``write_book``), by ruleset. ValueError if it is
    not one."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} file")
    books: dict[PlayKey, dict[Board, Stored]] = {}
    for book in data["books"]:
        rules = Ruleset.parse(book["rules"])
        letters = rules.letters
        entries: dict[Board, Stored] = {}
        for line in book["positions"]:
            pits, value, best = line.split()
            board = tuple(int(seeds) for seeds in pits.split(","))
            if len(board) != 2 * rules.pits:
                raise ValueError(f"a board of {len(board)} pits in a book of {rules}")
            entries[board] = (int(value), tuple(letters.index(letter) for letter in best))
        books[play_key(rules)] = entries
    return books


def write_book(books: Mapping[str, tuple[int, Mapping[Board, Stored]]], note: str) -> str:
    """A book file's text: for each ruleset (as written), the plies it covers and its boards.
    One line a board, sorted, so that a build gives the same file every time."""
    out = []
    for rules_text, (plies, entries) in sorted(books.items()):
        letters = Ruleset.parse(rules_text).letters
        lines = []
        for board, (value, best) in sorted(entries.items()):
            moves = "".join(letters[pit] for pit in best)
            lines.append(f"{','.join(map(str, board))} {value:+d} {moves}")
        out.append({"rules": rules_text, "plies": plies, "positions": lines})
    return json.dumps({"format": FORMAT, "note": note, "books": out}, indent=0) + "\n"


def covered_rules() -> list[tuple[str, int]]:
    """The rulesets the shipped book covers, as written, and how many plies of each."""
    data = json.loads(_book_text())
    return [(book["rules"], book["plies"]) for book in data["books"]]


def _book_text() -> str:
    return resources.files("engine.data").joinpath(BOOK_FILE).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _books() -> dict[PlayKey, dict[Board, Stored]]:
    """The shipped book, read once a process; empty if the file is missing (a checkout the
    build has not written yet)."""
    try:
        return parse_book(_book_text())
    except FileNotFoundError:
        return {}
