"""The position-and-move mail of 003: rules, the board from the sender's side, and a move.

The position travels in the mail, so this needs no stored state: the sender writes the board
as they see it (their pits A-F on the bottom row), the bot applies their move, answers with
the AI's, and sends the new board back from the sender's side, ready to edit.

>>> mail = parse_position_mail('''Rules: wari
... Move: E
...     f  e  d  c  b  a
...     4  4  4  4  4  4
...     4  4  4  4  4  4
...     A  B  C  D  E  F''', levels=("first",))
>>> mail.rules.name, mail.side, mail.moves, mail.position.to_move
('wari', <Side.SOUTH: 'south'>, ['E'], <Side.SOUTH: 'south'>)
"""

from __future__ import annotations

import random
import re
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.i18n import _, ngettext
from bot.mail.mail_language import side_words
from engine import (
    SIDES,
    IllegalMove,
    Position,
    PositionError,
    Ruleset,
    RulesetError,
    Side,
    from_perspective,
    parse_position,
    render,
    to_perspective,
)
from engine.errors import excerpt
from engine.fen import looks_like_fen, parse_fen
from engine.ruleset import PIT_CLASS, PIT_LETTERS

_KEY_LINE = re.compile(
    r"^\s*(rules|rule|ruleset|variant|side|level|moves|move|my move)\s*[:=]\s*(.*?)\s*$", re.I
)
_KEYS = {
    "rules": "rules",
    "rule": "rules",
    "ruleset": "rules",
    "variant": "rules",
    "side": "side",
    "level": "level",
    "move": "move",
    "moves": "move",
    "my move": "move",
}
_MOVE_TOKEN = re.compile(rf"^[{PIT_CLASS}][<>]?$")  # of some ruleset: see _is_move
_BOARD_WORDS = re.compile(
    r"^\s*(captured|stores?|kazans?|tuzdyks?\b|game over|south \d+, north \d+|```)", re.I
)
_TURN = re.compile(r"\b(south|north) to move\b", re.I)
_LINE_NUMBER = re.compile(r"\bline (\d+)\b")


def format_help(levels: Sequence[str]) -> str:
    """The accepted format, shown with every error."""

    def column(words: Iterable[str]) -> str:  # the right-hand column, wrapped for a plain-text mail
        return textwrap.fill(
            ", ".join(words),
            width=88,
            initial_indent=" " * 27,
            subsequent_indent=" " * 27,
            break_on_hyphens=False,
        )

    level_list, presets = column(levels), column(Ruleset.presets())
    # TRANSLATORS: the lines that begin with Rules:, Side:, Level:, Move: and the words
    # wari, south, north, Captured, North, South are what a mail is read by: keep them in
    # English, and keep the right-hand column where it is (27 spaces in).
    text = _(
        """A position-and-move mail holds these lines (anything before or after the board
that is not one of them is ignored):
    Rules: wari            the ruleset, with options like wari:captures=2-4; one of
{presets}
    Side: south            optional: the side you play (south or north; default south)
    Level: {level} optional: my strength, weakest to strongest:
{levels}
    the board as you see it: your pits A-F on the bottom row (A-I in Togyz Kumalak), '-'
    for an empty pit, 'X' for a tuzdyk, then the captured counts ('Captured: North 3,
    South 5') or the stores (kazans) between the rows
    Move: C                optional: your move in this position (for Kalah's extra turns,
                           several: 'Move: C F'); without a Move line the board is the
                           position after your move, and I move
Example:
{example}
To start a game from the beginning, send only the Rules: line. Write the board in your own
text, not quoted with '>': quoted lines are never read."""
    )
    return text.format(
        presets=presets, level=f"{levels[-1]:<15}", levels=level_list, example=_EXAMPLE
    )


_EXAMPLE = """    Rules: wari
        f  e  d  c  b  a
        4  4  4  4  4  4
        4  4  4  4  4  4
        A  B  C  D  E  F
    Captured: North 0, South 0.
    Move: E"""


