"""Puzzles by mail, end to end over real SMTP on loopback: ``runner.serve`` with the game
service on a SQLite file, the player's mails sent to it and the replies caught by a second
SMTP server, the player's mailbox. Ask ``puzzle``, reply with the move quoted as mail clients
quote, get the answer: right or wrong, the line, the streak; on the shipped puzzles."""

from __future__ import annotations

import asyncio
import re
from email.message import EmailMessage

import pytest

from bot.mail import runner
from bot.mail.mail_settings import MailSettings
from bot.mail.reply_limits import ReplyLimits
from engine import Side, to_perspective
from engine import puzzles as engine_puzzles
from engine.puzzles import Puzzle
from tests.mail.mail_support import Mailbox, free_port, mail, send_raw

ANN = "ann@example.org"


class Correspondent:
    """A player's mail client on loopback: sends to the running bot, reads what it answers."""

    def __init__(self, port: int, mailbox: Mailbox, address: str = ANN):
        self.port, self.mailbox, self.address = port, mailbox, address
        self.sent = 0

    async def send(self, body: str, answering: EmailMessage | None = None) -> EmailMessage:
        """Send ``body`` (as a reply to ``answering``, quoting it below as Gmail does); the
        bot's reply."""
        self.sent += 1
        subject, extra = "mancala", ""
        if answering is not None:
            subject = "Re: " + answering["Subject"]
            extra = (
                f"In-Reply-To: {answering['Message-ID']}\r\n"
                f"References: {answering['Message-ID']}\r\n"
            )
            quoted = "\n".join(f"> {line}" for line in text(answering).splitlines())
            said = "On Sat, Mar 14, 2026 at 12:00 PM Mancala <mancala@bot.test> wrote:"
            body = f"{body}\n\n{said}\n\n{quoted}\n"
        raw = mail(
            body,
            subject=subject,
            sender=self.address,
            message_id=f"<{self.sent}.{self.address}>",
            extra=extra,
        )
        before = len(self.mailbox.messages)
        await send_raw(self.port, raw, self.address, ["mancala@bot.test"])
        return (await self.mailbox.wait_for(before + 1, timeout=30))[before]


def text(message: EmailMessage) -> str:
    return message.get_body(("plain",)).get_content()


def puzzle_of(message: EmailMessage) -> Puzzle:
    """The puzzle a mail is about, by its subject's tag, which must agree with its text."""
    tag = re.search(r"\[mancala puzzle ([^\]]+)\]", message["Subject"])
    assert tag is not None, message["Subject"]
    assert f"Puzzle: {tag.group(1)}" in text(message)
    return engine_puzzles.by_id(tag.group(1))


def wrong_move(puzzle: Puzzle) -> str:
    return next(m for m in puzzle.position.legal_moves() if m != puzzle.solution)


@pytest.fixture
async def bot(tmp_path):
    """``runner.serve`` with games on, relaying to a fresh mailbox: a correspondent."""
    mailbox = await Mailbox().start()
    settings = MailSettings(
        listen=("127.0.0.1", free_port()),
        relay=("127.0.0.1", mailbox.port),
        bot_address="Mancala <mancala@bot.test>",
        secret=b"test-secret",
        database=str(tmp_path / "games.sqlite3"),
        level="first",
        limits=ReplyLimits(plays_per_address=12),
    )
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(runner.serve(settings, stop, ready, with_games=True))
    await asyncio.wait_for(ready.wait(), 20)
    yield Correspondent(settings.listen[1], mailbox)
    stop.set()
    await task
    await mailbox.stop()


