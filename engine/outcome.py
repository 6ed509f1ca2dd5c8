"""How a game ended, as data: a ``Termination`` and the ``Outcome`` built on it.

The words are for display only; code compares terminations, and storage keeps
``Termination.value``. ``Outcome.reason`` and ``result_lines`` speak the current language;
``Outcome.words`` and ``result_lines(..., notation=True)`` are English always, as a written
board carries them (``engine.notation`` reads them back) and as storage keeps them.

>>> out = Outcome(Termination.ROW_EMPTY, (26, 22), "south")
>>> result_lines(out)
['Game over (a row is empty).', 'South 26, North 22: South wins.']
>>> result_lines(Outcome(Termination.RESIGNATION, (0, 5), "north", by="south", ply=12))
['Game over (South resigned at move 12).', 'North wins.']
>>> Outcome.from_words("south has no move", (20, 28))[:4]
(<Termination.NO_MOVE: 'no_move'>, (20, 28), <Side.NORTH: 'north'>, <Side.SOUTH: 'south'>)
"""

from __future__ import annotations

import enum
import re
from typing import Literal, NamedTuple

from engine.errors import excerpt
from engine.side import SIDES, Side
from engine.translation import N_, _, side_name

Winner = Side | Literal["draw"]  # who won: a side, or "draw"


class Termination(enum.Enum):
    """Why a game ended. The value is what storage keeps; never reworded."""

    ROW_EMPTY = "row_empty"  # a row is empty after a move (end=either_empty)
    ALL_EMPTY = "all_empty"  # every play pit is empty (end=all_empty)
    NO_MOVE = "no_move"  # the player to move has no move (``by``)
    CANNOT_FEED = "cannot_feed"  # the mover (``by``) cannot give the opponent seeds
    MAJORITY = "majority"  # a player holds more than half of the seeds
    GRAND_SLAM = "grand_slam"  # a move took all the opponent's seeds under take_all
    REPETITION = "repetition"  # a position came back: scored by the ruleset's cycle policy
    AGREED_END = "agreed_end"  # both agreed to stop: scored like a repetition
    AGREED_DRAW = "agreed_draw"  # both agreed to a draw, whatever the counts
    RESIGNATION = "resignation"  # ``by`` resigned
    TIME = "time"  # ``by`` ran out of time

    @property
    def by_the_board(self) -> bool:
        """Whether the counts decide the winner (not so for a resignation, time or a draw
        agreed, nor for a repetition under cycle=draw, which the ruleset decides)."""
        return self not in (Termination.RESIGNATION, Termination.TIME, Termination.AGREED_DRAW)


# The words of each termination; "{side}" is the side concerned (South or North). Marked
# with N_: ``Outcome.reason`` translates them, ``Outcome.words`` keeps them English.
_WORDS = {
    # TRANSLATORS: why a game ended, shown as "Game over (a row is empty)."
    Termination.ROW_EMPTY: N_("a row is empty"),
    # TRANSLATORS: why a game ended
    Termination.ALL_EMPTY: N_("every pit is empty"),
    # TRANSLATORS: why a game ended; {side} is South or North
    Termination.NO_MOVE: N_("{side} has no move"),
    # TRANSLATORS: why a game ended: {side} (South or North) cannot give the opponent seeds
    Termination.CANNOT_FEED: N_("{side} cannot feed"),
    # TRANSLATORS: why a game ended: a player holds more than half of all the seeds
    Termination.MAJORITY: N_("more than half the seeds"),
    # TRANSLATORS: why a game ended: a move captured all the opponent's seeds
    Termination.GRAND_SLAM: N_("grand slam"),
    # TRANSLATORS: why a game ended
    Termination.REPETITION: N_("a position repeated"),
    # TRANSLATORS: why a game ended: both players agreed to stop (it scores as a repetition)
    Termination.AGREED_END: N_("agreed end"),
    # TRANSLATORS: why a game ended
    Termination.AGREED_DRAW: N_("draw agreed"),
    # TRANSLATORS: why a game ended; {side} is South or North
    Termination.RESIGNATION: N_("{side} resigned"),
    # TRANSLATORS: why a game ended; {side} is South or North
    Termination.TIME: N_("{side} ran out of time"),
}
# TRANSLATORS: {reason} is why a game ended ("South resigned"), {ply} a move number
_AT_MOVE = N_("{reason} at move {ply}")
_SIDE = "(?P<by>south|north)"
_PATTERNS = [
    (
        term,
        re.compile(
            "^"
            + re.escape(words).replace(r"\{side\}", _SIDE)
            + r"(?: at move (?P<ply>[0-9]{1,6}))?$",
            re.I,
        ),
    )
    for term, words in [*_WORDS.items(), (Termination.CANNOT_FEED, "the mover cannot feed")]
]  # the last: how games stored before the side was named say it
# The lines under a finished board (see ``result_lines``).
# TRANSLATORS: the first line under a finished board; {reason} says why it ended
_GAME_OVER = N_("Game over ({reason}).")
# TRANSLATORS: the final totals; {winner} is a side (South, North) or a player's name
_TOTALS_WIN = N_("South {south}, North {north}: {winner} wins.")
# TRANSLATORS: the final totals of a drawn game
_TOTALS_DRAW = N_("South {south}, North {north}: a draw.")
# TRANSLATORS: {winner} is a side (South, North) or a player's name
_WIN = N_("{winner} wins.")
_DRAW = N_("A draw.")


