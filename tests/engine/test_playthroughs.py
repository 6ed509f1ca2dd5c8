"""A short playthrough per preset and per rule that sets the presets apart.

Each expected board was worked out by hand from the sources (the comments show the sowing);
boards are written in the 003 notation the engine reads back.
"""

import pytest

from engine import Game, IllegalMove, Position, Ruleset, Termination, parse_position, render


def pos(rules: str, text: str, **kw) -> Position:
    return parse_position(text, Ruleset.parse(rules), **kw)


def same(actual: Position, rules: str, text: str, **kw) -> None:
    expected = pos(rules, text, **kw)
    assert actual == expected, "\n" + render(actual) + "\n!=\n" + render(expected)


# -- kalah (001) ----------------------------------------------------------------------------


def test_kalah_opening_replay_then_sowing_past_the_store():
    game = Game("kalah")
    game.play("C")  # C4 -> D E F store: last seed in the store, South again
    assert game.position.to_move == "south"
    game.play("F")  # F5 -> store a b c d
    same(
        game.position,
        "kalah",
        """
          f  e  d  c  b  a
          4  4  5  5  5  5
       0                   2
          4  4  -  5  5  -
          A  B  C  D  E  F""",
        to_move="north",
    )


CAPTURE_FROM_A = """
      f  e  d  c  b  a
      4  -  4  4  4  4
   5                   6
      1  -  4  4  4  4
      A  B  C  D  E  F"""


def test_kalah_captures_even_when_the_opposite_pit_is_empty():
    # 001: "capture that piece and any pieces in the pocket directly opposite" (e is empty).
    after = pos("kalah", CAPTURE_FROM_A).play("A")
    assert after.pits[:2] == (0, 0) and after.stores == (7, 5)
    assert after.to_move == "north"


def test_kalah_option_capture_needs_opposite():
    after = pos("kalah:capture_needs_opposite", CAPTURE_FROM_A).play("A")
    assert after.pits[:2] == (0, 1) and after.stores == (6, 5)


def test_kalah_ends_when_a_row_is_empty_and_each_adds_their_row():
    start = pos(
        "kalah",
        """
          f  e  d  c  b  a
          -  -  -  3  -  2
       20                 22
          -  -  -  -  -  1
          A  B  C  D  E  F""",
    )
    after = start.play("F")  # into the store: a replay, but South's row is now empty
    assert after.is_over()
    assert after.outcome()[:3] == (Termination.ROW_EMPTY, (23, 25), "north")
    assert after.pits == (0,) * 12


# -- kalah-nosweep (002) -----------------------------------------------------------------------

EMPTY_BEFORE_MOVE = """
      f  e  d  c  b  a
      2  2  2  2  2  2
  11                   11
     14  -  -  -  -  -
      A  B  C  D  E  F"""


def test_002_a_pit_empty_before_the_move_still_captures():
    # A14: B C D E F, store, a..f, A (13th), B (14th). B was empty before the move began, so
    # it counts as empty although it got a seed earlier in this sowing: B2 and e3 are taken.
    after = pos("kalah-nosweep", EMPTY_BEFORE_MOVE, to_move="south").play("A")
    same(
        after,
        "kalah-nosweep",
        """
          f  e  d  c  b  a
          3  -  3  3  3  3
      11                   17
          1  -  1  1  1  1
          A  B  C  D  E  F""",
        to_move="north",
    )


def test_001_counts_empty_before_the_drop_so_the_same_move_does_not_capture():
    after = pos("kalah", EMPTY_BEFORE_MOVE, to_move="south").play("A")
    assert after.pits[1] == 2 and after.stores == (12, 11)


def test_002_the_origin_pit_does_not_count_as_empty():
    # A13 ends in A itself: empty before the drop (Kalah captures), not before the move (002).
    text = """
          f  e  d  c  b  a
          2  2  2  2  2  2
      11                   12
         13  -  -  -  -  -
          A  B  C  D  E  F"""
    assert pos("kalah-nosweep", text, to_move="south").play("A").pits[0] == 1
    kalah = pos("kalah", text, to_move="south").play("A")
    assert kalah.pits[0] == 0 and kalah.pits[11] == 0 and kalah.stores == (13 + 4, 11)


