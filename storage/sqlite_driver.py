"""The SQLite driver, through aiosqlite.

Two connections: one writer (every change goes through it, one transaction at a time, under an
asyncio lock so coroutines never interleave statements of two transactions) and one reader
(WAL mode lets it read committed data while the writer works). Moves are group-committed:
those that arrive while a transaction is being written share the next one, and each caller
is answered only after the commit that holds its move. So are the changes that return rows
(``change_returning``: the limits' counts), in a queue of their own, run one after another in
the order they came, as if each were alone. ``synchronous=NORMAL`` in WAL
mode: a committed transaction survives the process being killed; only a power cut can lose the
last few (``durable=True`` gives FULL, an fsync per commit). WAL checkpoints run every
half second on a third connection rather than inside a commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from engine.translation import _
from storage import queries
from storage.driver import Connection, Driver, Rollback, Row, UniqueViolation
from storage.errors import StorageError
from storage.migrations import LATEST, MIGRATIONS
from storage.records import GameChanges, NewMove, RatingRecord

MAX_BATCH = 256  # moves per group commit
CHECKPOINT_EVERY = 0.5  # seconds between WAL checkpoints (0: SQLite's own, inside commits)


async def open_sqlite(path: str | Path, durable: bool = False) -> SQLiteDriver:
    """Open (creating the file and its folder, and migrating) the database at ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    driver = SQLiteDriver(path, durable)
    await driver._open()
    return driver


@dataclass
class _PendingChange:
    """A ``change_returning`` waiting for the next group commit; ``future`` gets its rows."""

    sql: str
    args: tuple[Any, ...]
    future: asyncio.Future[list[Row]]


@dataclass
class _PendingMove:
    """A move waiting for the next group commit; ``future`` answers its caller."""

    game_id: int
    ply: int
    move: NewMove
    changes: GameChanges
    ratings: list[RatingRecord]
    future: asyncio.Future[bool]


