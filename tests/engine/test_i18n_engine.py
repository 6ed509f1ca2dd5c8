"""The engine speaks the player's language, and its notation never changes.

The engine marks its messages with ``engine.translation._``; ``bot.i18n`` installs the
translator, so inside ``speaking(language)`` an illegal move, a bad ruleset or an unreadable
position is explained in that language. What a board is written with (pit letters, the 003
board and its ``Captured:``/``... to move.``/``Game over (...)`` lines, ruleset keys) stays
the same in every language, so a board quoted back reads back.
"""

from __future__ import annotations

import random

import pytest

from bot.i18n import Language, speaking
from engine import (
    Game,
    IllegalMove,
    Outcome,
    PositionError,
    Ruleset,
    RulesetError,
    Termination,
    parse_position,
    render,
    result_lines,
)
from engine.puzzles import Grade
from engine.review import MoveClass
from engine.ruleset import PARAMETERS, PRESETS
from engine.translation import pgettext, side_name

OTHER_LANGUAGES = [language for language in Language if language is not Language.EN]


def _empty_pit_error() -> str:
    """The message of a move from an empty pit: wari, South plays E, North e, South E again."""
    game = Game("wari")
    game.play("E")
    game.play("e")
    with pytest.raises(IllegalMove) as caught:
        game.play("E")
    return str(caught.value)


def test_an_illegal_move_is_explained_in_the_players_language_quoting_the_pit():
    english = _empty_pit_error()
    assert english.startswith("pit E is empty; legal moves: ")
    with speaking(Language.FR):
        french = _empty_pit_error()
    with speaking(Language.DE):
        german = _empty_pit_error()
    assert french.startswith("la case E est vide") and "coups légaux" in french
    assert german.startswith("Mulde E ist leer") and "erlaubte Züge" in german
    # the legal moves are pit letters, the same in every language
    legal = english.rpartition(": ")[2]
    assert french.endswith(legal) and german.endswith(legal)


@pytest.mark.parametrize("language", OTHER_LANGUAGES, ids=str)
def test_a_move_that_is_no_pit_letter_is_refused_in_every_language(language):
    game = Game("kalah")
    with speaking(language), pytest.raises(IllegalMove) as caught:
        game.play("Z9")
    message = str(caught.value)
    assert "Z9" in message and "A" in message and "F" in message
    assert "is not a move" not in message


def test_a_written_position_that_cannot_be_read_names_the_line_in_spanish():
    board = "4 4 4 4 4 4\n4 4 x 4 4 4\n"
    with speaking(Language.ES), pytest.raises(PositionError) as caught:
        parse_position(board, Ruleset.parse("wari"))
    message = str(caught.value)
    assert message.startswith("línea 2 («4 4 x 4 4 4»): «x» no es un número")


def test_the_board_help_keeps_its_example_board_in_every_language():
    with speaking(Language.EN), pytest.raises(PositionError) as caught:
        parse_position("4 4 4", Ruleset.parse("wari"))
    example = str(caught.value).partition("Example:\n")[2]
    assert example.startswith("    f  e  d  c  b  a")
    for language in OTHER_LANGUAGES:
        with speaking(language), pytest.raises(PositionError) as caught:
            parse_position("4 4 4", Ruleset.parse("wari"))
        message = str(caught.value)
        assert message.endswith(example) and "Captured: North 3, South 5" in message


def test_a_ruleset_error_is_in_german_and_keeps_the_ruleset_words():
    with speaking(Language.DE), pytest.raises(RulesetError) as caught:
        Ruleset.parse("wari:replay=maybe")
    assert str(caught.value) == "replay=maybe ist nicht erlaubt; replay nimmt yes oder no"


