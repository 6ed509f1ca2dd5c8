"""Puzzles by mail: ask with ``puzzle``, answer by replying with the move.

A mail whose first line is ``puzzle`` gets today's puzzle (``puzzle next``: one the sender has
not answered yet; a family and a grade narrow it: ``puzzle next wari hard``; ``puzzle
kalah-0042``: that one). The puzzle's mail shows the board from the side to move, as the
player sees it (their own pits uppercase on the bottom row, as in a game by mail), and is
tagged twice: ``[mancala puzzle kalah-0042]`` in its subject, which a plain Reply keeps, and a
``Puzzle: kalah-0042`` line in its text, for a mail written afresh. A reply whose first line
is a move (``C``, ``Move: C``) answers that puzzle: right or wrong, the proof or refutation
line, the streak, and how to get the next. ``streak`` tells the sender theirs.

Puzzles need no token: they act for the From address only (its streak), like a challenge.
Every reply is play (``ReplyKind.PLAY``): within the per-address budget of position mails and
the bot's limits in all (``bot.mail.reply_limits``).

>>> read_request("Re: [mancala puzzle kalah-0042] a kalah puzzle", "c")
PuzzleRequest(verb='answer', puzzle_id='kalah-0042', move='c', family=None, grade=None)
>>> read_request("hello", "puzzle next wari hard")
PuzzleRequest(verb='next', puzzle_id=None, move=None, family='wari', grade='hard')
>>> read_request("hello", "Puzzle: kalah-0042\\nMove: E")
PuzzleRequest(verb='answer', puzzle_id='kalah-0042', move='E', family=None, grade=None)
>>> read_request("Re: my game", "C") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import EmailMessage

from bot.i18n import N_, _
from bot.mail.mail_commands import first_line, not_done
from bot.mail.mail_language import side_words
from bot.mail.reading import IncomingMail
from bot.mail.replies import build_reply, line_in_question, reply_subject
from bot.service import GameService, Player, ServiceError
from bot.service.puzzles import PuzzleStanding, describe_value
from engine import from_perspective, render, to_perspective
from engine.puzzles import Puzzle, families
from engine.ruleset import PIT_CLASS

_ID = r"[a-z0-9][a-z0-9_.-]{0,59}"
_SUBJECT_TAG = re.compile(rf"\[mancala puzzle ({_ID})\]", re.I)
_PUZZLE_LINE = re.compile(rf"^\s*puzzle\s*[:=]\s*({_ID})\s*$", re.I | re.M)
_MOVE = re.compile(rf"^\s*(?:move\b\s*[:.]?\s*)?([{PIT_CLASS}][<>]?)\s*[.!]?\s*$", re.I)
_VERB = re.compile(r"^\s*(puzzles?|next|another|streak)\b[\s:,.!]*(.*)$", re.I)
_GRADES = ("easy", "medium", "hard")
SERVER = "email"  # where mail answers count: the board of the mail surface

# TRANSLATORS: puzzle, puzzle next, streak and the grades (easy, medium, hard) are what a
# mail is read by: keep them in English. {families} lists the families (kalah, wari...).
HELP = N_(
    """Puzzles by mail:
    puzzle                     today's puzzle
    puzzle next [FAMILY] [GRADE]    one you have not answered yet, like 'puzzle next wari hard'
    C                          in reply to a puzzle's mail: your answer (your pits are A-F on
                               your bottom row); only your first answer to a puzzle counts
    streak                     your streak and how many you solved
