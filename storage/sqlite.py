"""The SQLite backend of ``Storage``, through aiosqlite.

Two connections: one writer (every change goes through it, one transaction at a time, under an
asyncio lock so coroutines never interleave statements of two transactions) and one reader
(WAL mode lets it read committed data while the writer works). Moves are group-committed:
those that arrive while a transaction is being written share the next one, and each caller
is answered only after the commit that holds its move. ``synchronous=NORMAL`` in WAL
mode: a committed transaction survives the process being killed; only a power cut can lose the
last few (``durable=True`` gives FULL, an fsync per commit). WAL checkpoints run every
half second on a third connection rather than inside a commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import aiosqlite

from storage import queries
from storage.base import ChannelTaken, Storage, StorageError
from storage.migrations import LATEST, MIGRATIONS

MAX_BATCH = 256  # moves per group commit
CHECKPOINT_EVERY = 0.5  # seconds between WAL checkpoints (0: SQLite's own, inside commits)
GAME_COLUMNS = frozenset(
    {
        "status",
        "ply",
        "board",
        "mover",
        "offer_kind",
        "offer_by",
        "offer_ply",
        "result_reason",
        "result_termination",
        "result_by",
        "result_ply",
        "result_winner",
        "score_south",
        "score_north",
        "last_move_at",
        "remind_at",
        "forfeit_at",
        "reminded_at",
        "ended_at",
    }
)


async def open_sqlite(path: str | Path, durable: bool = False) -> SQLiteStorage:
    """Open (creating the file and its folder, and migrating) the database at ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    store = SQLiteStorage(path, durable)
    await store._open()
    return store


def _set_clause(changes: dict) -> str:
    unknown = set(changes) - GAME_COLUMNS
    if unknown:
        raise StorageError(f"not a game column: {', '.join(sorted(unknown))}")
    return ", ".join(f"{column} = :{column}" for column in changes)


def _is_channel_taken(err: sqlite3.IntegrityError) -> bool:
    return "games.channel_surface" in str(err) or "games_active_channel" in str(err)


