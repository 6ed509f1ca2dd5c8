"""PlayStrategy's position strings (its FEN) for Togyz Kumalak, Bestemshe and Oware, read and
written, so that a player can bring a position from there and take one back.

The format is PlayStrategy's (Mind-Sports-Games/strategygames: ``togyzkumalak/format/FEN.scala``
reads it, ``Forsyth.scala`` writes it)::

    <North's row>/<South's row> <South's kazan> <North's kazan> <S|N> <move number>

Each row is written left to right as South sees the board (North's ``i`` to ``a``, South's
``A`` to ``I``), its pits joined by commas: ``<count>S`` for a pit of stones, ``t`` for a
tuzdyk (it belongs to the player facing that row), and a digit 1 to 9 for that many empty pits
side by side. ``S`` or ``N`` is the player to move; the move number counts full moves from 1 and
goes up after each of North's moves. PlayStrategy also writes ``_`` for the spaces in links.

Oware's is the same string on 6 pits a row (``samurai/format/FEN.scala``), its two counts the
seeds each player captured; once a game is over PlayStrategy adds the seeds left in each row to
its owner's count, and the reader takes them back off (the board shows where they lie).

>>> from engine import Game
>>> game = Game.from_moves("togyz-kumalak", "F f I h B d")
>>> game_fen(game)
'13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4'
>>> parse_fen(game_fen(game)) == game.position
True
"""

from __future__ import annotations

import re

from engine.errors import PositionError, excerpt
from engine.game import Game
from engine.inputs import TooLong, normalise, whole_number
from engine.position import Position, tuzdyk_problem
from engine.ruleset import Ruleset
from engine.translation import N_, _

MAX_FEN = 400  # characters: a 9-pit FEN is about 70
MAX_COUNT = 99_999  # as engine.notation's: past it a count is a typing error
_FEN = re.compile(r"^\s*[0-9SsTt,]+/[0-9SsTt,]+[\s_]+\d+[\s_]+\d+[\s_]+[SsNn](?:[\s_]+\d+)?\s*$")
_STONES = re.compile(r"^([0-9]{1,5})[Ss]$")
_WIDTHS = {9: "togyz-kumalak", 6: "oware", 5: "bestemshe"}  # PlayStrategy's boards
# Marked with N_: shown as _(FEN_HELP).
# TRANSLATORS: keep <S|N>, the example and the letters S, N, t as they are (the notation);
# the words in <...> may be translated
FEN_HELP = N_(
    "a PlayStrategy position reads <North's row>/<South's row> <South's kazan> "
    "<North's kazan> <S|N> <move number>, each row left to right as South sees it, e.g. "
    "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"
)


def looks_like_fen(text: str) -> bool:
    """Whether ``text`` is written as a PlayStrategy position string rather than a board."""
    return len(text) <= MAX_FEN and _FEN.match(text) is not None


def fen(position: Position, move_number: int = 1) -> str:
    """``position`` as PlayStrategy writes it; ``move_number`` is its full-move count (a
    position does not know how it was reached: ``game_fen`` counts a game's)."""
    rules = position.rules
    n = rules.pits
    cells = [
        "t" if i in position.tuzdyks else f"{c}S" if c else "" for i, c in enumerate(position.pits)
    ]
    rows = [_row(cells[n:][::-1]), _row(cells[:n])]
    south, north = position.stores
    mover = "S" if position.mover == 0 else "N"
    return f"{rows[0]}/{rows[1]} {south} {north} {mover} {move_number}"


def game_fen(game: Game) -> str:
    """The position of ``game`` as PlayStrategy writes it, counting its moves from the start."""
    played_by_north = sum(p.mover == 1 for p in game.positions[:-1])
    return fen(game.position, 1 + played_by_north)


def _row(cells: list[str]) -> str:
    out: list[str] = []
    empty = 0
    for cell in cells:
        if not cell:
            empty += 1
            continue
        if empty:
            out.append(str(empty))
            empty = 0
        out.append(cell)
    if empty:
        out.append(str(empty))
    return ",".join(out)


