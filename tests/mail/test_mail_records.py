"""The community's records by mail over real SMTP on loopback: a position mail whose position
is a PlayStrategy string (Oware, Togyz Kumalak, Bestemshe), read as `mancala move --position`
reads it, with or without a Rules: line, answered with the AI's move; and `review` with a
record pasted below it or attached (a Kazakh scoresheet, Aualé's OGN, PlayStrategy's PGN,
ours), answered with the solver's review, or with what is wrong and where."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from engine import Game, from_perspective, parse_position
from engine.fen import game_fen
from engine.review import Budget
from tests.mail.mail_support import mail, send_raw
from tests.mail.test_mail_togyz import smtp_table  # noqa: F401  (the fixture)


async def position_reply(table, body: str) -> str:
    _surface, _service, mailbox, port = table
    before = len(mailbox.messages)
    await send_raw(port, mail(body), "ann@example.org", ["mancala@bot.test"])
    replies = await mailbox.wait_for(before + 1, timeout=60)
    return replies[-1].get_body(("plain",)).get_content()


@pytest.mark.parametrize(
    ("rules", "moves", "mine"),
    [
        ("oware", "C f A e", "D"),  # South to move: the sender plays South and moves
        ("togyz-kumalak", "D d G", None),  # North to move, no Move: the bot is North
        ("bestemshe", "C d", "A"),
    ],
)
async def test_a_playstrategy_string_is_a_position_mail(smtp_table, rules, moves, mine):  # noqa: F811
    before = Game.from_moves(rules, moves.split())
    body = f"{game_fen(before)}\nLevel: easy\n" + (f"Move: {mine}\n" if mine else "")
    text = await position_reply(smtp_table, body)
    assert "could not read" not in text, text
    assert f"Rules: {rules}" in text
    side = before.position.to_move if mine else before.position.to_move.other
    assert f"Side: {side}" in text
    after = parse_position(board_of_reply(text), before.rules, perspective=side)
    mid = before.position.play(from_perspective(mine, side)) if mine else before.position
    replies = [mid.play(m) for m in mid.legal_moves()] if not mid.is_over() else [mid]
    assert any((p.pits, p.stores) == (after.pits, after.stores) for p in replies), text


def board_of_reply(text: str) -> str:
    """The board in a position mail's reply: the lines between Level: and Move:."""
    text = text.replace("\r\n", "\n")
    return text.split("Level: easy\n", 1)[1].split("\nMove:")[0]


async def test_a_malformed_playstrategy_string_names_what_is_wrong(smtp_table):  # noqa: F811
    text = await position_reply(smtp_table, "Level: easy\n4S,4S/4S,4S,4S 0 0 S 1\n")
    assert "I could not read your mail" in text
    assert "4S,4S/4S,4S,4S 0 0 S 1" in text  # the line in question


# -- review with a record: pasted or attached ---------------------------------------------

TOGYZ_SCORESHEET = """[Event "Kazakhstan championship, round 3"]
[White "Aruzhan"]
[Black "Yerlan"]

1. 65 33
2. 88 12
"""
OWARE_OGN = """[Variant "Abapa"]
[Event "Club championship"]
[South "Joan"]
[North "Aalina"]
[Result "*"]

1. D e 2. E d *
"""
BESTEMSHE_PGN = """[Event "Weekly Bestemshe Arena"]
[Site "https://playstrategy.org/BeSt5555"]
[Variant "Bestemshe"]
[Result "*"]

1. b1e2 c2b1 2. d1b2 *
"""
OURS = '[Game "7"]\n[Rules "kalah:seeds=1"]\n[First "south"]\n\nA\n'


def attached(body: str, record: bytes, filename: str, subtype: str = "x-chess-pgn") -> bytes:
    """A mail whose body is ``body`` and which carries ``record`` as an attached file."""
    message = EmailMessage()
    message["From"] = "Ann <ann@example.org>"
    message["To"] = "mancala@bot.test"
    message["Subject"] = "my game"
    message["Message-ID"] = "<r1@example.org>"
    message.set_content(body)
    message.add_attachment(record, maintype="application", subtype=subtype, filename=filename)
    return message.as_bytes()


@pytest.fixture
def quick_reviews(smtp_table):  # noqa: F811
    """Reviews in the plain-Python solver with a small budget: these games are short, and the
    test is of the way there, not of the solver's depth."""
    from tests.service.test_ai_fairness import NeverCompiled

    _surface, service, _mailbox, _port = smtp_table
    service.ai.kernel = NeverCompiled()
    service.reviews.budget = Budget(nodes=300)
    return smtp_table


async def reply_to(table, raw: bytes) -> str:
    _surface, _service, mailbox, port = table
    before = len(mailbox.messages)
    await send_raw(port, raw, "ann@example.org", ["mancala@bot.test"])
    replies = await mailbox.wait_for(before + 1, timeout=120)
    return replies[-1].get_body(("plain",)).get_content().replace("\r\n", "\n")


@pytest.mark.parametrize(
    ("record", "rules", "plies"),
    [
        (TOGYZ_SCORESHEET, "togyz-kumalak", 4),
        (OWARE_OGN, "oware", 4),
        (BESTEMSHE_PGN, "bestemshe", 3),
        (OURS, "kalah:seeds=1", 1),
    ],
)
async def test_a_pasted_record_is_reviewed(quick_reviews, record, rules, plies):
    text = await reply_to(quick_reviews, mail("review\n\n" + record, subject="my game"))
    assert "The game in your record, reviewed by the solver: " in text, text
    assert f" of {plies} move" in text
    assert final_board_is_of(text, rules)


def final_board_is_of(text: str, rules: str) -> bool:
    """The final board shown is a board of ``rules`` (its label row has its pits)."""
    final = text.split("The final board:")[1]
    letters = " ".join(Game(rules).rules.letters)
    return "  ".join(letters.split()) in final


async def test_an_attached_playstrategy_pgn_is_reviewed(quick_reviews):
    text = await reply_to(quick_reviews, attached("review", BESTEMSHE_PGN.encode(), "game.pgn"))
    assert "The game in your record, reviewed by the solver: " in text, text
    assert " of 3 moves" in text


async def test_a_malformed_record_names_the_line_and_the_ply(quick_reviews):
    broken = BESTEMSHE_PGN.replace("d1b2", "d1z9")
    text = await reply_to(quick_reviews, attached("Review", broken.encode(), "game.txt", "plain"))
    assert "I could not review the record: line 6, ply 3 ('d1z9')" in text, text
    assert "write 'review' on the first line" in text


async def test_an_attachment_over_the_limit_is_not_read(quick_reviews):
    padded = BESTEMSHE_PGN + "{" + "x" * 70_000 + "}\n"
    text = await reply_to(quick_reviews, attached("review", padded.encode(), "big.pgn"))
    assert "your attachment big.pgn has 70," in text and "read up to 65,536 bytes" in text
