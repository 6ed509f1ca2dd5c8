"""Togyz Kumalak by mail over real SMTP on loopback: players' mails reach the mail server's
SMTP port, the bot's replies and notifications reach their mailbox. A correspondence game
played past its first tuzdyks (the ninth pit, I, from both seats), and position mails whose
boards hold kazans, X tuzdyks and the Tuzdyks line, answered with the AI's move."""

from __future__ import annotations

import re

import pytest

from bot.mail import runner
from bot.mail.mail_commands import CommandError, parse_command
from bot.mail.mail_settings import MailSettings
from bot.mail.position_mail import parse_position_mail
from bot.mail.transport import start_server
from bot.service import GameService
from engine import Game, Ruleset, parse_position, render
from tests.mail.mail_support import Mailbox, free_port, mail, send_raw
from tests.mail.test_mail_correspondence import Player_
from tests.mail.test_mail_e2e import board_of

TOGYZ = Ruleset.parse("togyz-kumalak")
# a random game's first 35 plies: South's tuzdyk at North's a on ply 31, North's at C on 35
TUZDYK_LINE = "D d G h B a I e F d E h G i I h D b D i F a H b D a F a G i I h H h I"
TUZDYK_MOVES = TUZDYK_LINE.split(" ")


@pytest.fixture
async def smtp_table(tmp_path):
    """The mail surface listening on a loopback SMTP port, on a fresh service; its replies
    and notifications go to one mailbox."""
    mailbox = await Mailbox().start()
    settings = MailSettings(
        listen=("127.0.0.1", free_port()),
        relay=("127.0.0.1", mailbox.port),
        bot_address="mancala@bot.test",
        secret=b"test-secret",
        database=str(tmp_path / "games.sqlite3"),
        level="easy",
    )
    service = await GameService.open(settings.database, tick_every=None)
    surface = await runner.open_surface(settings, service=service)
    server = await start_server(surface.bot.process, *settings.listen, settings.max_bytes)
    yield surface, service, mailbox, settings.listen[1]
    server.close()
    await server.wait_closed()
    await surface.close()
    await service.close()
    await mailbox.stop()


class SmtpPlayer(Player_):
    """A person with a mail client whose mail goes through the bot's SMTP port."""

    def __init__(self, table, address: str):
        super().__init__(table[:3], address)
        self.port = table[3]

    async def send(self, body: str, reply_to_last: bool = True, subject=None, sender=None):
        self.sent += 1
        extra, to = "", "mancala@bot.test"
        if reply_to_last and subject is None:
            last = self.last()
            subject, to = "Re: " + last["Subject"], last["Reply-To"]
            extra = f"In-Reply-To: {last['Message-ID']}\r\nReferences: {last['Message-ID']}\r\n"
        raw = mail(
            body,
            subject=subject or "mancala",
            sender=self.address,
            to=to,
            message_id=f"<{self.sent}.{self.address}>",
            extra=extra,
        )
        before = len(self.mailbox.messages)
        await send_raw(self.port, raw, self.address, [to])
        await self.service.idle()
        await self.mailbox.wait_for(before + 1)


def north_writes(move: str) -> str:
    """North writes from his seat: the engine's d is his D."""
    return move.upper()


async def test_a_togyz_correspondence_game_by_smtp_past_its_tuzdyks(smtp_table):
    surface, service, mailbox, _port = smtp_table
    ann, bob = SmtpPlayer(smtp_table, "ann@example.org"), SmtpPlayer(smtp_table, "bob@example.org")
    await ann.send("challenge bob@example.org togyz-kumalak", reply_to_last=False)
    await bob.send("accept")
    assert "A  B  C  D  E  F  G  H  I" in ann.text()  # nine pits, from her seat
    assert "A  B  C  D  E  F  G  H  I" in bob.text()  # and from his

    for ply, move in enumerate(TUZDYK_MOVES, start=1):
        if ply % 2:  # Ann, South: a bare pit, then with its number
            await ann.send(move if ply < 10 else f"Move {ply}: {move}")
            assert f"You played {move} (move {ply})" in ann.text(), ann.text()
        else:
            await bob.send(north_writes(move))
            assert f"played {north_writes(move)}" in bob.text(), bob.text()
    game = await service.get_game(1)
    assert list(game.moves) == TUZDYK_MOVES
    assert game.position.tuzdyks == (9, 2)

    # Bob's notice of Ann's last move: the board from his seat with both X's, the Tuzdyks
    # line, and the kazans; it reads back as the game's position
    text = bob.text()
    assert "your pits are A-I on the bottom row" in text
    assert "Tuzdyks: " in text and "aptured" not in text
    position = parse_position(board_block(text), TOGYZ, perspective="north")
    assert position.pits == game.position.pits and position.tuzdyks == (9, 2)
    assert position.stores == game.position.stores


def board_block(text: str) -> str:
    """The board in a mail: from its top label row to its Tuzdyks line."""
    lines = text.split("\n")
    top = next(i for i, line in enumerate(lines) if re.match(r"^\s+[a-i](\s+[a-i]){8}\s*$", line))
    end = next(i for i, line in enumerate(lines) if line.startswith("Tuzdyk"))
    return "\n".join(lines[top : end + 1])


async def test_a_togyz_position_mail_with_tuzdyks_gets_the_ais_move(smtp_table):
    surface, service, mailbox, port = smtp_table
    before = Game(TOGYZ)
    for move in TUZDYK_MOVES:
        before.play(move)
    assert before.position.to_move == "north"
    # Ann plays North: she writes the board from her seat, her pits on the bottom row
    written = render(before.position, perspective="north")
    body = f"Rules: togyz-kumalak\nSide: north\nLevel: easy\n\n{written}\n"
    legal = before.position.legal_moves()
    mine = north_writes(legal[-1])
    body += f"Move: {mine}\n"
    await send_raw(port, mail(body), "ann@example.org", ["mancala@bot.test"])
    [reply] = await mailbox.wait_for(1, timeout=60)
    text = reply.get_body(("plain",)).get_content()
    assert "could not read" not in text, text
    after = parse_position(board_of(reply), TOGYZ, perspective="north")
    assert after.tuzdyks == (9, 2)  # the tuzdyks came through both ways
    assert sum(after.pits) + sum(after.stores) == 162
    mid = before.position.play(legal[-1])
    replies = [mid.play(m) for m in mid.legal_moves()] if not mid.is_over() else [mid]
    assert any(
        (p.pits, p.stores, p.tuzdyks) == (after.pits, after.stores, after.tuzdyks) for p in replies
    ), text


def test_a_capital_i_after_a_move_is_the_pronoun_and_a_lone_i_a_pit():
    assert parse_command("Move 3: C, I hope that went through").move == "C"
    assert parse_command("i").move == "i" and parse_command("Move 12: I").move == "I"
    with pytest.raises(CommandError, match="which move"):
        parse_command("Move 3: C i")
    position = position_mail(TOGYZ_FIRST_MOVE.replace("Move: E", "Move: I"))
    assert position.moves == ["I"]
    wari = position_mail("Rules: wari\nMove: E I think\n" + render(Game("wari").position))
    assert wari.moves == ["E"]  # wari has no pit I: the word is read as words


TOGYZ_FIRST_MOVE = """Rules: togyz-kumalak
Move: E
""" + render(Game(TOGYZ).position)


def position_mail(text: str):
    return parse_position_mail(text, ["easy"])
