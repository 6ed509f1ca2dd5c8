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
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from engine.translation import _
from storage import queries
from storage.base import ChannelTaken, Storage, StorageError
from storage.migrations import LATEST, MIGRATIONS
from storage.records import (
    ChallengeRecord,
    ChallengeStatus,
    DigestRecord,
    DigestSettingRecord,
    Established,
    GameChanges,
    GameRecord,
    GameStatus,
    HeadToHeadRecord,
    MoveRecord,
    NewChallenge,
    NewGame,
    NewMove,
    NewPairing,
    NewPremove,
    NewPuzzleAttempt,
    NewTournament,
    PingMode,
    PlayerRecord,
    PremoveRecord,
    PuzzleStandingRecord,
    RatingRecord,
    TournamentGameRecord,
    TournamentPlayerRecord,
    TournamentRecord,
    TournamentStatus,
    VacationRecord,
)

MAX_BATCH = 256  # moves per group commit
CHECKPOINT_EVERY = 0.5  # seconds between WAL checkpoints (0: SQLite's own, inside commits)


async def open_sqlite(path: str | Path, durable: bool = False) -> SQLiteStorage:
    """Open (creating the file and its folder, and migrating) the database at ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    store = SQLiteStorage(path, durable)
    await store._open()
    return store


@dataclass
class _PendingMove:
    """A move waiting for the next group commit; ``future`` answers its caller."""

    game_id: int
    ply: int
    move: NewMove
    changes: GameChanges
    ratings: list[RatingRecord]
    future: asyncio.Future[bool]


def _new_id(cursor: aiosqlite.Cursor) -> int:
    if cursor.lastrowid is None:
        raise StorageError("SQLite gave no id for a new row")
    return cursor.lastrowid


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
        self._pending_moves: list[_PendingMove] = []
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
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        for conn in (self._checkpoints, self._reader, self._writer):
            if conn is not None:
                await conn.close()
        self._checkpoints = self._reader = self._writer = None

    # -- helpers ------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction under the write lock: committed when the block ends, rolled
        back if it raises. A block whose compare-and-set did not match rolls back itself and
        returns; the commit that follows then has nothing to commit."""
        async with self._write_lock:
            writer = self._write
            try:
                yield writer
            except BaseException:
                await writer.rollback()
                raise
            await writer.commit()

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        rows = list(await self._read.execute_fetchall(sql, params))
        return dict(rows[0]) if rows else None

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        return [dict(row) for row in await self._read.execute_fetchall(sql, params)]

    async def _upsert_ratings(self, ratings: Iterable[RatingRecord]) -> None:
        await self._write.executemany(queries.UPSERT_RATING, queries.rating_values(ratings))

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

    # -- players ------------------------------------------------------------------------------

    async def player_id(self, surface: str, external_id: str, now: float) -> int:
        row = await self._one(queries.PLAYER_ID, (surface, external_id))
        if row:
            return int(row["id"])
        async with self._transaction() as w:
            await w.execute(queries.ADD_PLAYER, (surface, external_id, now))
            rows = list(await w.execute_fetchall(queries.PLAYER_ID, (surface, external_id)))
        return int(rows[0][0])

    async def player(self, player_id: int) -> PlayerRecord | None:
        row = await self._one(queries.PLAYER, (player_id,))
        return PlayerRecord.from_row(row) if row else None

    async def set_display_name(self, player_id: int, name: str) -> None:
        async with self._transaction() as w:
            await w.execute(queries.SET_DISPLAY_NAME, (name, player_id))

    async def set_ping(self, player_id: int, ping: PingMode) -> None:
        async with self._transaction() as w:
            await w.execute(queries.SET_PING, (ping.value, player_id))

    async def set_language(self, player_id: int, language: str | None) -> None:
        async with self._transaction() as w:
            await w.execute(queries.SET_LANGUAGE, (language, player_id))

    async def set_language_seen(self, player_id: int, language: str) -> None:
        async with self._transaction() as w:
            await w.execute(queries.SET_LANGUAGE_SEEN, (language, player_id))

    async def find_player(self, surface: str, external_id: str) -> PlayerRecord | None:
        row = await self._one(queries.FIND_PLAYER, (surface, external_id))
        return PlayerRecord.from_row(row) if row else None

    # -- servers ------------------------------------------------------------------------------

    async def server_settings(self, surface: str, server_id: str) -> str | None:
        row = await self._one(queries.SERVER_SETTINGS, (surface, server_id))
        return str(row["settings"]) if row else None

    async def set_server_settings(
        self, surface: str, server_id: str, settings: str, now: float
    ) -> None:
        async with self._transaction() as w:
            await w.execute(queries.SET_SERVER_SETTINGS, (surface, server_id, settings, now))

    async def add_server_player(self, surface: str, server_id: str, player_id: int) -> None:
        async with self._transaction() as w:
            await w.execute(queries.ADD_SERVER_PLAYER, (surface, server_id, player_id))

    # -- challenges ---------------------------------------------------------------------------

    async def create_challenge(self, challenge: NewChallenge) -> int:
        async with self._transaction() as w:
            cursor = await w.execute(queries.INSERT_CHALLENGE, queries.challenge_values(challenge))
        return _new_id(cursor)

    async def challenge(self, challenge_id: int) -> ChallengeRecord | None:
        row = await self._one(queries.CHALLENGE, (challenge_id,))
        return ChallengeRecord.from_row(row) if row else None

    async def close_challenge(self, challenge_id: int, status: ChallengeStatus, now: float) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(queries.CLOSE_CHALLENGE, (status.value, now, challenge_id))
        return cursor.rowcount == 1

    async def accept_challenge(self, challenge_id: int, game: NewGame, now: float) -> int | None:
        async with self._transaction() as w:
            cursor = await w.execute(queries.ACCEPT_CHALLENGE, (now, challenge_id))
            if cursor.rowcount != 1:
                await w.rollback()
                return None
            game_id = await self._insert_game(game)
            await w.execute(queries.CHALLENGE_GAME, (game_id, challenge_id))
        return game_id

    async def open_challenges(self, player_id: int) -> list[ChallengeRecord]:
        rows = await self._all(queries.OPEN_CHALLENGES, (player_id, player_id))
        return [ChallengeRecord.from_row(row) for row in rows]

    async def due_challenges(self, now: float) -> list[ChallengeRecord]:
        rows = await self._all(queries.DUE_CHALLENGES, (now,))
        return [ChallengeRecord.from_row(row) for row in rows]

    # -- games --------------------------------------------------------------------------------

    async def _insert_game(self, game: NewGame) -> int:
        try:
            cursor = await self._write.execute(queries.INSERT_GAME, queries.game_values(game))
        except sqlite3.IntegrityError as err:
            if _is_channel_taken(err):
                raise ChannelTaken(f"{game['channel_surface']}:{game['channel_id']}") from None
            raise
        return _new_id(cursor)

    async def create_game(self, game: NewGame) -> int:
        async with self._transaction():
            return await self._insert_game(game)

    async def game(self, game_id: int) -> GameRecord | None:
        row = await self._one(queries.GAME, (game_id,))
        return GameRecord.from_row(row) if row else None

    async def active_game_in(self, channel_surface: str, channel_id: str) -> GameRecord | None:
        row = await self._one(queries.ACTIVE_GAME_IN, (channel_surface, channel_id))
        return GameRecord.from_row(row) if row else None

    async def game_with_moves(self, game_id: int) -> tuple[GameRecord | None, list[MoveRecord]]:
        async with self._snapshot_lock:
            await self._read.execute("BEGIN")  # one snapshot: no commit lands in between
            try:
                game = await self.game(game_id)
                moves = await self.moves(game_id) if game else []
            finally:
                await self._read.execute("COMMIT")
        return game, moves

    async def moves(self, game_id: int) -> list[MoveRecord]:
        return [MoveRecord.from_row(row) for row in await self._all(queries.MOVES, (game_id,))]

    async def _change_game(self, game_id: int, ply: int, changes: GameChanges) -> bool:
        cursor = await self._write.execute(
            queries.change_game(tuple(changes)), queries.change_values(changes, game_id, ply)
        )
        return cursor.rowcount == 1

    async def record_move(
        self,
        game_id: int,
        ply: int,
        move: NewMove,
        changes: GameChanges,
        ratings: Sequence[RatingRecord] = (),
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
        await self._upsert_ratings([r for pending in batch for r in pending.ratings])
        await w.commit()
        return True

    async def _write_one(self, pending: _PendingMove) -> bool:
        w = self._write
        try:
            if not await self._change_game(pending.game_id, pending.ply, pending.changes):
                await w.rollback()
                return False
            await w.execute(
                queries.INSERT_MOVE,
                queries.move_values(pending.game_id, pending.ply + 1, pending.move),
            )
            await self._upsert_ratings(pending.ratings)
            await w.commit()
            return True
        except BaseException:
            await w.rollback()
            raise

    async def update_game(
        self, game_id: int, ply: int, changes: GameChanges, ratings: Sequence[RatingRecord] = ()
    ) -> bool:
        async with self._transaction() as w:
            if not await self._change_game(game_id, ply, changes):
                await w.rollback()
                return False
            await self._upsert_ratings(ratings)
        return True

    async def take_back(self, game_id: int, ply: int, to_ply: int, changes: GameChanges) -> bool:
        async with self._transaction() as w:
            if not await self._change_game(game_id, ply, {**changes, "ply": to_ply}):
                await w.rollback()
                return False
            await w.execute(queries.TAKE_BACK, (game_id, to_ply))
        return True

    async def games_of(
        self, player_id: int, include_finished: bool, limit: int
    ) -> list[GameRecord]:
        rows = await self._all(queries.games_of(include_finished), (player_id, player_id, limit))
        return [GameRecord.from_row(row) for row in rows]

    async def due_clocks(self, now: float) -> list[GameRecord]:
        return [GameRecord.from_row(row) for row in await self._all(queries.DUE_CLOCKS, (now, now))]

    async def claim_lease(self, name: str, holder: str, now: float, seconds: float) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(queries.CLAIM_LEASE, (name, holder, now + seconds, now))
        return cursor.rowcount == 1

    async def release_lease(self, name: str, holder: str) -> None:
        async with self._transaction() as w:
            await w.execute(queries.RELEASE_LEASE, (name, holder))

    async def claim_reminder(self, game_id: int, ply: int, now: float) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(queries.CLAIM_REMINDER, (now, game_id, ply))
        return cursor.rowcount == 1

    async def games_awaiting_ai(self) -> list[GameRecord]:
        return [GameRecord.from_row(row) for row in await self._all(queries.GAMES_AWAITING_AI)]

    async def count_games(self, status: GameStatus | None = None) -> int:
        if status is None:
            row = await self._one("SELECT count(*) AS n FROM games")
        else:
            row = await self._one(
                "SELECT count(*) AS n FROM games WHERE status = ?", (status.value,)
            )
        return int(row["n"]) if row else 0

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

    async def rating(self, player_id: int, family: str) -> RatingRecord | None:
        row = await self._one(queries.RATING, (player_id, family))
        return RatingRecord.from_row(row) if row else None

    async def leaderboard(
        self,
        family: str,
        limit: int,
        server: tuple[str, str] | None = None,
        established: Established | None = None,
    ) -> list[RatingRecord]:
        rows = await self._all(
            queries.leaderboard(server is not None, established is not None),
            queries.leaderboard_values(family, limit, server, established),
        )
        return [RatingRecord.from_row(row) for row in rows]

    async def head_to_head(self, first_id: int, second_id: int) -> list[HeadToHeadRecord]:
        rows = await self._all(
            queries.HEAD_TO_HEAD, queries.head_to_head_values(first_id, second_id)
        )
        return [HeadToHeadRecord.from_row(row) for row in rows]

    # -- puzzles --------------------------------------------------------------------------------

    async def record_puzzle_attempt(self, attempt: NewPuzzleAttempt) -> bool:
        values = queries.attempt_values(attempt)
        async with self._transaction() as w:
            cursor = await w.execute(queries.INSERT_COUNTED_ATTEMPT, values)
            counted = cursor.rowcount == 1
            if not counted:
                await w.execute(queries.INSERT_PRACTICE_ATTEMPT, values)
        return counted

    async def puzzles_seen(self, player_id: int) -> set[str]:
        rows = await self._all(queries.PUZZLES_SEEN, (player_id,))
        return {str(row["puzzle_id"]) for row in rows}

    async def puzzle_standing(self, player_id: int) -> PuzzleStandingRecord | None:
        row = await self._one(queries.puzzle_standings(server=False), (player_id, 1))
        return PuzzleStandingRecord.from_row(row) if row else None

    async def puzzle_board(self, server: str, limit: int) -> list[PuzzleStandingRecord]:
        rows = await self._all(queries.puzzle_standings(server=True), (server, limit))
        return [PuzzleStandingRecord.from_row(row) for row in rows]

    # -- tournaments ----------------------------------------------------------------------------

    async def create_tournament(self, tournament: NewTournament) -> int:
        async with self._transaction() as w:
            cursor = await w.execute(
                queries.INSERT_TOURNAMENT, queries.tournament_values(tournament)
            )
        return _new_id(cursor)

    async def tournament(self, tournament_id: int) -> TournamentRecord | None:
        row = await self._one(queries.TOURNAMENT, (tournament_id,))
        return TournamentRecord.from_row(row) if row else None

    async def tournaments(
        self, status: TournamentStatus | None, player_id: int | None, limit: int
    ) -> list[TournamentRecord]:
        values = (*([status.value] if status else []), *([player_id] if player_id else []), limit)
        rows = await self._all(
            queries.tournaments(status is not None, player_id is not None), values
        )
        return [TournamentRecord.from_row(row) for row in rows]

    async def due_tournaments(self, now: float) -> list[TournamentRecord]:
        rows = await self._all(queries.DUE_TOURNAMENTS, (now,))
        return [TournamentRecord.from_row(row) for row in rows]

    async def tournament_players(self, tournament_id: int) -> list[TournamentPlayerRecord]:
        rows = await self._all(queries.TOURNAMENT_PLAYERS, (tournament_id,))
        return [TournamentPlayerRecord.from_row(row) for row in rows]

    async def join_tournament(
        self, tournament_id: int, player_id: int, rating: float, now: float, most: int
    ) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(
                queries.JOIN_TOURNAMENT,
                (tournament_id, player_id, now, rating, tournament_id, tournament_id, most),
            )
        return cursor.rowcount == 1

    async def withdraw_from_tournament(
        self, tournament_id: int, player_id: int, now: float
    ) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(
                queries.LEAVE_OPEN_TOURNAMENT, (tournament_id, player_id, tournament_id)
            )
            if cursor.rowcount != 1:
                cursor = await w.execute(queries.WITHDRAW, (now, tournament_id, player_id))
        return cursor.rowcount == 1

    async def start_tournament(
        self,
        tournament_id: int,
        rounds: int,
        now: float,
        seeds: Sequence[tuple[int, int, float]],
    ) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(queries.START_TOURNAMENT, (rounds, now, tournament_id))
            if cursor.rowcount != 1:
                await w.rollback()
                return False
            await w.executemany(
                queries.SEED_PLAYER,
                [(seed, rating, tournament_id, player) for player, seed, rating in seeds],
            )
        return True

    async def begin_round(
        self, tournament_id: int, round_no: int, pairings: Sequence[NewPairing], now: float
    ) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(queries.BEGIN_ROUND, (round_no, tournament_id, round_no - 1))
            if cursor.rowcount != 1:
                await w.rollback()
                return False
            await w.executemany(
                queries.INSERT_PAIRING,
                queries.pairing_values(tournament_id, round_no, pairings, now),
            )
        return True

    async def create_tournament_game(
        self, tournament_id: int, round_no: int, board: int, game: NewGame
    ) -> int | None:
        async with self._transaction() as w:
            game_id = await self._insert_game(game)
            cursor = await w.execute(
                queries.SET_PAIRING_GAME, (game_id, tournament_id, round_no, board)
            )
            if cursor.rowcount != 1:
                await w.rollback()
                return None
        return game_id

    async def record_tournament_results(self, tournament_id: int, now: float) -> int:
        async with self._transaction() as w:
            cursor = await w.execute(queries.RECORD_RESULTS, (now, tournament_id))
        return max(cursor.rowcount, 0)

    async def tournament_games(self, tournament_id: int) -> list[TournamentGameRecord]:
        rows = await self._all(queries.TOURNAMENT_GAMES, (tournament_id,))
        return [TournamentGameRecord.from_row(row) for row in rows]

    async def tournament_of_game(self, game_id: int) -> int | None:
        row = await self._one(queries.TOURNAMENT_OF_GAME, (game_id,))
        return int(row["tournament_id"]) if row else None

    async def claim_tournament_news(self, tournament_id: int, round_no: int) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(
                queries.CLAIM_TOURNAMENT_NEWS, (round_no, tournament_id, round_no)
            )
        return cursor.rowcount == 1

    async def end_tournament(
        self,
        tournament_id: int,
        status: TournamentStatus,
        now: float,
        ending: Sequence[TournamentStatus],
    ) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(
                queries.END_TOURNAMENT, queries.end_values(tournament_id, status, now, ending)
            )
        return cursor.rowcount == 1

    # -- correspondence on a human schedule -----------------------------------------------------

    async def start_vacation(self, player_id: int, started_at: float, ends_at: float) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(queries.START_VACATION, (player_id, started_at, ends_at))
        return cursor.rowcount == 1

    async def open_vacations(self, player_id: int | None = None) -> list[VacationRecord]:
        if player_id is None:
            rows = await self._all(queries.OPEN_VACATIONS)
        else:
            rows = await self._all(queries.OPEN_VACATION, (player_id,))
        return [VacationRecord.from_row(row) for row in rows]

    async def vacations_since(self, player_id: int, since: float) -> list[VacationRecord]:
        rows = await self._all(queries.VACATIONS_SINCE, (player_id, since))
        return [VacationRecord.from_row(row) for row in rows]

    async def end_vacation(self, vacation: VacationRecord, ended_at: float) -> list[int] | None:
        async with self._transaction() as w:
            cursor = await w.execute(queries.END_VACATION, (ended_at, vacation.id))
            if cursor.rowcount != 1:
                await w.rollback()
                return None
            moved = await w.execute_fetchall(
                queries.SHIFT_DEADLINES,
                queries.shift_values(vacation.player_id, vacation.started_at, ended_at),
            )
        return [int(row[0]) for row in moved]

    async def set_digest(
        self, player_id: int, hour: int | None, first_day: int, now: float
    ) -> None:
        async with self._transaction() as w:
            if hour is None:
                await w.execute(queries.UNSET_DIGEST, (player_id,))
            else:
                await w.execute(queries.SET_DIGEST, (player_id, hour, first_day, now))

    async def digest_setting(self, player_id: int) -> DigestSettingRecord | None:
        row = await self._one(queries.DIGEST_SETTING, (player_id,))
        return DigestSettingRecord.from_row(row) if row else None

    async def due_digests(self, day: int, hour: int) -> list[DigestSettingRecord]:
        rows = await self._all(queries.DUE_DIGESTS, (day, hour, day))
        return [DigestSettingRecord.from_row(row) for row in rows]

    async def claim_digest(self, player_id: int, day: int, now: float, games: str) -> bool:
        async with self._transaction() as w:
            cursor = await w.execute(queries.CLAIM_DIGEST, (player_id, day, now, games))
        return cursor.rowcount == 1

    async def digest(self, player_id: int, day: int) -> DigestRecord | None:
        row = await self._one(queries.DIGEST, (player_id, day))
        return DigestRecord.from_row(row) if row else None

    async def premoves(self, game_id: int, player_id: int | None = None) -> list[PremoveRecord]:
        if player_id is None:
            rows = await self._all(queries.GAME_PREMOVES, (game_id,))
        else:
            rows = await self._all(queries.PREMOVES, (game_id, player_id))
        return [PremoveRecord.from_row(row) for row in rows]

    async def set_premoves(
        self,
        game_id: int,
        player_id: int,
        premoves: Sequence[NewPremove],
        now: float,
        replace: bool,
    ) -> None:
        async with self._transaction() as w:
            if replace:
                await w.execute(queries.CLEAR_PREMOVES, (game_id, player_id))
            await w.executemany(
                queries.ADD_PREMOVE, queries.premove_values(game_id, player_id, premoves, now)
            )

    async def take_premoves(self, game_id: int, player_id: int) -> list[PremoveRecord]:
        async with self._transaction() as w:
            rows = await w.execute_fetchall(queries.TAKE_PREMOVES, (game_id, player_id))
        return [PremoveRecord.from_row(dict(row)) for row in rows]