def test_002_only_the_stores_count_at_the_end():
    after = pos(
        "kalah-nosweep",
        """
          f  e  d  c  b  a
          -  -  -  3  -  2
       20                 22
          -  -  -  -  -  1
          A  B  C  D  E  F""",
        to_move="south",
    ).play("F")
    assert after.outcome()[:3] == (Termination.ROW_EMPTY, (23, 20), "south")
    assert sum(after.pits) == 5  # left on the board, counted for nobody


def test_002_first_player_is_a_coin_flip():
    firsts = {Game("kalah-nosweep", seed=seed).position.to_move for seed in range(20)}
    assert firsts == {"south", "north"}
    assert (
        Game("kalah-nosweep", seed=7).position.to_move
        == Game("kalah-nosweep", seed=7).position.to_move
    )


# -- wari (003) --------------------------------------------------------------------------------


def test_wari_must_feed_an_empty_opponent():
    start = pos(
        "wari",
        """
          f e d c b a
          - - - - - -
          1 - - - - 1
          A B C D E F
        Captured: North 23, South 23.""",
    )
    assert start.legal_moves() == ["F"]
    with pytest.raises(IllegalMove, match="does not feed"):
        start.play("A")
    assert start.play("F").pits[6] == 1


def test_wari_cannot_feed_the_mover_takes_what_is_left():
    start = pos(
        "wari",
        """
          f e d c b a
          1 - - - - -
          - 1 - - - -
          A B C D E F
        Captured: North 23, South 23.""",
        to_move="north",
    )
    after = start.play("f")  # f1 -> A; North's row is empty and neither A nor B reaches it
    assert after.outcome()[:3] == (Termination.CANNOT_FEED, (25, 23), "south")


GRAND_SLAM = """
      f e d c b a
      - - - - 1 1
      2 - - - 3 1
      A B C D E F
    Captured: North 20, South 20."""


def test_wari_grand_slam_takes_all():
    # E3 -> F2 a2 b2: b and a are taken, which is all North has; 003: the game is over and
    # the mover gets all the remaining stones (A2, F2).
    after = pos("wari", GRAND_SLAM).play("E")
    assert after.outcome()[:3] == (Termination.GRAND_SLAM, (28, 20), "south")


def test_oware_grand_slam_captures_nothing():
    after = pos("oware", GRAND_SLAM).play("E")
    same(
        after,
        "oware",
        """
          f e d c b a
          - - - - 2 2
          2 - - - - 2
          A B C D E F
        Captured: North 20, South 20.""",
        to_move="north",
    )


def test_grand_slam_forbidden_unless_every_move_is_one():
    start = pos("wari:grand_slam=forbidden", GRAND_SLAM)
    assert start.legal_moves() == ["A", "F"]
    with pytest.raises(IllegalMove, match="grand slam"):
        start.play("E")
    only_slams = pos(
        "wari:grand_slam=forbidden",
        """
          f e d c b a
          - - - - 1 1
          - - - - 3 -
          A B C D E F
        Captured: North 22, South 21.""",
    )
    assert only_slams.legal_moves() == ["E"]
    assert only_slams.play("E").stores == (21, 22)  # played, capturing nothing


def test_wari_more_than_half_wins_at_once():
    start = pos(
        "wari",
        """
          f e d c b a
          - - - 1 1 1
          - - - - - 3
          A B C D E F
        Captured: North 18, South 24.""",
    )
    after = start.play("F")  # F3 -> a2 b2 c2, all taken: 30 > 24
    assert after.is_over() and after.outcome().winner == "south"
    assert after.outcome().termination in (Termination.MAJORITY, Termination.GRAND_SLAM)


def test_wari_relay_variation_continues_from_a_full_pit():
    # 003's multiple laps: E4 -> F a b c (c held 2, now 3: a capturing count, so the move ends
    # with the capture); D4 -> E F a b: b held 4 -> 5, picked up: c d e f A ends in A (empty).
    start = pos(
        "wari:laps=relay",
        """
          f e d c b a
          - - - 2 4 -
          - - - 4 - -
          A B C D E F
        Captured: North 17, South 21.""",
    )
    after = start.play("D")
    same(
        after,
        "wari:laps=relay",
        """
          f e d c b a
          1 1 1 3 - 1
          1 - - - 1 1
          A B C D E F
        Captured: North 17, South 21.""",
        to_move="north",
    )


