"""The wari/oware endgame tables (engine.ai.retrograde) against brute force.

The brute force plays every line from a board through the engine's own Position, ending a line
where a position of it comes back and scoring that by the ruleset's cycle policy, exactly as a
game does. It knows nothing of thresholds, layers or bounds.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from engine import Position, Ruleset
from engine.ai.encoding import encode
from engine.ai.endgame import index
from engine.ai.retrograde import UNBOUNDED, build
from engine.position import settle_by_cycle


def brute_force(position: Position) -> int:
    """The final margin (South's store minus North's) under best play, with the game's
    repetition rule: the path so far is the game's history."""
    rules = position.rules
    n2 = 2 * rules.pits
    path: set = set()

    def margin(board) -> int:
        return board[n2] - board[n2 + 1]

    def value(pos: Position) -> int:
        if pos.is_over():
            return margin(pos.board)
        key = (pos.board, pos.mover)
        if key in path:
            return 0 if rules.cycle == "draw" else margin(settle_by_cycle(rules, pos.board))
        path.add(key)
        results = [value(pos.play(move)) for move in pos.legal_moves()]
        path.discard(key)
        return max(results) if pos.mover == 0 else min(results)

    return value(position)


def boards(pits: int, seeds: int):
    for cut in itertools.combinations(range(seeds + 2 * pits - 1), 2 * pits - 1):
        sizes = [
            b - a - 1 for a, b in zip((-1,) + cut, cut + (seeds + 2 * pits - 1,), strict=False)
        ]
        yield tuple(sizes)


def table_bounds(counts, values, pits_row, pits: int) -> tuple[int, int]:
    board = np.array(list(pits_row) + [0, 0])
    i = index(counts, board, 0, pits)
    return int(values[2 * i]), int(values[2 * i + 1])


CASES = [
    # (ruleset without the majority rule, most seeds on the board, stores to try)
    ("oware:pits=2,seeds=2,majority=no", 4, [(0, 0), (2, 1)]),
    ("wari:pits=2,seeds=2,majority=no", 4, [(0, 0), (1, 2), (3, 0)]),
    ("oware:pits=3,seeds=1,majority=no", 3, [(0, 0)]),
    ("wari:pits=3,seeds=1,majority=no", 3, [(0, 0), (1, 0)]),
]


@pytest.mark.parametrize("rules_text, most, stores", CASES)
def test_bounds_hold_and_are_exact_where_they_meet(rules_text, most, stores):
    rules = Ruleset.parse(rules_text)
    counts, values = build(encode(rules), most)
    exact = 0
    for seeds in range(most + 1):
        for pits_row in boards(rules.pits, seeds):
            low, high = table_bounds(counts, values, pits_row, rules.pits)
            assert -UNBOUNDED <= low <= high <= UNBOUNDED
            for south, north in stores:
                position = Position.settled(rules, pits_row + (south, north), 0)
                if position.is_over():
                    continue
                truth = brute_force(position) - (south - north)
                assert low <= truth <= high, (pits_row, south, north)
                if low == high:
                    exact += 1
                    assert truth == low
                if rules.cycle == "draw":  # the clamp the search uses is exact
                    d = south - north
                    assert max(d + low, min(0, d + high)) == truth + d
    assert exact > 0
