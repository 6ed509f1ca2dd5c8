"""Argument types for the ``mancala`` command: each reads and bounds one kind of value, and
raises ``argparse.ArgumentTypeError`` with what is accepted, so a bad value gets argparse's
usage line and exit status 2.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="mancala solve", exit_on_error=False)
>>> _ = parser.add_argument("--nodes", type=node_count)
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
from collections.abc import Callable
from typing import TypeAlias

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
        raise argparse.ArgumentTypeError(f"{what} from {lo:g} to {hi:g}, not '{excerpt(text)}'")
    return value


def node_count(text: str) -> int:
    """A number of nodes, in any float notation (``5e8``), from 1 to MAX_NODES."""
    return int(_number(text, "a node count", 1, MAX_NODES))


def bounded_int(lo: int, hi: int, what: str = "a whole number") -> Callable[[str], int]:
    """A type for a whole number from ``lo`` to ``hi``."""

    def read(text: str) -> int:
        value = _number(text, what, lo, hi)
        if value != int(value):
            raise argparse.ArgumentTypeError(f"{what} from {lo} to {hi}, not '{excerpt(text)}'")
        return int(value)

    return read


def seconds(lo: float, hi: float) -> Callable[[str], float]:
    """A type for a time in seconds, more than ``lo`` and at most ``hi``."""

    def read(text: str) -> float:
        value = _number(text, "seconds", lo, hi)
        if value <= lo:
            raise argparse.ArgumentTypeError(
                f"seconds more than {lo:g} and at most {hi:g}, not '{excerpt(text)}'"
            )
        return value

    return read


def text(limit: int = MAX_ARGUMENT) -> Callable[[str], str]:
    """A type for free text (moves, a ruleset): normalised and at most ``limit`` characters."""

    def read(value: str) -> str:
        # Bytes that were not UTF-8 reach argv as lone surrogates, which cannot be printed.
        value = value.encode("utf-8", "replace").decode("utf-8")
        try:
            return normalise(value, limit, "the argument")
        except TooLong as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return read


def add_env_option(parser: argparse.ArgumentParser) -> None:
    """``--env FILE``: the settings file a command reads first (the environment wins)."""
    parser.add_argument(
        "--env", default=".env", metavar="FILE", help="the settings file to read (default: .env)"
    )
