"""A 95% confidence interval for a match score, over the scores of its paired openings.

Each opening is played twice with the sides swapped, so a pair's mean score is one
observation; the interval is Student's t over those (openings, not games, are independent).

>>> mean_interval([1.0, 0.5, 1.0, 1.0])
(0.875, 0.4775, 1.0)
"""

from __future__ import annotations

import math
import statistics

# Two-sided 95% quantiles of Student's t by degrees of freedom (larger: the next one below).
T95 = {
    1: 12.71,
    2: 4.30,
    3: 3.18,
    4: 2.78,
    5: 2.57,
    6: 2.45,
    7: 2.36,
    8: 2.31,
    9: 2.26,
    10: 2.23,
    15: 2.13,
    20: 2.09,
    30: 2.04,
    60: 2.00,
}


def t95(df: int) -> float:
    keys = [k for k in sorted(T95) if k <= df]
    return T95[keys[-1]] if keys else T95[1]


def mean_interval(pair_scores: list[float]) -> tuple[float, float, float]:
    """(mean, low, high) of the pairs' scores, the interval clipped to 0..1 (nan bounds for
    a single pair)."""
    mean = statistics.mean(pair_scores)
    if len(pair_scores) < 2:
        return mean, float("nan"), float("nan")
    half = t95(len(pair_scores) - 1) * statistics.stdev(pair_scores) / math.sqrt(len(pair_scores))
    return mean, max(0.0, mean - half), min(1.0, mean + half)
