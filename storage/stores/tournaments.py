"""Tournaments as stored step by step: entries, the start with its seeds, each round's
pairings and games, results, the news of a round claimed once, the end."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Any

from storage import queries
from storage.driver import Driver, Rollback
from storage.records import (
    NewGame,
    NewPairing,
    NewTournament,
    TournamentGameRecord,
    TournamentPlayerRecord,
    TournamentRecord,
    TournamentStatus,
)
from storage.stores.games import insert_game

NEW_TOURNAMENT_COLUMNS = tuple(NewTournament.__annotations__)

INSERT_TOURNAMENT = (
    f"INSERT INTO tournaments ({', '.join(NEW_TOURNAMENT_COLUMNS)}, status) "
    f"VALUES ({', '.join('?' * len(NEW_TOURNAMENT_COLUMNS))}, 'open')"
)


def tournament_values(tournament: NewTournament) -> tuple[Any, ...]:
    return tuple(queries.plain(tournament[column]) for column in NEW_TOURNAMENT_COLUMNS)  # type: ignore[literal-required]


TOURNAMENT = "SELECT * FROM tournaments WHERE id = ?"

DUE_TOURNAMENTS = (  # parameters: now
    "SELECT * FROM tournaments WHERE status = 'running' "
    "OR (status = 'open' AND starts_at <= ?) ORDER BY id"
)


def tournaments(status: bool, player: bool) -> str:
    """Tournaments, newest first (parameters: [status], [player id], limit)."""
    join = "JOIN tournament_players p ON p.tournament_id = t.id " if player else ""
    where = [*(["t.status = ?"] if status else []), *(["p.player_id = ?"] if player else [])]
    condition = f"WHERE {' AND '.join(where)} " if where else ""
    return f"SELECT t.* FROM tournaments t {join}{condition}ORDER BY t.id DESC LIMIT ?"


TOURNAMENT_PLAYERS = (
    "SELECT * FROM tournament_players WHERE tournament_id = ? ORDER BY joined_at, player_id"
)

# A player joins while the tournament is open (an arena: also while it runs), if it has room;
# one who withdrew from a running arena comes back. Parameters: tournament, player, now,
# rating, tournament, tournament, most players.
JOIN_TOURNAMENT = (
    "INSERT INTO tournament_players (tournament_id, player_id, joined_at, rating) "
    "SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS DOUBLE PRECISION), "
    "CAST(? AS DOUBLE PRECISION) WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND "
    "(status = 'open' OR (status = 'running' AND format = 'arena'))) "
    "AND (SELECT count(*) FROM tournament_players "
    "WHERE tournament_id = ? AND withdrawn_at IS NULL) < ? "
    "ON CONFLICT (tournament_id, player_id) DO UPDATE SET withdrawn_at = NULL, "
    "joined_at = excluded.joined_at, rating = excluded.rating "
    "WHERE tournament_players.withdrawn_at IS NOT NULL"
)

LEAVE_OPEN_TOURNAMENT = (  # before the start a player just leaves: tournament, player, tournament
    "DELETE FROM tournament_players WHERE tournament_id = ? AND player_id = ? "
    "AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'open')"
)

WITHDRAW = (  # parameters: now, tournament, player
    "UPDATE tournament_players SET withdrawn_at = ? "
    "WHERE tournament_id = ? AND player_id = ? AND withdrawn_at IS NULL"
)

START_TOURNAMENT = (  # parameters: rounds, now, tournament
    "UPDATE tournaments SET status = 'running', rounds = ?, started_at = ? "
    "WHERE id = ? AND status = 'open'"
)

SEED_PLAYER = (  # parameters: seed, rating, tournament, player
    "UPDATE tournament_players SET seed = ?, rating = ? WHERE tournament_id = ? AND player_id = ?"
)

# The compare-and-set that begins a round once (parameters: the round, the tournament, the
# round before it); its pairings are written in the same transaction.
BEGIN_ROUND = (
    "UPDATE tournaments SET current_round = ? "
    "WHERE id = ? AND current_round = ? AND status = 'running'"
)

INSERT_PAIRING = (  # parameters: pairing_values
    "INSERT INTO tournament_games "
    "(tournament_id, round, board, south_id, north_id, kind, result, recorded_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def pairing_values(
    tournament_id: int, round_no: int, pairings: Iterable[NewPairing], now: float
) -> list[tuple[Any, ...]]:
    return [
        (
            tournament_id,
            round_no,
            p["board"],
            p["south_id"],
            p["north_id"],
            queries.plain(p["kind"]),
            queries.plain(p["result"]),
            now if p["result"] is not None else None,
        )
        for p in pairings
    ]


SET_PAIRING_GAME = (  # parameters: game, tournament, round, board
    "UPDATE tournament_games SET game_id = ? WHERE tournament_id = ? AND round = ? "
    "AND board = ? AND kind = 'game' AND game_id IS NULL"
)

# Each finished game's result copied to its pairing, once (parameters: now, tournament).
RECORD_RESULTS = (
    "UPDATE tournament_games SET recorded_at = ?, result = "
    "(SELECT g.result_winner FROM games g WHERE g.id = tournament_games.game_id) "
    "WHERE tournament_id = ? AND result IS NULL AND game_id IN "
    "(SELECT id FROM games WHERE status = 'over' AND result_winner IS NOT NULL)"
)

TOURNAMENT_GAMES = "SELECT * FROM tournament_games WHERE tournament_id = ? ORDER BY round, board"
TOURNAMENT_OF_GAME = "SELECT tournament_id FROM tournament_games WHERE game_id = ?"

CLAIM_TOURNAMENT_NEWS = (  # parameters: round, tournament, round
    "UPDATE tournaments SET announced_round = ? WHERE id = ? AND announced_round < ?"
)

END_TOURNAMENT = (  # parameters: end_values
    "UPDATE tournaments SET status = ?, ended_at = ? WHERE id = ? AND status IN (?, ?)"
)


def end_values(
    tournament_id: int, status: Enum, now: float, ending: Sequence[Enum]
) -> tuple[Any, ...]:
    """The new status, now, the tournament, and the two statuses it may end from (one twice
    when ``ending`` names one)."""
    froms = [queries.plain(s) for s in ending[:2]] or [None]
    return (queries.plain(status), now, tournament_id, froms[0], froms[-1])


class TournamentStore:
    def __init__(self, db: Driver) -> None:
        self.db = db

    async def create(self, tournament: NewTournament) -> int:
        sql, values = INSERT_TOURNAMENT, tournament_values(tournament)
        return await self.db.insert(sql, *values)

    async def get(self, tournament_id: int) -> TournamentRecord | None:
        row = await self.db.one(TOURNAMENT, tournament_id)
        return TournamentRecord.from_row(row) if row else None

    async def find(
        self, status: TournamentStatus | None, player_id: int | None, limit: int
    ) -> list[TournamentRecord]:
        """Tournaments, newest first, of a status and with a player if given."""
        values = (*([status.value] if status else []), *([player_id] if player_id else []), limit)
        sql = tournaments(status is not None, player_id is not None)
        return [TournamentRecord.from_row(row) for row in await self.db.all(sql, *values)]

    async def due(self, now: float) -> list[TournamentRecord]:
        """Tournaments whose start or next step is due."""
        rows = await self.db.all(DUE_TOURNAMENTS, now)
        return [TournamentRecord.from_row(row) for row in rows]

    async def players(self, tournament_id: int) -> list[TournamentPlayerRecord]:
        rows = await self.db.all(TOURNAMENT_PLAYERS, tournament_id)
        return [TournamentPlayerRecord.from_row(row) for row in rows]

    async def join(
        self, tournament_id: int, player_id: int, rating: float, now: float, most: int
    ) -> bool:
        """Enter an open tournament of fewer than ``most`` players; False if it was not."""
        changed = await self.db.execute(
            JOIN_TOURNAMENT,
            *(tournament_id, player_id, now, rating, tournament_id, tournament_id, most),
        )
        return changed == 1

    async def withdraw(self, tournament_id: int, player_id: int, now: float) -> bool:
        """Leave an open tournament, or withdraw from one under way."""
        async with self.db.transaction() as tx:
            left = await tx.execute(LEAVE_OPEN_TOURNAMENT, tournament_id, player_id, tournament_id)
            if left != 1:
                left = await tx.execute(WITHDRAW, now, tournament_id, player_id)
        return left == 1

    async def start(
        self,
        tournament_id: int,
        rounds: int,
        now: float,
        seeds: Sequence[tuple[int, int, float]],
    ) -> bool:
        """Start an open tournament with its players' (player, seed, rating)."""
        async with self.db.transaction() as tx:
            if await tx.execute(START_TOURNAMENT, rounds, now, tournament_id) != 1:
                raise Rollback
            await tx.executemany(
                SEED_PLAYER,
                [(seed, rating, tournament_id, player) for player, seed, rating in seeds],
            )
            return True
        return False

    async def begin_round(
        self, tournament_id: int, round_no: int, pairings: Sequence[NewPairing], now: float
    ) -> bool:
        """Store a round's pairings, once: False if the round had begun already."""
        async with self.db.transaction() as tx:
            begun = await tx.execute(BEGIN_ROUND, round_no, tournament_id, round_no - 1)
            if begun != 1:
                raise Rollback
            values = pairing_values(tournament_id, round_no, pairings, now)
            await tx.executemany(INSERT_PAIRING, values)
            return True
        return False

    async def create_game(
        self, tournament_id: int, round_no: int, board: int, game: NewGame
    ) -> int | None:
        """Start a pairing's game, once: its id, or None if the pairing had its game."""
        async with self.db.transaction() as tx:
            game_id = await insert_game(tx, game)
            values = (game_id, tournament_id, round_no, board)
            if await tx.execute(SET_PAIRING_GAME, *values) != 1:
                raise Rollback  # the game made here goes too
            await tx.announce(game_id)
            return game_id
        return None

    async def record_results(self, tournament_id: int, now: float) -> int:
        """Copy finished games' results to their pairings; how many."""
        return await self.db.execute(RECORD_RESULTS, now, tournament_id)

    async def games(self, tournament_id: int) -> list[TournamentGameRecord]:
        rows = await self.db.all(TOURNAMENT_GAMES, tournament_id)
        return [TournamentGameRecord.from_row(row) for row in rows]

    async def of_game(self, game_id: int) -> int | None:
        """The tournament a game was paired in, if any."""
        row = await self.db.one(TOURNAMENT_OF_GAME, game_id)
        return int(row["tournament_id"]) if row else None

    async def claim_news(self, tournament_id: int, round_no: int) -> bool:
        """True for the one process that tells a round's news."""
        values = (round_no, tournament_id, round_no)
        return await self.db.execute(CLAIM_TOURNAMENT_NEWS, *values) == 1

    async def end(
        self,
        tournament_id: int,
        status: TournamentStatus,
        now: float,
        ending: Sequence[TournamentStatus],
    ) -> bool:
        """End a tournament that is in one of ``ending``'s statuses, once."""
        values = end_values(tournament_id, status, now, ending)
        return await self.db.execute(END_TOURNAMENT, *values) == 1
