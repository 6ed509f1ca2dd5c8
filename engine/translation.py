"""Where the engine's messages meet a translation, without the engine knowing any language.

The engine writes its messages in English and passes each through ``_`` before filling it
in, so an extractor finds them and an application can install a translator (``bot.i18n``
does, per request). Without one, ``_`` returns the English text.

>>> from engine.translation import N_, _
>>> _("pit {pit} is empty").format(pit="c")
'pit c is empty'
"""

from __future__ import annotations

from collections.abc import Callable


def _identity(message: str) -> str:
    return message


_translate: Callable[[str], str] = _identity


def _(message: str) -> str:
    """``message`` in the installed translator's current language (English by default)."""
    return _translate(message)


def pgettext(context: str, message: str) -> str:
    """``message`` as meant in ``context`` (a word alone, "hard" as a puzzle's grade), in the
    current language. The installed translator finds it under gettext's key for a message
    with a context; without a translation, the English ``message``.

    >>> pgettext("puzzle grade", "hard")
    'hard'
    """
    key = f"{context}\x04{message}"
    translated = _translate(key)
    return message if translated == key else translated


def N_(message: str) -> str:
    """Mark ``message`` (a rule's description, say) for extraction where it is defined; the
    code that shows it translates it then, with ``_``."""
    return message


def install(translate: Callable[[str], str] | None) -> None:
    """Make ``translate`` the translator of every engine message (``None``: English again)."""
    global _translate
    _translate = translate or _identity


def side_name(side: str) -> str:
    """A side's name in prose, in the current language: "South" or "North" in English.

    >>> side_name("north")
    'North'
    """
    # TRANSLATORS: a side of the board (the player who sits there), as a word in a sentence
    return pgettext("side", "North") if side == "north" else pgettext("side", "South")