class MailFormatError(ValueError):
    """A position-and-move mail that cannot be read; ``line`` is the offending line, if one."""

    def __init__(self, problem: str, line: str | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.line = excerpt(line, 80) if line else None  # quoted back: short and printable

    def explain(self, levels: Sequence[str]) -> str:
        text = _("I could not read your mail: {problem}").format(problem=self.problem)
        if self.line:
            text += "\n\n" + _("The line in question:") + f"\n> {self.line}"
        return f"{text}\n\n{format_help(levels)}"


@dataclass
class PositionMail:
    """A readable position-and-move mail."""

    rules: Ruleset
    side: Side  # the sender's side; the board was written from it
    level: str
    position: Position  # the position the sender's moves apply to (or the bot's turn)
    moves: list[str]  # the sender's moves, in the sender's own notation
    started: bool  # no board was sent: a new game from the initial position
    note: str | None = None  # what was read from a Move: line with words after the moves

    @property
    def bot_side(self) -> Side:
        return self.side.other


def _is_move(token: str, letters: str) -> bool:
    """Whether ``token`` is a pit letter of a ruleset whose South pits are ``letters`` (so the
    pronoun "I" is a word, not a pit, where there are fewer than 9 pits)."""
    return bool(_MOVE_TOKEN.match(token)) and token[0].upper() in letters


def _moves_then_words(text: str, letters: str = PIT_LETTERS) -> tuple[list[str], list[str]]:
    """The pit letters at the start of a Move: value, and the words after them.

    >>> _moves_then_words("C d, E (did this go through?)")
    (['C', 'd', 'E'], ['(did', 'this', 'go', 'through?)'])
    >>> _moves_then_words("C I think", "ABCDEF")
    (['C'], ['I', 'think'])
    """
    tokens = [t for t in re.split(r"[\s,;]+", text) if t]
    moves: list[str] = []
    for token in tokens:
        bare = token.rstrip(".!")
        if not _is_move(bare, letters):
            break
        moves.append(bare)
    return moves, tokens[len(moves) :]


def parse_position_mail(
    text: str,
    levels: Sequence[str],
    default_level: str | None = None,
    rng: random.Random | None = None,
) -> PositionMail:
    """Read the newest text of a mail. Raise MailFormatError naming the offending line."""
    lines = text.split("\n")
    values: dict[str, tuple[str, str]] = {}  # key -> (value, raw line)
    board_lines = [""] * len(lines)  # the board block, keeping the mail's line numbers
    board_rows = [i for i, line in enumerate(lines) if _looks_like_board(line)]
    first, last = (board_rows[0], board_rows[-1]) if board_rows else (len(lines), -1)
    # label rows ("f e d c b a") belong to the board only at its edges: a lone "C" elsewhere
    # is prose (or a move missing its "Move:"), not a one-pit board's label
    while first - 1 >= 0 and board_rows and _is_label_row(lines[first - 1]):
        first -= 1
    while last + 1 < len(lines) and board_rows and _is_label_row(lines[last + 1]):
        last += 1
    for i, line in enumerate(lines):
        key_line = _KEY_LINE.match(line)
        if key_line:
            key = _KEYS[key_line.group(1).lower()]
            value = key_line.group(2)
            if key in values and values[key][0].lower() != value.lower():
                raise MailFormatError(
                    # TRANSLATORS: {key} is Rules, Side, Level or Move: a line's keyword
                    _("two different {key}: lines").format(key=key.title()),
                    line.strip(),
                )
            values[key] = (value, line.strip())
        elif first <= i <= last:
            board_lines[i] = line

    fen_line = next((line.strip() for line in lines if looks_like_fen(line)), None)
    if "rules" not in values and fen_line is not None:
        # a PlayStrategy position names its game by its width (9, 6 or 5 pits a row), as
        # `mancala move --position` reads it: asking for a Rules: line again is only a chance
        # to get it wrong
        try:
            values["rules"] = (parse_fen(fen_line).rules.name, fen_line)
        except PositionError as err:
            raise MailFormatError(str(err), fen_line) from None
    if "rules" not in values:
        unread = [
            x.strip()
            for x in lines
            if x.strip() and not _KEY_LINE.match(x) and not _looks_like_board(x)
        ]
        if not any(x.strip() for x in lines):
            raise MailFormatError(_("the mail is empty: there is no Rules: line and no board"))
        raise MailFormatError(
            _("there is no Rules: line (which game?)")
            if board_rows
            else _("there is no Rules: line (which game?) and no board"),
            unread[0] if unread else None,
        )
    rules_text, rules_line = values["rules"]
    try:
        rules = Ruleset.parse(rules_text)
    except RulesetError as err:
        raise MailFormatError(str(err), rules_line) from None

    side_word = values.get("side", ("", ""))[0].lower() or Side.SOUTH
    if side_word not in SIDES:
        raise MailFormatError(_("the side is south or north"), values["side"][1])
    side = Side(side_word)
    fen_position = None
    if fen_line is not None:
        try:
            fen_position = parse_fen(fen_line, rules)
        except PositionError as err:
            raise MailFormatError(str(err), fen_line) from None
    level = (values.get("level", ("", ""))[0] or default_level or levels[0]).lower()
    if level not in levels:
        raise MailFormatError(
            _("the level is one of {levels}").format(levels=", ".join(levels)),
            values.get("level", ("", None))[1],
        )
    move_text, move_line = values.get("move", ("", ""))
    moves, words = _moves_then_words(move_text, rules.letters)
    if words and not moves:
        raise MailFormatError(
            _("'{word}' is not a move; a move is a pit letter {first}-{last}").format(
                word=excerpt(words[0], 10), first=rules.letters[0], last=rules.letters[-1]
            ),
            move_line,
        )
    if any(_is_move(w.strip(".,;:!?()\"'"), rules.letters) for w in words):
        raise MailFormatError(
            _(
                "which moves? Write only pit letters on the Move: line "
                "(several: 'Move: C d E'), and words on the next line"
            ),
            move_line,
        )
    note = (
        ngettext(
            "I read your move as {moves} (your line: '{line}').",
            "I read your moves as {moves} (your line: '{line}').",
            len(moves),
        ).format(moves=" ".join(moves), line=excerpt(move_line, 200))
        if words
        else None
    )

    if fen_position is not None:
        return _fen_mail(
            PositionMail(rules, side, level, fen_position, moves, started=False, note=note),
            side_given="side" in values,
            line=fen_line or "",
        )
    if not board_rows:
        if moves:
            raise MailFormatError(
                _(
                    "a Move: needs the board it is played on; copy the board "
                    "from my last mail into your reply, without '>' quoting"
                ),
                move_line,
            )
        start = Position.initial(rules, rng=rng or random.Random())
        return PositionMail(rules, side, level, start, [], started=True)

    block = "\n".join(board_lines)
    written_turn = _TURN.search(block)
    bot_side = side.other
    if moves:
        to_move = side
    elif written_turn and written_turn.group(1).lower() == side:
        raise MailFormatError(
            _(
                "the board says {side} (you) to move, but there is no "
                "Move: line; add one, like 'Move: C'"
            ).format(side=side_words(side)),
            written_turn.group(0),
        )
    else:
        to_move = bot_side
    try:
        position = parse_position(block, rules, to_move=to_move, perspective=side)
    except PositionError as err:
        raise MailFormatError(str(err), _offending_line(str(err), lines, first, last)) from None
    if position.is_over():
        raise MailFormatError(_("this position is already over: the game has ended"))
    return PositionMail(rules, side, level, position, moves, started=False, note=note)


def _fen_mail(mail: PositionMail, side_given: bool, line: str) -> PositionMail:
    """A position mail whose position is a PlayStrategy string, which says who is to move:
    the sender's side, when they send a move; else the bot's. Without a Side: line the sender
    plays the side this makes theirs."""
    position = mail.position
    if not side_given:
        mail.side = position.to_move if mail.moves else position.to_move.other
    if position.is_over():
        raise MailFormatError(_("this position is already over: the game has ended"))
    if mail.moves and position.to_move != mail.side:
        raise MailFormatError(
            _("the position says {side} to move, so your Move: cannot be played").format(
                side=side_words(position.to_move)
            ),
            line,
        )
    if not mail.moves and position.to_move == mail.side:
        raise MailFormatError(
            _(
                "the board says {side} (you) to move, but there is no "
                "Move: line; add one, like 'Move: C'"
            ).format(side=side_words(mail.side)),
            line,
        )
    return mail


def _looks_like_board(line: str) -> bool:
    """A count row, a label row, a captured/stores line or a 'to move' line.

    A row is a board row when at least half its words are counts, so a mistyped row ('4 4 x
    4 4 4') still reaches the board reader, which names the bad count.
    """
    if _KEY_LINE.match(line):
        return False
    if _BOARD_WORDS.match(line) or _TURN.search(line):
        return True
    tokens = line.split()
    if len(tokens) >= 2 and _is_label_row(line):
        return True
    counts = sum(1 for t in tokens if t == "-" or t.isdigit())
    return bool(tokens) and counts * 2 >= len(tokens) and (counts > 0 or len(tokens) >= 2)


def _is_label_row(line: str) -> bool:
    tokens = line.split()
    return bool(tokens) and all(len(t) == 1 and t.isalpha() for t in tokens)


def _offending_line(message: str, lines: list[str], first: int, last: int) -> str | None:
    found = _LINE_NUMBER.search(message)
    if found and 0 < int(found.group(1)) <= len(lines):
        return lines[int(found.group(1)) - 1].strip()
    if 0 <= first <= last:  # the board as a whole is wrong: quote its first row
        return lines[first].strip()
    return None


def apply_sender_moves(mail: PositionMail) -> tuple[Position, list[str]]:
    """Play the sender's moves; return the position and the moves as the engine names them.

    Raise MailFormatError when a move is not the sender's to make or is illegal.
    """
    position = mail.position
    played: list[str] = []
    for move in mail.moves:
        if position.is_over():
            raise MailFormatError(_("the game ended before your move {move}").format(move=move))
        if position.to_move != mail.side:
            raise MailFormatError(
                _("after {moves} it is my turn, not yours: {move} cannot be played").format(
                    moves=excerpt(" ".join(mail.moves[: len(played)])), move=move
                )
            )
        try:
            position = position.play(from_perspective(move, mail.side))
        except IllegalMove as err:
            legal = ", ".join(to_perspective(m, mail.side) for m in position.legal_moves())
            raise MailFormatError(
                _("{move} is not a legal move here: {error} (legal moves: {legal})").format(
                    move=move, error=err, legal=legal
                ),
                f"Move: {' '.join(mail.moves)}",
            ) from None
        played.append(played_move(position))
    return position, played


def played_move(position: Position) -> str:
    """The move that led to ``position``, which ``Position.play`` always records."""
    if position.last_move is None:
        raise ValueError("this position was not reached by a move")
    return position.last_move


def reply_text(
    mail: PositionMail, position: Position, sender_moves: list[str], bot_moves: list[str]
) -> str:
    """The reply: what happened, then the new position in the same format, ready to edit."""
    side = mail.side
    told = [mail.note] if mail.note else []
    if mail.started:
        told.append(
            _("A new game of {rules}; you play {side}.").format(
                rules=mail.rules.name, side=side_words(side)
            )
        )
    if sender_moves:
        told.append(
            _("You played {moves}.").format(
                moves=" ".join(to_perspective(m, side) for m in sender_moves)
            )
        )
    if bot_moves:
        told.append(
            # TRANSLATORS: {level} is the AI's level, like "strong"
            _("I ({level}) played {moves}.").format(
                level=mail.level, moves=" ".join(to_perspective(m, side) for m in bot_moves)
            )
        )
    if position.is_over():
        told.append(_("The game is over."))
        move_line = ""
    else:
        legal = ", ".join(to_perspective(m, side) for m in position.legal_moves())
        told.append(
            _(
                "Your move: one of {legal}. Reply with this board (not quoted) and your "
                "move on the Move: line."
            ).format(legal=legal)
        )
        move_line = "\nMove: "
    return (
        " ".join(told) + "\n\n"
        f"Rules: {mail.rules}\nSide: {side}\nLevel: {mail.level}\n\n"
        + render(position, perspective=side)
        + "\n"
        + move_line
    )