async def test_a_puzzle_asked_by_mail_and_answered_by_replying_with_the_move(bot):
    shown = await bot.send("puzzle")
    puzzle = puzzle_of(shown)
    side = puzzle.position.to_move
    body = text(shown)
    assert shown["To"] == ANN and shown["In-Reply-To"] == "<1.ann@example.org>"
    assert body.startswith("The puzzle of the day.")
    assert f"You play {side.title()}, to move" in body and "Reply with your move" in body
    letters = puzzle.position.rules.letters
    assert "  ".join(letters) in body  # the board, its pit letters under the player's row

    wrong = to_perspective(wrong_move(puzzle), side)
    answer = await bot.send(wrong, answering=shown)  # top-posted, the puzzle quoted below
    assert puzzle_of(answer) == puzzle  # the same thread: another try answers it again
    said = text(answer)
    assert said.startswith(f"Puzzle {puzzle.id}, your answer {wrong}:")
    line = " ".join(
        to_perspective(m, side) for m in engine_puzzles.check(puzzle, wrong_move(puzzle)).line
    )
    assert "Not this one" in said and f"The refutation: {line}." in said
    assert "Your streak starts again from 0" in said and "try again (practice)" in said

    right = to_perspective(puzzle.solution, side)
    again = await bot.send(f"Move: {right}", answering=answer)
    assert "Right:" in text(again) and "Practice: only your first answer" in text(again)


async def test_the_next_puzzle_counts_and_the_streak_is_told(bot):
    shown = await bot.send("puzzle next kalah")
    puzzle = puzzle_of(shown)
    assert puzzle.family == "kalah" and text(shown).startswith("A puzzle you have not")
    right = to_perspective(puzzle.solution, puzzle.position.to_move)
    answer = await bot.send(right.lower(), answering=shown)  # either case names one's own pit
    said = text(answer)
    side = puzzle.position.to_move
    proof = " ".join(
        to_perspective(m, side) for m in engine_puzzles.check(puzzle, puzzle.solution).line
    )
    assert "Right:" in said and f"The proof line: {proof}." in said
    assert "Streak: 1 in a row; 1 solved of 1." in said and "Reply 'puzzle next'" in said
    other = puzzle_of(await bot.send("puzzle next kalah"))
    assert other != puzzle and other.family == "kalah"
    streak = await bot.send("streak")
    assert text(streak).startswith("Your puzzles: 1 solved of 1; streak 1 in a row")


async def test_a_puzzle_with_north_to_move_is_shown_and_answered_from_norths_side(bot):
    puzzle = next(p for p in engine_puzzles.load() if p.position.to_move == Side.NORTH)
    shown = await bot.send(f"puzzle {puzzle.id}")
    assert puzzle_of(shown) == puzzle and "You play North" in text(shown)
    mine = to_perspective(puzzle.solution, Side.NORTH)  # North's own pits written uppercase
    answer = await bot.send(mine, answering=shown)
    assert f"your answer {mine}:" in text(answer) and "Right:" in text(answer)


async def test_a_togyz_puzzle_by_mail_is_answered_past_its_tuzdyks(bot):
    shown = await bot.send("puzzle next togyz-kumalak")
    puzzle = puzzle_of(shown)
    assert puzzle.family == "togyz-kumalak" and puzzle.position.tuzdyks != (None, None)
    assert "Tuzdyks:" in text(shown) and " X " in text(shown)
    right = to_perspective(puzzle.solution, puzzle.position.to_move)
    assert "Right:" in text(await bot.send(right, answering=shown))
    bestemshe = puzzle_of(await bot.send("puzzle next bestemshe hard"))
    assert bestemshe.family == "bestemshe" and bestemshe.grade == "hard"


async def test_bad_answers_and_unknown_puzzles_are_told_what_is_accepted(bot):
    shown = await bot.send("puzzle")
    typo = await bot.send("maybe the third one?", answering=shown)
    assert "I could not read that as a move" in text(typo) and "puzzle next" in text(typo)
    assert f"Families: {', '.join(engine_puzzles.families())}." in text(typo)
    unknown = await bot.send("puzzle nope-9999")
    assert "Not done: there is no puzzle 'nope-9999'" in text(unknown)


async def test_puzzle_mail_is_play_within_the_senders_budget(bot):
    for _ in range(12):
        await bot.send("puzzle")
    notice = await bot.send("puzzle")  # the 13th: the day's one notice, then silence
    assert "answers to position mails and puzzles" in text(notice)
    before = len(bot.mailbox.messages)
    await send_raw(bot.port, mail("puzzle", message_id="<late@x>"), ANN, ["mancala@bot.test"])
    await asyncio.sleep(0.5)  # time for a wrongly sent reply to arrive
    assert len(bot.mailbox.messages) == before
