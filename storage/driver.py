"""What a database engine must give the stores: a few verbs over SQL, and the little that
only an engine can do. The stores (``storage.stores``) write every query once, with ``?``
placeholders, against these verbs; a driver (``sqlite_driver``, ``postgres_driver``) spells
them for its engine.

- ``Connection``: ``one``, ``all``, ``execute`` (the rows it changed), ``executemany``,
  ``insert`` (the new row's id) and ``announce`` (tell other processes a game changed, when
  the transaction commits). A driver's own verbs run each statement on its own; inside
  ``transaction()`` they run in that one transaction.
- ``Rollback``: raised inside ``transaction()``, undoes it and ends the block quietly. A
  compare-and-set that did not match raises it, so nothing of the transaction lands.
- ``UniqueViolation``: a unique index refused a row (the engines word this differently).
- ``Driver.change_returning``: one change whose ``RETURNING`` rows are wanted, as if on its
  own (SQLite commits those that arrive together in one transaction, one after another).
- Beyond the verbs, each engine's own: ``record_move`` (SQLite commits the moves that arrive
  together in one transaction; PostgreSQL writes them in one statement), ``watch_games``
  (PostgreSQL's LISTEN), ``snapshot`` (reads that see one moment), ``reset_ids`` (after rows
  are copied in with their ids), and "database unavailable" (``StorageUnavailable``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from storage.errors import StorageError
from storage.records import GameChanges, NewMove, RatingRecord

Row = dict[str, Any]


class Rollback(Exception):
    """Raised inside ``transaction()``: nothing of it lands, and the block ends quietly."""


class UniqueViolation(StorageError):
    """A unique index refused a row; the message names the index or its columns."""


class Connection(ABC):
    """The verbs every query is written against, on one engine."""

    @abstractmethod
    async def one(self, sql: str, *args: Any) -> Row | None:
        """The first row ``sql`` gives, or None."""

    @abstractmethod
    async def all(self, sql: str, *args: Any) -> list[Row]:
        """Every row ``sql`` gives."""

    @abstractmethod
    async def execute(self, sql: str, *args: Any) -> int:
        """Run a statement; the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run a statement once for each of ``rows`` (nothing for none)."""

    @abstractmethod
    async def insert(self, sql: str, *args: Any) -> int:
        """Run an INSERT into a table with an ``id``; the new row's id."""

    async def announce(self, game_id: int) -> None:
        """Tell the other processes, once this commits, that the game changed. Nothing
        where no other process listens (SQLite's processes check the file instead)."""
        return None


class Driver(Connection):
    """One engine's connections: the verbs run each statement on its own, ``transaction()``
    runs several as one."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """One write transaction: committed when the block ends, rolled back if it raises
        (``Rollback`` is then swallowed)."""

    async def change_returning(self, sql: str, *args: Any) -> list[Row]:
        """Run one change that gives rows (``RETURNING``), as a transaction of its own; the
        rows. (``all`` may read on a connection that cannot write.)"""
        async with self.transaction() as tx:
            return await tx.all(sql, *args)

    @abstractmethod
    def snapshot(self) -> AbstractAsyncContextManager[Connection]:
        """Reads that all see one moment: no commit lands between them."""

    @abstractmethod
    async def record_move(
        self,
        game_id: int,
        ply: int,
        move: NewMove,
        changes: GameChanges,
        ratings: Sequence[RatingRecord],
    ) -> bool:
        """Append a move at ``ply + 1``, change the game (compare-and-set on ``ply``) and its
        players' ratings, in one transaction; False if the game had moved on."""

    async def watch_games(self, callback: Callable[[int | None], None]) -> bool:
        """Call ``callback(game_id)`` on every change of a game committed by another process;
        ``callback(None)`` once if that can no longer be promised. False where the engine
        cannot tell (SQLite): the caller checks what it holds instead."""
        return False

    async def reset_ids(self, table: str) -> None:
        """After rows were copied in with their ids: the next id given out comes after them.
        Nothing where the engine takes the largest id plus one (SQLite)."""
        return None

    @abstractmethod
    async def schema_version(self) -> int:
        """The newest migration applied."""

    @abstractmethod
    async def close(self) -> None: ...
