"""The languages the bot speaks, and how a language tag from anywhere maps onto one.

A tag comes from a player's setting, Discord's locale (``pt-BR``), a mail's
Content-Language (``fr, en``), the terminal's LANG (``de_DE.UTF-8``) or a name a player
wrote (``français``). Unknown tags map to nothing, so the next hint is tried.

>>> Language.from_tag("pt-BR"), Language.from_tag("de_DE.UTF-8"), Language.from_tag("it")
(<Language.PT: 'pt'>, <Language.DE: 'de'>, None)
>>> choose(None, "it", "fr-CA")
<Language.FR: 'fr'>
"""

from __future__ import annotations

import re
from enum import StrEnum


class Language(StrEnum):
    """A language with a complete catalog. The value is its ISO 639-1 code."""

    EN = "en"
    FR = "fr"
    PT = "pt"
    ES = "es"
    DE = "de"
    RU = "ru"
    KK = "kk"

    @property
    def native_name(self) -> str:
        """The language's name in itself, as a menu shows it."""
        return _NATIVE_NAMES[self]

    @classmethod
    def from_tag(cls, tag: str | None) -> Language | None:
        """The language of a BCP 47 or POSIX tag, a code or a name; None when it is none of ours.
        A list (``"fr, en"``, as Content-Language may be) gives its first known language."""
        if not tag:
            return None
        for part in str(tag).split(","):
            word = part.strip().lower()
            if word in _NAMES:
                return _NAMES[word]
            code = re.split(r"[-_.@;]", word, maxsplit=1)[0]
            if code in _CODES:
                return _CODES[code]
        return None


_NATIVE_NAMES = {
    Language.EN: "English",
    Language.FR: "Français",
    Language.PT: "Português",
    Language.ES: "Español",
    Language.DE: "Deutsch",
    Language.RU: "Русский",
    Language.KK: "Қазақша",
}

_CODES = {language.value: language for language in Language} | {
    "eng": Language.EN,
    "fra": Language.FR,
    "fre": Language.FR,
    "por": Language.PT,
    "spa": Language.ES,
    "deu": Language.DE,
    "ger": Language.DE,
    "rus": Language.RU,
    "kaz": Language.KK,
}

# Names a player may write, in English and in the language itself.
_NAMES = {name.lower(): language for language, name in _NATIVE_NAMES.items()} | {
    "english": Language.EN,
    "french": Language.FR,
    "francais": Language.FR,
    "portuguese": Language.PT,
    "portugues": Language.PT,
    "spanish": Language.ES,
    "espanol": Language.ES,
    "castellano": Language.ES,
    "german": Language.DE,
    "russian": Language.RU,
    "kazakh": Language.KK,
    "қазақ": Language.KK,
    "kazakhsha": Language.KK,
}


def choose(setting: Language | str | None, *hints: Language | str | None) -> Language:
    """The language to speak: the player's own ``setting``, else the first of ``hints`` that
    is one of ours (most specific first), else English."""
    for candidate in (setting, *hints):
        if isinstance(candidate, Language):
            return candidate
        found = Language.from_tag(candidate)
        if found is not None:
            return found
    return Language.EN
