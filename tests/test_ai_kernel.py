"""The compiled rules agree with the engine: same legal moves, same positions, same game ends.

A few thousand seeded random positions over every preset and random parameter mixes; the full
100,000 run is ``bench/kernel_diff.py``.
"""

import random

import pytest

from engine import Game, Position, Ruleset
from engine.ai import kernel_knows
from engine.ai.encoding import decode_move, encode, encode_move
from engine.ai.selfcheck import mismatches, random_rules, run
from engine.ruleset import PRESETS


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


def test_move_codes_round_trip():
    rules = Ruleset.parse("manbula:direction=choice")
    for mover in (0, 1):
        for move in ("A", "f", "C<", "d>"):
            name = decode_move(rules, encode_move(rules, move, mover))
            assert name.rstrip(">").lower() == move.rstrip(">").lower()


@pytest.mark.parametrize(
    "name", ["togyz-kumalak", "bestemshe", "kalah:tuzdyk", "wari:sow_origin,skip_origin=no"]
)
def test_rules_the_kernel_does_not_know_are_refused_not_played_by_other_rules(name):
    rules = Ruleset.parse(name)
    assert not kernel_knows(rules)
    with pytest.raises(ValueError, match="does not know"):
        encode(rules)