Families: {families}. Grades: easy, medium, hard."""
)


def help_text() -> str:
    """``HELP`` in the current language, with the families the shipped set has puzzles of."""
    return _(HELP).format(families=", ".join(families()))


@dataclass(frozen=True)
class PuzzleRequest:
    """What a puzzle mail asks: ``daily``, ``next``, ``show`` (``puzzle_id``), ``answer``
    (``move`` to ``puzzle_id``, as the player wrote it, from their side), ``streak`` or
    ``help``."""

    verb: str
    puzzle_id: str | None = None
    move: str | None = None
    family: str | None = None
    grade: str | None = None


def tagged_id(subject: str, text: str) -> str | None:
    """The puzzle a mail is about: its subject's tag, else a ``Puzzle:`` line of its text."""
    found = _SUBJECT_TAG.search(subject) or _PUZZLE_LINE.search(text)
    return found.group(1).lower() if found else None


def read_request(subject: str, text: str) -> PuzzleRequest | None:
    """The puzzle request of a mail with this subject and newest text, or None when it is
    not about puzzles."""
    puzzle_id = tagged_id(subject, text)
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if lines and _PUZZLE_LINE.match(lines[0]):
        lines = lines[1:]  # "Puzzle: kalah-0042" then the move
    line = lines[0] if lines else ""
    move = _MOVE.match(line)
    if move and puzzle_id:
        return PuzzleRequest("answer", puzzle_id, move.group(1))
    verb = _VERB.match(line)
    if not verb:
        return PuzzleRequest("help", puzzle_id) if puzzle_id else None
    word, rest = verb.group(1).lower(), verb.group(2).lower().split()
    if word == "streak":
        return PuzzleRequest("streak")
    family = next((w for w in rest if w in families()), None)
    grade = next((w for w in rest if w in _GRADES), None)
    named = next((w for w in rest if re.fullmatch(_ID, w) and "-" in w and w[-1].isdigit()), None)
    if named:
        return PuzzleRequest("show", named)
    if word in ("next", "another") or "next" in rest or "another" in rest or family or grade:
        return PuzzleRequest("next", family=family, grade=grade)
    return PuzzleRequest("daily")


def puzzle_body(puzzle: Puzzle, headline: str) -> str:
    """A puzzle's mail: what it is, the board from the mover's side, how to answer."""
    side = puzzle.position.to_move
    legal = ", ".join(to_perspective(m, side) for m in puzzle.position.legal_moves())
    letters = puzzle.position.rules.letters
    return "\n".join(
        [
            headline,
            "",
            f"Puzzle: {puzzle.id}",
            # TRANSLATORS: {family} is a ruleset (wari), {grade} easy, medium or hard
            _(
                "A {family} puzzle, graded {grade}. You play {side}, to move: one move "
                "keeps {value} with best play. Find it."
            ).format(
                family=puzzle.family,
                grade=_grade(puzzle.grade.value),
                side=side_words(side),
                value=describe_value(puzzle.value),
            ),
            "",
            render(puzzle.position, side),
            "",
            _(
                "Reply with your move on the first line, like '{example}' (your pits "
                "are {first}-{last} on your bottom row; legal: {legal}). Only your "
                "first answer to a puzzle counts for your streak."
            ).format(example=legal.split(", ")[0], first=letters[0], last=letters[-1], legal=legal),
            "",
            help_text(),
        ]
    )


_GRADE_WORDS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def _grade(grade: str) -> str:
    """A puzzle's grade in the current language (the command keeps the English word)."""
    return _(_GRADE_WORDS[grade]) if grade in _GRADE_WORDS else grade


def streak_body(standing: PuzzleStanding) -> str:
    if not standing.answered:
        return _("You have not answered a puzzle yet. Reply 'puzzle' for today's.") + (
            "\n\n" + help_text()
        )
    return (
        _(
            "Your puzzles: {solved} solved of {answered}; streak {streak} in a row, "
            "your best {best}."
        ).format(
            solved=standing.solved,
            answered=standing.answered,
            streak=standing.streak,
            best=standing.best_streak,
        )
        + "\n\n"
        + help_text()
    )


