"""Puzzle answers: the first answer to a puzzle counts, later ones are practice; streaks and
a server's board come from them."""

from __future__ import annotations

from storage import queries
from storage.driver import Driver
from storage.records import NewPuzzleAttempt, PuzzleStandingRecord


class PuzzleStore:
    def __init__(self, db: Driver) -> None:
        self.db = db

    async def record_attempt(self, attempt: NewPuzzleAttempt) -> bool:
        """Keep an answer; True if it is the player's first to that puzzle (it counts)."""
        values = queries.attempt_values(attempt)
        async with self.db.transaction() as tx:
            counted = await tx.execute(queries.INSERT_COUNTED_ATTEMPT, *values) == 1
            if not counted:
                await tx.execute(queries.INSERT_PRACTICE_ATTEMPT, *values)
        return counted

    async def seen(self, player_id: int) -> set[str]:
        """The ids of the puzzles the player has answered."""
        rows = await self.db.all(queries.PUZZLES_SEEN, player_id)
        return {str(row["puzzle_id"]) for row in rows}

    async def standing(self, player_id: int) -> PuzzleStandingRecord | None:
        row = await self.db.one(queries.puzzle_standings(server=False), player_id, 1)
        return PuzzleStandingRecord.from_row(row) if row else None

    async def board(self, server: str, limit: int) -> list[PuzzleStandingRecord]:
        """A server's best puzzle solvers."""
        rows = await self.db.all(queries.puzzle_standings(server=True), server, limit)
        return [PuzzleStandingRecord.from_row(row) for row in rows]
