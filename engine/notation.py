"""The ASCII board of 003 (a-f / A-F), drawn and read back.

North's row reads ``f e d c b a`` on top, South's ``A B C D E F`` below; ``-`` is an empty pit.
Stores sit at the row ends (North's left, South's right, as in 001 and 002); rulesets without
stores print the captured counts instead, except Togyz Kumalak's, whose kazans sit where stores
do. A tuzdyk is an ``X`` in its pit's place, and a ``Tuzdyks:`` line says whose each is (a
tuzdyk is always in the row facing its owner). From North's perspective the board is turned
round: North's pits are the uppercase row at the bottom, which is how the player writing it
sees it. PlayStrategy's position strings (``engine.fen``) are read here too.

>>> from engine import Ruleset, Position, render, parse_position
>>> pos = Position.initial(Ruleset.parse("wari")).play("E")
>>> print(render(pos))
   f  e  d  c  b  a
   4  4  4  5  5  5
   4  4  4  4  -  5
   A  B  C  D  E  F
Captured: North 0, South 0.
North to move; last move E.
>>> parse_position(render(pos), pos.rules) == pos
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from engine.errors import PositionError, excerpt
from engine.fen import looks_like_fen, parse_fen
from engine.inputs import TooLong, normalise, whole_number
from engine.outcome import Outcome, result_lines
from engine.position import Board, Position, tuzdyk_problem
from engine.ruleset import Ruleset
from engine.side import SIDES, Side
from engine.sowing import NO_TUZDYKS, Tuzdyks
from engine.translation import N_, _, side_name

_TURN = re.compile(r"\b(south|north) to move\b", re.I)
_LAST = re.compile(r"\blast move:?\s*([A-Ia-i][<>]?)", re.I)
_TUZDYK_LINE = re.compile(r"^\s*tuzdyks?\b", re.I)
_NAMED_TUZDYK = re.compile(r"\b(south|north)\W{0,4}s?\s+at\s+([a-i])\b", re.I)
_COUNTS = re.compile(r"^\s*(captured|stores?)\b", re.I)
_NAMED_COUNT = re.compile(r"\b(south|north)\D{0,20}?(\d+)", re.I)
_RESULT = re.compile(r"^\s*(game over|south \d+, north \d+)", re.I)
_REASON = re.compile(r"^\s*game over \(([^)]{1,80})\)", re.I)
_FENCE = re.compile(r"^\s*```\w*\s*$")
MAX_POSITION = 20_000  # characters of a written position (a board and a few lines of notes)
MAX_COUNT = 99_999  # more than any pit can hold: past it a count is a typing error
TUZDYK = -1  # an X read in a row of pits

# Marked with N_: shown as _(BOARD_HELP).
# TRANSLATORS: keep the example board, the letters, '-', 'X' and 'Captured: North 3, South 5'
# exactly as they are: they are how a board is written in every language
BOARD_HELP = N_("""A board is two rows of counts ('-' for an empty pit, 'X' for a tuzdyk), North's
row on top read f e d c b a, South's below read A B C D E F; label rows are optional. Stores
go on a line between the rows (North's left, South's right) or as 'Captured: North 3, South 5'.
Example:
    f  e  d  c  b  a
    4  4  4  5  5  5
    4  4  4  4  -  5
    A  B  C  D  E  F""")


def _viewer(perspective: Side | str) -> Side:
    if perspective not in SIDES:
        raise ValueError(f"perspective must be south or north, not '{excerpt(perspective)}'")
    return Side(perspective)


def to_perspective(move: str, perspective: Side | str) -> str:
    """A move as the player ``perspective`` writes it (their own pits uppercase)."""
    return move.swapcase() if perspective == Side.NORTH else move


from_perspective = to_perspective  # turning the board round twice is the identity


def render(
    position: Position, perspective: Side | str = Side.SOUTH, outcome: Outcome | None = None
) -> str:
    """The board as text, about 30 columns wide: fits a phone's code block and a plain mail.
    A finished game ends with its result lines; ``outcome`` gives one the board cannot know
    (a resignation, a loss on time, an agreed draw), else the position's own is shown."""
    pos = position
    rules = pos.rules
    n = rules.pits
    viewer = _viewer(perspective).row
    pits = pos.pits
    tuzdyks = pos.tuzdyks
    cells = ["X" if i in tuzdyks else count or "-" for i, count in enumerate(pits)]
    bottom = cells[viewer * n : viewer * n + n]
    top = cells[(1 - viewer) * n : (1 - viewer) * n + n][::-1]
    width = max(2, len(str(max(pits)))) + 1
    stores = pos.stores
    left, right = str(stores[1 - viewer]), str(stores[viewer])
    margin = max(len(left), len(right)) + 2 if rules.shows_stores else 1

    def row(cells: Iterable[object]) -> str:
        return " " * margin + "".join(str(c).rjust(width) for c in cells)

    lines = [row(rules.letters[::-1].lower()), row(top)]
    if rules.shows_stores:
        lines.append(left.rjust(margin - 1) + " " * (n * width + 1) + right)
    lines += [row(bottom), row(rules.letters)]
    if not rules.shows_stores:
        top_name, bottom_name = SIDES[1 - viewer].title(), SIDES[viewer].title()
        lines.append(f"Captured: {top_name} {stores[1 - viewer]}, {bottom_name} {stores[viewer]}.")
    if tuzdyks != NO_TUZDYKS:
        lines.append(tuzdyk_line(rules, tuzdyks, perspective))
    outcome = outcome or pos.outcome()
    last = f"last move {to_perspective(pos.last_move, perspective)}" if pos.last_move else ""
    if outcome:
        lines += result_lines(outcome, notation=True)  # read back: English always
        if last:
            lines.append(last[0].upper() + last[1:] + ".")
    else:
        lines.append(f"{pos.to_move.title()} to move" + (f"; {last}." if last else "."))
    return "\n".join(lines)


