"""``mancala play [RULES] [--vs LEVEL|human]``: play in the terminal.

The games database is ``MANCALA_DB`` from ``.env`` or the environment, else the user's data
directory (see ``bot.config``). An unfinished game is resumed.

>>> import argparse
>>> parser = argparse.ArgumentParser(); register(parser.add_subparsers())
>>> args = parser.parse_args(["play", "wari", "--vs", "human"])
>>> args.rules, args.vs
('wari', 'human')
"""

from __future__ import annotations

import argparse

from bot.cli_args import Subparsers, add_env_option, text
from engine import excerpt


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play in the terminal against the AI or a friend (the default command)",
        description="Play in the terminal. RULES is a ruleset string such as kalah, wari, "
        "oware or 'wari:captures=2-4' (default: kalah; `mancala rules` lists them "
        "where available). An unfinished game is resumed. Moves are pit letters; "
        "type help during the game.",
    )
    parser.add_argument(
        "rules", nargs="?", metavar="RULES", type=text(), help="the ruleset (default kalah)"
    )
    from engine.ai import DEFAULT_LEVEL, SEARCH_LEVELS, STRATEGIES  # cheap: no numba yet

    parser.add_argument(
        "--vs",
        metavar="LEVEL|human",
        type=opponent,
        help=f"the computer: a level ({', '.join(SEARCH_LEVELS)}; default "
        f"{DEFAULT_LEVEL}), one of the elf.org applet's strategies "
        f"({', '.join(STRATEGIES)}), or 'human' for two players at one "
        "keyboard",
    )
    parser.add_argument(
        "--db",
        metavar="FILE",
        help="the games database (default: MANCALA_DB or the data directory)",
    )
    add_env_option(parser)
    parser.set_defaults(func=run_play)


def run_play(args: argparse.Namespace) -> int:
    import asyncio

    from bot.config import check_database, database_path, load_env
    from bot.terminal.session import play

    load_env(args.env)
    database = check_database(args.db or database_path())  # ConfigError: one clear line
    return asyncio.run(play(args.rules, args.vs, database))


def opponent(value: str) -> str:
    """An argparse type: an AI level or "human"."""
    from bot.ai_runtime.pool import known_levels

    wanted = value.strip().lower()
    if wanted != "human" and wanted not in known_levels():
        raise argparse.ArgumentTypeError(
            f"unknown AI level '{excerpt(value)}'; levels are: "
            f"{', '.join(known_levels())} (or 'human')"
        )
    return wanted


def play_default() -> int:
    """What ``mancala`` with no command does when no Discord token is set."""
    return run_play(argparse.Namespace(rules=None, vs=None, db=None, env=".env"))
