"""``mancala play [RULES] [--vs LEVEL|human] [--lang LANG]``: play in the terminal.

The games database is ``MANCALA_DB`` from ``.env`` or the environment, else the user's data
directory (see ``bot.config``). An unfinished game is resumed. ``--lang`` is the player's
language, remembered in that database (``auto`` forgets it); without one the game talks in
the environment's (LC_ALL, LC_MESSAGES, LANG), else English.

>>> import argparse
>>> parser = argparse.ArgumentParser(); register(parser.add_subparsers())
>>> args = parser.parse_args(["play", "wari", "--vs", "human", "--lang", "fr_FR.UTF-8"])
>>> args.rules, args.vs, args.lang
('wari', 'human', 'fr')
"""

from __future__ import annotations

import argparse

from bot.cli_args import Subparsers, add_env_option, add_lang_option, text
from bot.i18n import _
from engine import excerpt


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "play",
        help=_("play in the terminal against the AI or a friend (the default command)"),
        description=_(
            "Play in the terminal. RULES is a ruleset string such as kalah, wari, "
            "oware or 'wari:captures=2-4' (default: kalah; `mancala rules` lists them "
            "where available). An unfinished game is resumed. Moves are pit letters; "
            "type help during the game."
        ),
    )
    parser.add_argument(
        "rules", nargs="?", metavar="RULES", type=text(), help=_("the ruleset (default kalah)")
    )
    from engine.ai import DEFAULT_LEVEL, SEARCH_LEVELS, STRATEGIES  # cheap: no numba yet

    parser.add_argument(
        "--vs",
        metavar="LEVEL|human",
        type=opponent,
        help=_(
            "the computer: a level ({levels}; default {default}), one of the elf.org applet's "
            "strategies ({strategies}), or 'human' for two players at one keyboard"
        ).format(
            levels=", ".join(SEARCH_LEVELS),
            default=DEFAULT_LEVEL,
            strategies=", ".join(STRATEGIES),
        ),
    )
    parser.add_argument(
        "--db",
        metavar="FILE",
        help=_("the games database (default: MANCALA_DB or the data directory)"),
    )
    add_lang_option(parser, remembered=True)
    add_env_option(parser)
    parser.set_defaults(func=run_play)


def run_play(args: argparse.Namespace) -> int:
    import asyncio

    from bot.cli_args import environment_language
    from bot.config import check_database, database_path, load_env
    from bot.terminal.session import play

    load_env(args.env)
    database = check_database(args.db or database_path())  # ConfigError: one clear line
    return asyncio.run(
        play(
            args.rules,
            args.vs,
            database,
            lang=getattr(args, "lang", None),
            env_lang=environment_language(),
        )
    )


def opponent(value: str) -> str:
    """An argparse type: an AI level or "human"."""
    from bot.ai_runtime.pool import known_levels

    wanted = value.strip().lower()
    if wanted != "human" and wanted not in known_levels():
        raise argparse.ArgumentTypeError(
            # TRANSLATORS: 'human' is what the player types: keep it in English
            _("unknown AI level '{level}'; levels are: {levels} (or 'human')").format(
                level=excerpt(value), levels=", ".join(known_levels())
            )
        )
    return wanted


def play_default() -> int:
    """What ``mancala`` with no command does when no Discord token is set."""
    return run_play(argparse.Namespace(rules=None, vs=None, db=None, env=".env", lang=None))
