"""Games and their move log: create, read, change by compare-and-set on the ply, take back;
the clocks and leases that the deadline tick claims."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from storage import queries
from storage.driver import Connection, Driver, Rollback, UniqueViolation
from storage.errors import ChannelTaken
from storage.records import (
    GameChanges,
    GameRecord,
    GameStatus,
    MoveRecord,
    NewGame,
    NewMove,
    RatingRecord,
)
from storage.stores.ratings import upsert_ratings

NEW_GAME_COLUMNS = tuple(NewGame.__annotations__)

INSERT_GAME = (
    f"INSERT INTO games ({', '.join(NEW_GAME_COLUMNS)}, status, ply) "
    f"VALUES ({', '.join('?' * len(NEW_GAME_COLUMNS))}, 'active', 0)"
)


def game_values(game: NewGame) -> tuple[Any, ...]:
    return tuple(queries.plain(game[column]) for column in NEW_GAME_COLUMNS)  # type: ignore[literal-required]


TAKE_BACK = "DELETE FROM moves WHERE game_id = ? AND ply > ?"  # parameters: game id, ply
GAME = "SELECT * FROM games WHERE id = ?"
MOVES = "SELECT * FROM moves WHERE game_id = ? ORDER BY ply"

ACTIVE_GAME_IN = (  # parameters: channel surface, channel id
    "SELECT * FROM games WHERE channel_surface = ? AND channel_id = ? AND status = 'active'"
)


def games_of(include_finished: bool) -> str:
    """A player's games, unfinished first (parameters: player id twice, limit)."""
    status = "" if include_finished else "AND status = 'active' "
    return (
        f"SELECT * FROM games WHERE (south_id = ? OR north_id = ?) {status}"
        "ORDER BY status = 'over', last_move_at DESC LIMIT ?"
    )


RELEASE_LEASE = "DELETE FROM leases WHERE name = ? AND holder = ?"

GAMES_AWAITING_AI = (
    "SELECT g.* FROM games g JOIN players p "
    "ON p.id = CASE g.mover WHEN 0 THEN g.south_id ELSE g.north_id END "
    "WHERE g.status = 'active' AND p.surface = 'ai'"
)

DUE_CLOCKS = (  # parameters: now, now
    "SELECT * FROM games WHERE status = 'active' AND (forfeit_at <= ? "
    "OR (remind_at <= ? AND reminded_at IS NULL))"
)

CLAIM_REMINDER = (  # parameters: now, game id, ply
    "UPDATE games SET reminded_at = ? WHERE id = ? AND ply = ? "
    "AND status = 'active' AND reminded_at IS NULL"
)

CLAIM_LEASE = (  # parameters: name, holder, until, now
    "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?) "
    "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
    "expires_at = excluded.expires_at "
    "WHERE leases.holder = excluded.holder OR leases.expires_at < ?"
)


async def insert_game(tx: Connection, game: NewGame) -> int:
    """A new game inside the caller's transaction (accepting a challenge, pairing a round
    make one too); ``ChannelTaken`` if the channel has an active game already."""
    try:
        return await tx.insert(INSERT_GAME, *game_values(game))
    except UniqueViolation as err:
        if "games.channel_surface" in str(err) or "games_active_channel" in str(err):
            raise ChannelTaken(f"{game['channel_surface']}:{game['channel_id']}") from None
        raise


async def change_game(tx: Connection, game_id: int, ply: int, changes: GameChanges) -> bool:
    """The compare-and-set every change of a game goes through: False if its ply moved on."""
    sql = queries.change_game(tuple(changes))
    return await tx.execute(sql, *queries.change_values(changes, game_id, ply)) == 1


