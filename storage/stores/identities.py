"""One player on several surfaces, and a player's own data (docs/privacy.md).

- **Linking** (``merge``): a Discord account and a mail address become one player. The
  older player row stays, everything of the other moves to it, and the other row stays behind
  with its surface's id and ``merged_into`` set, so that surface still finds the player
  (``PlayerStore.id`` follows it). ``split`` undoes the link for one account, which starts
  again with nothing; ``make_primary`` swaps which account the player row names, the one news
  goes to.
- **Codes** (``add_code``, ``take_code``): what a player is sent to prove they hold an account
  or an address, or to confirm a deletion; only a code's SHA-256 is stored, and a code is taken
  once.
- **A player's data**: ``export`` gives every row that names the player; ``erase`` replaces
  them in their games, moves and tournaments by a new player with no name ("a deleted player")
  and deletes every other row that names them.

Every column that names a player is in ``PLAYER_COLUMNS``, with what linking and erasing do to
it; tests/storage/test_identities.py checks the list against every reference to ``players(id)``
in the schema, so a new table cannot be forgotten.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from enum import Enum
from typing import Any

from storage.driver import Connection, Driver, Row
from storage.errors import StorageError


class OnErase(Enum):
    """What erasing a player does to a column that names them."""

    KEEP = "keep"  # public record (games, moves, standings): names the deleted player instead
    DELETE = "delete"  # theirs alone (settings, ratings, attempts): the rows go


class OnMerge(Enum):
    """What linking does to the other player's rows, where the kept player may have one with
    the same key (``key``)."""

    MOVE = "move"  # no such key: every row moves
    KEEP_OURS = "keep-ours"  # the kept player's row wins; the other's moves only where none is


@dataclass(frozen=True)
class PlayerColumn:
    table: str
    column: str
    erase: OnErase
    merge: OnMerge = OnMerge.MOVE
    key: tuple[str, ...] = ()  # with KEEP_OURS: the columns that make a row the same one


PLAYER_COLUMNS: tuple[PlayerColumn, ...] = (
    PlayerColumn("games", "south_id", OnErase.KEEP),
    PlayerColumn("games", "north_id", OnErase.KEEP),
    PlayerColumn("games", "offer_by", OnErase.KEEP),
    PlayerColumn("moves", "player_id", OnErase.KEEP),
    PlayerColumn("challenges", "challenger_id", OnErase.KEEP),
    PlayerColumn("challenges", "opponent_id", OnErase.KEEP),
    PlayerColumn("tournaments", "creator_id", OnErase.KEEP),
    PlayerColumn("tournament_players", "player_id", OnErase.KEEP),
    PlayerColumn("tournament_games", "south_id", OnErase.KEEP),
    PlayerColumn("tournament_games", "north_id", OnErase.KEEP),
    PlayerColumn("puzzle_attempts", "player_id", OnErase.DELETE),
    PlayerColumn("vacations", "player_id", OnErase.DELETE),
    PlayerColumn("premoves", "player_id", OnErase.DELETE),
    PlayerColumn(
        "server_players", "player_id", OnErase.DELETE, OnMerge.KEEP_OURS, ("surface", "server_id")
    ),
    PlayerColumn("ratings", "player_id", OnErase.DELETE, OnMerge.KEEP_OURS, ("rules",)),
    PlayerColumn("glicko_ratings", "player_id", OnErase.DELETE, OnMerge.KEEP_OURS, ("family",)),
    PlayerColumn("digest_settings", "player_id", OnErase.DELETE, OnMerge.KEEP_OURS, ()),
    PlayerColumn("digests", "player_id", OnErase.DELETE, OnMerge.KEEP_OURS, ("day",)),
    PlayerColumn("rating_history", "player_id", OnErase.DELETE, OnMerge.KEEP_OURS, ("game_id",)),
    PlayerColumn("player_codes", "player_id", OnErase.DELETE, OnMerge.KEEP_OURS, ("code_hash",)),
    PlayerColumn("players", "merged_into", OnErase.DELETE),
)

DELETED_SURFACE = "deleted"  # the surface of the players that stand for deleted ones


class CodePurpose(Enum):
    LINK = "link"
    DELETE = "delete"


@dataclass(frozen=True)
class StoredCode:
    """A code taken (``take_code``): who asked for it, for what, and who may use it."""

    player_id: int
    purpose: CodePurpose
    surface: str | None
    external_id: str | None
    expires_at: float


@dataclass(frozen=True)
class Identity:
    """One account of a player: their own row's (``primary``) or one linked to it."""

    player_id: int  # the players row that holds the account
    surface: str
    external_id: str
    primary: bool

    @property
    def account(self) -> tuple[str, str]:
        """The account as a surface names it: (surface, id)."""
        return self.surface, self.external_id


