"""Hypothesis strategies shared by the engine's property tests: rulesets and random games."""

import random

from hypothesis import assume
from hypothesis import strategies as st

from engine import Ruleset, RulesetError
from engine.ruleset import PARAMETERS, PRESETS


def _values(key: str):
    param = PARAMETERS[key]
    if param.kind == "bool":
        return st.sampled_from(["yes", "no"])
    if param.kind == "int":
        lo, hi = param.bounds
        return st.integers(lo, min(hi, 6)).map(str)  # small boards keep games short
    if param.kind == "counts":
        return st.sampled_from(["none", "2-3", "2-4", "1-3", "2-3-4", "3"])
    return st.sampled_from(param.choices)


@st.composite
def rulesets(draw, mixes: bool = True) -> Ruleset:
    """A preset, or (with ``mixes``) a preset with random overrides that the parser accepts."""
    name = draw(st.sampled_from(sorted(PRESETS)))
    if not mixes or draw(st.booleans()):
        return Ruleset.parse(name)
    keys = draw(st.lists(st.sampled_from(sorted(PARAMETERS)), max_size=6, unique=True))
    overrides = ",".join(f"{k}={draw(_values(k))}" for k in keys)
    try:
        return Ruleset.parse(f"{name}:{overrides}")
    except RulesetError:
        assume(False)


def random_game_positions(rules: Ruleset, seed: int, max_plies: int):
    """Yield (position, move played or None) along a random game from the start."""
    from engine import Position

    rng = random.Random(seed)
    pos = Position.initial(rules, rng=rng)
    for _ in range(max_plies):
        moves = pos.legal_moves()
        if not moves:
            yield pos, None
            return
        move = rng.choice(moves)
        yield pos, move
        pos = pos.play(move)
    yield pos, None
