"""Glicko-2 ratings as stored: one row per player and family, leaderboards, head to head.
The ratings a game's end changes are written in that game's transaction (``upsert_ratings``)."""

from __future__ import annotations

from collections.abc import Iterable

from storage import queries
from storage.driver import Connection, Driver
from storage.records import Established, HeadToHeadRecord, RatingRecord


async def upsert_ratings(tx: Connection, ratings: Iterable[RatingRecord]) -> None:
    await tx.executemany(queries.UPSERT_RATING, queries.rating_values(ratings))


class RatingStore:
    def __init__(self, db: Driver) -> None:
        self.db = db

    async def get(self, player_id: int, family: str) -> RatingRecord | None:
        row = await self.db.one(queries.RATING, player_id, family)
        return RatingRecord.from_row(row) if row else None

    async def leaderboard(
        self,
        family: str,
        limit: int,
        server: tuple[str, str] | None = None,
        established: Established | None = None,
    ) -> list[RatingRecord]:
        """The best ``limit`` ratings of a family, of one server's players if given."""
        rows = await self.db.all(
            queries.leaderboard(server is not None, established is not None),
            *queries.leaderboard_values(family, limit, server, established),
        )
        return [RatingRecord.from_row(row) for row in rows]

    async def head_to_head(self, first_id: int, second_id: int) -> list[HeadToHeadRecord]:
        """The two players' finished rated games against each other, per family."""
        values = queries.head_to_head_values(first_id, second_id)
        return [
            HeadToHeadRecord.from_row(r) for r in await self.db.all(queries.HEAD_TO_HEAD, *values)
        ]
