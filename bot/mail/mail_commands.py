"""The words of a correspondence game by mail: the first line of the newest text.

>>> parse_command("Move 7: C")
Command(verb='move', move='C', number=7, read_from=None, opponent=None, rules=None, side=None, \
days=None)
>>> c = parse_command("challenge Bob@Example.org wari:captures=2-4 as north 3 days")
>>> c.verb, c.opponent, c.rules, c.side, c.days
('challenge', 'bob@example.org', 'wari:captures=2-4', 'north', 3)
>>> parse_command("Thanks for the game!") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.i18n import N_, _
from bot.service.addresses import mailbox
from engine import SIDES
from engine.errors import excerpt
from engine.ruleset import PIT_CLASS

VERBS = (
    "challenge",
    "accept",
    "decline",
    "cancel",
    "move",
    "resign",
    "draw",
    "end",
    "undo",
    "board",
    "review",
    "puzzle",
    "games",
    "help",
)
DEFAULT_RULES = "wari"  # the game of 003, where play by mail began

_MOVE = re.compile(
    rf"^(?:move\b\s*)?(?:#?(\d{{1,5}})\s*[.:)]?\s*)?(?::\s*)?([{PIT_CLASS}][<>]?)\s*[.!]?$",
    re.I,
)
# "Move 3: C (did this go through?)": a move named as one, with words after it
_MOVE_THEN_WORDS = re.compile(
    r"^(?:move\b\s*#?(\d{1,5})?|#?(\d{1,5}))\s*[.:)]?\s*(?::\s*)?"
    rf"([{PIT_CLASS}][<>]?)(?:[\s.,;!?:)(-]+)(.+)$",
    re.I,
)
# a lone letter after a move: another move? A capital I there is the pronoun ("Move 3: C, I
# hope"), far more often than Togyz Kumalak's ninth pit, so only a lowercase i counts
_PIT_WORD = re.compile(r"(?<![\w'])(?:[a-h]|(?-i:i))[<>]?(?![\w'])", re.I)
_WORD = re.compile(r"^([a-z]+)\b[\s:,.!]*(.*)$", re.I)
_PHRASES = {
    "my games": "games",
    "list games": "games",
    "offer draw": "draw",
    "offer a draw": "draw",
    "take back": "undo",
}
_SYNONYMS = {
    "list": "games",
    "status": "board",
    "show": "board",
    "withdraw": "cancel",
    "takeback": "undo",
    "yes": "accept",
    "no": "decline",
    "refuse": "decline",
    "play": "challenge",
    "commands": "help",
}

# TRANSLATORS: the words in the left-hand column are the commands a mail is read by
# (challenge, accept, resign, board, as south|north, days...): keep them in English, and
# the right-hand column where it is.
HELP = N_(
    """Playing by mail: the commands (the first line of your mail; one per mail)
    challenge ADDRESS [RULES] [as south|north] [N days]
                   challenge someone by email (ann@example.org), on Discord
                   (discord:USER_ID) or the AI (ai, or ai:LEVEL); RULES default to
                   {rules} (like wari:captures=2-4); N days a move (1 to 14)
    accept / decline    answer a challenge, or an offer of a draw or a take-back
    cancel              withdraw your challenge
    C / Move 7: C       play pit C (your pits are A-F on your bottom row, A-I in Togyz
                        Kumalak); the number is the move the board showed, so an old or
                        repeated mail is refused
    resign / draw / undo / end    resign, offer a draw, ask to take back your last move,
                        or offer to end the game (scored like a repetition)
    board               the current board
    review              once the game is over: the solver's review of every move
    puzzle              today's puzzle ('puzzle next' for another); reply with your move
    games               your games and open challenges
    tournament help     tournaments: create, join, standings ('tournament' alone lists them)
    if f then C; if e then D    in a game: conditional moves, played when your opponent's
                        move matches ('premoves' lists yours, 'premoves clear' drops them)
    vacation on [N days] / off / status    stop your clocks (30 days a year)
    digest on [at HOUR] / off / status     one mail a day instead of one per move
    language fr         the language I write to you in (alone: yours, and the choices)
Reply to the bot's latest mail about a game: its subject and reply address carry your
secret token for that game, and mail without it is refused."""
)


# TRANSLATORS: 'link', 'privacy' and 'stop' are commands: keep them in English, and the
# line's layout (the command words in the left-hand column) as in the help above it
ACCOUNTS_HELP = N_(
    """    link / privacy / stop    your Discord account and this address as one player
                        ('link' alone says how), your data ('privacy' alone), no more mail"""
)


def help_text() -> str:
    """``HELP`` in the current language, with the accounts' line."""
    lines = _(HELP).format(rules=DEFAULT_RULES).split("\n")
    last = max(i for i, line in enumerate(lines) if line.startswith("    "))  # a command's
    return "\n".join([*lines[: last + 1], _(ACCOUNTS_HELP), *lines[last + 1 :]])


