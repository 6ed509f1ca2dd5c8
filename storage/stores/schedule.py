"""Correspondence on a human schedule: vacations that stop a player's clocks, the daily
digest's setting and the digests sent, and conditional moves (premoves)."""

from __future__ import annotations

from collections.abc import Sequence

from storage import queries
from storage.driver import Driver, Rollback
from storage.records import (
    DigestRecord,
    DigestSettingRecord,
    NewPremove,
    PremoveRecord,
    VacationRecord,
)


class ScheduleStore:
    def __init__(self, db: Driver) -> None:
        self.db = db

    # -- vacations

    async def start_vacation(self, player_id: int, started_at: float, ends_at: float) -> bool:
        """False if the player is on vacation already."""
        return await self.db.execute(queries.START_VACATION, player_id, started_at, ends_at) == 1

    async def open_vacations(self, player_id: int | None = None) -> list[VacationRecord]:
        """Vacations under way: everyone's, or one player's."""
        if player_id is None:
            rows = await self.db.all(queries.OPEN_VACATIONS)
        else:
            rows = await self.db.all(queries.OPEN_VACATION, player_id)
        return [VacationRecord.from_row(row) for row in rows]

    async def vacations_since(self, player_id: int, since: float) -> list[VacationRecord]:
        rows = await self.db.all(queries.VACATIONS_SINCE, player_id, since)
        return [VacationRecord.from_row(row) for row in rows]

    async def end_vacation(self, vacation: VacationRecord, ended_at: float) -> list[int] | None:
        """End it once, moving the player's deadlines on by its length: the games whose
        deadlines moved, or None if it had ended already."""
        async with self.db.transaction() as tx:
            if await tx.execute(queries.END_VACATION, ended_at, vacation.id) != 1:
                raise Rollback
            values = queries.shift_values(vacation.player_id, vacation.started_at, ended_at)
            moved = [int(row["id"]) for row in await tx.all(queries.SHIFT_DEADLINES, *values)]
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
            await self.db.execute(queries.UNSET_DIGEST, player_id)
        else:
            await self.db.execute(queries.SET_DIGEST, player_id, hour, first_day, now)

    async def digest_setting(self, player_id: int) -> DigestSettingRecord | None:
        row = await self.db.one(queries.DIGEST_SETTING, player_id)
        return DigestSettingRecord.from_row(row) if row else None

    async def due_digests(self, day: int, hour: int) -> list[DigestSettingRecord]:
        rows = await self.db.all(queries.DUE_DIGESTS, day, hour, day)
        return [DigestSettingRecord.from_row(row) for row in rows]

    async def claim_digest(self, player_id: int, day: int, now: float, games: str) -> bool:
        """True for the one process that sends this player's digest of that day."""
        return await self.db.execute(queries.CLAIM_DIGEST, player_id, day, now, games) == 1

    async def digest(self, player_id: int, day: int) -> DigestRecord | None:
        row = await self.db.one(queries.DIGEST, player_id, day)
        return DigestRecord.from_row(row) if row else None

    # -- conditional moves

    async def premoves(self, game_id: int, player_id: int | None = None) -> list[PremoveRecord]:
        """A game's conditional moves: everyone's, or one player's."""
        if player_id is None:
            rows = await self.db.all(queries.GAME_PREMOVES, game_id)
        else:
            rows = await self.db.all(queries.PREMOVES, game_id, player_id)
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
        values = queries.premove_values(game_id, player_id, premoves, now)
        async with self.db.transaction() as tx:
            if replace:
                await tx.execute(queries.CLEAR_PREMOVES, game_id, player_id)
            await tx.executemany(queries.ADD_PREMOVE, values)

    async def take_premoves(self, game_id: int, player_id: int) -> list[PremoveRecord]:
        """Delete a player's conditional moves of a game and hand them to the one caller."""
        async with self.db.transaction() as tx:
            rows = await tx.all(queries.TAKE_PREMOVES, game_id, player_id)
        return [PremoveRecord.from_row(row) for row in rows]