class _Statements(Connection):
    """The verbs on one aiosqlite connection, as it stands (in a transaction or not)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def one(self, sql: str, *args: Any) -> Row | None:
        rows = list(await self.conn.execute_fetchall(sql, args))
        return dict(rows[0]) if rows else None

    async def all(self, sql: str, *args: Any) -> list[Row]:
        return [dict(row) for row in await self.conn.execute_fetchall(sql, args)]

    async def execute(self, sql: str, *args: Any) -> int:
        with _unique_violations():
            cursor = await self.conn.execute(sql, args)
        return max(cursor.rowcount, 0)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            with _unique_violations():
                await self.conn.executemany(sql, rows)

    async def insert(self, sql: str, *args: Any) -> int:
        with _unique_violations():
            cursor = await self.conn.execute(sql, args)
        if cursor.lastrowid is None:
            raise StorageError("SQLite gave no id for a new row")
        return cursor.lastrowid


@contextlib.contextmanager
def _unique_violations() -> Any:
    try:
        yield
    except sqlite3.IntegrityError as err:
        if "UNIQUE constraint failed" in str(err):
            raise UniqueViolation(str(err)) from None
        raise


class SQLiteDriver(Driver):
    def __init__(self, path: Path, durable: bool = False):
        self.path = path
        self.durable = durable
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._snapshot_lock = asyncio.Lock()  # one read transaction at a time on the reader
        self._checkpoints: aiosqlite.Connection | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._pending_moves: list[_PendingMove] = []
        self._flusher: asyncio.Task[None] | None = None
        self._pending_changes: list[_PendingChange] = []
        self._change_flusher: asyncio.Task[None] | None = None

    # -- opening, migrating, closing ------------------------------------------------------------

    async def _open(self) -> None:
        try:
            self._writer = await self._connect()
            await self._writer.execute("PRAGMA journal_mode = WAL")
            await self._writer.execute(
                f"PRAGMA synchronous = {'FULL' if self.durable else 'NORMAL'}"
            )
            await self._migrate()
            self._reader = await self._connect()
            await self._reader.execute("PRAGMA query_only = ON")
            if CHECKPOINT_EVERY:
                # Copy the WAL back into the database on a connection of its own, so a
                # checkpoint's fsync never stalls a commit (and so a move's latency).
                await self._writer.execute("PRAGMA wal_autocheckpoint = 0")
                self._checkpoints = await self._connect()
                self._checkpointer = asyncio.create_task(self._checkpoint_forever())
        except BaseException:
            await self.close()  # no connection thread left behind
            raise

    async def _connect(self) -> aiosqlite.Connection:
        conn = await aiosqlite.connect(self.path)
        conn.row_factory = aiosqlite.Row
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 10000")  # other processes on the same file
        return conn

    async def schema_version(self) -> int:
        rows = list(await self._write.execute_fetchall("SELECT max(version) FROM schema_version"))
        return int(rows[0][0] or 0)

    async def _migrate(self) -> None:
        w = self._write
        await w.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        await w.commit()
        await w.execute("BEGIN IMMEDIATE")  # two processes starting at once migrate once
        try:
            current = await self.schema_version()
            if current > LATEST:
                raise StorageError(
                    _(
                        "{path} has schema version {version}, newer than this program knows "
                        "({latest}); upgrade the program rather than risk the data"
                    ).format(path=self.path, version=current, latest=LATEST)
                )
            for version, script in MIGRATIONS:
                if version <= current:
                    continue
                for statement in filter(None, (s.strip() for s in script.split(";"))):
                    await w.execute(statement)
                await w.execute("INSERT INTO schema_version (version) VALUES (?)", (version,))
            await w.commit()
        except BaseException:
            await w.rollback()
            raise

    async def _checkpoint_forever(self) -> None:
        while True:
            await asyncio.sleep(CHECKPOINT_EVERY)
            with contextlib.suppress(sqlite3.Error):  # busy or locked: the next round catches up
                if self._checkpoints is not None:
                    await self._checkpoints.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            await asyncio.gather(self._checkpointer, return_exceptions=True)
            self._checkpointer = None
        for flusher in (self._flusher, self._change_flusher):
            if flusher is not None:
                await asyncio.gather(flusher, return_exceptions=True)
        for conn in (self._checkpoints, self._reader, self._writer):
            if conn is not None:
                await conn.close()
        self._checkpoints = self._reader = self._writer = None

    @property
    def _read(self) -> aiosqlite.Connection:
        if self._reader is None:
            raise StorageError("the SQLite database is closed")
        return self._reader

    @property
    def _write(self) -> aiosqlite.Connection:
        if self._writer is None:
            raise StorageError("the SQLite database is closed")
        return self._writer

    # -- the verbs: reads on the reader, each change a transaction of its own ------------------

    async def one(self, sql: str, *args: Any) -> Row | None:
        return await _Statements(self._read).one(sql, *args)

    async def all(self, sql: str, *args: Any) -> list[Row]:
        return await _Statements(self._read).all(sql, *args)

    async def execute(self, sql: str, *args: Any) -> int:
        async with self.transaction() as tx:
            return await tx.execute(sql, *args)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        async with self.transaction() as tx:
            await tx.executemany(sql, rows)

    async def insert(self, sql: str, *args: Any) -> int:
        async with self.transaction() as tx:
            return await tx.insert(sql, *args)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self._write_lock:
            writer = self._write
            try:
                yield _Statements(writer)
            except Rollback:
                await writer.rollback()
                return
            except BaseException:
                await writer.rollback()
                raise
            await writer.commit()

    @contextlib.asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Connection]:
        async with self._snapshot_lock:
            await self._read.execute("BEGIN")  # one snapshot: no commit lands in between
            try:
                yield _Statements(self._read)
            finally:
                await self._read.execute("COMMIT")

    # -- changes that return rows, group-committed --------------------------------------------

    async def change_returning(self, sql: str, *args: Any) -> list[Row]:
        # Group commit: a limit check is a change of its own before a request, and a commit
        # each would make the checks, not the requests, what the one writer spends its time
        # on (bench/service.py); those arriving while a transaction is written share the next.
        future: asyncio.Future[list[Row]] = asyncio.get_running_loop().create_future()
        self._pending_changes.append(_PendingChange(sql, args, future))
        if self._change_flusher is None or self._change_flusher.done():
            self._change_flusher = asyncio.create_task(self._flush_changes())
        return await future

    async def _flush_changes(self) -> None:
        while self._pending_changes:
            batch = self._pending_changes[:MAX_BATCH]
            del self._pending_changes[:MAX_BATCH]
            async with self._write_lock:
                w = self._write
                try:
                    results = [
                        [dict(r) for r in await w.execute_fetchall(c.sql, c.args)] for c in batch
                    ]
                    await w.commit()
                except Exception:  # each change is run alone below and gets its own error
                    with contextlib.suppress(Exception):
                        await w.rollback()
                else:
                    for change, rows in zip(batch, results, strict=True):
                        if not change.future.done():
                            change.future.set_result(rows)
                    continue
                for change in batch:
                    try:
                        with _unique_violations():
                            rows = [
                                dict(r) for r in await w.execute_fetchall(change.sql, change.args)
                            ]
                        await w.commit()
                    except Exception as err:  # handed to the caller, who raises it
                        with contextlib.suppress(Exception):
                            await w.rollback()
                        if not change.future.done():
                            change.future.set_exception(err)
                    else:
                        if not change.future.done():
                            change.future.set_result(rows)

    # -- moves, group-committed -----------------------------------------------------------------

    async def record_move(
        self,
        game_id: int,
        ply: int,
        move: NewMove,
        changes: GameChanges,
        ratings: Sequence[RatingRecord],
    ) -> bool:
        # Group commit: moves arriving while a transaction is being written wait and go
        # together in the next one, so many games' moves share one commit.
        future = asyncio.get_running_loop().create_future()
        self._pending_moves.append(
            _PendingMove(game_id, ply, move, {**changes, "ply": ply + 1}, list(ratings), future)
        )
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_moves())
        return bool(await future)

    async def _flush_moves(self) -> None:
        while self._pending_moves:
            batch = self._pending_moves[:MAX_BATCH]
            del self._pending_moves[:MAX_BATCH]
            async with self._write_lock:
                try:
                    written = await self._write_batch(batch)
                except Exception:  # each move is retried alone below and gets its own error
                    with contextlib.suppress(Exception):
                        await self._write.rollback()
                    written = False
                if written:
                    for pending in batch:
                        if not pending.future.done():
                            pending.future.set_result(True)
                    continue
                # Some move was stale (another process moved first) or failed: one at a time,
                # so each caller gets its own answer.
                for pending in batch:
                    try:
                        result = await self._write_one(pending)
                    except Exception as err:  # handed to the caller, who raises it
                        if not pending.future.done():
                            pending.future.set_exception(err)
                    else:
                        if not pending.future.done():
                            pending.future.set_result(result)

    async def _write_batch(self, batch: list[_PendingMove]) -> bool:
        """All of ``batch`` in one transaction, or nothing (False) if any move is stale."""
        w = self._write
        groups: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
        for pending in batch:
            values = queries.change_values(pending.changes, pending.game_id, pending.ply)
            groups.setdefault(tuple(pending.changes), []).append(values)
        for columns, rows in groups.items():
            cursor = await w.executemany(queries.change_game(columns), rows)
            if cursor.rowcount != len(rows):
                await w.rollback()
                return False
        await w.executemany(
            queries.INSERT_MOVE,
            [queries.move_values(p.game_id, p.ply + 1, p.move) for p in batch],
        )
        await w.executemany(
            queries.UPSERT_RATING,
            queries.rating_values([r for pending in batch for r in pending.ratings]),
        )
        await w.executemany(
            queries.INSERT_RATING_HISTORY,
            [v for p in batch for v in queries.history_values(p.game_id, p.ratings)],
        )
        await w.commit()
        return True

    async def _write_one(self, pending: _PendingMove) -> bool:
        w = self._write
        try:
            cursor = await w.execute(
                queries.change_game(tuple(pending.changes)),
                queries.change_values(pending.changes, pending.game_id, pending.ply),
            )
            if cursor.rowcount != 1:
                await w.rollback()
                return False
            await w.execute(
                queries.INSERT_MOVE,
                queries.move_values(pending.game_id, pending.ply + 1, pending.move),
            )
            await w.executemany(queries.UPSERT_RATING, queries.rating_values(pending.ratings))
            await w.executemany(
                queries.INSERT_RATING_HISTORY,
                queries.history_values(pending.game_id, pending.ratings),
            )
            await w.commit()
            return True
        except BaseException:
            await w.rollback()
            raise
