"""Elo ratings per ruleset: 1500 to start, K = 32 for a player's first 20 games, 16 after.

>>> a, b = elo_update(1500, 1500, 1.0, 0, 0)
>>> round(a), round(b)
(1516, 1484)
>>> a, b = elo_update(1500, 1500, 0.5, 0, 0)
>>> a, b
(1500.0, 1500.0)
"""

from __future__ import annotations

START = 1500.0


def k_factor(games_played: int) -> float:
    return 32.0 if games_played < 20 else 16.0


def expected(rating: float, other: float) -> float:
    """The share of points ``rating`` is expected to take from ``other``."""
    return 1.0 / (1.0 + 10 ** ((other - rating) / 400.0))


def elo_update(
    south: float, north: float, south_score: float, south_games: int, north_games: int
) -> tuple[float, float]:
    """New (south, north) ratings after a game; ``south_score`` is 1 win, 0.5 draw, 0 loss."""
    exp = expected(south, north)
    return (
        south + k_factor(south_games) * (south_score - exp),
        north + k_factor(north_games) * ((1.0 - south_score) - (1.0 - exp)),
    )


def updated_rows(
    rules: str,
    south_id: int,
    north_id: int,
    winner: str,
    south_row: dict | None,
    north_row: dict | None,
) -> list[dict]:
    """The two rating rows after a finished game (``winner``: south, north or draw)."""
    blank = dict(rating=START, games=0, wins=0, losses=0, draws=0)
    south_row = dict(south_row or blank, player_id=south_id, rules=rules)
    north_row = dict(north_row or blank, player_id=north_id, rules=rules)
    score = {"south": 1.0, "north": 0.0, "draw": 0.5}[winner]
    south_row["rating"], north_row["rating"] = elo_update(
        south_row["rating"], north_row["rating"], score, south_row["games"], north_row["games"]
    )
    for row, mine in ((south_row, score), (north_row, 1.0 - score)):
        row["games"] += 1
        key = "wins" if mine == 1.0 else "losses" if mine == 0.0 else "draws"
        row[key] += 1
    return [
        {k: row[k] for k in ("player_id", "rules", "rating", "games", "wins", "losses", "draws")}
        for row in (south_row, north_row)
    ]
