"""Correspondence on a human schedule: vacations that stop a player's clocks, the daily
digest's setting and the digests sent, and conditional moves (premoves)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from storage.driver import Driver, Rollback
from storage.records import (
    DigestRecord,
    DigestSettingRecord,
    NewPremove,
    PremoveRecord,
    VacationRecord,
)

START_VACATION = (  # parameters: player, started, ends; nothing when one is open already
    "INSERT INTO vacations (player_id, started_at, ends_at) VALUES (?, ?, ?) "
    "ON CONFLICT (player_id) WHERE ended_at IS NULL DO NOTHING"
)

OPEN_VACATION = "SELECT * FROM vacations WHERE player_id = ? AND ended_at IS NULL"
OPEN_VACATIONS = "SELECT * FROM vacations WHERE ended_at IS NULL ORDER BY id"

VACATIONS_SINCE = (  # parameters: player, since: those not ended before it, oldest first
    "SELECT * FROM vacations WHERE player_id = ? AND (ended_at IS NULL OR ended_at > ?) "
    "ORDER BY started_at"
)

END_VACATION = (  # parameters: ended, vacation; the compare-and-set that ends it once
    "UPDATE vacations SET ended_at = ? WHERE id = ? AND ended_at IS NULL"
)

# The clock of each game where the player is to move stood still while they were away: its
# deadlines move on by the part of the vacation that fell in the turn (from the later of the
# vacation's start and the turn's, to the end). Only correspondence clocks (a day or more a
# move, or none) stand still. Parameters: ended, started, started, (the same three again),
# player, ended. Returns the games moved.
SHIFT_DEADLINES = (
    "UPDATE games SET "
    "remind_at = remind_at + (? - CASE WHEN last_move_at > ? THEN last_move_at ELSE ? END), "
    "forfeit_at = forfeit_at + (? - CASE WHEN last_move_at > ? THEN last_move_at ELSE ? END) "
    "WHERE status = 'active' "
    "AND (CASE mover WHEN 0 THEN south_id ELSE north_id END) = ? AND last_move_at < ? "
    "AND (forfeit_at IS NULL OR forfeit_at - last_move_at >= 86400) "
    "AND (remind_at IS NOT NULL OR forfeit_at IS NOT NULL) RETURNING id"
)


def shift_values(player_id: int, started: float, ended: float) -> tuple[Any, ...]:
    return (ended, started, started, ended, started, started, player_id, ended)


SET_DIGEST = (  # parameters: player, hour, first day, now
    "INSERT INTO digest_settings (player_id, hour, first_day, set_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (player_id) DO UPDATE SET hour = excluded.hour, "
    "first_day = excluded.first_day, set_at = excluded.set_at"
)

UNSET_DIGEST = "DELETE FROM digest_settings WHERE player_id = ?"
DIGEST_SETTING = "SELECT * FROM digest_settings WHERE player_id = ?"

DUE_DIGESTS = (  # parameters: day, hour, day: whose digest of today is due and not claimed
    "SELECT s.* FROM digest_settings s WHERE s.first_day <= ? AND s.hour <= ? "
    "AND NOT EXISTS (SELECT 1 FROM digests d WHERE d.player_id = s.player_id AND d.day = ?) "
    "ORDER BY s.player_id"
)

CLAIM_DIGEST = (  # parameters: player, day, now, games; one row per (player, day)
    "INSERT INTO digests (player_id, day, sent_at, games) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (player_id, day) DO NOTHING"
)

DIGEST = "SELECT * FROM digests WHERE player_id = ? AND day = ?"

PREMOVES = (  # parameters: game, player
    "SELECT * FROM premoves WHERE game_id = ? AND player_id = ? ORDER BY created_at, if_moves"
)

GAME_PREMOVES = "SELECT * FROM premoves WHERE game_id = ? ORDER BY player_id, created_at"
CLEAR_PREMOVES = "DELETE FROM premoves WHERE game_id = ? AND player_id = ?"
TAKE_PREMOVES = CLEAR_PREMOVES + " RETURNING *"  # the one caller that deletes them has them

ADD_PREMOVE = (  # parameters: premove_values; the same condition again replaces the answer
    "INSERT INTO premoves (game_id, player_id, ply, if_moves, then_move, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, player_id, if_moves) DO UPDATE SET "
    "ply = excluded.ply, then_move = excluded.then_move, created_at = excluded.created_at"
)


def premove_values(
    game_id: int, player_id: int, premoves: Iterable[NewPremove], now: float
) -> list[tuple[Any, ...]]:
    return [(game_id, player_id, p["ply"], p["if_moves"], p["then_move"], now) for p in premoves]


class ScheduleStore:
    def __init__(self, db: Driver) -> None:
        self.db = db

    # -- vacations

    async def start_vacation(self, player_id: int, started_at: float, ends_at: float) -> bool:
        """False if the player is on vacation already."""
        return await self.db.execute(START_VACATION, player_id, started_at, ends_at) == 1

    async def open_vacations(self, player_id: int | None = None) -> list[VacationRecord]:
        """Vacations under way: everyone's, or one player's."""
        if player_id is None:
            rows = await self.db.all(OPEN_VACATIONS)
        else:
            rows = await self.db.all(OPEN_VACATION, player_id)
        return [VacationRecord.from_row(row) for row in rows]

    async def vacations_since(self, player_id: int, since: float) -> list[VacationRecord]:
        rows = await self.db.all(VACATIONS_SINCE, player_id, since)
        return [VacationRecord.from_row(row) for row in rows]

    async def end_vacation(self, vacation: VacationRecord, ended_at: float) -> list[int] | None:
        """End it once, moving the player's deadlines on by its length: the games whose
        deadlines moved, or None if it had ended already."""
        async with self.db.transaction() as tx:
            if await tx.execute(END_VACATION, ended_at, vacation.id) != 1:
                raise Rollback
            values = shift_values(vacation.player_id, vacation.started_at, ended_at)
            moved = [int(row["id"]) for row in await tx.all(SHIFT_DEADLINES, *values)]
            for game_id in moved:  # other processes forget the deadlines they hold
                await tx.announce(game_id)
            return moved
        return None

    # -- the daily digest

    async def set_digest(
        self, player_id: int, hour: int | None, first_day: int, now: float
    ) -> None:
        """A player's digest hour, from ``first_day``; None: no digest."""
        if hour is None:
            await self.db.execute(UNSET_DIGEST, player_id)
        else:
            await self.db.execute(SET_DIGEST, player_id, hour, first_day, now)

    async def digest_setting(self, player_id: int) -> DigestSettingRecord | None:
        row = await self.db.one(DIGEST_SETTING, player_id)
        return DigestSettingRecord.from_row(row) if row else None

    async def due_digests(self, day: int, hour: int) -> list[DigestSettingRecord]:
        rows = await self.db.all(DUE_DIGESTS, day, hour, day)
        return [DigestSettingRecord.from_row(row) for row in rows]

    async def claim_digest(self, player_id: int, day: int, now: float, games: str) -> bool:
        """True for the one process that sends this player's digest of that day."""
        return await self.db.execute(CLAIM_DIGEST, player_id, day, now, games) == 1

    async def digest(self, player_id: int, day: int) -> DigestRecord | None:
        row = await self.db.one(DIGEST, player_id, day)
        return DigestRecord.from_row(row) if row else None

    # -- conditional moves

    async def premoves(self, game_id: int, player_id: int | None = None) -> list[PremoveRecord]:
        """A game's conditional moves: everyone's, or one player's."""
        if player_id is None:
            rows = await self.db.all(GAME_PREMOVES, game_id)
        else:
            rows = await self.db.all(PREMOVES, game_id, player_id)
        return [PremoveRecord.from_row(row) for row in rows]

    async def set_premoves(
        self,
        game_id: int,
        player_id: int,
        premoves: Sequence[NewPremove],
        now: float,
        replace: bool,
    ) -> None:
        """Add conditional moves (replacing the player's others if ``replace``)."""
        values = premove_values(game_id, player_id, premoves, now)
        async with self.db.transaction() as tx:
            if replace:
                await tx.execute(CLEAR_PREMOVES, game_id, player_id)
            await tx.executemany(ADD_PREMOVE, values)

    async def take_premoves(self, game_id: int, player_id: int) -> list[PremoveRecord]:
        """Delete a player's conditional moves of a game and hand them to the one caller."""
        async with self.db.transaction() as tx:
            rows = await tx.all(TAKE_PREMOVES, game_id, player_id)
        return [PremoveRecord.from_row(row) for row in rows]
