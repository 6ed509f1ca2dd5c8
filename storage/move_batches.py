"""Moves written to PostgreSQL in batches: the moves of many games in one statement.

Each move is a compare-and-set on its game's ply, a row in the move log and a notification to
the other processes. Written one statement per move, the bot's client library and the server
each spend most of a move's CPU on the statement itself (sending, parsing, planning,
committing), not on the rows. ``MoveBatcher`` writes every move that arrives while a batch is
on its way as the next batch, in one statement that unnests arrays of them: a batch costs
about what one move did, and nothing waits for a timer (with one player, each batch is one
move, written at once).

A move in a batch is applied exactly as alone: the compare-and-set is per row (a game whose
ply moved on is not changed, and its move is not logged), the log's row and the notification
come only with the change, and the statement is one transaction, so a crash leaves all of a
batch or none of it. A game appears at most once in a batch (a second move of one game waits
for the next), so its compare-and-set sees the first one's result.

>>> games = {"ply": "bigint", "board": "text"}
>>> moves = {"move": "text", "player_id": "bigint", "played_at": "double precision",
...          "board": "text", "mover": "bigint"}
>>> sql = batch_statement(("ply", "board"), games, moves)
>>> sql.split(" AS m(")[1].split(")")[0]
'id, seen, c_ply, c_board, m_move, m_player_id, m_played_at, m_board, m_mover, payload'
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from storage import queries
from storage.records import GameChanges

# The move log's columns a batch fills beyond the game's id and ply, in the order a move's
# ``logged`` fields come (queries.MOVE_COLUMNS'); their types are read from the server's
# catalog, as the games' are.
LOGGED_COLUMNS = tuple(column.strip() for column in queries.MOVE_COLUMNS.split(","))[2:]
MOST_PER_BATCH = 64  # notifications add up: keep a statement's work bounded
DEADLOCK_RETRIES = 3  # a batch the server cancelled to break a deadlock is sent again
COLUMN_TYPES = (
    "SELECT attrelid::regclass::text, attname, format_type(atttypid, atttypmod) "
    "FROM pg_attribute WHERE attrelid IN ('games'::regclass, 'moves'::regclass) "
    "AND attnum > 0 AND NOT attisdropped"
)


def batch_statement(
    columns: tuple[str, ...], types: dict[str, str], move_types: dict[str, str]
) -> str:
    """The statement that writes a batch of moves that change ``columns``. Parameters, each
    an array with one element per move: the games' ids, the plies their movers saw, the new
    value of each column, the move log's fields (``move_types``' order), the notifications'
    payloads; then the notification channel. It returns the ids of the games it changed."""
    queries.change_game(columns)  # refuses a column a change may not set
    fields = ["id", "seen", *(f"c_{c}" for c in columns)]
    fields += [*(f"m_{c}" for c in move_types), "payload"]
    array_types = ["bigint", "bigint", *(types[c] for c in columns), *move_types.values(), "text"]
    arrays = ", ".join(f"${i}::{t}[]" for i, t in enumerate(array_types, 1))
    sets = ", ".join(f"{c} = m.c_{c}" for c in columns)
    logged = ", ".join(f"m.m_{c}" for c in move_types)
    return (
        f"WITH m AS (SELECT * FROM unnest({arrays}) AS m({', '.join(fields)})), "
        f"changed AS (UPDATE games SET {sets} FROM m WHERE games.id = m.id "
        "AND games.ply = m.seen AND games.status = 'active' RETURNING games.id), "
        f"logged AS (INSERT INTO moves ({queries.MOVE_COLUMNS}) "
        f"SELECT m.id, m.seen + 1, {logged} FROM m JOIN changed ON changed.id = m.id "
        "RETURNING game_id) "
        f"SELECT logged.game_id, pg_notify(${len(array_types) + 1}, m.payload) "
        "FROM logged JOIN m ON m.id = logged.game_id"
    )


@dataclass
class _Move:
    columns: tuple[str, ...]
    game_id: int
    seen: int
    values: tuple[Any, ...]  # the columns' new values, in order
    logged: tuple[Any, ...]  # the move log's fields, in LOGGED_COLUMNS' order
    payload: str
    done: asyncio.Future[bool]


@dataclass(eq=False)
class MoveBatcher:
    """``await record(...)``: whether the move was applied (False: the game's ply had moved
    on). One batch is on its way at a time; the moves that arrive meanwhile make the next."""

    pool: Any  # an asyncpg pool
    channel: str
    _waiting: list[_Move] = field(default_factory=list)
    _writer: asyncio.Task[None] | None = None
    _types: dict[str, dict[str, str]] | None = None  # {table: {column: type}}, read once
    _statements: dict[tuple[str, ...], str] = field(default_factory=dict)

    async def record(
        self,
        game_id: int,
        seen_ply: int,
        changes: GameChanges,
        logged: Sequence[Any],
        payload: str,
    ) -> bool:
        values = queries.change_values(changes, game_id, seen_ply)[:-2]
        done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        move = _Move(tuple(changes), game_id, seen_ply, values, tuple(logged), payload, done)
        self._waiting.append(move)
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_waiting())
        return await done

    async def _write_waiting(self) -> None:
        try:
            while self._waiting:
                batch: list[_Move] = []
                later: list[_Move] = []
                seen_games: set[int] = set()
                for move in self._waiting:
                    if move.done.done():  # its caller gave up before it was sent
                        continue
                    if move.game_id in seen_games or len(batch) >= MOST_PER_BATCH:
                        later.append(move)
                    else:
                        seen_games.add(move.game_id)
                        batch.append(move)
                self._waiting = later
                if batch:
                    await self._write(batch)
        finally:
            self._writer = None

    async def _fetch_retrying(self, statement: str, *args: Any) -> list[Any]:
        """Run a batch, again if the server broke a deadlock by cancelling it: two processes
        writing batches that share games may lock their rows in opposite orders. A cancelled
        statement changed nothing (it is one transaction), and each move in it is still its
        own compare-and-set, so running it again applies each move at most once."""
        import asyncpg

        for attempt in range(DEADLOCK_RETRIES):
            with contextlib.suppress(asyncpg.DeadlockDetectedError):
                return list(await self.pool.fetch(statement, *args))
            await asyncio.sleep(0.01 * (attempt + 1))  # let the other transaction finish
        return list(await self.pool.fetch(statement, *args))  # the last try raises

    async def _write(self, batch: list[_Move]) -> None:
        try:
            if self._types is None:
                types: dict[str, dict[str, str]] = {"games": {}, "moves": {}}
                for table, column, type_name in await self.pool.fetch(COLUMN_TYPES):
                    types[table][column] = type_name
                self._types = types
            applied: set[int] = set()
            by_columns: dict[tuple[str, ...], list[_Move]] = {}
            for move in batch:
                by_columns.setdefault(move.columns, []).append(move)
            for columns, moves in by_columns.items():
                statement = self._statements.get(columns)
                if statement is None:
                    move_types = {c: self._types["moves"][c] for c in LOGGED_COLUMNS}
                    statement = batch_statement(columns, self._types["games"], move_types)
                    self._statements[columns] = statement
                moves.sort(key=lambda m: m.game_id)  # one lock order in every process
                rows = await self._fetch_retrying(statement, *_arrays(moves), self.channel)
                applied.update(row[0] for row in rows)
        except asyncio.CancelledError:  # the storage is closing
            for move in batch:
                move.done.cancel()
            raise
        except Exception as err:  # each caller hears it (a lost connection: unavailable)
            for move in batch:
                if not move.done.done():
                    move.done.set_exception(err)
            return
        for move in batch:
            if not move.done.done():
                move.done.set_result(move.game_id in applied)


def _arrays(moves: list[_Move]) -> list[list[Any]]:
    """The statement's array parameters: one array per field, one element per move."""
    arrays: list[list[Any]] = [[m.game_id for m in moves], [m.seen for m in moves]]
    arrays += [list(column) for column in zip(*(m.values for m in moves), strict=True)]
    arrays += [list(column) for column in zip(*(m.logged for m in moves), strict=True)]
    arrays.append([m.payload for m in moves])
    return arrays
