"""Togyz Kumalak and Bestemshe beyond the playthroughs: PlayStrategy's own test games replayed
move for move, the tuzdyks through notation, equality, hashing and pickling, PlayStrategy's
position strings, and the computer.

PlayStrategy's games come from its rules library's tests (Mind-Sports-Games/strategygames,
src/test/scala/togyzkumalak/), written as its moves are, ``<from><to>`` in its coordinates:
files a-i left to right as South sees the board, rank 1 South's row, rank 2 North's.
"""

import pickle

import pytest

from engine import Game, Position, PositionError, Ruleset, Termination, parse_position, render
from engine.fen import fen, game_fen, parse_fen

TOGYZ = Ruleset.parse("togyz-kumalak")


def ours(move: str, pits: int) -> str:
    """A PlayStrategy move's starting pit as our letter: rank 1 is South's A-I, rank 2 North's
    row, whose file a is North's last pit (our i on a 9-pit board)."""
    file = "abcdefghi".index(move[0])
    return "ABCDEFGHI"[file] if move[1] == "1" else "abcdefghi"[pits - 1 - file]


def replay(rules: str, moves: str) -> Game:
    pits = Ruleset.parse(rules).pits
    return Game.from_moves(rules, [ours(m, pits) for m in moves.split()])


# playstrategy.org/FgWSk5be, TogyzkumalakVariantTest's "game ends properly": 82-43.
FGWSK5BE = """g1d2 a2h1 f1d2 c2f1 a1h2 b2h1 b1e2 b2a2 i1c1 g2f1 d1a2 f2i1 h1i2 h2f2 i1g2 d2a1
e1c1 b2d1 g1d2 a2i2 i1g2 i2e2 a1c1 a2a1 h1h2 c2d1 a1b1 b2a2 b1h2 f2b2 b1c1 c2b2 f1i2 c2b2 f1g1
a2a1 a1b1 b2b1 a1b1 b2a2 i1g2 h2g2 h1i2 a2b1 a1b1 e2c1 a1b1 b2a2 b1d1 a2b1 a1b1 g2b2 i1i2 i2h2
g1h2 i2h2 g1h1 h2g2 h1i2 f2e2 e1g1 b2a2 g1h1 c2b2 f1g1 c2b2 g1h1 b2a2 h1i2 b2a2 c1i2 b2a2 h1i2
i2h2 i1d2"""


def test_playstrategys_game_ends_82_43_move_for_move():
    game = replay("togyz-kumalak", FGWSK5BE)
    assert game.outcome()[:3] == (Termination.MAJORITY, (82, 43), "south")
    # PlayStrategy's string for this end (TogyzkumalakFenTest's fen5).
    assert game_fen(game) == "6S,1,1S,t,5S,3S,4S,3S,1S/1S,2S,2S,t,3S,2S,2S,1S,1S 82 43 N 38"


def test_playstrategys_tuzdyk_cases():
    opening = "f1e2 d2e1 i1a2 b2i1 b1g2"
    game = replay("togyz-kumalak", opening)
    assert game.position.stores == (22, 12) and game.position.pits[4] == 2
    game = replay("togyz-kumalak", opening + " f2e1")  # North's last stone makes E 3
    assert game.position.tuzdyks == (None, 4) and game.position.stores == (22, 15)
    second = replay("togyz-kumalak", opening + " f2e1 c1d2 c2i1")  # I makes 3: no second one
    assert second.position.tuzdyks == (None, 4) and second.position.pits[8] == 3
    long = (
        opening + " f2e1 c1d2 i2d1 a1f2 i2h2 a1b1 g2e2 c1e1 e2a2 h1c1 h2i1 i1f2 i2g2 f1h2 "
        "i2h2 i1i2 g2c2 i1i2 e2b2 a1b1 i2h2 h1i2 i2h2"
    )
    game = replay("togyz-kumalak", long)  # 3 in North's own pit h: nobody's tuzdyk
    assert game.position.tuzdyks == (None, 4) and game.position.pits[10] == 3


def test_playstrategys_bestemshe_games():
    assert replay("bestemshe", "c1d2").position.stores == (6, 0)
    assert replay("bestemshe", "c1d2 c2b1").position.stores == (6, 6)
    no_tuzdyk = replay("bestemshe", "c1d2 c2b1 c1d1 b2d1 e1a2 e2b1 c1d1 c2a2 e1e2 d2c2 a1c2")
    assert no_tuzdyk.position.tuzdyks == (None, None) and no_tuzdyk.position.pits[7] == 3
    assert no_tuzdyk.position.stores == (16, 16)
    ends = replay("bestemshe", "c1d2 b2c1 e1a2 e2b1 a1d2 c2d1 b1a2 e2c2 e1d2 c2a2 e1e2 b2d1 c1e2")
    assert ends.outcome()[:3] == (Termination.MAJORITY, (26, 12), "south")


