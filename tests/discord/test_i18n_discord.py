"""The Discord surface in every language: the commands' localized names as Discord requires
them, and whole games played through the real discord.py client (against the loopback fake
of tests/discord/discord_fake.py) by players whose Discord speaks French, German, Spanish,
Portuguese or Russian, or who chose Kazakh, without one English sentence.

"No English sentence": no English message of the discord, service, engine or terminal
catalogs (a part of more than three words between its fields) appears in what the bot sent
(content, embeds, buttons, menus, alt texts, thread names), unless its translation says the
same. The notation (pit letters, the 003 board, rulesets) is not a message, so it may.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from functools import cache

import discord
import pytest
from babel.messages.pofile import read_po
from discord import app_commands

from bot.discord.command_group import MancalaGroup
from bot.discord.translator import (
    COMMAND_WORDS,
    NAMES,
    CommandTranslator,
    discord_language,
    translated,
    valid_name,
)
from bot.i18n import Language
from bot.i18n.catalogs import po_path
from bot.i18n.update import template
from bot.service import ManualClock
from engine import puzzles as engine_puzzles
from tests.discord.discord_fake import ALICE_ID, APP_ID, BOB_ID, BOT_ID, CAROL_ID, guild_payload
from tests.discord.test_discord_bot import LEVEL, Table, start_bot, stop_bot
from tests.service.test_ai_fairness import NeverCompiled

# Discord's locales that are one of our languages (Kazakh has none: a setting only)
SPOKEN = [locale for locale in discord.Locale if discord_language(locale) is not None]
# Names, the same in every language: the languages' own, the game's, the puzzle families'.
NOT_TRANSLATED = (
    {language.native_name for language in Language} | {"mancala"} | set(engine_puzzles.families())
)


def the_tree() -> app_commands.CommandTree:
    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.default()))
    tree.add_command(MancalaGroup())
    return tree


async def translated_payload() -> dict:
    tree = the_tree()
    (group,) = tree.get_commands()
    return await group.get_translated_payload(tree, CommandTranslator())


def walk(option: dict) -> Iterator[dict]:
    yield option
    for child in option.get("options", []):
        yield from walk(child)


# -- the commands' words ------------------------------------------------------------------------


def english_payload() -> dict:
    tree = the_tree()
    (group,) = tree.get_commands()
    return group.to_dict(tree)


def test_every_command_and_option_name_is_marked_for_translators_and_none_is_stale():
    payload = english_payload()
    names = {option["name"] for option in walk(payload)}
    assert names - {"mancala"} == set(COMMAND_WORDS)


def test_the_language_setting_offers_every_language_by_its_own_name():
    payload = english_payload()
    (settings,) = [o for o in payload["options"] if o["name"] == "settings"]
    (language,) = [o for o in settings["options"] if o["name"] == "language"]
    offered = {c["value"]: c["name"] for c in language["choices"]}
    assert offered.pop("auto").startswith("auto")
    assert offered == {language.value: language.native_name for language in Language}


@pytest.mark.parametrize(
    "language", [lang for lang in Language if lang is not Language.EN], ids=str
)
def test_every_description_and_choice_has_a_translation_discord_takes(language):
    payload = english_payload()
    for option in walk(payload):
        where = app_commands.TranslationContextLocation
        name = translated(option["name"], language, where.parameter_name) or option["name"]
        assert valid_name(name), (option["name"], name)  # the same as English at times: "mode"
        assert translated(option["description"], language, where.command_description), option[
            "description"
        ]
        for choice in option.get("choices", []):
            if choice["name"] not in NOT_TRANSLATED:
                assert translated(choice["name"], language, where.choice_name), choice["name"]


async def test_english_and_languages_we_do_not_speak_are_left_to_discord():
    translator = CommandTranslator()
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, None
    )
    for locale in (discord.Locale.american_english, discord.Locale.british_english):
        assert await translator.translate(app_commands.locale_str("move"), locale, context) is None
    assert (
        await translator.translate(
            app_commands.locale_str("move"), discord.Locale.japanese, context
        )
        is None
    )
    assert (
        await translator.translate(app_commands.locale_str("move"), discord.Locale.french, context)
        == "jouer"
    )
    assert {discord_language(locale) for locale in SPOKEN} == set(Language) - {
        Language.EN,
        Language.KK,
    }


@pytest.mark.parametrize("locale", SPOKEN, ids=str)
async def test_localized_names_obey_discords_rules_and_are_unique_among_siblings(locale):
    """What the sync sends: every name valid in every locale we speak, no two siblings with
    the same name there, descriptions and choices 1 to 100 characters."""
    payload = await translated_payload()
    key = str(locale)
    for option in walk(payload):
        name = option.get("name_localizations", {}).get(key, option["name"])
        assert valid_name(name), (key, option["name"], name)
        description = option.get("description_localizations", {}).get(key, option["description"])
        assert 1 <= len(description) <= 100, (key, description)
        siblings = [
            child.get("name_localizations", {}).get(key, child["name"])
            for child in option.get("options", [])
        ]
        assert len(siblings) == len(set(siblings)), (key, option["name"], sorted(siblings))
        for choice in option.get("choices", []):
            shown = choice.get("name_localizations", {}).get(key, choice["name"])
            assert 1 <= len(shown) <= 100, (key, shown)
    assert payload.get("name_localizations", {}).get(key) is None  # /mancala everywhere
    subs = {o["name"]: o for o in payload["options"]}
    assert subs["move"]["name_localizations"][key] != "move"  # and the rest is translated


async def test_every_name_translation_is_valid_in_every_language_even_kazakh():
    for language in Language:
        if language is Language.EN:
            continue
        for word in COMMAND_WORDS:
            name = translated(word, language, NAMES[0]) or word
            assert valid_name(name), (language, word, name)


# -- "no English sentence" --------------------------------------------------------------------


@cache
def english_parts() -> tuple[tuple[str, str, str], ...]:
    """(domain, msgid, part): the parts of more than three words of every English message
    of the catalogs that Discord's replies are made of."""
    parts = []
    for domain in ("discord", "service", "engine", "terminal"):
        for message in template(domain):
            if not message.id:
                continue
            texts = [message.id] if isinstance(message.id, str) else list(message.id)
            for text in texts:
                for part in re.split(r"\{[^{}]*\}", text):
                    part = part.strip()
                    if len(part.split()) > 3:
                        parts.append((domain, texts[0], part))
    return tuple(parts)