class GameStore:
    """Every method that changes a game takes the ply the caller last saw and changes nothing
    (returning False) when the stored ply differs: that compare-and-set, with the primary key
    on (game_id, ply) of the move log, is what makes a move apply exactly once even with
    several processes on one database."""

    def __init__(self, db: Driver) -> None:
        self.db = db

    async def watch(self, callback: Callable[[int | None], None]) -> bool:
        """Hear of every change of a game another process commits: ``callback(game_id)``, and
        ``callback(None)`` once if the database stops telling. False where the database
        cannot tell (SQLite)."""
        return await self.db.watch_games(callback)

    async def create(self, game: NewGame) -> int:
        async with self.db.transaction() as tx:
            return await insert_game(tx, game)

    async def get(self, game_id: int) -> GameRecord | None:
        row = await self.db.one(GAME, game_id)
        return GameRecord.from_row(row) if row else None

    async def active_in(self, channel_surface: str, channel_id: str) -> GameRecord | None:
        row = await self.db.one(ACTIVE_GAME_IN, channel_surface, channel_id)
        return GameRecord.from_row(row) if row else None

    async def with_moves(self, game_id: int) -> tuple[GameRecord | None, list[MoveRecord]]:
        """A game and its moves as of one moment."""
        async with self.db.snapshot() as tx:
            row = await tx.one(GAME, game_id)
            moves = await tx.all(MOVES, game_id) if row else []
        return (GameRecord.from_row(row) if row else None), [MoveRecord.from_row(m) for m in moves]

    async def moves(self, game_id: int) -> list[MoveRecord]:
        return [MoveRecord.from_row(row) for row in await self.db.all(MOVES, game_id)]

    async def record_move(
        self,
        game_id: int,
        ply: int,
        move: NewMove,
        changes: GameChanges,
        ratings: Sequence[RatingRecord] = (),
    ) -> bool:
        """Append ``move`` as ply ``ply + 1`` and apply ``changes`` (the ply is set for you),
        with the ratings a game's end changed; False if the game had moved on."""
        return await self.db.record_move(game_id, ply, move, changes, ratings)

    async def update(
        self, game_id: int, ply: int, changes: GameChanges, ratings: Sequence[RatingRecord] = ()
    ) -> bool:
        """Change a game without a move (an offer, a resignation, a forfeit)."""
        async with self.db.transaction() as tx:
            if not await change_game(tx, game_id, ply, changes):
                raise Rollback
            await upsert_ratings(tx, game_id, ratings)
            await tx.announce(game_id)
            return True
        return False

    async def take_back(self, game_id: int, ply: int, to_ply: int, changes: GameChanges) -> bool:
        """Undo the moves after ``to_ply``."""
        async with self.db.transaction() as tx:
            if not await change_game(tx, game_id, ply, {**changes, "ply": to_ply}):
                raise Rollback
            await tx.execute(TAKE_BACK, game_id, to_ply)
            await tx.announce(game_id)
            return True
        return False

    async def of_player(
        self, player_id: int, include_finished: bool, limit: int
    ) -> list[GameRecord]:
        """A player's games, newest first."""
        sql = games_of(include_finished)
        return [GameRecord.from_row(r) for r in await self.db.all(sql, player_id, player_id, limit)]

    async def due_clocks(self, now: float) -> list[GameRecord]:
        """Active games whose reminder or forfeit is due."""
        return [GameRecord.from_row(r) for r in await self.db.all(DUE_CLOCKS, now, now)]

    async def claim_reminder(self, game_id: int, ply: int, now: float) -> bool:
        """True for the one process that sends this reminder."""
        return await self.db.execute(CLAIM_REMINDER, now, game_id, ply) == 1

    async def awaiting_ai(self) -> list[GameRecord]:
        """Active games where it is an AI's turn."""
        return [GameRecord.from_row(r) for r in await self.db.all(GAMES_AWAITING_AI)]

    async def count(self, status: GameStatus | None = None) -> int:
        if status is None:
            row = await self.db.one("SELECT count(*) AS n FROM games")
        else:
            row = await self.db.one(
                "SELECT count(*) AS n FROM games WHERE status = ?", status.value
            )
        return int(row["n"]) if row else 0

    async def claim_lease(self, name: str, holder: str, now: float, seconds: float) -> bool:
        """Hold the lease ``name`` (a job one process of several does) for ``seconds``."""
        return await self.db.execute(CLAIM_LEASE, name, holder, now + seconds, now) == 1

    async def release_lease(self, name: str, holder: str) -> None:
        await self.db.execute(RELEASE_LEASE, name, holder)