def not_done(error: object) -> str:
    """What a refused request's answer begins with: the service's reason, in its words."""
    return _("Not done: {error}").format(error=error)


@dataclass(frozen=True)
class Command:
    verb: str
    move: str | None = None  # for "move": the pit, as the player wrote it
    number: int | None = None  # for "move": the move number, if written
    read_from: str | None = None  # for "move" with words after it: the line, to say so
    opponent: str | None = None  # for "challenge"
    rules: str | None = None
    side: str | None = None
    days: int | None = None  # for "challenge": days a move (a correspondence clock)


class CommandError(ValueError):
    """A command word with arguments we cannot read; the message says what is accepted."""


def first_line(text: str) -> str:
    return next((line.strip() for line in text.split("\n") if line.strip()), "")


def parse_command(text: str) -> Command | None:
    """The command on the first non-empty line, or None when it is not one.

    Raise CommandError for a command word whose arguments are wrong (a challenge without an
    opponent, say).
    """
    line = first_line(text)
    move = _MOVE.match(line)
    if move:
        return Command(
            "move", move=move.group(2), number=int(move.group(1)) if move.group(1) else None
        )
    move = _MOVE_THEN_WORDS.match(line)
    if move:
        number = move.group(1) or move.group(2)
        if _PIT_WORD.search(move.group(4)):
            raise CommandError(
                _(
                    "'{line}': which move? That line holds more than one "
                    "move; write one pit letter on the line, like 'Move 7: C', and "
                    "anything else on the next line"
                ).format(line=excerpt(line))
            )
        return Command(
            "move",
            move=move.group(3),
            number=int(number) if number else None,
            read_from=excerpt(line, 200),
        )
    words = " ".join(line.lower().split())
    for phrase, verb in _PHRASES.items():
        if words == phrase or words.startswith(phrase + " "):
            return Command(verb)
    word = _WORD.match(line)
    if not word:
        return None
    verb, rest = word.group(1).lower(), word.group(2).strip()
    verb = _SYNONYMS.get(verb, verb)
    if verb not in VERBS:
        return None
    if verb == "challenge":
        return _challenge(rest)
    if verb == "move":  # "move" with something that is not a pit
        raise CommandError(
            _("'{line}': a move is a pit letter, like 'C' or 'Move 7: C'").format(
                line=excerpt(line)
            )
        )
    return Command(verb)


def _challenge(rest: str) -> Command:
    words = rest.replace(",", " ").split()
    words = [w for w in words if w.lower() not in ("to", "at", "with", "a", "game", "of")]
    side = None
    for i, w in enumerate(words[:-1]):
        if w.lower() == "as" and words[i + 1].lower() in (*SIDES, "random"):
            side = words[i + 1].lower()
            del words[i : i + 2]
            break
    days = None
    for i, w in enumerate(words[:-1]):
        if w.isdigit() and len(w) < 4 and words[i + 1].lower() in ("day", "days"):
            days = int(w)  # the service says what is allowed (1 to 14)
            del words[i : i + 2]
            break
    if not words:
        raise CommandError(
            _(
                "challenge whom? Write 'challenge ann@example.org wari', "
                "'challenge discord:USER_ID' or 'challenge ai'"
            )
        )
    opponent = words[0].strip("<>").lower()
    if "@" in opponent:
        opponent = mailbox(opponent)
        if not opponent:
            raise CommandError(
                _(
                    "'{word}' is not an email address this bot can "
                    "write to: write it as ann@example.org"
                ).format(word=excerpt(words[0]))
            )
    elif not re.fullmatch(r"ai(:\w{1,20})?|discord:\d{1,20}", opponent):
        raise CommandError(
            _(
                "'{word}' is not an opponent: write an email address, "
                "discord:USER_ID, ai or ai:LEVEL"
            ).format(word=excerpt(words[0]))
        )
    if len(words) > 2:
        raise CommandError(
            _("'{words}' is not understood; write 'challenge ADDRESS RULES as SIDE'").format(
                words=excerpt(" ".join(words[2:]))
            )
        )
    return Command(
        "challenge",
        opponent=opponent,
        rules=words[1] if len(words) > 1 else DEFAULT_RULES,
        side=side,
        days=days,
    )
