"""PlayStrategy's squares and moves against our engine's, and the operator's settings."""

from __future__ import annotations

import random

import pytest

from bot.config import ConfigError
from bot.playstrategy.notation import VARIANTS, NotationError, from_uci, index_of, square, to_uci
from bot.playstrategy.settings import PlaystrategySettings
from engine.fen import fen, parse_fen
from engine.game import Game


@pytest.mark.parametrize(
    ("pits", "index", "name"),
    [
        # strategygames: Oware's Pos 5 is f1 and 6 is f2 (above it), 11 is a2;
        # Togyz Kumalak's 9 is i2 and 17 a2; Bestemshe's row 2 runs e2 (5) to a2 (9).
        (6, 0, "a1"),
        (6, 5, "f1"),
        (6, 6, "f2"),
        (6, 11, "a2"),
        (9, 8, "i1"),
        (9, 9, "i2"),
        (9, 17, "a2"),
        (5, 5, "e2"),
        (5, 9, "a2"),
    ],
)
def test_squares_are_strategygames_pits(pits, index, name):
    assert square(index, pits) == name
    assert index_of(name, pits) == index


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_move_of_random_games_goes_there_and_back(variant):
    rules = VARIANTS[variant].rules
    assert fen(Game(rules).position) == VARIANTS[variant].start_fen
    rng = random.Random(11)
    for _ in range(30):
        game = Game(rules)
        while not game.is_over():
            move = rng.choice(game.position.legal_moves())
            uci = to_uci(game.position, move)
            assert from_uci(game.position, uci) == move
            game.play(move)


def test_the_first_moves_are_written_as_playstrategy_writes_them():
    # Togyz Kumalak: the first stone goes back into the pit (9 stones end 8 pits on);
    # one stone moves on. Oware: 4 seeds from a1 end in e1.
    togyz = Game("togyz-kumalak").position
    assert to_uci(togyz, "A") == "a1i1"
    assert to_uci(togyz, "I") == "i1b2"  # 9 stones from pit 8: pit 16, b2
    assert to_uci(Game.from_moves("togyz-kumalak", "A a").position, "A") == "a1b1"  # 1 stone
    assert to_uci(Game("oware").position, "A") == "a1e1"
    assert to_uci(Game("bestemshe").position, "E") == "e1b2"


def test_oware_skips_the_origin_on_a_lap():
    # 12 seeds in a1: they sow the 11 other pits and the last lands in b1, a1 skipped.
    lapped = parse_fen("4S,4S,4S,4S,4S,1/12S,1,4S,4S,4S,4S 0 0 S 1", "oware")
    assert to_uci(lapped, "A") == "a1b1"
    assert from_uci(lapped, "a1b1") == "A"


@pytest.mark.parametrize(
    ("uci", "why"),
    [
        ("a1f1", "our sowing ends in e1"),
        ("a2e2", "not legal"),
        ("z9a1", "not a pit"),
        ("a1", "is not a move"),
    ],
)
def test_a_move_we_would_not_play_so_is_a_disagreement(uci, why):
    with pytest.raises(NotationError, match=why):
        from_uci(Game("oware").position, uci)


def test_settings_say_what_is_wrong():
    with pytest.raises(ConfigError, match="PLAYSTRATEGY_TOKEN"):
        PlaystrategySettings.from_environ({})
    base = {"PLAYSTRATEGY_TOKEN": "t"}
    with pytest.raises(ConfigError, match="PLAYSTRATEGY_VARIANTS.*oware"):
        PlaystrategySettings.from_environ(base | {"PLAYSTRATEGY_VARIANTS": "chess"})
    with pytest.raises(ConfigError, match="PLAYSTRATEGY_LEVEL_OWARE"):
        PlaystrategySettings.from_environ(base | {"PLAYSTRATEGY_LEVEL_OWARE": "godlike"})
    with pytest.raises(ConfigError, match="PLAYSTRATEGY_CHALLENGE_BOTS"):
        PlaystrategySettings.from_environ(base | {"PLAYSTRATEGY_CHALLENGE_BOTS": "often"})
    with pytest.raises(ConfigError, match="PLAYSTRATEGY_CHALLENGE_CLOCK.*5\\+3"):
        PlaystrategySettings.from_environ(base | {"PLAYSTRATEGY_CHALLENGE_CLOCK": "5 minutes"})
    bots = PlaystrategySettings.from_environ(
        base | {"PLAYSTRATEGY_CHALLENGE_BOTS": "yes", "PLAYSTRATEGY_CHALLENGE_CLOCK": "3+2"}
    )
    assert (bots.challenge_bots, bots.challenge_clock, bots.challenge_every) == (
        True,
        (180, 2),
        600,
    )
    with pytest.raises(ConfigError, match="PLAYSTRATEGY_MAX_GAMES"):
        PlaystrategySettings.from_environ(base | {"PLAYSTRATEGY_MAX_GAMES": "0"})
    settings = PlaystrategySettings.from_environ(
        base
        | {
            "PLAYSTRATEGY_URL": "http://localhost:9663/",
            "PLAYSTRATEGY_VARIANTS": "Oware, bestemshe",
            "PLAYSTRATEGY_TIME_CONTROLS": "correspondence",
        }
    )
    assert settings.url == "http://localhost:9663"
    assert settings.variants == ("oware", "bestemshe")
    assert settings.time_controls == ("correspondence",)
