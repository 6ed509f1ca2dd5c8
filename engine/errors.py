"""Exceptions of the engine, and the one way any message quotes what a user wrote.

Each message is fit to show a user as it is: it says what was wrong and what is accepted, and
quotes at most a short, sanitised excerpt of the input (``excerpt``).
"""

from __future__ import annotations

import unicodedata

EXCERPT_CHARS = 40  # what a message quotes of the input at most


class MancalaError(ValueError):
    """Base of every error the engine raises on bad input."""


class RulesetError(MancalaError):
    """A ruleset string or parameter is malformed, unknown, out of range or contradictory."""


class IllegalMove(MancalaError):
    """A move that the rules do not allow in this position; the message says why."""


class PositionError(MancalaError):
    """A written position could not be read; the message names the line and what is accepted."""


def excerpt(text: object, limit: int = EXCERPT_CHARS) -> str:
    """A short, printable excerpt of user input, safe to quote in any message.

    Control characters (line breaks, NULs, escapes, bidi overrides) become spaces, runs of
    white space one space, and the text is cut to ``limit`` characters with an ellipsis.

    >>> excerpt("E\\x00\\x1b[31m  d")
    'E [31m d'
    >>> excerpt("9" * 5000, limit=12)
    '99999999999…'
    """
    text = text if isinstance(text, str) else repr(text)
    text = text[: limit * 4]  # bound the work before looking at each character
    cleaned = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text)
    cleaned = " ".join(cleaned.split())
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"
