"""003's five diagrams, as printed in the 1994 post, are positions the engine must reproduce."""

import pytest

from engine import Position, Ruleset, parse_position, render

WARI = Ruleset.parse("wari")


def seeds_on(text: str) -> int:
    return sum(int(t) for t in text.split() if t.isdigit())


def test_starting_position_diagram():
    # The board part of 003's "The Starting Position" (the prose around it cut away).
    printed = """
                             f e d c b a
                             4 4 4 4 4 4
                             4 4 4 4 4 4
                             A B C D E F
    """
    assert parse_position(printed, WARI) == Position.initial(WARI)


def test_opening_move_E():
    printed = """
                           f e d c b a
                           4 4 4 5 5 5
                           4 4 4 4 - 5
                           A B C D E F
    """
    after = Position.initial(WARI).play("E")
    assert after == parse_position(printed, WARI, to_move="north")
    assert after.stores == (0, 0)


# The three capture examples: position, move, board after sowing, board after the capture,
# and the seeds captured. 003 prints no captured counts; the seeds missing from the board are
# given as captured, 5 by South and the rest by North, so that nobody has passed half yet.
CAPTURES = [
    (
        """  f e d c b a
          1 1 2 3 1 1
          - - - 4 7 2
          A B C D E F""",
        "D",
        """  f e d c b a
          1 1 2 3 2 2
          - - - - 8 3
          A B C D E F""",
        """  f e d c b a
          1 1 2 3 - -
          - - - - 8 3
          A B C D E F""",
        4,
    ),
    (
        """  f e d c b a
          1 1 2 3 1 1
          - - - 4 7 2
          A B C D E F""",
        "E",
        """  f e d c b a
          2 2 3 4 2 2
          - - - 4 - 3
          A B C D E F""",
        """  f e d c b a
          - - - 4 2 2
          - - - 4 - 3
          A B C D E F""",
        7,
    ),
    (
        """  f e d c b a
          1 - 1 - 1 2
          - - - - - 17
          A B C D E F""",
        "F",
        """  f e d c b a
          3 2 3 2 3 4
          1 1 1 1 1 -
          A B C D E F""",
        """  f e d c b a
          - - - - - 4
          1 1 1 1 1 -
          A B C D E F""",
        13,
    ),
]


@pytest.mark.parametrize(
    "before, move, sown, captured, gain", CAPTURES, ids=["from D", "from E", "from F"]
)
def test_capture_examples(before, move, sown, captured, gain):
    north = 48 - seeds_on(before) - 5
    start = parse_position(before, WARI, stores=(5, north))
    after = start.play(move)

    sown_board = parse_position(sown, WARI, stores=(48 - seeds_on(sown) - north, north))
    expected = parse_position(captured, WARI, stores=(5 + gain, north), to_move="north")
    assert seeds_on(sown) - seeds_on(captured) == gain  # the post's own arithmetic
    assert after == expected
    # The captured pits are exactly those that hold 2 or 3 after sowing, chained backwards.
    taken = [i for i in range(12) if after.pits[i] != sown_board.pits[i]]
    assert all(after.pits[i] == 0 and sown_board.pits[i] in (2, 3) for i in taken)
    assert render(after).splitlines()[1:3] == render(expected).splitlines()[1:3]
