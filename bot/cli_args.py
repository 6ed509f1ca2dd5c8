"""Argument types for the ``mancala`` command: each reads and bounds one kind of value, and
raises ``argparse.ArgumentTypeError`` with what is accepted, so a bad value gets argparse's
usage line and exit status 2. The options several commands share are here too: ``--env``,
and ``--lang`` with the environment's language (``environment_language``).

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="mancala solve", exit_on_error=False)
>>> action = parser.add_argument("--nodes", type=node_count)
>>> parser.parse_args(["--nodes", "5e8"]).nodes
500000000
>>> parser.parse_args(["--nodes", "1e19"])
Traceback (most recent call last):
...
argparse.ArgumentError: argument --nodes: a node count from 1 to 1e+12, not '1e19'
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TypeAlias

from bot.i18n import N_, Language, _
from engine import SIDES, excerpt
from engine.inputs import TooLong, normalise

# What ``register(subparsers)`` in each ``bot.commands`` module receives (argparse's own
# name for it is private, and only typeshed makes it generic: a string here, read by mypy).
Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"

MAX_NODES = 10**12  # about a week of solving at today's speed: more is a typing error
MAX_ARGUMENT = 20_000  # characters of any one argument (a move list, a ruleset)
SIDE_WORDS = [side.value for side in SIDES]  # the choices of a side (--perspective, --to-move)


def _number(text: str, what: str, lo: float, hi: float) -> float:
    try:
        value = float(normalise(text, 40).strip())
    except (TooLong, ValueError):
        value = math.nan
    if not lo <= value <= hi:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            # TRANSLATORS: {what} is "a node count", "a seed count", "seconds"...
            _("{what} from {lo} to {hi}, not '{text}'").format(
                what=_(what), lo=f"{lo:g}", hi=f"{hi:g}", text=excerpt(text)
            )
        )
    return value


def node_count(text: str) -> int:
    """A number of nodes, in any float notation (``5e8``), from 1 to MAX_NODES."""
    return int(_number(text, N_("a node count"), 1, MAX_NODES))


def bounded_int(lo: int, hi: int, what: str = N_("a whole number")) -> Callable[[str], int]:
    """A type for a whole number from ``lo`` to ``hi``; ``what`` is marked with N_."""

    def read(text: str) -> int:
        value = _number(text, what, lo, hi)
        if value != int(value):
            raise argparse.ArgumentTypeError(
                _("{what} from {lo} to {hi}, not '{text}'").format(
                    what=_(what), lo=lo, hi=hi, text=excerpt(text)
                )
            )
        return int(value)

    return read


def seconds(lo: float, hi: float) -> Callable[[str], float]:
    """A type for a time in seconds, more than ``lo`` and at most ``hi``."""

    def read(text: str) -> float:
        value = _number(text, N_("seconds"), lo, hi)
        if value <= lo:
            raise argparse.ArgumentTypeError(
                _("seconds more than {lo} and at most {hi}, not '{text}'").format(
                    lo=f"{lo:g}", hi=f"{hi:g}", text=excerpt(text)
                )
            )
        return value

    return read


def text(limit: int = MAX_ARGUMENT) -> Callable[[str], str]:
    """A type for free text (moves, a ruleset): normalised and at most ``limit`` characters."""

    def read(value: str) -> str:
        # Bytes that were not UTF-8 reach argv as lone surrogates, which cannot be printed.
        value = value.encode("utf-8", "replace").decode("utf-8")
        try:
            return normalise(value, limit, _("the argument"))
        except TooLong as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return read


def add_env_option(parser: argparse.ArgumentParser) -> None:
    """``--env FILE``: the settings file a command reads first (the environment wins)."""
    parser.add_argument(
        "--env", default=".env", metavar="FILE", help=_("the settings file to read (default: .env)")
    )


LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")  # in the order POSIX reads them


def environment_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The locale the environment asks messages in, as POSIX reads it: LC_ALL, else
    LC_MESSAGES, else LANG (the first set and not empty), or None. ``C`` and ``POSIX`` are
    no language we speak: English, as is anything else unknown.

    >>> environment_language({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR.UTF-8"})
    'fr_FR.UTF-8'
    >>> environment_language({"LC_ALL": "", "LANG": "C.UTF-8"})
    'C.UTF-8'
    """
    environ = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "").strip()
        if value:
            return value
    return None


AUTO = "auto"  # --lang auto: no setting, the environment's language


def language(text: str) -> str:
    """A type for ``--lang``: a language we speak, as a code, tag or name (``fr``,
    ``pt-BR``, ``Deutsch``), given back as its code; or ``auto``.

    >>> language("pt_BR.UTF-8"), language("Deutsch"), language("AUTO")
    ('pt', 'de', 'auto')
    """
    word = text.strip()[:100]
    if word.lower() in (AUTO, "default"):
        return AUTO
    found = Language.from_tag(word)
    if found is None:
        raise argparse.ArgumentTypeError(
            _("'{text}' is not a language I speak; choose one of: {accepted}, or auto").format(
                text=excerpt(text), accepted=language_codes()
            )
        )
    return found.value


def language_codes() -> str:
    """The languages ``--lang`` takes: "en (English), fr (Français), ..."."""
    return ", ".join(f"{lang.value} ({lang.native_name})" for lang in Language)


def add_lang_option(parser: argparse.ArgumentParser, remembered: bool = False) -> None:
    """``--lang LANG``: the language a command talks in, before the environment's
    (LC_ALL, LC_MESSAGES, LANG); ``remembered``: it is the player's setting, kept in the
    games database for next time (``mancala play``)."""
    codes = ", ".join(lang.value for lang in Language)
    if remembered:
        help = _(
            "the language to talk in ({codes}), remembered for your next games; auto forgets "
            "it (default: your setting, else LC_ALL, LC_MESSAGES or LANG, else English)"
        )
    else:
        help = _(
            "the language to talk in ({codes}; default: LC_ALL, LC_MESSAGES or LANG, else English)"
        )
    parser.add_argument("--lang", type=language, metavar="LANG", help=help.format(codes=codes))


def asked_language(argv: Sequence[str]) -> str | None:
    """The ``--lang`` of a command line, read before it is parsed (the help texts are
    written in that language); None without one.

    >>> asked_language(["play", "--lang", "fr"]), asked_language(["puzzle", "--lang=de"])
    ('fr', 'de')
    """
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and index + 1 < len(argv):
            return argv[index + 1]
        if word.startswith("--lang="):
            return word.split("=", 1)[1]
    return None