@cache
def translations_of(language: Language, domain: str) -> dict[str, str]:
    """msgid (singular) -> every form of its translation, joined."""
    with po_path(language, domain).open("rb") as source:
        catalog = read_po(source, locale=language.value)
    result = {}
    for message in catalog:
        if not message.id:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        result[key] = result.get(key, "") + "\n" + "\n".join(forms)
    return result


_SHOWN_KEYS = {"content", "title", "description", "name", "value", "label", "placeholder"}


def shown(value: object) -> Iterator[str]:
    """The words in a request's JSON that a Discord user reads."""
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, str) and key in _SHOWN_KEYS:
                yield item
            elif isinstance(item, dict | list):
                yield from shown(item)
    elif isinstance(value, list):
        for item in value:
            yield from shown(item)


def sent_texts(fake, since: int = 0) -> list[str]:
    """Everything the bot showed users, from request ``since`` on: messages, replies,
    follow-ups, edits, threads (not the command tree it synced)."""
    texts = []
    for request in fake.requests[since:]:
        if request.method not in ("POST", "PATCH") or request.path.startswith("/applications/"):
            continue
        if request.path == "/users/@me/channels":
            continue  # opening a DM: no words
        texts.extend(shown(request.body))
    return texts


def english_in(texts: list[str], language: Language) -> list[tuple[str, str]]:
    """(English part, the text it was found in) for every English sentence left."""
    found = []
    blob = "\n".join(texts)
    for domain, msgid, part in english_parts():
        if part not in blob:
            continue
        if part in translations_of(language, domain).get(msgid, ""):
            continue  # its translation says the same (a name, a keyword)
        where = next(text for text in texts if part in text)
        found.append((part, where[:300]))
    return found


class SpeakingTable(Table):
    """A Table whose players' Discord (and server) speak ``locale``."""

    def __init__(self, client, fake, locale: str, guild_locale: str | None = None):
        super().__init__(client, fake)
        self.locale, self.guild_locale = locale, guild_locale or locale

    async def send(self, payload: dict):
        payload["locale"] = self.locale
        if "guild_id" in payload:
            payload["guild_locale"] = self.guild_locale
        return await super().send(payload)


async def speaking_bot(fake, tmp_path, locale: str, clock: ManualClock | None = None):
    client = await start_bot(fake, tmp_path / "games.sqlite3", clock=clock)
    client.service.ai.kernel = NeverCompiled()  # the review proves a small board in Python
    # the server's own language, for what nobody asked for (the AI's moves...)
    client._connection.parse_guild_create(dict(guild_payload(), preferred_locale=locale))
    return client