def _english(text: str) -> str:
    return text


class Outcome(NamedTuple):
    """The end of a game: why, the final (south, north) totals, and the winner (a ``Side``
    or "draw"). ``by`` is the side a termination names (who resigned, who had no move);
    ``ply`` the move number where a resignation or time loss came. ``of`` builds one from
    plain strings (as storage keeps them), checking and converting them."""

    termination: Termination
    score: tuple[int, int]
    winner: Winner
    by: Side | None = None
    ply: int | None = None

    @property
    def words(self) -> str:
        """Why it ended, in English words: "a row is empty", "South resigned at move 12", as
        storage keeps them and a written board says them (``from_words`` reads them back)."""
        return self._said(notation=True)

    @property
    def reason(self) -> str:
        """Why it ended, in the current language: the words to show a player."""
        return self._said(notation=False)

    def _said(self, notation: bool) -> str:
        translate = _english if notation else _
        side = "?" if self.by is None else self.by.title() if notation else side_name(self.by)
        text = translate(_WORDS[self.termination]).format(side=side)
        if self.ply and not self.termination.by_the_board:
            text = translate(_AT_MOVE).format(reason=text, ply=self.ply)
        return text

    @classmethod
    def from_words(
        cls, words: str, score: tuple[int, int], winner: str | None = None, cycle: str | None = None
    ) -> Outcome:
        """The outcome ``words`` describe (as ``words`` writes them); ValueError if none.
        The winner follows from the score unless given, or unless ``cycle`` is "draw" and
        the game ended by repetition or agreement."""
        for term, pattern in _PATTERNS:
            match = pattern.match(words.strip())
            if match:
                by = match.groupdict().get("by")
                ply = match.groupdict().get("ply")
                return cls.of(
                    term,
                    score,
                    by=by.lower() if by else None,
                    ply=int(ply) if ply else None,
                    winner=winner,
                    cycle=cycle,
                )
        raise ValueError(f"'{words[:60]}' is not a way a game ends")

    @classmethod
    def of(
        cls,
        termination: Termination,
        score: tuple[int, int],
        by: str | None = None,
        ply: int | None = None,
        winner: str | None = None,
        cycle: str | None = None,
    ) -> Outcome:
        """An outcome whose winner follows from the termination and the score where it can:
        the side ``by`` loses by resignation or time; a draw agreed, or a repetition or agreed
        end under ``cycle="draw"``, is a draw; otherwise the higher total wins."""
        side = None if by is None else _side(by, "by")
        won: Winner
        if winner is not None:
            won = "draw" if winner == "draw" else _side(winner, "winner")
        elif termination in (Termination.RESIGNATION, Termination.TIME) and side is not None:
            won = side.other
        elif termination is Termination.AGREED_DRAW or (
            cycle == "draw" and termination in (Termination.REPETITION, Termination.AGREED_END)
        ):
            won = "draw"
        else:
            won = higher_total(score)
        south, north = score
        return cls(termination, (south, north), won, side, ply)


def _side(value: str, what: str) -> Side:
    if value not in SIDES:
        raise ValueError(f"{what} must be south or north, not '{excerpt(value)}'")
    return Side(value)


def higher_total(score: tuple[int, int]) -> Winner:
    south, north = score
    return Side.SOUTH if south > north else Side.NORTH if north > south else "draw"


def result_lines(
    outcome: Outcome, names: dict[str, str] | None = None, notation: bool = False
) -> list[str]:
    """The two lines every surface shows under a finished board: why, and who won (with the
    totals where the counts decide it), in the current language. ``names`` may name the
    sides ("Ann (South)"). ``notation``: the lines as a written board carries them, English
    always (``engine.notation`` reads them back).

    >>> result_lines(Outcome.of(Termination.AGREED_DRAW, (20, 28)))[1]
    'A draw.'
    """
    translate = _english if notation else _
    winner = outcome.winner
    south, north = outcome.score
    by_the_board = outcome.termination.by_the_board
    if winner == "draw":
        result = translate(_TOTALS_DRAW if by_the_board else _DRAW).format(south=south, north=north)
    else:
        shown = (names or {}).get(winner) or (winner.title() if notation else side_name(winner))
        template = translate(_TOTALS_WIN if by_the_board else _WIN)
        result = template.format(winner=shown, south=south, north=north)
    return [translate(_GAME_OVER).format(reason=outcome._said(notation)), result]