class SQLiteStorage(Storage):
    def __init__(self, path: Path, durable: bool = False):
        self.path = path
        self.durable = durable
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._write_lock = asyncio.Lock()
        self._snapshot_lock = asyncio.Lock()  # one read transaction at a time on the reader
        self._checkpoints: aiosqlite.Connection | None = None
        self._checkpointer: asyncio.Task | None = None
        self._pending_moves: list[tuple] = []
        self._flusher: asyncio.Task | None = None

    # -- opening, migrating -------------------------------------------------------------------

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
        rows = await self._writer.execute_fetchall("SELECT max(version) FROM schema_version")
        return rows[0][0] or 0

    async def _migrate(self) -> None:
        w = self._writer
        await w.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        await w.commit()
        await w.execute("BEGIN IMMEDIATE")  # two processes starting at once migrate once
        try:
            current = await self.schema_version()
            if current > LATEST:
                raise StorageError(
                    f"{self.path} has schema version {current}, newer than this program knows "
                    f"({LATEST}); upgrade the program rather than risk the data"
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
                await self._checkpoints.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            await asyncio.gather(self._checkpointer, return_exceptions=True)
            self._checkpointer = None
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        for conn in (self._checkpoints, self._reader, self._writer):
            if conn is not None:
                await conn.close()
        self._checkpoints = self._reader = self._writer = None

    # -- helpers ------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _transaction(self):
        """One write transaction under the write lock: committed when the block ends, rolled
        back if it raises. A block whose compare-and-set did not match rolls back itself and
        returns; the commit that follows then has nothing to commit."""
        async with self._write_lock:
            try:
                yield self._writer
            except BaseException:
                await self._writer.rollback()
                raise
            await self._writer.commit()

    async def _one(self, sql: str, params=()) -> dict | None:
        rows = await self._reader.execute_fetchall(sql, params)
        return dict(rows[0]) if rows else None

    async def _all(self, sql: str, params=()) -> list[dict]:
        return [dict(row) for row in await self._reader.execute_fetchall(sql, params)]

    async def _upsert_ratings(self, ratings) -> None:
        for row in ratings:
            await self._writer.execute(
                "INSERT INTO ratings (player_id, rules, rating, games, wins, losses, draws) "
                "VALUES (:player_id, :rules, :rating, :games, :wins, :losses, :draws) "
                "ON CONFLICT (player_id, rules) DO UPDATE SET rating = excluded.rating, "
                "games = excluded.games, wins = excluded.wins, losses = excluded.losses, "
                "draws = excluded.draws",
                row,
            )

    # -- players ------------------------------------------------------------------------------

    async def player_id(self, surface: str, external_id: str, now: float) -> int:
        row = await self._one(
            "SELECT id FROM players WHERE surface = ? AND external_id = ?", (surface, external_id)
        )
        if row:
            return row["id"]
        async with self._transaction() as w:
            await w.execute(
                "INSERT INTO players (surface, external_id, created_at) VALUES (?, ?, ?) "
                "ON CONFLICT (surface, external_id) DO NOTHING",
                (surface, external_id, now),
            )
            rows = await w.execute_fetchall(
                "SELECT id FROM players WHERE surface = ? AND external_id = ?",
                (surface, external_id),
            )
        return rows[0][0]

    async def player(self, player_id: int) -> dict | None:
        return await self._one("SELECT * FROM players WHERE id = ?", (player_id,))

    async def set_display_name(self, player_id: int, name: str) -> None:
        async with self._transaction() as w:
            await w.execute("UPDATE players SET display_name = ? WHERE id = ?", (name, player_id))

    async def set_ping(self, player_id: int, ping: str) -> None:
        async with self._transaction() as w:
            await w.execute("UPDATE players SET ping = ? WHERE id = ?", (ping, player_id))

    # -- servers ------------------------------------------------------------------------------

    async def server_settings(self, surface: str, server_id: str) -> str | None:
        row = await self._one(
            "SELECT settings FROM server_settings WHERE surface = ? AND server_id = ?",
            (surface, server_id),
        )
        return row["settings"] if row else None

    async def set_server_settings(
        self, surface: str, server_id: str, settings: str, now: float
    ) -> None:
        async with self._transaction() as w:
            await w.execute(
                "INSERT INTO server_settings (surface, server_id, settings, updated_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (surface, server_id) DO UPDATE SET "
                "settings = excluded.settings, updated_at = excluded.updated_at",
                (surface, server_id, settings, now),
            )

    async def add_server_player(self, surface: str, server_id: str, player_id: int) -> None:
        async with self._transaction() as w:
            await w.execute(
                "INSERT OR IGNORE INTO server_players (surface, server_id, "
                "player_id) VALUES (?, ?, ?)",
                (surface, server_id, player_id),
            )

    # -- challenges ---------------------------------------------------------------------------

    async def create_challenge(self, row: dict) -> int:
        async with self._transaction() as w:
            cursor = await w.execute(
                "INSERT INTO challenges (challenger_id, opponent_id, rules, channel_surface, "
                "channel_id, options, status, created_at, expires_at) VALUES (:challenger_id, "
                ":opponent_id, :rules, :channel_surface, :channel_id, :options, 'open', "
                ":created_at, :expires_at)",
                row,
            )
        return cursor.lastrowid

    async def challenge(self, challenge_id: int) -> dict | None:
        return await self._one("SELECT * FROM challenges WHERE id = ?", (challenge_id,))

    async def close_challenge(self, challenge_id: int, status: str, now: float) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(
                "UPDATE challenges SET status = ?, answered_at = ? "
                "WHERE id = ? AND status = 'open'",
                (status, now, challenge_id),
            )
        return cursor.rowcount == 1

    async def accept_challenge(self, challenge_id: int, game: dict, now: float) -> int | None:
        async with self._transaction() as w:
            cursor = await w.execute(
                "UPDATE challenges SET status = 'accepted', answered_at = ? "
                "WHERE id = ? AND status = 'open'",
                (now, challenge_id),
            )
            if cursor.rowcount != 1:
                await w.rollback()
                return None
            game_id = await self._insert_game(game)
            await w.execute(
                "UPDATE challenges SET game_id = ? WHERE id = ?", (game_id, challenge_id)
            )
        return game_id

    async def open_challenges(self, player_id: int) -> list[dict]:
        return await self._all(
            "SELECT * FROM challenges WHERE status = 'open' AND (challenger_id = ? "
            "OR opponent_id = ?) ORDER BY id DESC",
            (player_id, player_id),
        )

    async def due_challenges(self, now: float) -> list[dict]:
        return await self._all(
            "SELECT * FROM challenges WHERE status = 'open' AND expires_at <= ?", (now,)
        )

    # -- games --------------------------------------------------------------------------------

    async def _insert_game(self, game: dict) -> int:
        try:
            cursor = await self._writer.execute(
                "INSERT INTO games (rules, south_id, north_id, channel_surface, channel_id, first,"
                " status, ply, board, mover, options, rated, created_at, last_move_at, remind_at,"
                " forfeit_at) VALUES (:rules, :south_id, :north_id, :channel_surface, "
                ":channel_id, :first, 'active', 0, :board, :mover, :options, :rated, "
                ":created_at, :last_move_at, :remind_at, :forfeit_at)",
                game,
            )
        except sqlite3.IntegrityError as err:
            if _is_channel_taken(err):
                raise ChannelTaken(f"{game['channel_surface']}:{game['channel_id']}") from None
            raise
        return cursor.lastrowid

    async def create_game(self, game: dict) -> int:
        async with self._transaction():
            return await self._insert_game(game)

    async def game(self, game_id: int) -> dict | None:
        return await self._one("SELECT * FROM games WHERE id = ?", (game_id,))

    async def active_game_in(self, channel_surface: str, channel_id: str) -> dict | None:
        return await self._one(
            "SELECT * FROM games WHERE channel_surface = ? AND channel_id = ? "
            "AND status = 'active'",
            (channel_surface, channel_id),
        )

    async def game_with_moves(self, game_id: int) -> tuple[dict | None, list[dict]]:
        async with self._snapshot_lock:
            await self._reader.execute("BEGIN")  # one snapshot: no commit lands in between
            try:
                game = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
                moves = await self.moves(game_id) if game else []
            finally:
                await self._reader.execute("COMMIT")
        return game, moves

    async def moves(self, game_id: int) -> list[dict]:
        return await self._all("SELECT * FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))

    async def _change_game(self, game_id: int, ply: int, changes: dict) -> bool:
        cursor = await self._writer.execute(
            f"UPDATE games SET {_set_clause(changes)} WHERE id = :_id AND ply = :_ply "
            "AND status = 'active'",
            {**changes, "_id": game_id, "_ply": ply},
        )
        return cursor.rowcount == 1

    async def record_move(
        self, game_id: int, ply: int, move: dict, changes: dict, ratings=()
    ) -> bool:
        # Group commit: moves arriving while a transaction is being written wait and go
        # together in the next one, so many games' moves share one commit.
        future = asyncio.get_running_loop().create_future()
        self._pending_moves.append((game_id, ply, move, changes, list(ratings), future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush_moves())
        return await future

    async def _flush_moves(self) -> None:
        while self._pending_moves:
            batch = self._pending_moves[:MAX_BATCH]
            del self._pending_moves[:MAX_BATCH]
            async with self._write_lock:
                try:
                    written = await self._write_batch(batch)
                except Exception:  # each move is retried alone below and gets its own error
                    with contextlib.suppress(Exception):
                        await self._writer.rollback()
                    written = False
                if written:
                    for *_, future in batch:
                        if not future.done():
                            future.set_result(True)
                    continue
                # Some move was stale (another process moved first) or failed: one at a time,
                # so each caller gets its own answer.
                for game_id, ply, move, changes, ratings, future in batch:
                    try:
                        result = await self._write_one(game_id, ply, move, changes, ratings)
                    except Exception as err:  # handed to the caller, who raises it
                        if not future.done():
                            future.set_exception(err)
                    else:
                        if not future.done():
                            future.set_result(result)

    async def _write_batch(self, batch) -> bool:
        """All of ``batch`` in one transaction, or nothing (False) if any move is stale."""
        w = self._writer
        groups: dict[tuple, list[dict]] = {}
        for game_id, ply, _move, changes, _ratings, _future in batch:
            params = {**changes, "ply": ply + 1, "_id": game_id, "_ply": ply}
            groups.setdefault(tuple(sorted(changes)), []).append(params)
        for columns, rows in groups.items():
            cursor = await w.executemany(
                f"UPDATE games SET {_set_clause(dict.fromkeys(columns + ('ply',)))} "
                "WHERE id = :_id AND ply = :_ply AND status = 'active'",
                rows,
            )
            if cursor.rowcount != len(rows):
                await w.rollback()
                return False
        await w.executemany(
            "INSERT INTO moves (game_id, ply, move, player_id, played_at, board, mover) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    ply + 1,
                    m["move"],
                    m["player_id"],
                    m["played_at"],
                    m["board"],
                    m["mover"],
                )
                for game_id, ply, m, *_ in batch
            ],
        )
        await self._upsert_ratings([r for *_, ratings, _f in batch for r in ratings])
        await w.commit()
        return True

    async def _write_one(self, game_id: int, ply: int, move: dict, changes: dict, ratings) -> bool:
        w = self._writer
        try:
            if not await self._change_game(game_id, ply, {**changes, "ply": ply + 1}):
                await w.rollback()
                return False
            await w.execute(
                "INSERT INTO moves (game_id, ply, move, player_id, played_at, board, mover) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    ply + 1,
                    move["move"],
                    move["player_id"],
                    move["played_at"],
                    move["board"],
                    move["mover"],
                ),
            )
            await self._upsert_ratings(ratings)
            await w.commit()
            return True
        except BaseException:
            await w.rollback()
            raise

    async def update_game(self, game_id: int, ply: int, changes: dict, ratings=()) -> bool:
        async with self._transaction() as w:
            if not await self._change_game(game_id, ply, changes):
                await w.rollback()
                return False
            await self._upsert_ratings(ratings)
        return True

    async def take_back(self, game_id: int, ply: int, to_ply: int, changes: dict) -> bool:
        async with self._transaction() as w:
            if not await self._change_game(game_id, ply, {**changes, "ply": to_ply}):
                await w.rollback()
                return False
            await w.execute("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, to_ply))
        return True

    async def games_of(self, player_id: int, include_finished: bool, limit: int) -> list[dict]:
        status = "" if include_finished else "AND status = 'active'"
        return await self._all(
            f"SELECT * FROM games WHERE (south_id = ? OR north_id = ?) {status} "
            "ORDER BY status = 'over', last_move_at DESC LIMIT ?",
            (player_id, player_id, limit),
        )

    async def due_clocks(self, now: float) -> list[dict]:
        return await self._all(queries.DUE_CLOCKS, (now, now))

    async def claim_lease(self, name: str, holder: str, now: float, seconds: float) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(queries.CLAIM_LEASE, (name, holder, now + seconds, now))
        return cursor.rowcount == 1

    async def release_lease(self, name: str, holder: str) -> None:
        async with self._transaction() as w:
            await w.execute("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))

    async def claim_reminder(self, game_id: int, ply: int, now: float) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(queries.CLAIM_REMINDER, (now, game_id, ply))
        return cursor.rowcount == 1

    async def games_awaiting_ai(self) -> list[dict]:
        return await self._all(queries.GAMES_AWAITING_AI)

    async def count_games(self, status: str | None = None) -> int:
        if status is None:
            row = await self._one("SELECT count(*) AS n FROM games")
        else:
            row = await self._one("SELECT count(*) AS n FROM games WHERE status = ?", (status,))
        return row["n"]

    # -- whole tables ---------------------------------------------------------------------------

    async def table_rows(self, table: str) -> list[dict]:
        return await self._all(queries.whole_table(table))

    async def insert_rows(self, table: str, rows: list[dict]) -> None:
        if not rows:
            return
        columns, table = list(rows[0]), queries.checked_table(table)
        async with self._transaction() as w:
            await w.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                f"({', '.join('?' * len(columns))})",
                [tuple(r[c] for c in columns) for r in rows],
            )

    # -- ratings ------------------------------------------------------------------------------

    async def rating(self, player_id: int, rules: str) -> dict | None:
        return await self._one(
            "SELECT * FROM ratings WHERE player_id = ? AND rules = ?", (player_id, rules)
        )

    async def leaderboard(
        self, rules: str, limit: int, server: tuple[str, str] | None = None
    ) -> list[dict]:
        if server is None:
            return await self._all(queries.LEADERBOARD, (rules, limit))
        return await self._all(queries.SERVER_LEADERBOARD, (rules, *server, limit))
