"""Addresses the bot mails nothing more (``stop``, docs/privacy.md), each by a keyed hash of
the address (``bot.tokens.address_key``) and when it said so: never the address itself.

Each verb is one statement on the table's primary key, so the check made before every mail
the bot sends is one indexed read.
"""

from __future__ import annotations

from storage.driver import Driver

STOP = (  # parameters: key, now; a second stop keeps the first one's time
    "INSERT INTO mail_stops (address_key, stopped_at) VALUES (?, ?) "
    "ON CONFLICT (address_key) DO NOTHING"
)
START = "DELETE FROM mail_stops WHERE address_key = ?"
STOPPED_AT = "SELECT stopped_at FROM mail_stops WHERE address_key = ?"


class MailStopStore:
    """The ``mail_stops`` table."""

    def __init__(self, db: Driver) -> None:
        self.db = db

    async def stop(self, key: str, now: float) -> bool:
        """Record that the address keyed ``key`` is to get no more mail; False when it was
        already."""
        return await self.db.execute(STOP, key, now) > 0

    async def start(self, key: str) -> bool:
        """Lift the stop of the address keyed ``key``; False when there was none."""
        return await self.db.execute(START, key) > 0

    async def stopped_at(self, key: str) -> float | None:
        """When the address keyed ``key`` said stop, or None while it gets mail."""
        row = await self.db.one(STOPPED_AT, key)
        return None if row is None else float(row["stopped_at"])