def code_hash(code: str) -> str:
    """How a code is stored: its SHA-256, so a copy of the database gives no code away.

    >>> code_hash("ABCD-1234")[:16]
    '01ce39a48e5f5e14'
    """
    return hashlib.sha256(code.strip().upper().encode()).hexdigest()


ADD_CODE = (
    "INSERT INTO player_codes (code_hash, player_id, purpose, surface, external_id, "
    "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
FIND_CODE = "SELECT * FROM player_codes WHERE code_hash = ? AND expires_at > ?"
# Taking a code deletes it, so two processes can never both use one.
TAKE_CODE = "DELETE FROM player_codes WHERE code_hash = ? RETURNING *"
DROP_CODES = "DELETE FROM player_codes WHERE player_id = ? AND purpose = ?"
PRUNE_CODES = "DELETE FROM player_codes WHERE expires_at <= ?"
IDENTITIES = (
    "SELECT id AS player_id, surface, external_id, merged_into IS NULL AS primary_row "
    "FROM players WHERE id = ? OR merged_into = ? ORDER BY merged_into IS NOT NULL, id"
)
SHARED_TOURNAMENTS = (
    "SELECT a.tournament_id FROM tournament_players a JOIN tournament_players b "
    "ON a.tournament_id = b.tournament_id WHERE a.player_id = ? AND b.player_id = ? LIMIT 1"
)
GAMES_BETWEEN = (
    "SELECT id FROM games WHERE status = 'active' "
    "AND ((south_id = ? AND north_id = ?) OR (south_id = ? AND north_id = ?)) LIMIT 1"
)


class IdentityStore:
    def __init__(self, db: Driver) -> None:
        self.db = db

    # -- codes ----------------------------------------------------------------------------------

    async def add_code(
        self,
        player_id: int,
        purpose: CodePurpose,
        now: float,
        lifetime: float,
        surface: str | None = None,
        external_id: str | None = None,
    ) -> str:
        """A new code for ``player_id`` (their earlier codes for the same purpose no longer
        work): 8 letters and digits, easy to copy, in two groups (``ABCD-2345``)."""
        alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud, typed back
        letters = "".join(secrets.choice(alphabet) for _ in range(8))
        code = f"{letters[:4]}-{letters[4:]}"
        async with self.db.transaction() as tx:
            await tx.execute(PRUNE_CODES, now)
            await tx.execute(DROP_CODES, player_id, purpose.value)
            await tx.execute(
                ADD_CODE,
                code_hash(code),
                player_id,
                purpose.value,
                surface,
                external_id,
                now,
                now + lifetime,
            )
        return code

    async def find_code(self, code: str, now: float) -> StoredCode | None:
        """The code's record, left in place; None for an unknown or expired code."""
        row = await self.db.one(FIND_CODE, code_hash(code), now)
        return _stored_code(row) if row else None

    async def take_code(self, code: str, now: float) -> StoredCode | None:
        """The code's record, deleted as it is taken; None for an unknown or expired code
        (or one another process took first)."""
        rows = await self.db.change_returning(TAKE_CODE, code_hash(code))
        if not rows or float(rows[0]["expires_at"]) <= now:
            return None
        return _stored_code(rows[0])

    # -- linking --------------------------------------------------------------------------------

    async def identities(self, player_id: int) -> list[Identity]:
        """The player's accounts: their own first, then those linked to them."""
        return await _identities(self.db, player_id)

    async def shared_tournament(self, first: int, second: int) -> int | None:
        """A tournament both players entered, if any."""
        row = await self.db.one(SHARED_TOURNAMENTS, first, second)
        return int(row["tournament_id"]) if row else None

    async def game_between(self, first: int, second: int) -> int | None:
        """A game in progress between the two players, if any."""
        row = await self.db.one(GAMES_BETWEEN, first, second, second, first)
        return int(row["id"]) if row else None

    async def merge(self, kept: int, other: int, now: float) -> None:
        """Everything of player ``other`` becomes ``kept``'s, in one transaction; ``other``'s
        row stays, naming ``kept`` in ``merged_into``. Where both have a row of the same key
        (a rating of one family, a digest setting), ``kept``'s stays; ratings first go to the
        better established of the two (``merge_ratings``). The name and languages ``kept``
        has not set come from ``other``."""
        if kept == other:
            raise StorageError("a player cannot be linked to themselves")
        async with self.db.transaction() as tx:
            for row in await tx.all(
                "SELECT id FROM games WHERE status = 'active' AND (south_id = ? OR north_id = ?)",
                other,
                other,
            ):  # other processes forget the games they hold with the old player in them
                await tx.announce(int(row["id"]))
            await _merge_ratings(tx, kept, other)
            # An open vacation each: the other's ends now (one allowance, one vacation).
            await tx.execute(
                "UPDATE vacations SET ended_at = ? WHERE player_id = ? AND ended_at IS NULL "
                "AND EXISTS (SELECT 1 FROM vacations v WHERE v.player_id = ? "
                "AND v.ended_at IS NULL)",
                now,
                other,
                kept,
            )
            await _move_rows(tx, kept, other)
            await tx.execute(
                "UPDATE players SET "
                "display_name = coalesce(display_name, (SELECT display_name FROM players "
                "WHERE id = ?)), language = coalesce(language, (SELECT language FROM players "
                "WHERE id = ?)), language_seen = coalesce(language_seen, (SELECT "
                "language_seen FROM players WHERE id = ?)) WHERE id = ?",
                other,
                other,
                other,
                kept,
            )
            await tx.execute(
                "UPDATE players SET merged_into = ?, display_name = NULL, language = NULL, "
                "language_seen = NULL WHERE id = ? OR merged_into = ?",
                kept,
                other,
                other,
            )

    async def gather(self, stale: int, kept: int) -> None:
        """Move to ``kept`` what was written for ``stale`` after it was linked (by a process
        that had not heard of the link yet); nothing if there is nothing."""
        async with self.db.transaction() as tx:
            row = await tx.one("SELECT merged_into FROM players WHERE id = ?", stale)
            if row is None or row["merged_into"] != kept:
                return
            await _merge_ratings(tx, kept, stale)
            await _move_rows(tx, kept, stale)

    async def split(self, account: int) -> None:
        """The linked account ``account`` is a player of its own again, with nothing: the
        games, ratings and settings stay with the player it was linked to."""
        await self.db.execute("UPDATE players SET merged_into = NULL WHERE id = ?", account)

    async def make_primary(self, player_id: int, account: int) -> None:
        """The player row ``player_id`` takes the surface and id of its linked ``account``,
        and ``account``'s row the player's: the player is then named by that account (news
        goes there), with everything they had."""
        async with self.db.transaction() as tx:
            rows = {
                int(r["id"]): r
                for r in await tx.all(
                    "SELECT id, surface, external_id, merged_into FROM players WHERE id IN (?, ?)",
                    player_id,
                    account,
                )
            }
            if account not in rows or rows[account]["merged_into"] != player_id:
                raise StorageError(f"player {account} is not linked to {player_id}")
            mine, theirs = rows[player_id], rows[account]
            # The unique (surface, external_id) allows no moment with two rows alike.
            await tx.execute("UPDATE players SET surface = 'swapping' WHERE id = ?", account)
            await tx.execute(
                "UPDATE players SET surface = ?, external_id = ? WHERE id = ?",
                theirs["surface"],
                theirs["external_id"],
                player_id,
            )
            await tx.execute(
                "UPDATE players SET surface = ?, external_id = ? WHERE id = ?",
                mine["surface"],
                mine["external_id"],
                account,
            )

    # -- a player's data ------------------------------------------------------------------------

    async def export(self, player_id: int) -> dict[str, list[Row]]:
        """Every row that names the player or one of their linked accounts, by table; and
        the moves of their games."""
        async with self.db.snapshot() as db:
            ids = [i.player_id for i in await _identities(db, player_id)]
            marks = ", ".join("?" * len(ids))
            found: dict[str, list[Row]] = {
                "players": await db.all(f"SELECT * FROM players WHERE id IN ({marks})", *ids)
            }
            for c in PLAYER_COLUMNS:
                if c.table == "players" or c.column == "offer_by":
                    continue
                found.setdefault(c.table, [])
                rows = await db.all(f"SELECT * FROM {c.table} WHERE {c.column} IN ({marks})", *ids)
                found[c.table] += [r for r in rows if r not in found[c.table]]
            found["moves"] = await db.all(
                f"SELECT m.* FROM moves m JOIN games g ON g.id = m.game_id "
                f"WHERE g.south_id IN ({marks}) OR g.north_id IN ({marks}) "
                "ORDER BY m.game_id, m.ply",
                *ids,
                *ids,
            )
            found.pop("player_codes", None)  # hashes only: nothing the player could read
        return found

    async def erase(self, player_id: int, now: float) -> int:
        """Erase the player and their linked accounts: a new nameless player ("a deleted
        player") takes their place in games, moves, challenges and tournaments (their open
        challenges cancelled, their tournament entries withdrawn); their other
        rows are deleted, with the limit counters named after their accounts. Mail games'
        places, which hold the address, are renamed. The new player's id."""
        async with self.db.transaction() as tx:
            identities = await _identities(tx, player_id)
            ids = [i.player_id for i in identities]
            if not ids:
                raise StorageError(f"there is no player {player_id}")
            stand_in = await tx.insert(
                "INSERT INTO players (surface, external_id, created_at) VALUES (?, ?, ?)",
                DELETED_SURFACE,
                secrets.token_hex(8),
                now,
            )
            marks = ", ".join("?" * len(ids))
            await tx.execute(
                f"UPDATE challenges SET status = 'cancelled', answered_at = ? "
                f"WHERE status = 'open' AND (challenger_id IN ({marks}) "
                f"OR opponent_id IN ({marks}))",
                now,
                *ids,
                *ids,
            )
            # Their entries: gone from tournaments not begun, withdrawn from those under way.
            await tx.execute(
                f"DELETE FROM tournament_players WHERE player_id IN ({marks}) AND tournament_id "
                "IN (SELECT id FROM tournaments WHERE status = 'open')",
                *ids,
            )
            await tx.execute(
                f"UPDATE tournament_players SET withdrawn_at = ? WHERE player_id IN ({marks}) "
                "AND withdrawn_at IS NULL AND tournament_id IN "
                "(SELECT id FROM tournaments WHERE status = 'running')",
                now,
                *ids,
            )
            for c in PLAYER_COLUMNS:
                if c.table == "players":
                    continue
                if c.erase is OnErase.KEEP:
                    sql = f"UPDATE {c.table} SET {c.column} = ? WHERE {c.column} IN ({marks})"
                    await tx.execute(sql, stand_in, *ids)
                else:
                    await tx.execute(f"DELETE FROM {c.table} WHERE {c.column} IN ({marks})", *ids)
            for identity in identities:
                if identity.surface == "email":
                    for table in ("games", "challenges"):
                        await tx.execute(
                            f"UPDATE {table} SET channel_id = 'deleted/' || id "
                            "WHERE channel_surface = 'email' AND substr(channel_id, 1, ?) = ?",
                            len(identity.external_id) + 1,
                            identity.external_id + "/",
                        )
                suffix = ":" + identity.external_id
                await tx.execute(
                    "DELETE FROM limit_counters WHERE substr(name, length(name) - ? + 1) = ?",
                    len(suffix),
                    suffix,
                )
            await tx.execute(f"DELETE FROM players WHERE id IN ({marks})", *ids)
        return stand_in


def _stored_code(row: Row) -> StoredCode:
    return StoredCode(
        player_id=int(row["player_id"]),
        purpose=CodePurpose(row["purpose"]),
        surface=row["surface"],
        external_id=row["external_id"],
        expires_at=float(row["expires_at"]),
    )


async def _identities(db: Connection, player_id: int) -> list[Identity]:
    rows = await db.all(IDENTITIES, player_id, player_id)
    return [
        Identity(int(r["player_id"]), r["surface"], r["external_id"], bool(r["primary_row"]))
        for r in rows
    ]


async def _merge_ratings(tx: Connection, kept: int, other: int) -> None:
    """Where both have a rating of a family, the better established one (the smaller
    deviation) becomes ``kept``'s whole, as Glicko-2 left it, with both one's game counts:
    a rating is one estimate of one player, and two are never averaged into more certainty
    than either had (docs/ratings.md)."""
    rows = await tx.all(
        "SELECT * FROM glicko_ratings WHERE player_id IN (?, ?) ORDER BY family, player_id",
        kept,
        other,
    )
    by_family: dict[str, dict[int, Row]] = {}
    for row in rows:
        by_family.setdefault(row["family"], {})[int(row["player_id"])] = row
    for family, pair in by_family.items():
        if len(pair) < 2:
            continue
        ours, theirs = pair[kept], pair[other]
        best = theirs if float(theirs["deviation"]) < float(ours["deviation"]) else ours
        counts = {k: int(ours[k]) + int(theirs[k]) for k in ("games", "wins", "losses", "draws")}
        await tx.execute(
            "UPDATE glicko_ratings SET rating = ?, deviation = ?, volatility = ?, rated_at = ?, "
            "games = ?, wins = ?, losses = ?, draws = ? WHERE player_id = ? AND family = ?",
            best["rating"],
            best["deviation"],
            best["volatility"],
            best["rated_at"],
            counts["games"],
            counts["wins"],
            counts["losses"],
            counts["draws"],
            kept,
            family,
        )


async def _move_rows(tx: Connection, kept: int, other: int) -> None:
    for c in PLAYER_COLUMNS:
        if c.table == "players":
            continue
        if c.merge is OnMerge.MOVE:
            await tx.execute(
                f"UPDATE {c.table} SET {c.column} = ? WHERE {c.column} = ?", kept, other
            )
            continue
        same = "".join(f" AND k.{k} = {c.table}.{k}" for k in c.key)
        await tx.execute(
            f"UPDATE {c.table} SET {c.column} = ? WHERE {c.column} = ? AND NOT EXISTS "
            f"(SELECT 1 FROM {c.table} k WHERE k.{c.column} = ?{same})",
            kept,
            other,
            kept,
        )
        await tx.execute(f"DELETE FROM {c.table} WHERE {c.column} = ?", other)


def export_json_default(value: Any) -> Any:
    """For ``json.dumps`` of an export: what JSON has no type for, as text."""
    return str(value)
