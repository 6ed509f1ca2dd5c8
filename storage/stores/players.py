"""Players and their settings (name, pings, language), and Discord servers: their settings
and who plays there."""

from __future__ import annotations

from storage.driver import Driver
from storage.errors import StorageError
from storage.records import PingMode, PlayerRecord

PLAYER = "SELECT * FROM players WHERE id = ?"
# A linked account's row names the player it is (storage.stores.identities): that one's id.
PLAYER_ID = (
    "SELECT coalesce(merged_into, id) AS id FROM players WHERE surface = ? AND external_id = ?"
)

ADD_PLAYER = (  # parameters: surface, external id, now
    "INSERT INTO players (surface, external_id, created_at) VALUES (?, ?, ?) "
    "ON CONFLICT (surface, external_id) DO NOTHING"
)

SET_DISPLAY_NAME = "UPDATE players SET display_name = ? WHERE id = ?"
SET_PING = "UPDATE players SET ping = ? WHERE id = ?"
SET_LANGUAGE = "UPDATE players SET language = ? WHERE id = ?"
SET_LANGUAGE_SEEN = "UPDATE players SET language_seen = ? WHERE id = ?"
FIND_PLAYER = "SELECT * FROM players WHERE surface = ? AND external_id = ?"
SERVER_SETTINGS = "SELECT settings FROM server_settings WHERE surface = ? AND server_id = ?"

SET_SERVER_SETTINGS = (  # parameters: surface, server id, settings, now
    "INSERT INTO server_settings (surface, server_id, settings, updated_at) "
    "VALUES (?, ?, ?, ?) ON CONFLICT (surface, server_id) DO UPDATE SET "
    "settings = excluded.settings, updated_at = excluded.updated_at"
)

ADD_SERVER_PLAYER = (  # parameters: surface, server id, player id
    "INSERT INTO server_players (surface, server_id, player_id) VALUES (?, ?, ?) "
    "ON CONFLICT DO NOTHING"
)


class PlayerStore:
    def __init__(self, db: Driver) -> None:
        self.db = db

    async def id(self, surface: str, external_id: str, now: float) -> int:
        """The id of a player, created on first sight."""
        row = await self.db.one(PLAYER_ID, surface, external_id)
        if row is None:
            async with self.db.transaction() as tx:
                await tx.execute(ADD_PLAYER, surface, external_id, now)
                row = await tx.one(PLAYER_ID, surface, external_id)
        if row is None:  # added, or there already (ON CONFLICT DO NOTHING): never missing
            raise StorageError(f"player {surface}:{external_id[:40]} was not stored")
        return int(row["id"])

    async def find_id(self, surface: str, external_id: str) -> int | None:
        """The id of a player seen before (a linked account's: its player's), or None."""
        row = await self.db.one(PLAYER_ID, surface, external_id)
        return int(row["id"]) if row else None

    async def get(self, player_id: int) -> PlayerRecord | None:
        row = await self.db.one(PLAYER, player_id)
        return PlayerRecord.from_row(row) if row else None

    async def find(self, surface: str, external_id: str) -> PlayerRecord | None:
        """A player by their surface's id, without creating one."""
        row = await self.db.one(FIND_PLAYER, surface, external_id)
        return PlayerRecord.from_row(row) if row else None

    async def set_display_name(self, player_id: int, name: str) -> None:
        await self.db.execute(SET_DISPLAY_NAME, name, player_id)

    async def set_ping(self, player_id: int, ping: PingMode) -> None:
        """How the player wants to hear it is their move: mention, dm or off."""
        await self.db.execute(SET_PING, ping.value, player_id)

    async def set_language(self, player_id: int, language: str | None) -> None:
        """The language the player chose (None: decided from what they write)."""
        await self.db.execute(SET_LANGUAGE, language, player_id)

    async def set_language_seen(self, player_id: int, language: str) -> None:
        """The language the player last wrote in."""
        await self.db.execute(SET_LANGUAGE_SEEN, language, player_id)

    async def server_settings(self, surface: str, server_id: str) -> str | None:
        """A server's settings, as the JSON the service wrote."""
        row = await self.db.one(SERVER_SETTINGS, surface, server_id)
        return str(row["settings"]) if row else None

    async def set_server_settings(
        self, surface: str, server_id: str, settings: str, now: float
    ) -> None:
        await self.db.execute(SET_SERVER_SETTINGS, surface, server_id, settings, now)

    async def add_server_player(self, surface: str, server_id: str, player_id: int) -> None:
        """The player plays on that server (its leaderboards count them)."""
        await self.db.execute(ADD_SERVER_PLAYER, surface, server_id, player_id)
