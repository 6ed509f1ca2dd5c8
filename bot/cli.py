"""The ``mancala`` command. Each module in ``bot.commands`` adds its subcommands.

A command module defines ``register(subparsers)``, which adds parsers and sets ``func`` on
them; ``func(args)`` returns the exit status. Modules import heavy libraries (discord.py,
numba) inside ``func``, so ``mancala rules`` starts fast.

Every command talks in the language of ``--lang`` where it has the option, else of the
environment (LC_ALL, LC_MESSAGES, LANG), else English; its help too. ``mancala play`` puts
the player's own setting first (``bot.terminal.session``). The servers (``mancala bot``,
``mancala mail``) say what is wrong with their settings in that language, then serve in
English by default: each request they answer chooses its own language.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from typing import NoReturn

import bot.commands
from bot.cli_args import asked_language, environment_language
from bot.config import EX_CONFIG, ConfigError
from bot.i18n import _, choose, speaking
from storage import StorageError


class Parser(argparse.ArgumentParser):
    """argparse, whose error messages quote the command line only as a short, clean excerpt
    (it echoed unrecognised arguments whole, control characters and all)."""

    def error(self, message: str) -> NoReturn:
        from engine import excerpt

        super().error(excerpt(message, 300))


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="mancala",
        description=_("Play mancala games in the terminal, on Discord and by email."),
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(bot.commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"bot.commands.{info.name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    from bot.ai_runtime.kernel_cache import configure

    configure()  # before anything imports numba: its compiled code goes where it survives
    words = sys.argv[1:] if argv is None else argv
    with speaking(choose(asked_language(words), environment_language())):
        return _run(argv)


def _run(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        from bot.config import load_env

        load_env()
        try:
            if not os.environ.get("DISCORD_TOKEN", "").strip():
                from bot.commands.play import play_default

                return play_default()  # no bot to run: play in the terminal
            from bot.commands.discord import run_bot

            return run_bot(argparse.Namespace(env=".env"))
        except ConfigError as err:
            print(f"mancala: {err}", file=sys.stderr)
            return EX_CONFIG
    try:
        return args.func(args) or 0
    except KeyboardInterrupt:
        return 130
    except ConfigError as err:  # one line, and a status that stops a restart loop
        print(f"mancala: {err}", file=sys.stderr)
        return EX_CONFIG
    except StorageError as err:  # the database went away, or cannot be reached: retried
        print(f"mancala: {err}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