def tuzdyk_line(rules: Ruleset, tuzdyks: Tuzdyks, perspective: Side | str = Side.SOUTH) -> str:
    """Whose each tuzdyk is, under a board: "Tuzdyks: South's at f, North's at D."."""
    named = [
        f"{side.title()}'s at {to_perspective(pit_letter(rules, pit), perspective)}"
        for side, pit in zip(SIDES, tuzdyks, strict=True)
        if pit is not None
    ]
    return ("Tuzdyk: " if len(named) == 1 else "Tuzdyks: ") + ", ".join(named) + "."


def pit_letter(rules: Ruleset, pit: int) -> str:
    """A pit's letter as South writes it: South's uppercase, North's lowercase."""
    letter = rules.letters[pit % rules.pits]
    return letter if pit < rules.pits else letter.lower()


def parse_position(
    text: str,
    rules: Ruleset,
    to_move: Side | str | None = None,
    perspective: Side | str = Side.SOUTH,
    stores: tuple[int, int] | None = None,
) -> Position:
    """Read a board written as ``render`` draws it, or as 003's diagrams (``-`` for empty,
    label rows optional), from either player's side.

    The player to move is ``to_move``, else the board's "X to move" line, else the player
    whose side it is written from (003's diagrams are "your turn" positions). Where the text
    gives no stores or captured counts, ``stores`` supplies them; without either, the pits
    must hold every seed. Raise PositionError naming the line and what is accepted.
    """
    if not isinstance(text, str):
        raise PositionError(_("a position is text; {help}").format(help=_(BOARD_HELP)))
    try:
        text = normalise(text, MAX_POSITION, _("the position"))
    except TooLong as err:
        raise PositionError(f"{err}.\n{_(BOARD_HELP)}") from None
    side = _viewer(perspective)
    if looks_like_fen(text):
        return _from_fen(text, rules, to_move, stores)
    viewer = side.row
    n = rules.pits
    count_rows: list[tuple[int, list[int]]] = []
    named: dict[str, int] = {}
    named_tuzdyks: list[tuple[str, str]] | None = None
    written_turn: Side | None = None
    last_move: str | None = None
    written_reason: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or _FENCE.match(line) or _RESULT.match(line):
            reason = _REASON.match(line)
            written_reason = reason.group(1) if reason else written_reason
            continue
        if _TUZDYK_LINE.match(line):
            named_tuzdyks = (named_tuzdyks or []) + _NAMED_TUZDYK.findall(line)
            continue
        if _COUNTS.match(line):
            named.update(
                (who.lower(), _count(k, number, raw)) for who, k in _NAMED_COUNT.findall(line)
            )
            continue
        turn, last = _TURN.search(line), _LAST.search(line)
        if turn or last:
            written_turn = Side(turn.group(1).lower()) if turn else written_turn
            last_move = last.group(1) if last else last_move
            continue
        tokens = line.split()
        if all(len(t) == 1 and t.isalpha() for t in tokens):
            _check_labels(tokens, rules, number, raw)
            continue
        count_rows.append((number, [_cell(t, number, raw, rules.tuzdyk) for t in tokens]))

    if len(count_rows) == 3 and len(count_rows[1][1]) == 2:
        store_line = count_rows[1]
        if TUZDYK in store_line[1]:
            raise PositionError(
                _("line {line} holds the stores; an X (a tuzdyk) stands in a row of pits").format(
                    line=store_line[0]
                )
            )
        pit_rows = [count_rows[0], count_rows[2]]
    else:
        store_line = None
        pit_rows = count_rows
    if len(pit_rows) != 2:
        raise PositionError(
            _(
                "found {rows} rows of counts, expected 2 (and optionally a stores line between "
                "them)."
            ).format(rows=len(pit_rows))
            + "\n"
            + _(BOARD_HELP)
        )
    for number, counts in pit_rows:
        if len(counts) != n:
            raise PositionError(
                # TRANSLATORS: {rules} is a ruleset's name (wari), {n} its pits in a row
                _("line {line} has {count} pits; {rules} has {n} a side.").format(
                    line=number, count=len(counts), rules=rules.name, n=n
                )
                + "\n"
                + _(BOARD_HELP)
            )
    top, bottom = pit_rows[0][1], pit_rows[1][1]
    mine, theirs = bottom, top[::-1]
    cells = mine + theirs if viewer == 0 else theirs + mine
    pits = tuple(max(c, 0) for c in cells)
    tuzdyks = _tuzdyks(rules, [i for i, c in enumerate(cells) if c == TUZDYK])
    if named_tuzdyks is not None:
        _check_named_tuzdyks(rules, tuzdyks, named_tuzdyks, side)

    if store_line is not None:
        left, right = store_line[1]
        written = [0, 0]
        written[1 - viewer], written[viewer] = left, right
        found: tuple[int, int] | None = (written[0], written[1])
    elif named:
        found = (named.get("south", 0), named.get("north", 0))
    else:
        found = None
    if found is not None and stores is not None and tuple(stores) != found:
        raise PositionError(
            _("the board says stores {found} (south, north) but {given} was given").format(
                found=found, given=tuple(stores)
            )
        )
    final_stores = found or (tuple(stores) if stores is not None else None)
    on_board = sum(pits)
    if final_stores is None:
        if on_board != rules.total_seeds:
            raise PositionError(
                # TRANSLATORS: keep 'Captured: North 10, South 14' as it is (the notation)
                _(
                    "the pits hold {seeds} seeds but {rules} is played with {total}; write the "
                    "captured counts or stores (e.g. 'Captured: North 10, South 14')."
                ).format(seeds=on_board, rules=rules.name, total=rules.total_seeds)
            )
        final_stores = (0, 0)
    if min(final_stores) < 0:
        raise PositionError(_("stores and captured counts cannot be negative"))
    if on_board + sum(final_stores) != rules.total_seeds:
        raise PositionError(
            _(
                "the seeds do not add up: {pits} in the pits and {stores} in the stores make "
                "{sum}, but {rules} is played with {total}."
            ).format(
                pits=on_board,
                stores=sum(final_stores),
                sum=on_board + sum(final_stores),
                rules=rules.name,
                total=rules.total_seeds,
            )
        )

    if to_move is not None and to_move not in SIDES:
        raise PositionError(_to_move_problem(to_move))
    if to_move and written_turn and to_move != written_turn:
        raise PositionError(
            # TRANSLATORS: {side} and {given} are South and North
            _("the board says {side} to move, not {given}").format(
                side=side_name(written_turn), given=side_name(to_move)
            )
        )
    mover = Side(to_move or written_turn or side).row
    if last_move is not None:
        last_move = from_perspective(last_move, side)
    if written_reason is None:
        return Position.settled(rules, pits + final_stores, mover, last_move, tuzdyks=tuzdyks)
    return _finished(rules, pits + final_stores, mover, last_move, written_reason, tuzdyks)


