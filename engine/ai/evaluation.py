"""Togyz Kumalak's evaluation: the features the kernel counts at the horizon and their
weights, tuned on self-play (bench/train_togyz.py) and shipped in
``engine/data/togyz_eval.json``. Plain Python, so the weights load without numba.

The kernel (``search_kernel.evaluate``, where the rules have tuzdyks) values a board for the
player to move as ``SCALE * kazans' margin + (sum of weight * feature) >> WEIGHT_SHIFT``:
weights are in sixteenths of a search unit, 1/64 of a stone. Each feature is the mover's
count minus the opponent's unless it says whose it is:

- ``row``: stones in one's row, material that mostly comes home;
- ``tuzdyk``: a tuzdyk owned (its 3 stones are in the kazan already: this is what it
  will still bring in);
- ``capture``: the most stones the mover takes by an even count with one move now (the
  capture the horizon cut off; the opponent's, measured, was worth nothing more);
- ``tuzdyk_threat`` and ``tuzdyk_threat_against``: whether the mover, or the opponent, can
  make a tuzdyk with one move;
- ``empty``: empty pits in one's row (a tuzdyk's pit not counted): fewer moves to choose.

Bestemshe has no tuzdyks and keeps the margin and the rows (weights fitted on 9 pits need
not fit its 5). ``BASELINE`` is the evaluation every other ruleset keeps, and Togyz
Kumalak's before: the margin and a quarter of a stone per stone in one's row.

With the shipped weights (tests/engine/test_togyz_eval.py checks them), in search units:
the start is worth 18 to South (4.5 stones: each side can take 10, the mover first); after
``C e I b E g`` (South's tuzdyk at North's e, 13-12 in the kazans, South to move) 82, where
the margin and the rows alone gave -3.

>>> dict(zip(FEATURES, BASELINE, strict=True))["row"] >> WEIGHT_SHIFT  # a quarter stone
1
>>> len(togyz_weights()) == len(FEATURES)
True
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

FEATURES = ("row", "tuzdyk", "capture", "tuzdyk_threat", "tuzdyk_threat_against", "empty")
WEIGHT_SHIFT = 4
BASELINE = (1 << WEIGHT_SHIFT, 0, 0, 0, 0, 0)
WEIGHTS_FILE = "togyz_eval.json"


@lru_cache(maxsize=1)
def togyz_weights() -> tuple[int, ...]:
    """The shipped weights in FEATURES' order (ValueError if the file names other
    features: a kernel and a file out of step must not mix)."""
    text = (resources.files("engine") / "data" / WEIGHTS_FILE).read_text(encoding="utf-8")
    weights = json.loads(text)["weights"]
    if tuple(weights) != FEATURES:
        raise ValueError(f"{WEIGHTS_FILE} has the features {tuple(weights)}, not {FEATURES}")
    return tuple(int(weights[name]) for name in FEATURES)
