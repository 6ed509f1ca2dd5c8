"""Extract the marked messages and bring every catalog up to date: run after changing text.

    python -m bot.i18n.update            # every domain
    python -m bot.i18n.update mail       # one

For each domain of ``catalogs.DOMAINS`` it writes ``bot/locale/<domain>.pot`` (the English
messages, with where each is used) and updates ``<lang>/LC_MESSAGES/<domain>.po`` for every
language: new messages arrive untranslated, removed ones are dropped, translations stay.
No fuzzy guessing: a changed message is untranslated until someone translates it, and the
completeness test (``tests/test_i18n.py``) says which.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from bot.i18n.catalogs import DOMAINS, KEYWORDS, LOCALE_DIR, po_path
from bot.i18n.languages import Language

ROOT = LOCALE_DIR.parent.parent  # the project's root
COMMENT_TAGS = ["TRANSLATORS:"]
_FIXED_DATE = datetime(2026, 11, 26, tzinfo=UTC)


def source_files(domain: str) -> list[Path]:
    """The Python files whose messages belong to ``domain``."""
    files: list[Path] = []
    for entry in DOMAINS[domain]:
        path = ROOT / entry
        files.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return files


def template(domain: str) -> Catalog:
    """The English messages of ``domain``, as extracted from its source files."""
    catalog = Catalog(
        domain=domain,
        project="mancala-bot",
        copyright_holder="the mancala-bot authors",
        charset="utf-8",
        creation_date=_FIXED_DATE,  # a date that changes on every run would churn every file
        revision_date=_FIXED_DATE,
        fuzzy=False,
    )
    for path in source_files(domain):
        relative = path.relative_to(ROOT).as_posix()
        for line, message, comments, context in extract_from_file(
            "python", str(path), keywords=KEYWORDS, comment_tags=COMMENT_TAGS
        ):
            catalog.add(
                message,
                locations=[(relative, line)],
                auto_comments=comments,
                context=context,
                flags=("python-brace-format",) if _has_fields(message) else (),
            )
    return catalog


def _has_fields(message: str | tuple[str, ...]) -> bool:
    texts = (message,) if isinstance(message, str) else message
    return any("{" in text for text in texts)


def update(domains: Iterable[str]) -> None:
    """Write each domain's template and update its catalog in every language."""
    for domain in domains:
        pot = template(domain)
        with (LOCALE_DIR / f"{domain}.pot").open("wb") as out:
            write_po(out, pot, width=100, omit_header=True, include_lineno=False)
        for language in Language:
            if language is Language.EN:
                continue
            path = po_path(language, domain)
            if path.exists():
                with path.open("rb") as source:
                    catalog = read_po(source, locale=language.value, domain=domain)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                catalog = Catalog(
                    locale=language.value,
                    domain=domain,
                    project="mancala-bot",
                    copyright_holder="the mancala-bot authors",
                    charset="utf-8",
                    creation_date=_FIXED_DATE,
                    revision_date=_FIXED_DATE,
                    fuzzy=False,
                )
            catalog.update(pot, no_fuzzy_matching=True)
            with path.open("wb") as out:
                write_po(
                    out,
                    catalog,
                    width=100,
                    ignore_obsolete=True,
                    include_previous=False,
                    include_lineno=False,  # line numbers would churn every file on each edit
                )
        print(f"{domain}: {len(pot)} messages")


if __name__ == "__main__":
    wanted = sys.argv[1:] or list(DOMAINS)
    unknown = [name for name in wanted if name not in DOMAINS]
    if unknown:
        sys.exit(f"unknown domain {unknown[0]!r}; the domains are: {', '.join(DOMAINS)}")
    update(wanted)
