"""The community's records by mail over real SMTP on loopback: a position mail whose position
is a PlayStrategy string (Oware, Togyz Kumalak, Bestemshe), read as `mancala move --position`
reads it, with or without a Rules: line, answered with the AI's move."""

from __future__ import annotations

import pytest

from engine import Game, from_perspective, parse_position
from engine.fen import game_fen
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
