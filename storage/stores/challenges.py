"""Challenges: made, answered (accepting one starts its game in the same transaction),
expired."""

from __future__ import annotations

from typing import Any

from storage import queries
from storage.driver import Driver, Rollback
from storage.records import ChallengeRecord, ChallengeStatus, NewChallenge, NewGame
from storage.stores.games import insert_game

NEW_CHALLENGE_COLUMNS = tuple(NewChallenge.__annotations__)

INSERT_CHALLENGE = (
    f"INSERT INTO challenges ({', '.join(NEW_CHALLENGE_COLUMNS)}, status) "
    f"VALUES ({', '.join('?' * len(NEW_CHALLENGE_COLUMNS))}, 'open')"
)


def challenge_values(challenge: NewChallenge) -> tuple[Any, ...]:
    return tuple(queries.plain(challenge[column]) for column in NEW_CHALLENGE_COLUMNS)  # type: ignore[literal-required]


CHALLENGE = "SELECT * FROM challenges WHERE id = ?"

CLOSE_CHALLENGE = (  # parameters: status, now, challenge id
    "UPDATE challenges SET status = ?, answered_at = ? WHERE id = ? AND status = 'open'"
)

ACCEPT_CHALLENGE = (  # parameters: now, challenge id
    "UPDATE challenges SET status = 'accepted', answered_at = ? WHERE id = ? AND status = 'open'"
)

CHALLENGE_GAME = "UPDATE challenges SET game_id = ? WHERE id = ?"  # parameters: game, challenge

OPEN_CHALLENGES = (  # parameters: player id twice
    "SELECT * FROM challenges WHERE status = 'open' AND (challenger_id = ? OR opponent_id = ?) "
    "ORDER BY id DESC"
)

DUE_CHALLENGES = "SELECT * FROM challenges WHERE status = 'open' AND expires_at <= ?"


class ChallengeStore:
    def __init__(self, db: Driver) -> None:
        self.db = db

    async def create(self, challenge: NewChallenge) -> int:
        return await self.db.insert(INSERT_CHALLENGE, *challenge_values(challenge))

    async def get(self, challenge_id: int) -> ChallengeRecord | None:
        row = await self.db.one(CHALLENGE, challenge_id)
        return ChallengeRecord.from_row(row) if row else None

    async def close(self, challenge_id: int, status: ChallengeStatus, now: float) -> bool:
        """Decline, cancel or expire an open challenge; False if it was no longer open."""
        return await self.db.execute(CLOSE_CHALLENGE, status.value, now, challenge_id) == 1

    async def accept(self, challenge_id: int, game: NewGame, now: float) -> int | None:
        """Accept an open challenge and start its game, at once: the game's id, or None if
        the challenge was no longer open."""
        async with self.db.transaction() as tx:
            if await tx.execute(ACCEPT_CHALLENGE, now, challenge_id) != 1:
                raise Rollback
            game_id = await insert_game(tx, game)
            await tx.execute(CHALLENGE_GAME, game_id, challenge_id)
            return game_id
        return None

    async def open_for(self, player_id: int) -> list[ChallengeRecord]:
        """Open challenges the player made or received, newest first."""
        rows = await self.db.all(OPEN_CHALLENGES, player_id, player_id)
        return [ChallengeRecord.from_row(row) for row in rows]

    async def due(self, now: float) -> list[ChallengeRecord]:
        """Open challenges past their expiry."""
        return [ChallengeRecord.from_row(r) for r in await self.db.all(DUE_CHALLENGES, now)]
