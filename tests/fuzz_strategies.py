"""Hypothesis strategies for hostile input: what a careless or malicious user types as a
ruleset, a move, a written position or a command line. ``tests/test_fuzz.py`` runs them
derandomized in CI; ``bench/fuzz.py`` runs them at any length.

The odd pieces are the classes that once crashed something: digits that ``str.isdigit``
accepts but ``int`` refuses, numbers past Python's 4,300-digit limit, control characters and
NULs, lone surrogates (undecodable bytes), typographic dashes, and ids past 64 bits.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from engine import Position, Ruleset, render
from engine.ruleset import APPLET_WORDS, PARAMETERS, PRESETS

ODD_DIGITS = ["¹", "²", "①", "⑫", "４", "٣", "໒", "𝟠", "Ⅻ", "½"]
ODD_TEXT = ["\x00", "\r", "\n", "\x1b[31m", "\u202e", "\ud800", "–", "—", "−", "\ufeff", " "]
HUGE = ["9" * 5000, "1" + "0" * 4400, "0" * 300 + "7", "-" + "9" * 30, "1e999", "nan", "inf"]


def _odd_number() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(-3, 20).map(str),
        st.sampled_from(HUGE),
        st.lists(st.sampled_from(ODD_DIGITS + list("0123456789")), min_size=1, max_size=4)
        .map("".join),
        st.integers(2**62, 2**70).map(str),
    )


def _junk(max_size: int = 12) -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=max_size), st.sampled_from(ODD_TEXT))


def _value(key: str) -> st.SearchStrategy[str]:
    param = PARAMETERS.get(key)
    choices = list(param.choices) if param else ["yes", "no", "across", "home"]
    return st.one_of(st.sampled_from(choices + ["yes", "no", "none", ""]), _odd_number(),
                     st.lists(_odd_number(), min_size=1, max_size=4).map("-".join), _junk())


@st.composite
def spec_texts(draw) -> str:
    """Ruleset strings, mostly near the grammar (``name:key=value,...``), some far from it."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.one_of(_junk(60), st.sampled_from(HUGE)))
    names = sorted(PRESETS) + ["mancala", "awale", "awari", "chess", ""]
    name = draw(st.sampled_from(names))
    name = draw(st.sampled_from([name, name.upper(), f" {name} "]))
    keys = sorted(PARAMETERS) + sorted(APPLET_WORDS) + ["foo", "pits ", "SEEDS", "capture-side"]
    items = []
    for key in draw(st.lists(st.sampled_from(keys), max_size=5)):
        shape = draw(st.integers(0, 5))
        items.append(key if shape == 0 else f"{key}={draw(_value(key.strip().lower()))}")
    return name + (":" + ",".join(items) if items or draw(st.booleans()) else "")


def move_texts() -> st.SearchStrategy[str]:
    letters = st.sampled_from(list("ABCDEFGHabcdefgh"))
    return st.one_of(
        letters,
        st.tuples(letters, st.sampled_from(["<", ">", "‹", "＞", " ", ""])).map("".join),
        st.sampled_from(["Ｅ", "ｅ", "e\x00", "E" * 5000, "", " ", "1", "A B"]),
        _junk(),
    )


def _mutate_line(line: str, rng: random.Random) -> str:
    tokens = line.split() or [""]
    i = rng.randrange(len(tokens))
    tokens[i] = rng.choice(ODD_DIGITS + ODD_TEXT + HUGE[:3] + ["–", "-", "", "12345678901"])
    return "   ".join(tokens)


@st.composite
def position_texts(draw, rules: Ruleset) -> str:
    """A board as the renderer draws it somewhere in a random game, then bent: a count
    swapped for something odd, a line doubled or dropped, a result line added, fences."""
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    pos = Position.initial(rules, rng=rng)
    for _ in range(rng.randrange(0, 80)):
        if pos.is_over():
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    lines = render(pos, rng.choice(["south", "north"])).splitlines()
    for _ in range(draw(st.integers(0, 3))):
        what = rng.randrange(6)
        i = rng.randrange(len(lines))
        if what == 0:
            lines[i] = _mutate_line(lines[i], rng)
        elif what == 1:
            lines.insert(i, lines[i])
        elif what == 2 and len(lines) > 1:
            del lines[i]
        elif what == 3:
            lines.insert(i, rng.choice(["Game over (a row is empty).", "Game over (nonsense).",
                                        "Captured: North " + "9" * 5000 + ", South 1.",
                                        "Captured: North ①, South ²", "```", "North to move."]))
        elif what == 4:
            lines[i] = lines[i].replace("-", rng.choice(["–", "—", "−"]))
        else:
            lines[i] = draw(_junk(40))
    return "\n".join(lines)


def game_ids() -> st.SearchStrategy:
    """What a surface might pass as a game, challenge or ply number."""
    return st.one_of(st.integers(-2, 5), st.sampled_from([2**63, 2**64, -2**63 - 1, 10**30]),
                     st.sampled_from([None, True, 1.5, "1", "①", "9" * 5000, [], {}]))
