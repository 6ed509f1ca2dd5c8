"""Puzzle answers: the first answer to a puzzle counts, later ones are practice; streaks and
a server's board come from them."""

from __future__ import annotations

from typing import Any

from storage.driver import Driver
from storage.records import NewPuzzleAttempt, PuzzleStandingRecord

# An answer, counted if it is the player's first to the puzzle: the partial unique index
# refuses a second counted one (parameters: ``attempt_values``), which is then written as
# practice with the same parameters.
_ATTEMPT = (
    "INSERT INTO puzzle_attempts "
    "(player_id, puzzle_id, server, move, correct, attempted_at, counted) "
    "VALUES (?, ?, ?, ?, ?, ?, {counted})"
)

INSERT_COUNTED_ATTEMPT = (
    _ATTEMPT.format(counted=1) + " ON CONFLICT (player_id, puzzle_id) WHERE counted = 1 DO NOTHING"
)

INSERT_PRACTICE_ATTEMPT = _ATTEMPT.format(counted=0)


def attempt_values(attempt: NewPuzzleAttempt) -> tuple[Any, ...]:
    return (
        attempt["player_id"],
        attempt["puzzle_id"],
        attempt["server"],
        attempt["move"],
        int(attempt["correct"]),
        attempt["attempted_at"],
    )


PUZZLES_SEEN = "SELECT DISTINCT puzzle_id FROM puzzle_attempts WHERE player_id = ?"


def puzzle_standings(server: bool) -> str:
    """Players' counted answers summed up (``PuzzleStandingRecord``): a run starts after each
    wrong answer (the running count of wrong ones numbers the runs), a streak is a run's right
    answers, the current streak the last run's. Parameters: the player's id and a limit; with
    ``server``, the server instead of the player: everyone who answered there, best first
    (most solved, then the longest streak, then the current one)."""
    who = (
        "SELECT DISTINCT player_id FROM puzzle_attempts WHERE server = ? AND counted = 1"
        if server
        else "SELECT CAST(? AS INTEGER) AS player_id"
    )
    return (
        f"WITH who AS ({who}), "
        "runs AS (SELECT a.player_id, a.correct, "
        "sum(1 - a.correct) OVER (PARTITION BY a.player_id ORDER BY a.id) AS run "
        "FROM puzzle_attempts a JOIN who w ON w.player_id = a.player_id WHERE a.counted = 1), "
        "lengths AS (SELECT player_id, run, count(*) AS answered, sum(correct) AS solved "
        "FROM runs GROUP BY player_id, run), "
        "standing AS (SELECT player_id, sum(answered) AS answered, sum(solved) AS solved, "
        "max(solved) AS best_streak, max(run) AS last_run FROM lengths GROUP BY player_id) "
        "SELECT s.player_id, s.answered, s.solved, l.solved AS streak, s.best_streak, "
        "p.surface, p.external_id, p.display_name FROM standing s "
        "JOIN lengths l ON l.player_id = s.player_id AND l.run = s.last_run "
        "JOIN players p ON p.id = s.player_id "
        "ORDER BY s.solved DESC, s.best_streak DESC, streak DESC, s.player_id LIMIT ?"
    )


class PuzzleStore:
    def __init__(self, db: Driver) -> None:
        self.db = db

    async def record_attempt(self, attempt: NewPuzzleAttempt) -> bool:
        """Keep an answer; True if it is the player's first to that puzzle (it counts)."""
        values = attempt_values(attempt)
        async with self.db.transaction() as tx:
            counted = await tx.execute(INSERT_COUNTED_ATTEMPT, *values) == 1
            if not counted:
                await tx.execute(INSERT_PRACTICE_ATTEMPT, *values)
        return counted

    async def seen(self, player_id: int) -> set[str]:
        """The ids of the puzzles the player has answered."""
        rows = await self.db.all(PUZZLES_SEEN, player_id)
        return {str(row["puzzle_id"]) for row in rows}

    async def standing(self, player_id: int) -> PuzzleStandingRecord | None:
        row = await self.db.one(puzzle_standings(server=False), player_id, 1)
        return PuzzleStandingRecord.from_row(row) if row else None

    async def board(self, server: str, limit: int) -> list[PuzzleStandingRecord]:
        """A server's best puzzle solvers."""
        rows = await self.db.all(puzzle_standings(server=True), server, limit)
        return [PuzzleStandingRecord.from_row(row) for row in rows]
