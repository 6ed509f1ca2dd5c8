"""Tournaments as stored step by step: entries, the start with its seeds, each round's
pairings and games, results, the news of a round claimed once, the end."""

from __future__ import annotations

from collections.abc import Sequence

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


class TournamentStore:
    def __init__(self, db: Driver) -> None:
        self.db = db

    async def create(self, tournament: NewTournament) -> int:
        sql, values = queries.INSERT_TOURNAMENT, queries.tournament_values(tournament)
        return await self.db.insert(sql, *values)

    async def get(self, tournament_id: int) -> TournamentRecord | None:
        row = await self.db.one(queries.TOURNAMENT, tournament_id)
        return TournamentRecord.from_row(row) if row else None

    async def find(
        self, status: TournamentStatus | None, player_id: int | None, limit: int
    ) -> list[TournamentRecord]:
        """Tournaments, newest first, of a status and with a player if given."""
        values = (*([status.value] if status else []), *([player_id] if player_id else []), limit)
        sql = queries.tournaments(status is not None, player_id is not None)
        return [TournamentRecord.from_row(row) for row in await self.db.all(sql, *values)]

    async def due(self, now: float) -> list[TournamentRecord]:
        """Tournaments whose start or next step is due."""
        rows = await self.db.all(queries.DUE_TOURNAMENTS, now)
        return [TournamentRecord.from_row(row) for row in rows]

    async def players(self, tournament_id: int) -> list[TournamentPlayerRecord]:
        rows = await self.db.all(queries.TOURNAMENT_PLAYERS, tournament_id)
        return [TournamentPlayerRecord.from_row(row) for row in rows]

    async def join(
        self, tournament_id: int, player_id: int, rating: float, now: float, most: int
    ) -> bool:
        """Enter an open tournament of fewer than ``most`` players; False if it was not."""
        changed = await self.db.execute(
            queries.JOIN_TOURNAMENT,
            *(tournament_id, player_id, now, rating, tournament_id, tournament_id, most),
        )
        return changed == 1

    async def withdraw(self, tournament_id: int, player_id: int, now: float) -> bool:
        """Leave an open tournament, or withdraw from one under way."""
        async with self.db.transaction() as tx:
            left = await tx.execute(
                queries.LEAVE_OPEN_TOURNAMENT, tournament_id, player_id, tournament_id
            )
            if left != 1:
                left = await tx.execute(queries.WITHDRAW, now, tournament_id, player_id)
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
            if await tx.execute(queries.START_TOURNAMENT, rounds, now, tournament_id) != 1:
                raise Rollback
            await tx.executemany(
                queries.SEED_PLAYER,
                [(seed, rating, tournament_id, player) for player, seed, rating in seeds],
            )
            return True
        return False

    async def begin_round(
        self, tournament_id: int, round_no: int, pairings: Sequence[NewPairing], now: float
    ) -> bool:
        """Store a round's pairings, once: False if the round had begun already."""
        async with self.db.transaction() as tx:
            begun = await tx.execute(queries.BEGIN_ROUND, round_no, tournament_id, round_no - 1)
            if begun != 1:
                raise Rollback
            values = queries.pairing_values(tournament_id, round_no, pairings, now)
            await tx.executemany(queries.INSERT_PAIRING, values)
            return True
        return False

    async def create_game(
        self, tournament_id: int, round_no: int, board: int, game: NewGame
    ) -> int | None:
        """Start a pairing's game, once: its id, or None if the pairing had its game."""
        async with self.db.transaction() as tx:
            game_id = await insert_game(tx, game)
            values = (game_id, tournament_id, round_no, board)
            if await tx.execute(queries.SET_PAIRING_GAME, *values) != 1:
                raise Rollback  # the game made here goes too
            await tx.announce(game_id)
            return game_id
        return None

    async def record_results(self, tournament_id: int, now: float) -> int:
        """Copy finished games' results to their pairings; how many."""
        return await self.db.execute(queries.RECORD_RESULTS, now, tournament_id)

    async def games(self, tournament_id: int) -> list[TournamentGameRecord]:
        rows = await self.db.all(queries.TOURNAMENT_GAMES, tournament_id)
        return [TournamentGameRecord.from_row(row) for row in rows]

    async def of_game(self, game_id: int) -> int | None:
        """The tournament a game was paired in, if any."""
        row = await self.db.one(queries.TOURNAMENT_OF_GAME, game_id)
        return int(row["tournament_id"]) if row else None

    async def claim_news(self, tournament_id: int, round_no: int) -> bool:
        """True for the one process that tells a round's news."""
        values = (round_no, tournament_id, round_no)
        return await self.db.execute(queries.CLAIM_TOURNAMENT_NEWS, *values) == 1

    async def end(
        self,
        tournament_id: int,
        status: TournamentStatus,
        now: float,
        ending: Sequence[TournamentStatus],
    ) -> bool:
        """End a tournament that is in one of ``ending``'s statuses, once."""
        values = queries.end_values(tournament_id, status, now, ending)
        return await self.db.execute(queries.END_TOURNAMENT, *values) == 1