async def settled() -> None:
    """Let the bot finish what its last answers began (taking the buttons off an old board)
    before it is stopped."""
    for _ in range(200):
        busy = [
            task
            for task in asyncio.all_tasks()
            if task.get_name().startswith(("CommandTree-invoker", "discord-ui")) and not task.done()
        ]
        if not busy:
            return
        await asyncio.sleep(0.02)


async def wait_board(table, reply):
    """The board a reply shows: itself, or (a click updated the clicked board) the follow-up."""
    if reply.body.get("type") == 7:
        return await table.fake.wait_for("POST", f"/webhooks/{APP_ID}/")
    return reply


# -- a whole French game ----------------------------------------------------------------------


async def test_a_french_game_on_discord_has_no_english_sentence(fake_discord, tmp_path):
    client = await speaking_bot(fake_discord, tmp_path, "fr")
    since = len(fake_discord.requests)
    try:
        table = SpeakingTable(client, fake_discord, "fr")
        helped = await table.command(ALICE_ID, "help")
        assert "Le mancala ici" in helped.content and "`/mancala défier`" in helped.content
        rules = await table.command(ALICE_ID, "rules", ruleset="oware")
        assert "graines" in rules.data["embeds"][0]["fields"][1]["value"]
        card = await table.command(
            ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="kalah:seeds=1"
        )
        assert "défie" in card.content
        assert [b["label"] for b in card.buttons()] == ["Accepter", "Refuser"]
        board = await wait_board(table, await table.click(BOB_ID, card.message, "Accepter"))
        assert "Défi accepté." in board.content and "au trait (Sud)" in board.content

        refused = await table.command(BOB_ID, "move", pit="a")  # not Bob's turn
        assert refused.ephemeral and "tour" in refused.content.lower()
        moved = await table.command(ALICE_ID, "move", pit="A")
        assert "Dernier coup : **A**." in moved.content
        hint = await table.command(ALICE_ID, "hint")  # a rated game between people: no hint
        assert hint.ephemeral

        offered = await table.command(BOB_ID, "draw")
        assert "propose la nulle" in offered.content
        declined = await wait_board(
            table, await table.click(ALICE_ID, offered.message, "Refuser la nulle")
        )
        assert "a refusé la nulle" in declined.content

        games = await table.command(ALICE_ID, "games")
        assert "Partie 1" in games.content
        resigned = await table.command(BOB_ID, "resign")
        assert "a abandonné" in resigned.content
        assert [b["label"] for b in resigned.buttons()] == ["Revanche", "Analyser la partie"]
        deferred = await table.click(ALICE_ID, resigned.message, "Analyser la partie")
        assert deferred.body["type"] == 5
        review = await fake_discord.wait_for("PATCH", f"/webhooks/{APP_ID}/", timeout=60)
        assert review.body["content"].startswith("Partie n° 1 (kalah:seeds=1)")

        # against the AI: its moves come as follow-ups, in the player's language
        started = await table.command(
            ALICE_ID, "challenge", opponent=discord.Object(BOT_ID), ruleset="kalah", level=LEVEL
        )
        assert "l'IA" in started.content
        await table.command(ALICE_ID, "move", pit="A")
        await client.service.idle()
        reply = await fake_discord.wait_for("POST", f"/webhooks/{APP_ID}/")
        assert f"l'IA ({LEVEL}) a joué" in reply.content
    finally:
        await settled()
        await stop_bot(client)
    assert english_in(sent_texts(fake_discord, since), Language.FR) == []


async def test_the_language_setting_holds_whatever_the_client_speaks(fake_discord, tmp_path):
    client = await start_bot(fake_discord, tmp_path / "games.sqlite3")
    try:
        table = Table(client, fake_discord)  # an English Discord
        since = len(fake_discord.requests)
        chosen = await table.command(CAROL_ID, "settings", language="fr")
        assert chosen.ephemeral
        assert chosen.content.startswith("Désormais, je vous parle en Français")
        assert "Réglages" not in chosen.content  # only her own setting: no server settings
        games = await table.command(CAROL_ID, "games")
        assert games.content.startswith("Vous n'avez aucune partie.")
        card = await table.command(CAROL_ID, "challenge", opponent=discord.Object(ALICE_ID))
        assert "défie" in card.content
        bad = await table.command(CAROL_ID, "settings", language="xx")  # a refusal, in French
        assert bad.ephemeral and "xx" in bad.content
        in_french = sent_texts(fake_discord, since)
        assert (await table.command(ALICE_ID, "games")).content.startswith("You have no games")
        back = await table.command(CAROL_ID, "settings", language="auto")
        assert back.content == "I will speak the language of your Discord with you again."
        kazakh = await table.command(CAROL_ID, "settings", language="kk")
        assert kazakh.content.startswith("Бұдан былай")
        help_kk = await table.command(CAROL_ID, "help")
        assert "`/mancala challenge`" in help_kk.content  # Discord has no Kazakh: names stay
    finally:
        await settled()
        await stop_bot(client)
    assert english_in(in_french, Language.FR) == []


