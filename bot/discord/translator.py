"""The ``/mancala`` commands in each player's language: names, descriptions and choices.

Discord shows a command's name, description, options and choices in the user's client
language when the command tree carries their translations (``name_localizations``...).
discord.py asks a ``Translator`` for each of them, for every Discord locale, when it syncs
the tree; ``CommandTranslator`` answers from the ``discord`` catalogs:

- names (of commands, groups and options) are the ``COMMAND_WORDS`` below, marked with the
  context ``command`` (a command's name is not the same word as in a sentence);
- descriptions and choice names are marked where they are written (``N_``, in
  ``command_group.py``...), and looked up as they are.

Discord refuses a whole sync for one bad name: a name is 1 to 32 lowercase letters, digits,
``-`` or ``_`` (``NAME``), unique among its siblings; a description or a choice 1 to 100
characters. A translation that breaks these is left out (Discord shows the English), and
``tests/discord/test_i18n_discord.py`` checks every one. English, and the locales we do not speak,
get None: the English text.

>>> valid_name("défier"), valid_name("Défier"), valid_name("two words"), valid_name("x" * 33)
(True, False, False, False)
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import Language, pgettext, speaking
from bot.i18n import _ as gettext

log = logging.getLogger(__name__)

NAME_LIMIT, TEXT_LIMIT = 32, 100  # characters in a name; in a description or a choice
NAMES = (Where.command_name, Where.group_name, Where.parameter_name)

# The names of the commands, their groups and options, for the catalogs: ``/mancala`` itself
# keeps its name everywhere (the documentation and every message call it that).
# TRANSLATORS: the name of a Discord command or of one of its options, as a player types it
# after /mancala: lowercase, one word (letters, digits, - or _), at most 32 characters, and
# no two commands (or two options of one command) with the same name
COMMAND_WORDS = (
    pgettext("command", "accept"),
    pgettext("command", "activity"),
    pgettext("command", "address"),
    pgettext("command", "board"),
    pgettext("command", "cancel"),
    pgettext("command", "challenge"),
    pgettext("command", "clear"),
    pgettext("command", "clock"),
    pgettext("command", "code"),
    pgettext("command", "create"),
    pgettext("command", "days"),
    pgettext("command", "decline"),
    pgettext("command", "delete"),
    pgettext("command", "draw"),
    pgettext("command", "email"),
    pgettext("command", "everywhere"),
    pgettext("command", "export"),
    pgettext("command", "family"),
    pgettext("command", "first"),
    pgettext("command", "format"),
    pgettext("command", "game"),
    pgettext("command", "games"),
    pgettext("command", "grade"),
    pgettext("command", "help"),
    pgettext("command", "hint"),
    pgettext("command", "history"),
    pgettext("command", "if"),
    pgettext("command", "join"),
    pgettext("command", "kind"),
    pgettext("command", "language"),
    pgettext("command", "leaderboard"),
    pgettext("command", "length"),
    pgettext("command", "level"),
    pgettext("command", "link"),
    pgettext("command", "list"),
    pgettext("command", "minutes"),
    pgettext("command", "mode"),
    pgettext("command", "move"),
    pgettext("command", "name"),
    pgettext("command", "news"),
    pgettext("command", "opponent"),
    pgettext("command", "pairings"),
    pgettext("command", "pings"),
    pgettext("command", "pit"),
    pgettext("command", "premove"),
    pgettext("command", "privacy"),
    pgettext("command", "puzzle"),
    pgettext("command", "record"),
    pgettext("command", "remove"),
    pgettext("command", "resign"),
    pgettext("command", "review"),
    pgettext("command", "round"),
    pgettext("command", "rounds"),
    pgettext("command", "rules"),
    pgettext("command", "ruleset"),
    pgettext("command", "settings"),
    pgettext("command", "standings"),
    pgettext("command", "start"),
    pgettext("command", "start_in"),
    pgettext("command", "status"),
    pgettext("command", "stop"),
    pgettext("command", "surface"),
    pgettext("command", "text"),
    pgettext("command", "text_board"),
    pgettext("command", "then"),
    pgettext("command", "thread"),
    pgettext("command", "threads"),
    pgettext("command", "to"),
    pgettext("command", "tournament"),
    pgettext("command", "undo"),
    pgettext("command", "vacation"),
    pgettext("command", "withdraw"),
)


def valid_name(name: str) -> bool:
    """Whether Discord takes ``name`` as a command's or option's name: 1 to 32 characters,
    each a letter, a digit, ``-`` or ``_`` (Devanagari and Thai marks too, which our
    languages do not need), lowercase wherever a letter has a lowercase."""
    return (
        0 < len(name) <= NAME_LIMIT
        and name == name.lower()
        and all(ch.isalnum() or ch in "-_" for ch in name)
    )


def discord_language(locale: discord.Locale | str | None) -> Language | None:
    """The language of a Discord locale that we speak, other than English (``pt-BR``: pt)."""
    language = Language.from_tag(str(locale)) if locale else None
    return None if language is Language.EN else language


def translated(text: str, language: Language, where: Where) -> str | None:
    """``text`` (a name, a description or a choice) in ``language``, or None where it has
    no translation Discord would take."""
    with speaking(language):
        result = pgettext("command", text) if where in NAMES else gettext(text)
    if result == text:
        return None
    fits = valid_name(result) if where in NAMES else 0 < len(result) <= TEXT_LIMIT
    if not fits:
        log.warning("leaving out the %s translation of %r: Discord would refuse it", language, text)
        return None
    return result


class CommandTranslator(app_commands.Translator):
    """The commands' words from the ``discord`` catalogs (``tree.set_translator``)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = discord_language(locale)
        if language is None:
            return None
        return translated(string.message, language, context.location)