def test_names_and_aliases():
    for name in ("togyzkumalak", "togyzqumalaq", "toguz-korgool", "Togyz-Kumalak"):
        assert Ruleset.parse(name) == TOGYZ
    assert (TOGYZ.pits, TOGYZ.seeds, TOGYZ.total_seeds) == (9, 9, 162)
    bestemshe = Ruleset.parse("bestemshe")
    assert (bestemshe.pits, bestemshe.total_seeds, bestemshe.tuzdyk) == (5, 50, False)
    assert str(Ruleset.parse("togyz-kumalak:tuzdyk=no")) == "togyz-kumalak:tuzdyk=no"


@pytest.mark.parametrize(
    "spec, says",
    [
        ("kalah:pits=9", "pits"),
        ("togyz-kumalak:pits=10", "pits"),
        ("togyz-kumalak:skip_origin", "skip_origin"),
        ("togyz-kumalak:laps=relay", "single laps"),
        ("togyz-kumalak:captures=2-3", "even_capture"),
        ("togyz-kumalak:choose=any", "choose=own"),
    ],
)
def test_mixes_the_rules_do_not_offer_are_refused(spec, says):
    from engine import RulesetError

    with pytest.raises(RulesetError, match=says):
        Ruleset.parse(spec)


TWO_TUZDYKS = "togyz-kumalak", "f1e2 d2e1 i1a2 b2i1 b1g2 f2e1 c1d2 i2d1 a1f2 i2h2 a1b1 g2e2"


def tuzdyk_game() -> Game:
    """A game where both players have made a tuzdyk (found by replaying PlayStrategy's
    opening on until South makes one)."""
    game = replay(*TWO_TUZDYKS)
    while game.position.tuzdyks[0] is None:
        game.play(game.position.legal_moves()[0])
    return game


def test_tuzdyks_are_part_of_the_position():
    game = tuzdyk_game()
    pos = game.position
    south, north = pos.tuzdyks
    assert south is not None and north is not None and south >= 9 > north
    same_board = Position(pos.rules, pos.board, pos.mover, tuzdyks=(None, north))
    assert same_board.board == pos.board and same_board != pos
    assert same_board.key() != pos.key() and hash(same_board) != hash(pos)
    back = pickle.loads(pickle.dumps(pos))
    assert back == pos and back.tuzdyks == pos.tuzdyks and back.legal_moves() == pos.legal_moves()
    assert "tuzdyks=" in repr(pos)


@pytest.mark.parametrize("perspective", ["south", "north"])
def test_a_board_with_tuzdyks_reads_back(perspective):
    pos = tuzdyk_game().position
    text = render(pos, perspective)
    assert text.count("X") == 2 and "Tuzdyks: South's at" in text
    assert parse_position(text, TOGYZ, perspective=perspective) == pos
    without_the_line = "\n".join(ln for ln in text.splitlines() if "Tuzdyk" not in ln)
    assert parse_position(without_the_line, TOGYZ, perspective=perspective) == pos


KAZANS = """
      i  h  g  f  e  d  c  b  a
      {top}
  70                            68
      -  -  -  -  3  -  -  5 10
      A  B  C  D  E  F  G  H  I
"""


@pytest.mark.parametrize(
    "top, says",
    [
        ("X  -  -  -  2  -  2  2  -", "last pit"),  # North's ninth pit
        ("2  -  -  X  2  X  2  -  -", "two X"),
        ("2  -  -  -  2  -  2  -  -\nTuzdyk: South's at f.", "does not match"),
    ],
)
def test_impossible_tuzdyks_are_refused(top, says):
    with pytest.raises(PositionError, match=says):
        parse_position(KAZANS.format(top=top), TOGYZ)


def test_same_number_tuzdyks_and_x_without_tuzdyks_are_refused():
    text = KAZANS.format(top="2  -  -  -  2  -  X  -  -").replace(
        "-  -  -  -  3  -  -  5 10", "-  -  X  -  3  -  -  5 10"
    )
    with pytest.raises(PositionError, match="same number"):
        parse_position(text, TOGYZ)
    with pytest.raises(PositionError, match="'X' is not a count"):
        parse_position("- X - 2 -\n20 25\n- - - - 3", Ruleset.parse("bestemshe"))