# -- the other languages, a few steps each ------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "language", "accept", "decline_draw"),
    [
        ("de", Language.DE, "Annehmen", "Remis ablehnen"),
        ("es-ES", Language.ES, "Aceptar", "Rechazar tablas"),
        ("pt-BR", Language.PT, "Aceitar", "Recusar empate"),
        ("ru", Language.RU, "Принять", "Отклонить ничью"),
    ],
)
async def test_a_game_in_each_language_has_no_english_sentence(
    fake_discord, tmp_path, locale, language, accept, decline_draw
):
    client = await speaking_bot(fake_discord, tmp_path, locale)
    since = len(fake_discord.requests)
    try:
        table = SpeakingTable(client, fake_discord, locale)
        card = await table.command(
            ALICE_ID, "challenge", opponent=discord.Object(BOB_ID), ruleset="wari"
        )
        board = await wait_board(table, await table.click(BOB_ID, card.message, accept))
        moved = await wait_board(table, await table.click(ALICE_ID, board.message, "C"))
        assert "**C**" in moved.content
        await table.command(BOB_ID, "move", pit="Z")  # refused: the engine's reason
        offered = await table.command(BOB_ID, "draw")
        await wait_board(table, await table.click(ALICE_ID, offered.message, decline_draw))
        await table.command(BOB_ID, "help")
        await table.command(ALICE_ID, "resign")
    finally:
        await settled()
        await stop_bot(client)
    assert english_in(sent_texts(fake_discord, since), language) == []


async def test_posts_nobody_asked_for_speak_the_servers_language(fake_discord, tmp_path):
    clock = ManualClock()
    client = await speaking_bot(fake_discord, tmp_path, "de", clock)
    try:
        table = Table(client, fake_discord)  # the players' Discord is English; the server German
        await table.game_between_alice_and_bob()
        since = len(fake_discord.requests)
        clock.advance(2 * 86400)  # a reminder
        await client.service.tick()
        await client.service.idle()
        reminder = await fake_discord.wait_for("POST", "/channels/")
        assert "du bist am Zug in Partie 1" in reminder.content
    finally:
        await settled()
        await stop_bot(client)
    assert english_in(sent_texts(fake_discord, since), Language.DE) == []


async def test_a_direct_message_speaks_its_recipients_language(fake_discord, tmp_path):
    client = await start_bot(fake_discord, tmp_path / "games.sqlite3")
    try:
        table = Table(client, fake_discord)
        await table.command(BOB_ID, "settings", language="es")
        await table.command(BOB_ID, "pings", mode="dm")
        board = await table.game_between_alice_and_bob()
        await table.click(ALICE_ID, board.message, "A")  # Bob's turn: told by DM
        await fake_discord.wait_for("POST", "/users/@me/channels")
        told = await fake_discord.wait_for("POST", "/channels/")
        assert told.content.startswith("Te toca mover en la partida 1")
    finally:
        await settled()
        await stop_bot(client)


async def test_the_check_finds_english_where_there_is_some(fake_discord, tmp_path):
    """The same steps in English: the check above would have caught every one of them."""
    client = await start_bot(fake_discord, tmp_path / "games.sqlite3")
    since = len(fake_discord.requests)
    try:
        table = Table(client, fake_discord)
        await table.game_between_alice_and_bob("wari")
        offered = await table.command(ALICE_ID, "draw")
        await wait_board(table, await table.click(BOB_ID, offered.message, "Decline draw"))
        await table.command(ALICE_ID, "resign")
    finally:
        await settled()
        await stop_bot(client)
    found = {part for part, _ in english_in(sent_texts(fake_discord, since), Language.FR)}
    for english in ("Accept or Decline below", "declined the draw offer.", "The moves of game"):
        assert any(english in part for part in found), (english, found)