# -- oware -------------------------------------------------------------------------------------


def test_oware_cannot_feed_each_keeps_their_row():
    after = pos(
        "oware",
        """
          f e d c b a
          1 - - - - -
          - 1 - - - -
          A B C D E F
        Captured: North 23, South 23.""",
        to_move="north",
    ).play("f")
    assert after.outcome()[:3] == (Termination.CANNOT_FEED, (25, 23), "south")


# -- al-manqala (004) --------------------------------------------------------------------------


def test_al_manqala_captures_across_rows_but_never_the_origin():
    # F3 -> G2 a2 b4: b, a and G are taken (2's and 4's, backwards across the rows); the walk
    # stops at F, the pit the move started from.
    start = pos(
        "al-manqala",
        """
          g f e d c b a
          - - 6 - - 3 1
          5 - - - - 3 1
          A B C D E F G
        Captured: North 39, South 40.""",
    )
    after = start.play("F")
    same(
        after,
        "al-manqala",
        """
          g f e d c b a
          - - 6 - - - -
          5 - - - - - -
          A B C D E F G
        Captured: North 39, South 48.""",
        to_move="north",
    )


def test_al_manqala_capture_on_own_row_stops_before_the_origin():
    start = pos(
        "al-manqala",
        """
          g f e d c b a
          - - 6 - - - 1
          1 1 1 - - - -
          A B C D E F G
        Captured: North 44, South 44.""",
    )
    after = start.play("B")  # B1 -> C2: taken; the pit before it is B, where the move began
    assert after.pits[:3] == (1, 0, 0) and after.stores == (46, 44)


def test_al_manqala_cannot_feed_the_opponent_takes_what_is_left():
    start = pos(
        "al-manqala",
        """
          g f e d c b a
          1 - - - - - -
          - - - - - - -
          A B C D E F G
        Captured: North 49, South 48.""",
        to_move="north",
    )
    after = start.play("g")  # g1 -> A1; South cannot leave North a bead: North takes it
    assert after.outcome()[:3] == (Termination.CANNOT_FEED, (48, 50), "north")


def test_al_manqala_must_leave_the_opponent_beads():
    start = pos(
        "al-manqala",
        """
          g f e d c b a
          - - - - - - -
          - - - - - 2 1
          A B C D E F G
        Captured: North 47, South 48.""",
    )
    # G1 -> a: North gets a bead. F2 -> G2 a1: G is taken (2), a keeps its bead. Both leave
    # North something; neither is refused.
    assert start.legal_moves() == ["F", "G"]


# -- the elf.org applet (000) ------------------------------------------------------------------


def test_mankala_capture_across_moves_the_opposite_seeds_into_the_pit():
    game = Game("mankala")
    game.play("D")  # D3 -> E F home: replay
    game.play("A")  # A3 -> B C D; D was empty: c's 3 stones move into D, which keeps its own
    same(
        game.position,
        "mankala",
        """
          f  e  d  c  b  a
          3  3  3  -  3  3
       0                   1
          -  4  4  4  4  4
          A  B  C  D  E  F""",
        to_move="north",
    )


def test_mankala_capture_home_sends_them_to_the_store_and_leaves_the_seed():
    game = Game.from_moves("mankala:capture=home", "D A")
    assert game.position.pits[3] == 1 and game.position.pits[8] == 0
    assert game.position.stores == (4, 0)


def test_manbula_symmetric_move_from_the_opponents_row_with_relay():
    # South plays North's b2 -> c1 d2: d was not empty, so it is picked up: e1 f1, f empty.
    start = pos(
        "manbula",
        """
          f  e  d  c  b  a
          -  -  1  -  2  -
      22                   22
          1  -  -  -  -  -
          A  B  C  D  E  F""",
        to_move="south",
    )
    with pytest.raises(IllegalMove, match="empty"):
        start.play("B")  # in a symmetric game case decides: B is South's own, empty pit
    same(
        start.play("b"),
        "manbula",
        """
          f  e  d  c  b  a
          1  1  -  1  -  -
      22                   22
          1  -  -  -  -  -
          A  B  C  D  E  F""",
        to_move="north",
    )