def test_kazans_stand_at_the_row_ends():
    text = render(Position.initial(TOGYZ))
    assert "Captured" not in text and text.splitlines()[2].split() == ["0", "0"]
    assert max(len(line) for line in text.splitlines()) <= 40


# -- PlayStrategy's position strings -----------------------------------------------------------

# TogyzkumalakFenTest's strings and what they hold (its "stone arrays", -1 for a tuzdyk).
PLAYSTRATEGY_FENS = [
    (
        "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1",
        [9, 9, 9, 9, 9, 1, 10, 10, 10, 10, 10, 10, 10, 0, 9, 9, 9, 9],
    ),
    (
        "13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4",
        [12, 2, 13, 13, -1, 3, 12, 12, 1, 12, 12, 0, 1, 2, 3, 12, 2, 13],
    ),
    (
        "11S,1S,7S,t,6S,4S,2S,4S,3S/2S,6S,19S,t,1S,3S,1S,3S,3S 57 29 N 10",
        [2, 6, 19, -1, 1, 3, 1, 3, 3, 3, 4, 2, 4, 6, -1, 7, 1, 11],
    ),
    ("5S,5S,1,6S,6S/5S,5S,5S,1S,6S 6 0 N 1", [5, 5, 5, 1, 6, 6, 6, 0, 5, 5]),
]


@pytest.mark.parametrize("text, cells", PLAYSTRATEGY_FENS)
def test_playstrategy_strings_read_and_write_back(text, cells):
    pos = parse_fen(text)
    assert list(pos.pits) == [max(c, 0) for c in cells]
    tuzdyks = [i for i, c in enumerate(cells) if c < 0]
    assert sorted(t for t in pos.tuzdyks if t is not None) == tuzdyks
    for pit in tuzdyks:  # each belongs to the player facing its row
        assert pos.tuzdyks[1 - pit // pos.rules.pits] == pit
    assert fen(pos, int(text.split()[-1])) == text


def test_playstrategy_strings_wherever_a_board_is_read():
    game = replay(*TWO_TUZDYKS)
    text = game_fen(game)
    assert parse_position(text, TOGYZ) == game.position
    assert parse_position(text.replace(" ", "_"), TOGYZ) == game.position
    assert parse_position("5S,5S,1,6S,6S/5S,5S,5S,1S,6S, 6 0 N 1", Ruleset.parse("bestemshe"))
    with pytest.raises(PositionError, match="to move, not"):
        parse_position(text, TOGYZ, to_move="north" if text.split()[3] == "S" else "south")


@pytest.mark.parametrize(
    "text, says",
    [
        ("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 1 0 S 1", "add up"),
        ("9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1", "9, 6 or 5"),
        ("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 W 1", "S or N"),
        ("9S,9S,9S,9S,9S,9S,9S,9S,9X/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1", "not a pit"),
        ("t,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 9 0 S 1", "last pit"),
    ],
)
def test_wrong_playstrategy_strings_say_why(text, says):
    with pytest.raises(PositionError, match=says):
        parse_fen(text)


# -- the computer -------------------------------------------------------------------------------


def test_every_level_plays_togyz_through_the_compiled_search():
    from engine.ai import LEVELS, choose_move, hint, solve

    pos = tuzdyk_game().position
    assert pos.tuzdyks != (None, None)
    for level in LEVELS:
        move = choose_move(pos, level, time_limit=0.3)
        assert move.move in pos.legal_moves()
        assert not move.reduced
    assert not hint(pos, time_limit=0.3).reduced
    assert solve(pos, node_limit=20_000).move in pos.legal_moves()  # far from a proof
    # Still in plain Python where the compiled search must not be waited for.
    assert choose_move(pos, "medium", time_limit=0.3, compiled=False).reduced


def test_a_small_togyz_ending_is_proved_compiled_and_in_python():
    from engine.ai import hint

    pos = parse_position(
        """
          i  h  g  f  e  d  c  b  a
          -  -  -  -  -  -  1  2  -
      75                            79
          -  -  -  -  -  -  -  3  2
          A  B  C  D  E  F  G  H  I""",
        TOGYZ,
    )
    found = hint(pos, time_limit=2.0)
    assert found.exact and found.move in pos.legal_moves() and not found.reduced
    quick = hint(pos, time_limit=2.0, compiled=False)
    assert quick.exact and quick.value == found.value
