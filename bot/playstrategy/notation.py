"""PlayStrategy's variants and moves, mapped to our rulesets and our engine's moves.

PlayStrategy (Mind-Sports-Games/strategygames) numbers a mancala board's pits 0 to 2n-1
counter-clockwise from South's left, exactly as our engine does, and names them like chess
squares: South's row is rank 1 (``a1`` on South's left), North's row rank 2, with the same
file letters (``f2`` stands above ``f1``). A move is written ``<origin><last pit sown>``, e.g.
``a1e1``: the pit emptied, then where its last stone fell (``togyzkumalak/variant/Variant.scala``
``destFromOrig``, ``samurai/variant/Variant.scala`` ``validMoves``). Our engine names the same
move by its origin only (``A``..``I`` South, ``a``..``i`` North), so the destination is a
check: PlayStrategy's sowing and ours must end in the same pit.

>>> from engine import Game
>>> game = Game.from_moves("togyz-kumalak", "")
>>> to_uci(game.position, "A")
'a1i1'
>>> from_uci(game.position, "a1i1")
'A'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.position import Position


@dataclass(frozen=True)
class Variant:
    """One PlayStrategy variant we play: its API key, our ruleset, its starting FEN."""

    key: str
    rules: str
    start_fen: str


# The variants whose rules were checked against ours (deploy/playstrategy.md says how).
VARIANTS: dict[str, Variant] = {
    "oware": Variant("oware", "oware", "4S,4S,4S,4S,4S,4S/4S,4S,4S,4S,4S,4S 0 0 S 1"),
    "togyzkumalak": Variant(
        "togyzkumalak",
        "togyz-kumalak",
        "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1",
    ),
    "bestemshe": Variant("bestemshe", "bestemshe", "5S,5S,5S,5S,5S/5S,5S,5S,5S,5S 0 0 S 1"),
}


class NotationError(ValueError):
    """A PlayStrategy move that does not name a legal move of ours, or whose last pit
    differs from our engine's sowing: a disagreement between the two rule books."""


def square(index: int, pits: int) -> str:
    """PlayStrategy's name of pit ``index`` (0..2n-1) on a board of ``pits`` a row."""
    if index < pits:
        return f"{chr(ord('a') + index)}1"
    return f"{chr(ord('a') + 2 * pits - 1 - index)}2"


def index_of(name: str, pits: int) -> int:
    """The pit index of PlayStrategy's square ``name`` (``a1``, ``f2``); NotationError if
    it is not one of this board's."""
    if len(name) != 2 or name[1] not in "12":
        raise NotationError(f"'{name}' is not a pit")
    file = ord(name[0]) - ord("a")
    if not 0 <= file < pits:
        raise NotationError(f"'{name}' is not a pit of a {pits}-pit row")
    return file if name[1] == "1" else 2 * pits - 1 - file


def last_pit(position: Position, origin: int) -> int:
    """Where the last stone of a sowing from ``origin`` falls, as PlayStrategy writes it:
    Togyz Kumalak and Bestemshe put the first stone back into the origin (a single stone
    moves on); Oware skips the origin on a lap."""
    size = 2 * position.rules.pits
    count = position.pits[origin]
    if position.rules.name == "oware":
        return (origin + count + (count - 1) // (size - 1)) % size
    if count == 1:
        return (origin + 1) % size
    return (origin + count - 1) % size


def to_uci(position: Position, move: str) -> str:
    """Our engine's ``move`` (a pit letter) in ``position``, as PlayStrategy writes it."""
    pits = position.rules.pits
    letter = move.strip()
    origin = ord(letter.upper()) - ord("A")
    if letter.islower():
        origin += pits
    return square(origin, pits) + square(last_pit(position, origin), pits)


def from_uci(position: Position, uci: str) -> str:
    """PlayStrategy's move ``uci`` in ``position``, as our engine's pit letter. NotationError
    when it is not legal here or its last pit differs from our sowing's."""
    pits = position.rules.pits
    if len(uci) != 4:
        raise NotationError(f"'{uci}' is not a move")
    origin, dest = index_of(uci[:2], pits), index_of(uci[2:], pits)
    letter = chr(ord("A") + origin) if origin < pits else chr(ord("a") + origin - pits)
    if letter not in position.legal_moves():
        raise NotationError(f"'{uci}' ({letter}) is not legal here")
    if last_pit(position, origin) != dest:
        expected = square(last_pit(position, origin), pits)
        raise NotationError(f"'{uci}' ends in {uci[2:]}; our sowing ends in {expected}")
    return letter
