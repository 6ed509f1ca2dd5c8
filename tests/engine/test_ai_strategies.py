"""The applet's eight strategies, as shared/design/rulesets.md describes them."""

import pytest

from engine import Position, Ruleset
from engine.ai import LEVELS, STRATEGIES, choose_move


def position(pits, rules="kalah:pits=4,seeds=3", mover=0, stores=(0, 0)):
    return Position.settled(Ruleset.parse(rules), tuple(pits) + tuple(stores), mover)


def test_all_eight_are_offered_before_the_search_levels():
    assert STRATEGIES == (
        "random",
        "first",
        "first-largest",
        "first-smallest",
        "last",
        "last-largest",
        "last-smallest",
        "greedy",
    )
    assert LEVELS[:8] == STRATEGIES and LEVELS[-1] == "expert"


def test_first_last_largest_smallest_read_the_legal_moves_in_sowing_order():
    # South's pits A..D hold 2, 5, 5, 0 (D empty, so not legal); North has seeds.
    pos = position([2, 5, 5, 0, 1, 1, 1, 1], stores=(6, 2))
    assert pos.legal_moves() == ["A", "B", "C"]
    picks = {s: choose_move(pos, s).move for s in STRATEGIES if s != "random"}
    assert picks["first"] == "A" and picks["last"] == "C"
    assert picks["first-largest"] == "B" and picks["last-largest"] == "C"
    assert picks["first-smallest"] == "A" and picks["last-smallest"] == "A"


def test_north_reads_its_own_row():
    pos = position([1, 1, 1, 1, 3, 0, 4, 4], mover=1, stores=(2, 7))
    assert pos.legal_moves() == ["a", "c", "d"]
    assert choose_move(pos, "first-largest").move == "c"
    assert choose_move(pos, "last-largest").move == "d"
    assert choose_move(pos, "first-smallest").move == "a"


def test_greedy_prefers_the_last_replay_then_the_last_capture_then_the_last_move():
    # A (4 seeds) and D (1 seed) both end in South's store: the last of them, D.
    pos = position([4, 0, 1, 1, 1, 1, 1, 1], stores=(10, 4))
    assert choose_move(pos, "greedy").move == "D"
    # No replay; A (1 seed) lands in empty B opposite a seeded pit: a capture. C is last.
    pos = position([1, 0, 3, 0, 1, 1, 1, 1], stores=(10, 6))
    assert choose_move(pos, "greedy").move == "A"
    # Neither a replay nor a capture (B ends in a full D, D ends in North's row): the last.
    pos = position([0, 2, 0, 3, 1, 1, 1, 1], stores=(10, 4))
    assert choose_move(pos, "greedy").move == "D"
    assert choose_move(pos, "first").move == "B"


def test_greedy_sees_count_captures_in_wari():
    # B (2 seeds) and C (1 seed) both end in North's a, making 2: captures; C is the last.
    rules = "wari:pits=3,seeds=4"
    pos = position([0, 2, 1, 1, 0, 3], rules=rules, stores=(10, 7))
    assert "C" in pos.legal_moves()
    assert choose_move(pos, "greedy").move == "C"


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_strategy_plays_a_legal_move_in_every_preset(strategy):
    for name in Ruleset.presets():
        pos = Position.initial(Ruleset.parse(name))
        for _ in range(6):
            move = choose_move(pos, strategy, seed=3).move
            assert move in pos.legal_moves()
            pos = pos.play(move)
            if pos.is_over():
                break


def test_unknown_strategy_names_the_choices():
    from engine.ai.strategies import pick

    with pytest.raises(ValueError, match="strategies are: random, first"):
        pick(Position.initial(Ruleset.parse("kalah")), "cleverest")
