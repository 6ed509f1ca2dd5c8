"""The language of a mail: the ``language`` command, the Content-Language of what the bot
sends, and the words of the game that every mail shares (the sides' names).

A player sets their language with ``language fr`` on a mail's first line (a code, a tag or
the language's name: ``language Deutsch``); ``language`` alone says the current setting and
lists the choices; ``language auto`` forgets it, and the mail's own Content-Language or its
quoted attribution line decide again. The keyword stays English in every language, as every
mail command does; its translations ``langue``, ``idioma``, ``Sprache``... are read too.

>>> read_language("Language fr"), read_language("langue: français"), read_language("language")
('fr', 'français', '')
>>> read_language("Move 7: C") is None, read_language("languages are fun to learn") is None
(True, True)
"""

from __future__ import annotations

import re
from email.message import EmailMessage

from bot.i18n import Language, _, current_language, pgettext
from bot.mail.mail_commands import first_line
from engine import Side

_LANGUAGE = re.compile(
    r"^\s*(?:language|lang|langue|idioma|língua|lingua|sprache|язык|тіл)\b[\s:=,.!]*"
    r"([^\s,.!]{1,40})?\s*[.!]?\s*$",
    re.I,
)


def read_language(text: str) -> str | None:
    """The language asked for on ``text``'s first line: '' for ``language`` alone (which
    asks what is set), None when the line is no language command."""
    found = _LANGUAGE.match(first_line(text))
    if found is None:
        return None
    return found.group(1) or ""


def choices() -> str:
    """The languages a player may choose, each by its code and its own name."""
    return ", ".join(f"{language.value} ({language.native_name})" for language in Language)


def language_words(chosen: Language | None) -> str:
    """What a player's setting is, in the current language, and how to change it."""
    if chosen is None:
        head = _(
            "You have not chosen a language: I answer in the language your mail says "
            "(Content-Language), else in the one your mail program quotes me in, else in "
            "English."
        )
    else:
        head = _("Your language: {language}.").format(language=chosen.native_name)
    # TRANSLATORS: 'language fr' and 'language auto' are commands: keep them in English.
    tail = _(
        "To change it, write 'language' and a code on the first line of a mail, like "
        "'language fr'; 'language auto' forgets it. The languages: {choices}."
    ).format(choices=choices())
    return f"{head}\n{tail}"


def side_words(side: Side | str) -> str:
    """A side as a sentence names it ("You play South"), in the current language; the
    board's own "South to move" line is notation and stays as it is."""
    return pgettext("side", "South") if side == Side.SOUTH else pgettext("side", "North")


def mark_language(message: EmailMessage) -> EmailMessage:
    """Say in ``message``'s Content-Language header which language it is written in (the
    current one), unless it says already."""
    if "Content-Language" not in message:
        message["Content-Language"] = current_language().value
    return message


__all__ = ["choices", "language_words", "mark_language", "read_language", "side_words"]
