"""Bad input gets a clear error that names the problem and what is accepted: never a traceback."""

import pytest

from engine import (
    Game,
    IllegalMove,
    MancalaError,
    Position,
    PositionError,
    Ruleset,
    RulesetError,
    parse_position,
)

WARI = Ruleset.parse("wari")
BOARD = """
  f e d c b a
  4 4 4 4 4 4
  4 4 4 4 4 4
  A B C D E F
"""


@pytest.mark.parametrize(
    "text, says",
    [
        ("", "no ruleset given"),
        ("   ", "no ruleset given"),
        ("chess", "unknown ruleset 'chess'; choose one of: kalah"),
        ("wari:foo=1", "unknown key 'foo'"),
        ("wari:captures=", "has no value"),
        ("wari:captures=2-x", "captures takes counts joined by '-'"),
        ("wari:captures=0-3", "captures takes"),
        ("kalah:pits=9", "pits takes a whole number from 1 to 8"),
        ("kalah:pits=-1", "pits takes a whole number from 1 to 8"),
        ("kalah:seeds=4.5", "seeds takes a whole number"),
        ("kalah:first=east", "first takes south, north, random"),
        ("kalah:replay=maybe", "replay takes yes or no"),
        ("mankala:stones=7", "seeds=7 is not allowed; seeds takes a whole number from 3 to 6"),
        ("mankala:capture=sideways", "capture takes across, home or none"),
        ("wari:replay", "replay needs stores=yes"),
        ("kalah:empty_capture=across", "capture_takes_sower must be no"),
        ("kalah:captures=1-3", "captures containing 1 overlaps"),
        ("wari:captures=none", "no seed ever leaves the board"),
    ],
)
def test_bad_ruleset_strings(text, says):
    with pytest.raises(RulesetError) as err:
        Ruleset.parse(text)
    assert says in str(err.value)


def test_ruleset_errors_are_value_errors_with_one_base():
    assert issubclass(RulesetError, MancalaError) and issubclass(MancalaError, ValueError)
    with pytest.raises(MancalaError):
        Ruleset.parse(None)  # type: ignore[arg-type]


def test_aliases_and_spelling_are_forgiving():
    assert Ruleset.parse(" AWALE : captures = 2-4 ") == Ruleset.parse("wari:captures=2-4")
    assert Ruleset.parse("mancala") == Ruleset.parse("kalah")
    assert str(Ruleset.parse("wari:captures=3-2")) == "wari"  # the preset's own value
    assert str(Ruleset.parse("wari:captures=4-2")) == "wari:captures=2-4"
    assert Ruleset.parse("mankala:symmetric,continue,stones=5") == Ruleset.parse(
        "mankala:choose=any,end=all_empty,laps=relay,seeds=5"
    )


@pytest.mark.parametrize(
    "text, says",
    [
        ("", "found 0 rows"),
        ("hello", "'hello' is not a count"),
        ("4 4 4 4 4\n4 4 4 4 4", "has 5 pits; wari has 6"),
        ("4 4 4 4 4 4\n4 4 4 4 4 -3", "'-3' is not a count"),
        ("4 4 4 4 4 4\n4 4 4 4 4 x", "'x' is not a count"),
        ("4 4 4 4 4 4\n4 4 4 4 4 4.5", "'4.5' is not a count"),
        ("4 4 4 4 4 4\n4 4 4 4 4 4\n4 4 4 4 4 4", "found 3 rows"),
        ("4 4 4 4 4 4\n4 4 4 4 4 5", "the pits hold 49 seeds but wari is played with 48"),
        ("4 4 4 4 4 4\n4 4 4 4 4 -\nCaptured: North 1, South 5.", "do not add up"),
        ("a b c d e f\n4 4 4 4 4 4\n4 4 4 4 4 4", "label rows read f e d c b a"),
    ],
)
def test_garbage_positions(text, says):
    with pytest.raises(PositionError) as err:
        parse_position(text, WARI)
    assert says in str(err.value)


def test_position_disagreements_are_named():
    with pytest.raises(PositionError, match="says North to move"):
        parse_position(BOARD + "North to move.", WARI, to_move="south")
    with pytest.raises(PositionError, match="the board says stores"):
        parse_position(BOARD + "Captured: North 0, South 0.", WARI, stores=(1, 2))
    with pytest.raises(PositionError, match="a position is text"):
        parse_position(None, WARI)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "move, says",
    [
        ("", "'' is not a move; a move is a pit letter A-F"),
        ("Z", "'Z' is not a move"),
        ("EE", "'EE' is not a move"),
        ("E<", "'E<' is not a move"),  # no direction choice in wari
        (None, "a move is a pit letter"),
        (5, "a move is a pit letter"),
    ],
)
def test_malformed_moves(move, says):
    with pytest.raises(IllegalMove) as err:
        Position.initial(WARI).play(move)
    assert says in str(err.value)


def test_illegal_moves_say_why_and_list_the_legal_ones():
    pos = Position.initial(WARI).play("E")
    # North may type their own pits in either case; the empty E is South's pit, so for North
    # "e" and "E" both mean North's e, which is full.
    assert pos.play("E") == pos.play("e")
    empty = parse_position(
        """
        f e d c b a
        4 4 4 4 4 4
        4 4 4 4 - 5
        A B C D E F""",
        WARI,
        stores=(3, 0),
    )
    with pytest.raises(IllegalMove, match=r"pit E is empty; legal moves: A, B, C, D, F"):
        empty.play("E")


def test_moves_after_the_end_are_refused():
    game = Game("kalah:pits=1,seeds=1")
    game.play("A")  # into the store; South's row is empty: over
    assert game.is_over()
    with pytest.raises(IllegalMove, match="the game is over"):
        game.play("a")
    with pytest.raises(IllegalMove, match="move 2"):
        Game.from_moves("wari", "E Q")


def test_direction_choice_moves():
    pos = Position.initial(Ruleset.parse("wari:direction=choice"))
    assert pos.legal_moves()[:2] == ["A", "A<"]
    # Clockwise from South's A goes into North's f, e, d, c.
    after = pos.play("A<")
    assert after.pits[0] == 0 and after.pits[8:12] == (5, 5, 5, 5)
    assert pos.play("A>") == pos.play("A")


def test_the_widest_board_fits_a_phone_code_block():
    from engine import Position, render

    rules = Ruleset.parse("kalah:pits=8,seeds=12")  # 192 seeds: three-digit pits and stores
    board = (82,) + (0,) * 14 + (1,) + (100, 9)  # A holds 82, North's h 1; stores 100 and 9
    wide = Position.settled(rules, board, 0)
    for perspective in ("south", "north"):
        drawn = render(wide, perspective)
        assert max(map(len, drawn.splitlines())) <= 40, drawn
        assert parse_position(drawn, rules, perspective=perspective) == wide


def test_a_finished_board_that_keeps_its_pits_reads_back_finished():
    # With leftover=none the pits stay put, and whether the game is over depends on who is to
    # move: South, with an empty row, is. The drawn board says "Game over", not who was next.
    from engine import Position, render

    rules = Ruleset.parse("kalah:end=mover_empty,leftover=none")
    over = Position.settled(rules, (0,) * 8 + (1, 1, 0, 0) + (20, 26), 0)
    assert over.is_over()
    for perspective in ("south", "north"):
        back = parse_position(render(over, perspective), rules, perspective=perspective)
        assert back.is_over() and back == over
