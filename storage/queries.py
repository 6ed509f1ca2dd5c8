"""The queries both backends run word for word, written once with ``?`` placeholders;
``numbered`` gives PostgreSQL's ``$1, $2, ...`` spelling.

>>> numbered("SELECT * FROM games WHERE id = ? AND ply = ?")
'SELECT * FROM games WHERE id = $1 AND ply = $2'
"""

from __future__ import annotations

import itertools
import re

# The tables of a games database, in the order a row's references are already there.
TABLES = ("players", "games", "moves", "challenges", "ratings", "server_settings", "server_players")


def checked_table(name: str) -> str:
    """``name`` if it is one of ``TABLES`` (a name never reaches SQL unchecked)."""
    if name not in TABLES:
        from storage.base import StorageError

        raise StorageError(f"not a table of the games database: {name}")
    return name


def whole_table(name: str) -> str:
    return f"SELECT * FROM {checked_table(name)} ORDER BY 1, 2"


def numbered(sql: str) -> str:
    counter = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


GAMES_AWAITING_AI = (
    "SELECT g.* FROM games g JOIN players p "
    "ON p.id = CASE g.mover WHEN 0 THEN g.south_id ELSE g.north_id END "
    "WHERE g.status = 'active' AND p.surface = 'ai'"
)
DUE_CLOCKS = (  # parameters: now, now
    "SELECT * FROM games WHERE status = 'active' AND (forfeit_at <= ? "
    "OR (remind_at <= ? AND reminded_at IS NULL))"
)
LEADERBOARD = (  # parameters: rules, limit
    "SELECT r.*, p.surface, p.external_id, p.display_name FROM ratings r "
    "JOIN players p ON p.id = r.player_id WHERE r.rules = ? "
    "ORDER BY r.rating DESC, r.games DESC LIMIT ?"
)
SERVER_LEADERBOARD = (  # parameters: rules, surface, server id, limit
    "SELECT r.*, p.surface, p.external_id, p.display_name FROM ratings r "
    "JOIN players p ON p.id = r.player_id JOIN server_players s ON s.player_id = p.id "
    "WHERE r.rules = ? AND s.surface = ? AND s.server_id = ? "
    "ORDER BY r.rating DESC, r.games DESC LIMIT ?"
)
CLAIM_REMINDER = (  # parameters: now, game id, ply
    "UPDATE games SET reminded_at = ? WHERE id = ? AND ply = ? "
    "AND status = 'active' AND reminded_at IS NULL"
)
CLAIM_LEASE = (  # parameters: name, holder, until, now
    "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?) "
    "ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, "
    "expires_at = excluded.expires_at "
    "WHERE leases.holder = excluded.holder OR leases.expires_at < ?"
)
