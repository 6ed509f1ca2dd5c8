"""Mail as real clients send it (tests/mail/data/mail_corpus/*.eml, written from each client's
documented format): Outlook (HTML and plain), Gmail, Apple Mail, Thunderbird, phones, in
English, Norwegian, Swedish, German, Spanish, Portuguese, Polish, Russian, Japanese and
Chinese, and replies to the bot's own HTML mail as Gmail, Outlook and Apple Mail quote it.
Each is read through the real reader and must read as written here.

A mail with a move is read as that move only (the quoted old board never counts); a
position mail gives its sender's moves on the board they wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.mail.mail_commands import parse_command
from bot.mail.position_mail import apply_sender_moves, parse_position_mail
from bot.mail.reading import read_mail
from engine import from_perspective
from engine.ai import LEVELS

CORPUS = Path(__file__).parent / "data" / "mail_corpus"

# file -> the move command it carries: (pit, move number, whether words followed the move)
MOVES = {
    "android_outlook_untagged_move": ("D", 5, False),  # no tag: see the correspondence test
    "apple_iphone_portuguese": ("A", 6, False),
    "chinese_client": ("C", 14, False),
    "gmail_japanese_phone": ("E", 12, False),
    "gmail_russian": ("F", 10, False),
    "gmail_words_after_move": ("C", 3, True),
    "outlook_german_original": ("D", 16, False),
    "polish_phone": ("B", 8, False),
    "spanish_iphone": ("E", 20, False),
    "thunderbird_norwegian": ("D", 4, False),
    "thunderbird_swedish_html": ("B", 18, False),
    # replies to the bot's own HTML mail (tests/mail/test_mail_html.py builds them): the board
    # quoted in Gmail's blockquote, Apple Mail's cite, Outlook's MsoNormal lines of &nbsp;
    "gmail_html_quote_move": ("C", 2, False),  # with a text part
    "apple_html_quote_move": ("C", 2, False),  # HTML only
    "outlook_word_quote_move": ("C", 2, False),  # HTML only, "Thanks!" on a line of its own
    "outlook_web_quote_move": ("C", 2, False),  # divRplyFwdMsg; a text part without the board
}
# file -> the sender's moves in a position mail, and South's pits A-F on the board written
POSITIONS = {
    "outlook_html_table_board": (["E"], (4, 4, 4, 4, 4, 4)),  # the board as an HTML table
    "outlook_plain_en_dash": (["C"], (4, 4, 4, 4, 0, 5)),  # '–' for the empty pit
    "fullwidth_ime_em_dash": (["C"], (4, 4, 4, 4, 0, 5)),  # full-width forms and '—'
    "gmail_forwarded_position": (["E"], (4, 4, 4, 4, 4, 4)),  # only a forwarded mail
    "apple_forward_with_own_text": (["A"], (4, 4, 4, 4, 4, 4)),  # own text, then a forward
    # the board copied out of the bot's HTML mail, above the quote of that mail
    "gmail_html_copied_board": (["C"], (4, 4, 4, 4, 0, 5)),  # a div styled white-space: pre
    "outlook_word_copied_board": (["C"], (9, 9, 9, 9, 9, 9)),  # Togyz, MsoNormal and &nbsp;
    "apple_html_copied_board": (["C"], (0, 5, 5, 5, 5, 4)),  # Kalah from North, in a <pre>
}


def read(name: str):
    mail = read_mail((CORPUS / f"{name}.eml").read_bytes(), "ann@example.org", ["mancala@bot.test"])
    assert mail.refusal is None and mail.automatic is None
    return mail


def test_the_corpus_is_all_here():
    assert {p.stem for p in CORPUS.glob("*.eml")} == set(MOVES) | set(POSITIONS)


@pytest.mark.parametrize("name", sorted(MOVES))
def test_a_reply_is_read_as_its_move_and_nothing_of_the_quote(name):
    pit, number, with_words = MOVES[name]
    mail = read(name)
    command = parse_command(mail.text)
    assert (command.verb, command.move, command.number) == ("move", pit, number)
    assert (command.read_from is not None) == with_words
    assert "A  B  C  D  E  F" not in mail.text  # the quoted board is gone
    assert "Mancala" not in mail.text  # and the line that introduced it


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_a_position_mail_is_read_with_its_board(name):
    moves, south = POSITIONS[name]
    request = parse_position_mail(read(name).text, tuple(LEVELS), "easy")
    assert request.moves == moves
    assert request.position.pits[:6] == south
    position, played = apply_sender_moves(request)
    engine_moves = [from_perspective(m, request.side) for m in moves]  # North's C is c
    assert played == engine_moves and position.last_move == engine_moves[-1]


def test_words_after_a_move_in_a_position_mail_are_read_and_said():
    text = "Rules: wari\nMove: E (my first game, be kind)\n\n" + "\n".join(
        [
            "    f  e  d  c  b  a",
            "    4  4  4  4  4  4",
            "    4  4  4  4  4  4",
            "    A  B  C  D  E  F",
            "Captured: North 0, South 0.",
        ]
    )
    request = parse_position_mail(text, tuple(LEVELS), "easy")
    assert request.moves == ["E"] and "I read your move as E" in request.note
    with pytest.raises(Exception, match="which moves"):
        parse_position_mail(text.replace("(my first game, be kind)", "or d"), tuple(LEVELS))