def parse_fen(text: str, rules: Ruleset | str | None = None) -> Position:
    """Read a PlayStrategy position string: for ``rules`` if given, else for the ruleset its
    board's width names (9 pits: togyz-kumalak; 5: bestemshe). PositionError says what is
    wrong."""
    try:
        text = normalise(text, MAX_FEN, _("a PlayStrategy position"))
    except TooLong as err:
        raise PositionError(f"{err}; {_(FEN_HELP)}") from None
    fields = text.replace("_", " ").split()
    if len(fields) not in (4, 5) or fields[0].count("/") != 1:
        raise PositionError(
            _("'{text}' is not a position string; {help}").format(
                text=excerpt(text), help=_(FEN_HELP)
            )
        )
    top_text, bottom_text = fields[0].split("/")
    top, bottom = _cells(top_text), _cells(bottom_text)
    if len(top) != len(bottom):
        raise PositionError(
            _("the rows have {top} and {bottom} pits; {help}").format(
                top=len(top), bottom=len(bottom), help=_(FEN_HELP)
            )
        )
    if rules is None:
        if len(top) not in _WIDTHS:
            raise PositionError(
                _("PlayStrategy's boards have 9, 6 or 5 pits a row, not {count}; {help}").format(
                    count=len(top), help=_(FEN_HELP)
                )
            )
        rules = _WIDTHS[len(top)]
    if isinstance(rules, str):
        rules = Ruleset.parse(rules)
    n = rules.pits
    if len(top) != n:
        raise PositionError(
            # TRANSLATORS: {rules} is a ruleset's name (togyz-kumalak), {n} its pits in a row
            _("the rows have {count} pits; {rules} has {n} a side").format(
                count=len(top), rules=rules.name, n=n
            )
        )
    cells = bottom + top[::-1]  # South's A..I, then North's a..i
    pits = tuple(max(c, 0) for c in cells)
    tuzdyks = _tuzdyks(rules, cells)
    try:
        kazans = (
            whole_number(fields[1], "a kazan", 0, MAX_COUNT),
            whole_number(fields[2], "a kazan", 0, MAX_COUNT),
        )
    except ValueError:
        raise PositionError(
            _("the kazans '{south} {north}' are not counts").format(
                south=excerpt(fields[1], 8), north=excerpt(fields[2], 8)
            )
        ) from None
    south_row: int = sum(pits[:n])
    north_row: int = sum(pits[n:])
    if rules.name == "oware" and sum(kazans) == rules.total_seeds and south_row + north_row:
        # a finished Oware game: PlayStrategy counted each row into its owner's score
        kazans = (kazans[0] - south_row, kazans[1] - north_row)
    if sum(pits) + sum(kazans) != rules.total_seeds or min(kazans) < 0:
        raise PositionError(
            _(
                "the stones do not add up: {pits} in the pits and {kazans} in the kazans, but "
                "{rules} is played with {total}"
            ).format(pits=sum(pits), kazans=sum(kazans), rules=rules.name, total=rules.total_seeds)
        )
    mover = {"S": 0, "N": 1}.get(fields[3].upper())
    if mover is None:
        raise PositionError(
            # TRANSLATORS: S and N are the letters of the position string: keep them
            _("the player to move is S or N, not '{text}'").format(text=excerpt(fields[3], 8))
        )
    return Position.settled(rules, pits + kazans, mover, tuzdyks=tuzdyks)


def _cells(row: str) -> list[int]:
    """A row's pits: counts, -1 for a tuzdyk."""
    cells: list[int] = []
    for token in row.rstrip(",").split(","):
        stones = _STONES.match(token)
        if stones:
            cells.append(int(stones.group(1)))
        elif token in ("t", "T"):
            cells.append(-1)
        elif len(token) == 1 and token in "123456789":
            cells += [0] * int(token)
        else:
            raise PositionError(
                # TRANSLATORS: keep S and t as they are (the notation); "count" in <count>S may be translated
                _(
                    "'{token}' is not a pit: write <count>S for stones, t for a tuzdyk, or a "
                    "digit for that many empty pits"
                ).format(token=excerpt(token, 12))
            )
    return cells


def _tuzdyks(rules: Ruleset, cells: list[int]) -> tuple[int | None, int | None]:
    n = rules.pits
    pair: list[int | None] = [None, None]
    for pit, cell in enumerate(cells):
        if cell >= 0:
            continue
        owner = 1 - pit // n  # the player facing that row
        if pair[owner] is not None:
            raise PositionError(_("a row holds two tuzdyks: each player makes at most one a game"))
        pair[owner] = pit
    tuzdyks = (pair[0], pair[1])
    problem = tuzdyk_problem(rules, tuzdyks)
    if problem is not None:
        raise PositionError(problem)
    return tuzdyks
