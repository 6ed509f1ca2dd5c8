"""The words every surface shows around the notation, in the current language: a side in
prose, a move's class (a review's "blunder"), a puzzle's grade.

The notation itself (pit letters, the 003 board, ruleset names) never goes through here.

>>> side_name("north"), move_class("blunder"), class_count("mistake", 2), grade_word("hard")
('North', 'blunder', '2 mistakes', 'hard')
"""

from __future__ import annotations

from bot.i18n import N_, _, ngettext, pgettext
from engine import Side
from engine.review import MoveClass

GRADES = {
    # TRANSLATORS: a puzzle's grade
    "easy": N_("easy"),
    # TRANSLATORS: a puzzle's grade
    "medium": N_("medium"),
    # TRANSLATORS: a puzzle's grade
    "hard": N_("hard"),
}


def side_name(side: Side | str) -> str:
    """A side as a sentence names it: "South" or "North"."""
    if Side(side) is Side.NORTH:
        return pgettext("side", "North")
    return pgettext("side", "South")


def move_class(kind: MoveClass | str) -> str:
    """A move's class as a word: "blunder"."""
    kind = MoveClass(kind)
    if kind is MoveClass.BEST:
        # TRANSLATORS: a move's class in a review: it kept the best value
        return pgettext("move class", "best")
    if kind is MoveClass.GOOD:
        # TRANSLATORS: a move's class in a review: it gave away a seed or two of margin
        return pgettext("move class", "good")
    if kind is MoveClass.INACCURACY:
        # TRANSLATORS: a move's class in a review: a small error
        return pgettext("move class", "inaccuracy")
    if kind is MoveClass.MISTAKE:
        # TRANSLATORS: a move's class in a review: an error
        return pgettext("move class", "mistake")
    # TRANSLATORS: a move's class in a review: a grave error, one that changes the result
    return pgettext("move class", "blunder")


def class_count(kind: MoveClass | str, count: int) -> str:
    """A number of moves of one class: "1 blunder", "2 mistakes"."""
    kind = MoveClass(kind)
    if kind is MoveClass.BEST:
        text = ngettext("{n} best move", "{n} best moves", count)
    elif kind is MoveClass.GOOD:
        text = ngettext("{n} good move", "{n} good moves", count)
    elif kind is MoveClass.INACCURACY:
        text = ngettext("{n} inaccuracy", "{n} inaccuracies", count)
    elif kind is MoveClass.MISTAKE:
        text = ngettext("{n} mistake", "{n} mistakes", count)
    else:
        text = ngettext("{n} blunder", "{n} blunders", count)
    return text.format(n=count)


def grade_word(grade: str) -> str:
    """A puzzle's grade as a word: "easy"."""
    return _(GRADES[grade]) if grade in GRADES else grade