def _from_fen(
    text: str, rules: Ruleset, to_move: Side | str | None, stores: tuple[int, int] | None
) -> Position:
    """A PlayStrategy position string, checked against what the caller gives."""
    position = parse_fen(text, rules)
    if to_move is not None and to_move not in SIDES:
        raise PositionError(_to_move_problem(to_move))
    if to_move is not None and to_move != position.to_move:
        raise PositionError(
            # TRANSLATORS: {side} and {given} are South and North
            _("the position says {side} to move, not {given}").format(
                side=side_name(position.to_move), given=side_name(to_move)
            )
        )
    if stores is not None and tuple(stores) != position.stores:
        raise PositionError(
            _("the position says kazans {found} (south, north) but {given} was given").format(
                found=position.stores, given=tuple(stores)
            )
        )
    return position


def _to_move_problem(to_move: object) -> str:
    # TRANSLATORS: "south" and "north" are the values to_move takes: keep them
    return _("to_move must be south or north, not '{value}'").format(value=excerpt(to_move))


def _tuzdyks(rules: Ruleset, marked: list[int]) -> Tuzdyks:
    """The tuzdyks the X's at pits ``marked`` stand for: each belongs to the player facing
    the row it is in."""
    n = rules.pits
    owners = [1 - pit // n for pit in marked]
    if len(set(owners)) < len(owners):
        raise PositionError(_("a row holds two X's: each player makes at most one tuzdyk a game"))
    pair: list[int | None] = [None, None]
    for owner, pit in zip(owners, marked, strict=True):
        pair[owner] = pit
    tuzdyks = (pair[0], pair[1])
    problem = tuzdyk_problem(rules, tuzdyks)
    if problem is not None:
        raise PositionError(problem)
    return tuzdyks


def _check_named_tuzdyks(
    rules: Ruleset, tuzdyks: Tuzdyks, named: list[tuple[str, str]], side: Side
) -> None:
    """A 'Tuzdyks:' line, where written, must say what the X's do."""
    expected = {
        (SIDES[o], from_perspective(pit_letter(rules, p), side))
        for o, p in enumerate(tuzdyks)
        if p is not None
    }
    said = {(Side(who.lower()), letter) for who, letter in named}
    if said != expected:
        shown = tuzdyk_line(rules, tuzdyks, side) if tuzdyks != NO_TUZDYKS else _("no X")
        raise PositionError(
            _("the tuzdyks line does not match the board's X's (the board shows: {shown})").format(
                shown=shown
            )
        )


def _finished(
    rules: Ruleset,
    board: Board,
    mover: int,
    last_move: str | None,
    words: str,
    tuzdyks: Tuzdyks = NO_TUZDYKS,
) -> Position:
    """A board whose text says the game is over: as written, not settled again (the end rules
    may have left seeds in the pits, and who was to move is not shown), ended as the words
    say. Words we do not know are taken from the board itself, if it is over."""
    try:
        written = Outcome.from_words(words, (board[-2], board[-1]))
    except ValueError:
        settled = Position.settled(rules, board, mover, last_move, tuzdyks=tuzdyks)
        if not settled.is_over():
            raise PositionError(
                # TRANSLATORS: keep 'Game over (...)' and 'a row is empty' in English: they
                # quote the board's notation
                _(
                    "the board says 'Game over ({words})' but the game goes on; leave that line "
                    "out to read it as a game in play, or write why it ended (for example 'a "
                    "row is empty')."
                ).format(words=excerpt(words))
            ) from None
        return settled
    if written.by is not None:  # the side a termination names is the side left to move
        mover = written.by.row
    return Position(rules, board, mover, last_move, written.termination, (), tuzdyks)


def _cell(token: str, number: int, raw: str, tuzdyks: bool) -> int:
    """A pit as written: its count, or TUZDYK for an X where the ruleset has tuzdyks."""
    return TUZDYK if tuzdyks and token in ("X", "x") else _count(token, number, raw)


def _count(token: str, number: int, raw: str) -> int:
    if token == "-":
        return 0
    try:
        return whole_number(token, "a count", 0, MAX_COUNT)
    except ValueError:
        raise PositionError(
            _(
                "line {line} ('{text}'): '{token}' is not a count; a pit holds a whole number "
                "of seeds, 0 or more, or '-' when empty."
            ).format(line=number, text=excerpt(raw), token=excerpt(token, 12))
        ) from None


def _check_labels(tokens: list[str], rules: Ruleset, number: int, raw: str) -> None:
    letters = rules.letters
    if tokens not in (list(letters), list(letters[::-1].lower())):
        raise PositionError(
            _(
                "line {line} ('{text}') is not understood; label rows read {top} (top) and "
                "{bottom} (bottom)."
            ).format(
                line=number,
                text=excerpt(raw),
                top=" ".join(letters[::-1].lower()),
                bottom=" ".join(letters),
            )
        )