def test_mankala_ends_before_a_turn_with_no_stones_and_sides_go_to_owners():
    after = pos(
        "mankala",
        """
          f  e  d  c  b  a
          -  -  -  -  2  1
      15                   17
          -  -  -  -  -  1
          A  B  C  D  E  F""",
        to_move="south",
    ).play("F")
    # F1 -> home: a replay, but South has no stones: North's row goes to North.
    assert after.outcome()[:3] == (Termination.NO_MOVE, (18, 18), "draw")


# -- cycles and agreed ends ---------------------------------------------------------------------

TWO_SEEDS_GO_ROUND = """
      f e d c b a
      1 - - - - -
      - - - - - 1
      A B C D E F
    Captured: North 24, South 22."""


@pytest.mark.parametrize(
    "rules, score, winner",
    [
        ("wari", (22, 24), "draw"),  # cycle=draw: a draw whatever the captured counts
        ("oware", (23, 25), "north"),  # cycle=owners: each takes their own row
        ("wari:cycle=split", (23, 25), "north"),  # the two seeds left are split
    ],
)
def test_a_repeated_position_ends_the_game_by_the_cycle_policy(rules, score, winner):
    game = Game(rules, position=pos(rules, TWO_SEEDS_GO_ROUND))
    while not game.is_over():
        game.play(game.position.legal_moves()[0])
    assert game.moves == ["F", "f", "A", "a", "B", "b", "C", "c", "D", "d", "E", "e"]
    assert game.outcome()[:3] == (Termination.REPETITION, score, winner)


def test_agreed_end_splits_evenly_and_an_odd_bead_stays_unclaimed():
    game = Game(
        "al-manqala",
        position=pos(
            "al-manqala",
            """
          g f e d c b a
          1 - - - - 1 -
          - - - - - - 1
          A B C D E F G
        Captured: North 47, South 48.""",
        ),
    )
    game.agree_end()
    assert game.outcome()[:3] == (Termination.AGREED_END, (49, 48), "south")
    with pytest.raises(IllegalMove, match="over"):
        game.play("G")


# -- togyz-kumalak (the World Togyz Kumalak Federation's rules) ---------------------------------


def test_togyz_opening_first_stone_back_then_even_capture():
    # E9: the first stone back into E, then F G H I a b c d: d holds 10, even: South takes it.
    after = Position.initial(Ruleset.parse("togyz-kumalak")).play("E")
    same(
        after,
        "togyz-kumalak",
        """
          i  h  g  f  e  d  c  b  a
          9  9  9  9  9  - 10 10 10
       0                            10
          9  9  9  9  1 10 10 10 10
          A  B  C  D  E  F  G  H  I""",
        to_move="north",
    )


def test_togyz_a_single_stone_moves_on_and_leaves_its_pit_empty():
    start = pos(
        "togyz-kumalak",
        """
          i  h  g  f  e  d  c  b  a
          -  -  -  -  -  -  -  -  1
      75                            80
          -  -  -  -  -  -  -  3  3
          A  B  C  D  E  F  G  H  I""",
        to_move="north",
    )
    after = start.play("a")  # a1 -> b: a is left empty (it does not keep its stone)
    assert after.pits[9:11] == (0, 1) and after.stores == (80, 75)


TUZDYK_TO_MAKE = """
      i  h  g  f  e  d  c  b  a
      1  -  -  -  -  -  -  2  1
  74                            76
      -  -  -  -  -  -  -  5  3
      A  B  C  D  E  F  G  H  I"""


def test_togyz_tuzdyk_made_and_fed_by_both_players():
    game = Game("togyz-kumalak", position=pos("togyz-kumalak", TUZDYK_TO_MAKE))
    game.play("I")  # I3: I keeps 1, a 2, b 3: b becomes South's tuzdyk, its 3 to South
    assert game.position.tuzdyks == (10, None) and game.position.stores == (79, 74)
    game.play("a")  # a2: a keeps 1, the other falls in South's tuzdyk: South's
    game.play("H")  # H5: H keeps 1, I a, b (the tuzdyk: South's), c
    same(
        game.position,
        "togyz-kumalak",
        """
          i  h  g  f  e  d  c  b  a
          1  -  -  -  -  -  1  X  2
      74                            81
          -  -  -  -  -  -  -  1  2
          A  B  C  D  E  F  G  H  I
        Tuzdyk: South's at b.""",
        to_move="north",
    )
    with pytest.raises(IllegalMove, match="tuzdyk"):
        game.position.play("b")


