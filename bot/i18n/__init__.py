"""The languages the bot speaks: which one a request is answered in, and its messages.

- ``languages``: ``Language`` (en, fr, pt, es, de, ru, kk) and ``choose``, which picks one
  from a player's setting and what a surface knows (a Discord locale, a mail's
  Content-Language or attribution line, LANG).
- ``catalogs``: the gettext catalogs in ``bot/locale``, one domain per part of the code.
- ``update``: ``python -m bot.i18n.update`` extracts the messages and updates the catalogs.

Every user-facing string is written in English and marked: ``_("...")``, ``ngettext`` for
plurals, ``pgettext`` for a context, ``N_`` where a string is defined before it is shown.
Each surface answers a request inside ``speaking(language)``; what it formats there comes
out in that language. The notation (pit letters, the 003 board, the ``Rules:`` and
``Move:`` lines) is never translated, so a quoted board reads back in any language.

>>> from bot.i18n import Language, _, current_language, speaking
>>> with speaking(Language.DE):
...     current_language(), _("'{text}' is not a language I speak; choose one of: {accepted}, or auto")
(<Language.DE: 'de'>, '„{text}“ ist keine Sprache, die ich spreche; wähle eine davon: {accepted} oder auto')
>>> current_language()
<Language.EN: 'en'>
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from bot.i18n.catalogs import translations
from bot.i18n.languages import Language, choose
from engine import translation as _engine_translation

__all__ = [
    "Language",
    "N_",
    "_",
    "choose",
    "current_language",
    "ngettext",
    "pgettext",
    "speaking",
]

# The language of the request being answered: set by each surface around its reply. A
# context variable, so concurrent requests (asyncio tasks) each keep their own.
_language: ContextVar[Language] = ContextVar("language", default=Language.EN)


def current_language() -> Language:
    """The language messages are being written in now."""
    return _language.get()


@contextmanager
def speaking(language: Language) -> Iterator[Language]:
    """Write every message inside the block in ``language``."""
    token = _language.set(language)
    try:
        yield language
    finally:
        _language.reset(token)


def _(message: str) -> str:
    """``message`` in the current language (its English text where it has no translation)."""
    return translations(_language.get()).gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined; ``_`` translates it when shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, by the current language's plural rule."""
    return translations(_language.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, as meant in ``context`` (``"command"``...)."""
    return translations(_language.get()).pgettext(context, message)


def in_language(language: Language, message: str) -> str:
    """``message`` in ``language``, whatever the current one (a Discord command's name)."""
    return translations(language).gettext(message)


_engine_translation.install(_)
