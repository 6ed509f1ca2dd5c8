"""Glicko-2 ratings as stored: one row per player and family, leaderboards, head to head, and
each player's history (a row per rated game). The ratings a game's end changes, and their
history, are written in that game's transaction (``upsert_ratings``; the drivers' moves write
the same statements, ``storage.queries``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from storage import queries
from storage.driver import Connection, Driver
from storage.records import Established, HeadToHeadRecord, RatingPoint, RatingRecord

RATING = "SELECT * FROM glicko_ratings WHERE player_id = ? AND family = ?"
HISTORY = (  # parameters: player id, family, how many; the newest first
    "SELECT * FROM rating_history WHERE player_id = ? AND family = ? "
    "ORDER BY rated_at DESC, game_id DESC LIMIT ?"
)

# A leaderboard: the ratings of a family, best first; with ``established``, only those whose
# deviation grown to now stays under the bound (storage.records.Established).
_BOARD = (
    "SELECT r.*, p.surface, p.external_id, p.display_name FROM glicko_ratings r "
    "JOIN players p ON p.id = r.player_id "
)

_ESTABLISHED = (
    "AND r.deviation * r.deviation + r.volatility * r.volatility * ? * (? - r.rated_at) < ? "
)

_BEST_FIRST = "ORDER BY r.rating DESC, r.games DESC, r.player_id LIMIT ?"


def leaderboard(server: bool, established: bool) -> str:
    """The leaderboard's query; parameters: family, [surface, server id], [growth, now,
    bound²], limit (see ``leaderboard_values``)."""
    join = "JOIN server_players s ON s.player_id = p.id " if server else ""
    where = "WHERE r.family = ? " + ("AND s.surface = ? AND s.server_id = ? " if server else "")
    return _BOARD + join + where + (_ESTABLISHED if established else "") + _BEST_FIRST


def leaderboard_values(
    family: str, limit: int, server: tuple[str, str] | None, established: Established | None
) -> tuple[Any, ...]:
    values: tuple[Any, ...] = (family, *(server or ()))
    if established is not None:
        bound = established.deviation_below
        values += (established.growth, established.now, bound * bound)
    return (*values, limit)


HEAD_TO_HEAD = (  # parameters: the first player's id twice, then both pairs of ids
    "SELECT rules, count(*) AS games, "
    "sum(CASE WHEN (result_winner = 'south' AND south_id = ?) "
    "OR (result_winner = 'north' AND north_id = ?) THEN 1 ELSE 0 END) AS wins, "
    "sum(CASE WHEN result_winner = 'draw' THEN 1 ELSE 0 END) AS draws "
    "FROM games WHERE status = 'over' "
    "AND ((south_id = ? AND north_id = ?) OR (south_id = ? AND north_id = ?)) "
    "GROUP BY rules ORDER BY rules"
)


def head_to_head_values(first: int, second: int) -> tuple[int, ...]:
    return (first, first, first, second, second, first)


async def upsert_ratings(tx: Connection, game_id: int, ratings: Iterable[RatingRecord]) -> None:
    """The ratings the end of game ``game_id`` set, and a row of history for each."""
    ratings = list(ratings)
    await tx.executemany(queries.UPSERT_RATING, queries.rating_values(ratings))
    await tx.executemany(queries.INSERT_RATING_HISTORY, queries.history_values(game_id, ratings))


class RatingStore:
    def __init__(self, db: Driver) -> None:
        self.db = db

    async def get(self, player_id: int, family: str) -> RatingRecord | None:
        row = await self.db.one(RATING, player_id, family)
        return RatingRecord.from_row(row) if row else None

    async def history(self, player_id: int, family: str, limit: int) -> list[RatingPoint]:
        """The player's ratings in ``family`` after each of their last ``limit`` rated games
        there, oldest first."""
        rows = await self.db.all(HISTORY, player_id, family, limit)
        return [RatingPoint.from_row(row) for row in reversed(rows)]

    async def leaderboard(
        self,
        family: str,
        limit: int,
        server: tuple[str, str] | None = None,
        established: Established | None = None,
    ) -> list[RatingRecord]:
        """The best ``limit`` ratings of a family, of one server's players if given."""
        rows = await self.db.all(
            leaderboard(server is not None, established is not None),
            *leaderboard_values(family, limit, server, established),
        )
        return [RatingRecord.from_row(row) for row in rows]

    async def head_to_head(self, first_id: int, second_id: int) -> list[HeadToHeadRecord]:
        """The two players' finished rated games against each other, per family."""
        values = head_to_head_values(first_id, second_id)
        return [HeadToHeadRecord.from_row(r) for r in await self.db.all(HEAD_TO_HEAD, *values)]