NO_TUZDYK_HERE = """
      i  h  g  f  e  d  c  b  a
      2  -  -  -  2  -  2  -  -
  70                            68
      -  -  X  -  3  -  -  5 10
      A  B  C  D  E  F  G  H  I
    Tuzdyk: North's at C."""


@pytest.mark.parametrize(
    "move, pit, why",
    [
        ("I", 17, "never the opponent's ninth pit"),  # I10: I keeps 1, a..i: i 3
        ("H", 11, "never the number of the opponent's tuzdyk"),  # H5: H, I a b c: c 3
    ],
)
def test_togyz_where_no_tuzdyk_may_be_made_the_pit_keeps_its_3(move, pit, why):
    after = pos("togyz-kumalak", NO_TUZDYK_HERE).play(move)
    assert after.tuzdyks == (None, 2), why
    assert after.pits[pit] == 3


def test_togyz_one_tuzdyk_a_game():
    start = pos("togyz-kumalak", NO_TUZDYK_HERE)
    after = start.play("E")  # E3: E keeps 1, F, G: own row, nothing
    assert after.tuzdyks == (None, 2)
    made = pos(
        "togyz-kumalak",
        """
          i  h  g  f  e  d  c  b  a
          2  -  -  -  2  X  2  -  -
      70                            68
          -  -  -  -  3  -  -  5 10
          A  B  C  D  E  F  G  H  I""",
    )
    assert made.tuzdyks == (12, None)
    assert made.play("H").pits[11] == 3  # c makes 3, but South has a tuzdyk already


def test_togyz_atsyrau_the_stones_left_go_to_the_owner_of_their_row():
    game = Game(
        "togyz-kumalak",
        position=pos(
            "togyz-kumalak",
            """
          i  h  g  f  e  d  c  b  a
          1  -  -  -  -  -  -  -  -
      80                            79
          -  2  -  -  -  -  -  -  -
          A  B  C  D  E  F  G  H  I""",
            to_move="north",
        ),
    )
    game.play("i")  # i1 -> A (1, odd: nothing); North's row is empty
    game.play("B")  # B2: B keeps 1, C 1. North to move with no stone: South takes A B C
    assert game.outcome()[:4] == (Termination.NO_MOVE, (82, 80), "south", "north")
    assert game.position.pits == (0,) * 18


def test_togyz_more_than_81_wins_and_the_stones_left_stay():
    won = pos(
        "togyz-kumalak",
        """
          i  h  g  f  e  d  c  b  a
          -  -  -  -  -  -  -  3  1
      70                            80
          -  -  -  -  -  -  -  -  8
          A  B  C  D  E  F  G  H  I""",
    ).play("I")  # I8: I keeps 1, then a..g: b makes 4 on the way, but the last is g (1)
    assert not won.is_over() and won.stores == (80, 70)
    won = pos(
        "togyz-kumalak",
        """
          i  h  g  f  e  d  c  b  a
          -  -  -  -  -  -  -  3  1
      75                            80
          -  -  -  -  -  -  -  -  3
          A  B  C  D  E  F  G  H  I""",
    ).play("I")  # I3: I keeps 1, a 2, b 4: even, South takes 4: 84
    assert won.outcome()[:3] == (Termination.MAJORITY, (84, 75), "south")
    assert won.pits[8:10] == (1, 2)  # the kazans are the score: the board stays as it is


# -- bestemshe (PlayStrategy) ---------------------------------------------------------------------


def test_bestemshe_opening_capture_and_no_tuzdyk_on_a_3():
    after = Position.initial(Ruleset.parse("bestemshe")).play("C")  # C5: C, D E a b: b 6
    same(
        after,
        "bestemshe",
        """
          e  d  c  b  a
          5  5  5  -  6
       0               6
          5  5  1  6  6
          A  B  C  D  E""",
        to_move="north",
    )
    three = pos(
        "bestemshe",
        """
          e  d  c  b  a
          -  -  -  2  -
      20               25
          -  -  -  -  3
          A  B  C  D  E""",
    ).play("E")  # E3: E keeps 1, a 1, b 3: no tuzdyk in Bestemshe, b keeps its 3
    assert three.tuzdyks == (None, None) and three.pits[5:7] == (1, 3)
    assert three.stores == (25, 20)