def _finished(rules: str, seed: int) -> Game:
    """A game of ``rules`` played to its end by random moves."""
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    while not game.is_over():
        game.play(rng.choice(game.position.legal_moves()))
    return game


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_notation_is_the_same_in_every_language(name):
    """render() of a game in play and of a finished one, from both sides, is identical
    whatever the language, and reads back to the same position."""
    game = _finished(name, seed=7)
    middle = game.positions[len(game.positions) // 2]
    resigned = Outcome.of(Termination.RESIGNATION, middle.stores, by="north", ply=9)
    for position, outcome in [(middle, None), (game.position, None), (middle, resigned)]:
        for side in ("south", "north"):
            english = render(position, side, outcome)
            for language in OTHER_LANGUAGES:
                with speaking(language):
                    assert render(position, side, outcome) == english
                    if outcome is None:
                        assert parse_position(english, position.rules, perspective=side) == (
                            position
                        )


def test_why_a_game_ended_is_translated_for_players_but_stays_english_for_storage():
    outcome = Outcome.of(Termination.RESIGNATION, (10, 38), by="south", ply=12)
    with speaking(Language.FR):
        assert outcome.words == "South resigned at move 12"  # storage keeps it; boards say it
        assert outcome.reason == "Sud a abandonné au coup 12"
        assert result_lines(outcome) == [
            "Partie terminée (Sud a abandonné au coup 12).",
            "Nord gagne.",
        ]
        assert result_lines(outcome, notation=True) == [
            "Game over (South resigned at move 12).",
            "North wins.",
        ]
        named = result_lines(Outcome.of(Termination.ROW_EMPTY, (26, 22)), {"south": "Ann (Sud)"})
        assert named[1] == "Sud 26, Nord 22 : Ann (Sud) gagne."
    with speaking(Language.RU):
        assert Outcome.of(Termination.ROW_EMPTY, (24, 24)).reason == "ряд опустел"


def test_rule_explanations_translate_where_shown_and_describe_keeps_the_syntax():
    rules = Ruleset.parse("wari:captures=2-4")
    english = rules.describe().splitlines()
    with speaking(Language.PT):
        portuguese = rules.describe().splitlines()
        presets = Ruleset.presets()
        assert PARAMETERS["pits"].allowed() == "um número inteiro de 1 a 8"
    assert portuguese[0] == english[0] == "wari: captures=2-4"
    assert portuguese[1].startswith("Wari, 2x6 sem depósitos")
    assert portuguese[2] == "Fonte: 003."
    # each parameter line keeps its key=value, and its values' words (yes, none, relay...)
    keys = [line.partition(":")[0] for line in english if line.startswith("  ")]
    assert keys == [line.partition(":")[0] for line in portuguese if line.startswith("  ")]
    assert len(keys) == len(PARAMETERS)
    assert presets["wari"] == portuguese[1][:-1]
    # the data stays English: a surface translates it where it shows it
    assert PRESETS["wari"].summary.startswith("Wari, 2x6 without stores")


@pytest.mark.parametrize("language", OTHER_LANGUAGES, ids=str)
def test_side_names_grades_and_move_classes_have_words_in_every_language(language):
    with speaking(language):
        words = [side_name("south"), side_name("north")]
        words += [grade.label for grade in Grade] + [kind.label for kind in MoveClass]
    english = ["South", "North", "easy", "medium", "hard"] + [kind.value for kind in MoveClass]
    assert all(words) and all(mine != theirs for mine, theirs in zip(words, english, strict=True))


def test_a_message_with_a_context_falls_back_to_english():
    with speaking(Language.FR):
        assert pgettext("nowhere", "no such word") == "no such word"
    assert pgettext("side", "South") == "South"


def test_storage_messages_a_user_sees_are_translated(tmp_path):
    from storage import StorageError
    from storage.backup import backup

    with speaking(Language.DE), pytest.raises(StorageError) as caught:
        backup(tmp_path / "none.sqlite3", tmp_path / "copy.sqlite3")
    assert str(caught.value).startswith("unter ") and "gibt es keine Datenbank" in str(caught.value)
