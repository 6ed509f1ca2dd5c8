"""The catalogs: every message of every domain translated in every language, fields intact,
and the choice of a reply's language.

``python -m bot.i18n.update`` brings the catalogs up to date with the code; these tests say
what is still missing, by domain and language.
"""

from __future__ import annotations

import re
import string

import pytest
from babel.messages.pofile import read_po

from bot.i18n import N_, Language, _, choose, ngettext, speaking
from bot.i18n.catalogs import DOMAINS, po_path, translations
from bot.i18n.update import template

OTHER_LANGUAGES = [language for language in Language if language is not Language.EN]


def _fields(text: str) -> set[str]:
    """The replacement fields of a str.format template (``{name}``, ``{count:,}``)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _texts(message: str | tuple[str, ...] | list[str]) -> list[str]:
    return [message] if isinstance(message, str) else list(message)


@pytest.fixture(scope="module", params=list(DOMAINS))
def domain_template(request: pytest.FixtureRequest):
    return request.param, template(request.param)


@pytest.mark.parametrize("language", OTHER_LANGUAGES, ids=str)
def test_every_message_is_translated_with_the_same_fields(domain_template, language):
    domain, pot = domain_template
    path = po_path(language, domain)
    assert path.exists(), f"no catalog {path}: run python -m bot.i18n.update"
    with path.open("rb") as source:
        catalog = read_po(source, locale=language.value)
    missing, broken = [], []
    for message in pot:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        strings = _texts(found.string) if found is not None else []
        if found is None or found.fuzzy or not all(strings):
            missing.append(_texts(message.id)[0])
            continue
        wanted = set().union(*(_fields(text) for text in _texts(message.id)))
        for text in strings:
            # a plural form may leave out the count ("one move" needs no {n}), no more
            if not _fields(text) <= wanted or (len(strings) == 1 and _fields(text) != wanted):
                broken.append((_texts(message.id)[0], text))
    assert not missing, f"{language} {domain}: {len(missing)} untranslated, e.g. {missing[:5]}"
    assert not broken, f"{language} {domain}: fields differ: {broken[:5]}"


@pytest.mark.parametrize("language", OTHER_LANGUAGES, ids=str)
def test_catalogs_are_up_to_date_with_the_code(domain_template, language):
    """No translation of a message the code no longer has: update was run after the change."""
    domain, pot = domain_template
    with po_path(language, domain).open("rb") as source:
        catalog = read_po(source, locale=language.value)
    stale = [m.id for m in catalog if m.id and pot.get(m.id, context=m.context) is None]
    assert not stale, f"{language} {domain}: not in the code any more: {stale[:5]}"


def test_a_message_without_a_translation_falls_back_to_english_never_to_a_key():
    with speaking(Language.FR):
        assert _("no such message, anywhere") == "no such message, anywhere"
        assert ngettext("{n} pit", "{n} pits", 2) == "{n} pits"


def test_n_marks_without_translating():
    with speaking(Language.DE):
        assert N_("a sentence") == "a sentence"


def test_plural_rules_follow_the_language():
    assert translations(Language.RU).plural(5) == 2  # Russian has three forms: 1, 2-4, 5+
    assert translations(Language.FR).plural(0) == 0  # French treats 0 as singular
    assert translations(Language.EN).ngettext("a", "b", 0) == "b"


def test_speaking_is_per_task_and_restored():
    import asyncio

    async def reply_in(language: Language) -> Language:
        with speaking(language):
            await asyncio.sleep(0)
            from bot.i18n import current_language

            return current_language()

    async def both():
        return await asyncio.gather(reply_in(Language.FR), reply_in(Language.DE))

    assert asyncio.run(both()) == [Language.FR, Language.DE]


@pytest.mark.parametrize(
    ("setting", "hints", "expected"),
    [
        (None, (), Language.EN),
        (Language.DE, ("fr",), Language.DE),  # the player's own setting wins
        (None, ("it", "pt-BR"), Language.PT),  # the first hint we speak
        (None, ("es-419",), Language.ES),
        (None, ("fr_CA.UTF-8",), Language.FR),
        (None, ("ru, en",), Language.RU),
        ("Deutsch", (), Language.DE),
        (None, ("x" * 500,), Language.EN),
    ],
)
def test_choose(setting, hints, expected):
    assert choose(setting, *hints) is expected


def test_engine_messages_are_translated_through_the_installed_hook():
    import bot.i18n  # noqa: F401  (installs the hook)
    from engine.translation import _ as engine_

    sample = next(iter(m.id for m in template("engine") if isinstance(m.id, str) and m.id), None)
    if sample is None:
        pytest.skip("the engine has no marked message yet")
    with speaking(Language.FR):
        assert engine_(sample) == translations(Language.FR).gettext(sample)


def test_no_message_is_an_f_string_or_positional_template():
    """Extraction cannot see an f-string's text; ``{}`` cannot be reordered by a translator."""
    import ast

    from bot.i18n.update import source_files

    markers = {"_", "N_", "ngettext", "pgettext"}
    for domain in DOMAINS:
        for path in source_files(domain):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in markers
                ):
                    for argument in node.args:
                        assert not isinstance(argument, ast.JoinedStr), (
                            f"{path}:{node.lineno}: an f-string inside {node.func.id}()"
                        )
        for message in template(domain):
            for text in _texts(message.id) if message.id else []:
                assert not re.search(r"\{\}|\{\d", text), f"{domain}: positional field in {text!r}"
