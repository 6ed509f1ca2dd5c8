"""The message catalogs: gettext ``.po`` files in ``bot/locale``, read once per language.

Each part of the code has its own domain, so the catalogs of one part change without
touching the others': ``engine`` (rules, positions, moves, and storage's few messages),
``service`` (the game service), ``discord``, ``mail``, ``web`` and ``terminal`` (the terminal, the CLI and the
pictures' words). ``bot/locale/<domain>.pot`` lists a domain's English messages (made by
``python -m bot.i18n.update``); ``bot/locale/<lang>/LC_MESSAGES/<domain>.po`` translates
them.

The ``.po`` files are compiled in memory with Babel when a language is first used (a few
milliseconds), so a checkout runs as it is, with no build step and no stale ``.mo`` file.
A message with no translation, or a fuzzy one, falls back to its English text.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.i18n.languages import Language

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

# Which source folders each domain's messages are extracted from (relative to the project).
DOMAINS: dict[str, tuple[str, ...]] = {
    "engine": ("engine", "storage"),
    "service": ("bot/service",),
    "discord": ("bot/discord",),
    "mail": ("bot/mail",),
    "web": ("bot/web",),
    "terminal": (
        "bot/terminal",
        "bot/commands",
        "bot/playstrategy",
        "bot/render",
        "bot/cli.py",
        "bot/cli_args.py",
        "bot/config.py",
        "bot/progress.py",
    ),
}

# The marker functions an extractor looks for: ``_`` and ``N_`` (a message marked where it is
# defined and translated where it is shown), ``ngettext`` for plurals, ``pgettext`` for a
# message with a context (a Discord command name is not the same word as a sentence).
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def po_path(language: Language, domain: str) -> Path:
    """Where ``language``'s catalog of ``domain`` lives."""
    return LOCALE_DIR / language.value / "LC_MESSAGES" / f"{domain}.po"


@cache
def translations(language: Language) -> gettext.NullTranslations:
    """Every domain's messages in ``language``, as one gettext catalog (English: none)."""
    merged: gettext.NullTranslations = gettext.NullTranslations()
    if language is Language.EN:
        return merged
    for domain in DOMAINS:
        path = po_path(language, domain)
        if not path.exists():
            continue
        with path.open("rb") as source:
            catalog = read_po(source, locale=language.value, domain=domain)
        compiled = io.BytesIO()
        write_mo(compiled, catalog)  # leaves out untranslated and fuzzy messages
        compiled.seek(0)
        domain_translations = gettext.GNUTranslations(compiled)
        domain_translations.add_fallback(merged)
        merged = domain_translations
    return merged
