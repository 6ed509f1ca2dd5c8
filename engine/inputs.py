"""How the engine reads what people type: normalised, bounded, then converted.

Every text a user writes (a ruleset, a move, a position) passes ``normalise`` first: Unicode
compatibility forms become their plain letters and digits (full-width ``Ｅ``, superscript
``¹``, circled ``①``), the dashes word processors put in place of a hyphen become ``-``, and
the length is bounded before any other work. Numbers pass ``whole_number``, which looks at
the digits before converting them, so a 5,000-digit count is a range error, not a crash.

>>> normalise("４ – ①")
'4 - 1'
>>> whole_number("¹²", "seeds", 1, 12)
12
>>> whole_number("9" * 5000, "seeds", 1, 12)
Traceback (most recent call last):
...
ValueError: seeds is a whole number from 1 to 12, not '999999999999999999999999999999999999999…'
"""

from __future__ import annotations

import re
import unicodedata

from engine.errors import excerpt
from engine.translation import _

MAX_DIGITS = 6  # no count, option or ply anyone types has more (a board holds at most 1,536)
# The hyphen's look-alikes: hyphen, non-breaking hyphen, figure dash, en dash, em dash,
# horizontal bar, minus sign, small em dash, small and full-width hyphen-minus. The one table
# of them: the mail reader (bot.mail.reading) reads its dashes from here too.
DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_DASHES = str.maketrans(dict.fromkeys(DASHES, "-"))
_DIGITS = re.compile(r"[0-9]+")


class TooLong(ValueError):
    """A text longer than its bound; the message says what the bound is."""


def normalise(text: str, limit: int | None = None, what: str | None = None) -> str:
    """``text`` in NFKC form with dashes made plain; TooLong past ``limit`` characters
    (checked before and after normalising, which can lengthen a text). ``what`` names the
    text in TooLong's message, in the current language ("the text" by default)."""
    if limit is not None and len(text) > limit:
        raise _too_long(what, len(text), limit)
    text = unicodedata.normalize("NFKC", text).translate(_DASHES)
    if limit is not None and len(text) > limit:
        raise _too_long(what, len(text), limit)
    return text


def _too_long(what: str | None, length: int, limit: int) -> TooLong:
    # TRANSLATORS: {what} names the text: "a ruleset", "the position", "the argument"...
    message = _("{what} is too long ({length:,} characters; at most {limit:,})")
    return TooLong(message.format(what=what or _("the text"), length=length, limit=limit))


def whole_number(text: str, what: str, lo: int, hi: int) -> int:
    """``text`` as a whole number from ``lo`` to ``hi``; ValueError saying so otherwise.

    Digits in any compatible form are read (``①`` is 1); at most MAX_DIGITS of them (leading
    zeros aside) are converted, so the work and the message stay small whatever was typed."""
    if len(text) <= 4 * MAX_DIGITS:
        digits = normalise(text).strip()
        if _DIGITS.fullmatch(digits) and len(digits.lstrip("0")) <= MAX_DIGITS:
            value = int(digits)
            if lo <= value <= hi:
                return value
    raise ValueError(f"{what} is a whole number from {lo} to {hi}, not '{excerpt(text)}'")
