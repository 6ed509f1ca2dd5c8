"""The compiled rules agree with the engine: same legal moves, same positions, same game ends.

A few thousand seeded random positions over every preset and random parameter mixes, Togyz
Kumalak's tuzdyks and Bestemshe included; the full 100,000 run is ``bench/kernel_diff.py``.
"""

import random

import pytest

from engine import Game, Position, Ruleset
from engine.ai import kernel_knows, retrograde, tables_know
from engine.ai.encoding import decode_move, encode, encode_move, kernel_board
from engine.ai.endgame import build
from engine.ai.search import Searcher, play_table_seeds
from engine.ai.selfcheck import mismatches, random_rules, run
from engine.fen import parse_fen
from engine.ruleset import PRESETS

TOGYZ = ("togyz-kumalak", "bestemshe")


def test_random_positions_over_presets_and_mixes_agree_with_the_engine():
    positions, moves, problems = run(3000, seed=2024)
    assert problems == []
    assert moves > 12_000  # the positions really had moves to compare


@pytest.mark.parametrize("name", sorted(n for n in PRESETS if kernel_knows(Ruleset.parse(n))))
def test_every_preset_agrees_along_random_games(name):
    rng = random.Random(name)
    rules = Ruleset.parse(name)
    for _ in range(30):
        pos = Position.initial(rules)
        while not pos.is_over():
            assert mismatches(pos) == []
            pos = pos.play(rng.choice(pos.legal_moves()))


def test_togyz_positions_and_their_mixes_agree_with_the_engine():
    positions, moves, problems = run(600, seed=35, names=TOGYZ)
    assert problems == []
    assert moves > 3_000


def test_random_mixes_cover_the_parameters():
    rng = random.Random(5)
    seen = {
        (key, str(getattr(rules, key)))
        for rules in (random_rules(rng) for _ in range(400))
        for key in ("laps", "direction", "grand_slam", "must_feed", "choose", "end")
    }
    for pair in [
        ("laps", "relay"),
        ("direction", "choice"),
        ("grand_slam", "forbidden"),
        ("must_feed", "leave"),
        ("choose", "any"),
        ("end", "all_empty"),
    ]:
        assert pair in seen


def test_random_mixes_cover_togyz_keys_and_nine_pits():
    rng = random.Random(5)
    mixes = [random_rules(rng, TOGYZ) for _ in range(400)]
    seen = {
        (key, str(getattr(rules, key)))
        for rules in mixes
        for key in ("sow_origin", "even_capture", "tuzdyk", "leftover", "stores", "choose")
    }
    for pair in [
        ("sow_origin", "True"),
        ("sow_origin", "False"),
        ("even_capture", "False"),
        ("tuzdyk", "True"),
        ("leftover", "no_move"),
        ("leftover", "owner"),
        ("stores", "True"),
        ("choose", "any"),
    ]:
        assert pair in seen
    assert any(r.tuzdyk and r.laps == "relay" for r in mixes)
    assert any(r.tuzdyk and r.captures for r in mixes)
    assert any(r.pits == 9 and r.choose == "any" and r.direction == "choice" for r in mixes)


@pytest.mark.parametrize(
    "key, value", [("REPLAY", 0), ("EMPTY_CAPTURE", 0), ("CAPTURE_MASK", (1 << 5) | (1 << 6))]
)
def test_a_corrupted_kernel_rule_is_caught(key, value):
    """The differential check must be able to fail: run it with one rule of the encoded
    kalah changed, and it names the moves where the kernel now disagrees."""
    import engine.ai.encoding as encoding
    from engine.ai.selfcheck import mismatches

    rules = Ruleset.parse("kalah")
    code = encode(rules)
    broken = code.rules.copy()
    broken[getattr(encoding, key)] = value
    corrupted = code._replace(rules=broken)
    positions = [
        Game.from_moves(rules, moves).position
        for moves in ("", "C", "C F", "A d B", "F a E c", "C F b D e")
    ]
    assert all(mismatches(pos) == [] for pos in positions)
    assert any(mismatches(pos, corrupted) for pos in positions)


@pytest.mark.parametrize(
    "key", ["SPECIAL", "SOW_ORIGIN", "EVEN_CAPTURE", "TUZDYK", "LEFTOVER_NO_MOVE"]
)
def test_a_corrupted_togyz_rule_is_caught(key):
    """The same for each of Togyz Kumalak's keys, switched off in the encoded rules, along
    random games: the check sees the sowing, captures, tuzdyks and end they make."""
    import engine.ai.encoding as encoding

    rules = Ruleset.parse("togyz-kumalak:pits=4,seeds=3")
    code = encode(rules)
    broken = code.rules.copy()
    broken[getattr(encoding, key)] = 0
    corrupted = code._replace(rules=broken)
    rng = random.Random(key)
    caught = False
    for _ in range(20):
        pos = Position.initial(rules)
        while not pos.is_over() and not caught:
            assert mismatches(pos) == []
            caught = mismatches(pos, corrupted) != []
            pos = pos.play(rng.choice(pos.legal_moves()))
    assert caught


def test_move_codes_round_trip():
    rules = Ruleset.parse("manbula:direction=choice")
    for mover in (0, 1):
        for move in ("A", "f", "C<", "d>"):
            name = decode_move(rules, encode_move(rules, move, mover))
            assert name.rstrip(">").lower() == move.rstrip(">").lower()


@pytest.mark.parametrize(
    "name", ["togyz-kumalak", "bestemshe", "kalah:tuzdyk", "wari:sow_origin,skip_origin=no"]
)
def test_the_kernel_knows_togyz_keys_but_their_tables_are_refused(name):
    rules = Ruleset.parse(name)
    assert kernel_knows(rules) and not tables_know(rules)
    code = encode(rules)
    assert play_table_seeds(rules) == 0
    with pytest.raises(ValueError, match="no endgame table"):
        build(code, 2)
    with pytest.raises(ValueError, match="no endgame table"):
        retrograde.build(code, 2)
    with pytest.raises(ValueError, match="no endgame tables"):
        Searcher(rules, tt_bits=4).use_endgame_table(2)


def test_tuzdyks_are_two_slots_after_the_stores():
    rules = Ruleset.parse("togyz-kumalak")
    # South's tuzdyk at North's c, North's at South's f (from PlayStrategy's position string)
    pos = parse_fen("9S,9S,9S,9S,9S,9S,t,9S,9S/9S,9S,9S,9S,9S,t,9S,9S,9S 9 9 S 1", rules)
    assert pos.tuzdyks == (11, 5)
    assert kernel_board(pos)[18:] == [9, 9, 12, 6]
    assert mismatches(pos) == []
