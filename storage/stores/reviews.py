"""Finished games' reviews by the solver, kept once made: one row per game, what the review
cost per ply (``budget``) and its layout's ``version`` beside the review itself (JSON, as
``engine.review.stored_json`` writes it; the store keeps the text and never reads inside it)."""

from __future__ import annotations

from storage.driver import Driver
from storage.records import ReviewRecord

REVIEW = "SELECT * FROM game_reviews WHERE game_id = ?"

# A review made again (under another budget) replaces the one kept.
PUT_REVIEW = (
    "INSERT INTO game_reviews (game_id, budget, version, review, reviewed_at) "
    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET budget = excluded.budget, "
    "version = excluded.version, review = excluded.review, reviewed_at = excluded.reviewed_at"
)


class ReviewStore:
    def __init__(self, db: Driver) -> None:
        self.db = db

    async def get(self, game_id: int) -> ReviewRecord | None:
        """The review kept for game ``game_id``, if any."""
        row = await self.db.one(REVIEW, game_id)
        return ReviewRecord.from_row(row) if row else None

    async def put(self, review: ReviewRecord) -> None:
        """Keep ``review``, in place of any kept for its game."""
        await self.db.execute(
            PUT_REVIEW,
            review.game_id,
            review.budget,
            review.version,
            review.review,
            review.reviewed_at,
        )
