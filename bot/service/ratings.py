"""Elo ratings per ruleset: 1500 to start, K = 32 for a player's first 20 games, 16 after.

>>> a, b = elo_update(1500, 1500, 1.0, 0, 0)
>>> round(a), round(b)
(1516, 1484)
>>> a, b = elo_update(1500, 1500, 0.5, 0, 0)
>>> a, b
(1500.0, 1500.0)
"""

from __future__ import annotations

from storage.records import RatingRecord

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


def updated_ratings(
    rules: str,
    south_id: int,
    north_id: int,
    winner: str,
    south: RatingRecord | None,
    north: RatingRecord | None,
) -> list[RatingRecord]:
    """The two players' ratings after a finished game (``winner``: south, north or draw).

    >>> [(r.player_id, round(r.rating), r.wins, r.losses) for r in
    ...  updated_ratings("wari", 1, 2, "south", None, None)]
    [(1, 1516, 1, 0), (2, 1484, 0, 1)]
    """
    south = south or RatingRecord(south_id, rules, START, 0, 0, 0, 0)
    north = north or RatingRecord(north_id, rules, START, 0, 0, 0, 0)
    score = {"south": 1.0, "north": 0.0, "draw": 0.5}[winner]
    ratings = elo_update(south.rating, north.rating, score, south.games, north.games)
    return [
        RatingRecord(
            player_id,
            rules,
            rating,
            before.games + 1,
            before.wins + (mine == 1.0),
            before.losses + (mine == 0.0),
            before.draws + (mine == 0.5),
        )
        for player_id, before, rating, mine in (
            (south_id, south, ratings[0], score),
            (north_id, north, ratings[1], 1.0 - score),
        )
    ]