class PuzzleMail:
    """Answers puzzle mail through the service; ``bot_address`` is the bot's own address."""

    def __init__(self, service: GameService, bot_address: str) -> None:
        self.service = service
        self.bot_address = bot_address

    def wants(self, mail: IncomingMail) -> bool:
        """Whether ``mail`` is about puzzles: it names one (subject tag or ``Puzzle:`` line)
        or its first line asks for one (or for the sender's streak)."""
        if tagged_id(mail.subject, mail.text):
            return True
        verb = _VERB.match(first_line(mail.text))
        return verb is not None and verb.group(1).lower() in ("puzzle", "puzzles", "streak")

    async def handle(self, mail: IncomingMail) -> list[EmailMessage]:
        """The reply to a puzzle mail (its limits are the caller's: ``Correspondence``)."""
        request = read_request(mail.subject, mail.text) or PuzzleRequest("help")
        player = Player("email", mail.from_address)
        service = self.service
        try:
            if request.verb == "answer":
                assert request.puzzle_id is not None and request.move is not None
                return [await self._answer(mail, player, request.puzzle_id, request.move)]
            if request.verb == "streak":
                return [self._reply(mail, streak_body(await service.puzzle_streak(player)))]
            if request.verb == "help":
                head = _("I could not read that as a move or a puzzle command.")
                quoted = line_in_question(first_line(mail.text))
                return [self._reply(mail, f"{quoted}\n\n{head}\n\n{help_text()}")]
            if request.verb == "show":
                assert request.puzzle_id is not None
                puzzle = service.puzzle(request.puzzle_id)
                headline = _("The puzzle you asked for.")
            elif request.verb == "next":
                puzzle = await service.next_puzzle(player, request.family, request.grade)
                headline = _("A puzzle you have not answered yet.")
            else:
                puzzle = await service.daily_puzzle(None, request.family)
                headline = _("The puzzle of the day.")
        except ServiceError as err:
            return [self._reply(mail, f"{not_done(err)}\n\n{help_text()}")]
        return [self._puzzle_mail(mail, puzzle, puzzle_body(puzzle, headline))]

    async def _answer(
        self, mail: IncomingMail, player: Player, puzzle_id: str, written: str
    ) -> EmailMessage:
        try:
            puzzle = self.service.puzzle(puzzle_id)
            side = puzzle.position.to_move
            result = await self.service.answer_puzzle(
                player, puzzle_id, from_perspective(written, side), SERVER
            )
        except ServiceError as err:
            return self._reply(mail, f"{line_in_question(written)}\n\n{not_done(err)}")
        more = (
            _("Reply 'puzzle next' for another puzzle.")
            if result.correct
            else _(
                "Reply with another move to try again (practice), or 'puzzle next' for "
                "another puzzle."
            )
        )
        body = "\n".join(
            [
                _("Puzzle {id}, your answer {move}:").format(
                    id=puzzle.id, move=to_perspective(result.answer.move, side)
                ),
                result.verdict(side),
                result.streak_words(),
                "",
                more,
                "",
                f"Puzzle: {puzzle.id}",
                render(puzzle.position, side),
            ]
        )
        return self._puzzle_mail(mail, puzzle, body)

    def _puzzle_mail(self, mail: IncomingMail, puzzle: Puzzle, body: str) -> EmailMessage:
        """A reply in the puzzle's own thread: its tag in the subject, so a Reply answers it."""
        # TRANSLATORS: a puzzle mail's subject, after its tag; {side} is South or North
        words = _("a {family} puzzle: {side} to move").format(
            family=puzzle.family, side=side_words(puzzle.position.to_move)
        )
        subject = f"[mancala puzzle {puzzle.id}] {words}"
        if _SUBJECT_TAG.search(mail.subject) and tagged_id(mail.subject, "") == puzzle.id:
            subject = reply_subject(mail.subject)
        return build_reply(mail, body, self.bot_address, to=mail.from_address, subject=subject)

    def _reply(self, mail: IncomingMail, body: str) -> EmailMessage:
        return build_reply(mail, body, self.bot_address, to=mail.from_address)
