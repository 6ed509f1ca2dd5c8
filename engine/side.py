"""The two seats at a mancala board: South (the bottom row of a written board, ``A``-``F``) and
North (the top row, ``a``-``f``). This is the one definition every layer uses.

A ``Side`` is a ``StrEnum``: it equals its word, so it is stored, printed and compared as
``"south"`` or ``"north"``.

>>> Side("north").other
<Side.SOUTH: 'south'>
>>> Side.SOUTH == "south", Side.NORTH.row, SIDES
(True, 1, (<Side.SOUTH: 'south'>, <Side.NORTH: 'north'>))
>>> Side.SOUTH.title()
'South'
"""

from __future__ import annotations

from enum import StrEnum


class Side(StrEnum):
    """A player's seat."""

    SOUTH = "south"
    NORTH = "north"

    @property
    def other(self) -> Side:
        """The opponent's seat."""
        return Side.NORTH if self is Side.SOUTH else Side.SOUTH

    @property
    def row(self) -> int:
        """0 for South, 1 for North: the order of the rows, and of the stores, on the
        engine's board."""
        return 0 if self is Side.SOUTH else 1


SIDES: tuple[Side, Side] = (Side.SOUTH, Side.NORTH)
