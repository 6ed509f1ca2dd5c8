"""The terminal in the player's language: ``mancala play --lang fr``, LANG=de_DE.UTF-8, the
``language`` command remembered in the games database, and the notation (the 003 board,
``mancala board``) the same in every language."""

from __future__ import annotations

import os
import re
import sqlite3
import string
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli_args import environment_language
from bot.i18n import Language, speaking
from bot.i18n.catalogs import translations
from bot.i18n.update import template
from bot.render import board_picture
from bot.render.review_text import review_summary
from engine import Game, Position, Ruleset, Side

ROOT = Path(__file__).resolve().parents[2]
MOVES = ["A", "b", "C", "d"]  # wari, two players at one keyboard
LOCALE_NAMES = ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE")


def run(args: list[str], cwd: Path, typed: str = "", **locale: str) -> str:
    """``mancala ARGS`` as a process, with ``typed`` on its input and only the locale
    variables given (none means the C locale: English)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "MANCALA_DB")}
    for name in LOCALE_NAMES:
        env.pop(name, None)
    env.update(locale or {"LANG": "C.UTF-8"})
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        input=typed,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return done.stdout


def play(db: Path, cwd: Path, *extra: str, typed: list[str] | None = None, **locale: str) -> str:
    lines = typed if typed is not None else [*MOVES, "moves", "help", "quit"]
    return run(
        ["play", "wari", "--vs", "human", "--db", str(db), *extra],
        cwd,
        "\n".join(lines) + "\n",
        **locale,
    )


# What the 003 board prints: rows of letters, counts and dashes, and its notation lines.
_BOARD_LINE = re.compile(
    r"^\s*(\S{1,3}\s+)*\S{1,3}\s*$|^Captured: |^(South|North) to move(; last move \w+)?\.$"
)


def board_lines(output: str) -> list[str]:
    """The lines of every board printed (the prompts that precede a typed line are cut off)."""
    lines = [line.split("): ")[-1] for line in output.splitlines()]
    return [line for line in lines if _BOARD_LINE.match(line) and line not in MOVES + ["moves"]]


def english_fragments(language: Language) -> set[str]:
    """Pieces of the terminal domain's English messages (the text between fields, long enough
    to mean something) whose translation in ``language`` does not keep them."""
    catalog = translations(language)
    found = set()
    for message in template("terminal"):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        if message.context:
            translated = [catalog.pgettext(message.context, ids[0])]
        elif len(ids) == 2:
            translated = [catalog.ngettext(ids[0], ids[1], n) for n in (1, 2, 5)]
        else:
            translated = [catalog.gettext(ids[0])]
        for text in ids:
            for literal, *_ in string.Formatter().parse(text):
                for piece in literal.split("\n"):
                    piece = piece.strip(" .:;,()")
                    if (
                        len(piece) >= 10
                        and " " in piece
                        and not any(piece in t for t in translated)
                    ):
                        found.add(piece)
    return found


def assert_speaks(output: str, language: Language) -> None:
    words = "\n".join(line for line in output.splitlines() if line not in board_lines(output))
    english = sorted(piece for piece in english_fragments(language) if piece in words)
    assert not english, f"English in the {language} session: {english}\n{output}"


def test_play_with_lang_fr_talks_french_and_draws_the_same_boards(tmp_path):
    english = play(tmp_path / "en.sqlite3", tmp_path)
    french = play(tmp_path / "fr.sqlite3", tmp_path, "--lang", "fr")
    assert "Nouvelle partie n° 1 : wari" in french and "Au tour de Sud (" in french
    assert "Partie gardée" in french and "  board    afficher" in french
    assert_speaks(french, Language.FR)
    assert "New game #1: wari" in english  # the English run is English indeed
    assert board_lines(french) == board_lines(english)
    assert len(board_lines(english)) >= 6 * (len(MOVES) + 1)  # every board, whole


def test_lang_from_the_environment_and_posix_order(tmp_path):
    german = play(tmp_path / "de.sqlite3", tmp_path, LANG="de_DE.UTF-8")
    assert "Neue Partie #1: wari, zwei Spieler an dieser Tastatur." in german
    assert_speaks(german, Language.DE)
    english = play(tmp_path / "de.sqlite3", tmp_path, LANG="de_DE.UTF-8", LC_ALL="C")
    assert "Resuming game #1" in english  # LC_ALL wins, and C is English


def test_the_language_command_switches_and_is_remembered(tmp_path):
    db = tmp_path / "games.sqlite3"
    first = play(db, tmp_path, "--lang", "fr", typed=["A", "language es", "moves", "quit"])
    before, after = first.split("language es\n", 1)
    assert "Au tour de Nord (" in before
    assert "Idioma elegido: Español." in after and "Juega Norte (" in after
    assert "Partida guardada" in after
    with sqlite3.connect(db) as database:
        stored = [row[0] for row in database.execute("SELECT language FROM players")]
    assert "es" in stored
    # the setting holds the next time, before LANG; --lang auto forgets it
    again = play(db, tmp_path, typed=["quit"], LANG="de_DE.UTF-8")
    assert "Reanudando la partida #1: wari contra ti mismo, jugada 2." in again
    assert_speaks(again, Language.ES)
    forgot = play(db, tmp_path, "--lang", "auto", typed=["quit"], LANG="de_DE.UTF-8")
    assert "Partie #1: wari gegen dich selbst, Zug 2 wird fortgesetzt." in forgot


def test_an_unknown_language_is_refused_with_the_languages_spoken(tmp_path):
    typed = ["language klingon", "quit"]
    out = play(tmp_path / "g.sqlite3", tmp_path, "--lang", "pt", typed=typed)
    assert "klingon" in out and "Português" in out and "Partida guardada" in out


def test_the_referee_board_is_the_same_notation_in_every_language(tmp_path):
    args = ["board", "wari", "--moves", "A b C d E"]
    boards = {
        run(args, tmp_path, **locale)
        for locale in (
            {},
            {"LANG": "fr_FR.UTF-8"},
            {"LANG": "kk_KZ.UTF-8"},
            {"LC_ALL": "ru_RU.UTF-8"},
            {"LC_MESSAGES": "de_DE.UTF-8"},
        )
    }
    assert len(boards) == 1
    (board,) = boards
    assert "Captured: North" in board and board.rstrip().endswith("to move; last move E.")


def test_puzzle_and_review_take_lang_or_the_environment(capsys, monkeypatch):
    for name in LOCALE_NAMES:
        monkeypatch.delenv(name, raising=False)
    assert main(["puzzle", "--id", "kalah-0001", "--answer", "A", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Rätsel kalah-0001 (kalah, schwer): Nord ist am Zug.")
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    assert main(["review", "kalah:pits=3,seeds=2", "--moves", "B A b", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "jugada" in out.splitlines()[1] and "error grave" in out
    assert "+4" in out and " B " in out  # values and moves as they are


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de_DE.UTF-8"),
        ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR"}, "fr_FR"),
        ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR", "LC_ALL": "POSIX"}, "POSIX"),
        ({"LC_ALL": "", "LANG": "pt_BR"}, "pt_BR"),
        ({}, None),
    ],
)
def test_the_environment_language_is_read_as_posix_says(environ, expected):
    assert environment_language(environ) == expected


def test_the_pictures_words_follow_the_language():
    position = Game.from_moves(Ruleset.parse("togyz-kumalak"), "D d").position
    with speaking(Language.FR):
        text = board_picture.describe_board(position)
        png = board_picture.draw_board(position)
    assert text.startswith("Plateau de Togyz-Kumalak. Au tour de Sud.")
    assert "Nord, cases a à i" in text and "Kazans : Sud" in text
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    with speaking(Language.RU):
        assert board_picture.draw_board(position)[:8] == b"\x89PNG\r\n\x1a\n"
    # Pillow's own font has no ü: the system's DejaVu Sans draws it, else the word is English
    from bot.render.words import side_name

    with speaking(Language.DE):
        south = board_picture.picture_words(lambda: side_name(Side.SOUTH))
        drawn = board_picture.draw_board(Position.initial(Ruleset.parse("kalah")))
    assert south == ("Süd" if board_picture._fallback_font() else "South")
    assert drawn[:8] == b"\x89PNG\r\n\x1a\n"


def test_picture_words_fall_back_to_english_without_a_font(monkeypatch):
    from bot.render.words import side_name

    monkeypatch.setattr(board_picture, "_fallback_font", lambda: None)
    with speaking(Language.RU):
        assert board_picture.picture_words(lambda: side_name(Side.SOUTH)) == "South"
    with speaking(Language.ES):
        assert board_picture.picture_words(lambda: side_name(Side.SOUTH)) == "Sur"


def test_review_text_in_german():
    from engine.review import review

    done = review(Game.from_moves("kalah:pits=3,seeds=2", "B A b"), compiled=False)
    with speaking(Language.DE):
        text = review_summary(done, {Side.SOUTH: "Ann", Side.NORTH: "Bob"}, title="Partie #7")
    assert text.splitlines()[0] == "Partie #7, vom Löser analysiert: 3 von 3 Zügen bewiesen."
    assert "Süd (Ann): Genauigkeit 50 %" in text and "1 grober Fehler" in text
    assert "aus dem Sieg wurde ein Remis" in text and "Schlüsselmomente:" in text
