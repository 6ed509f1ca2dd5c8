"""A games database: its driver and a store per domain, as ``open_storage`` hands it out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from storage import queries
from storage.driver import Driver
from storage.postgres_driver import is_postgres_url, open_postgres
from storage.sqlite_driver import open_sqlite
from storage.stores.challenges import ChallengeStore
from storage.stores.games import GameStore
from storage.stores.identities import IdentityStore
from storage.stores.limits import LimitStore
from storage.stores.mail_stops import MailStopStore
from storage.stores.players import PlayerStore
from storage.stores.puzzles import PuzzleStore
from storage.stores.ratings import RatingStore
from storage.stores.reviews import ReviewStore
from storage.stores.schedule import ScheduleStore
from storage.stores.tournaments import TournamentStore


class Storage:
    """The stores, one per domain (``storage.games.create(...)``,
    ``storage.challenges.accept(...)``...), on one driver; and what concerns the whole
    database: its schema's version, whole tables (for copies), closing."""

    def __init__(self, db: Driver) -> None:
        self.db = db
        self.games = GameStore(db)
        self.challenges = ChallengeStore(db)
        self.players = PlayerStore(db)
        self.ratings = RatingStore(db)
        self.reviews = ReviewStore(db)
        self.puzzles = PuzzleStore(db)
        self.tournaments = TournamentStore(db)
        self.schedule = ScheduleStore(db)
        self.limits = LimitStore(db)
        self.identities = IdentityStore(db)
        self.mail_stops = MailStopStore(db)

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    async def table_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of a table, in key order."""
        return await self.db.all(queries.whole_table(table))

    async def insert_rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        """Copy rows in with their ids (``storage.transfer``)."""
        if not rows:
            return
        columns, table = list(rows[0]), queries.checked_table(table)
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        async with self.db.transaction() as tx:
            await tx.executemany(sql, [tuple(r[c] for c in columns) for r in rows])
        if "id" in columns:
            await self.db.reset_ids(table)

    async def close(self) -> None:
        await self.db.close()


async def open_storage(location: str | Path, durable: bool = False) -> Storage:
    """The games database at ``location``: a ``postgresql://`` URL opens PostgreSQL, anything
    else is a SQLite file path. Either is created or migrated to the current schema."""
    if is_postgres_url(location):
        return Storage(await open_postgres(str(location)))
    return Storage(await open_sqlite(location, durable))
