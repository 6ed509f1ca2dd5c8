"""What the stores and the drivers share: the tables, a value as both drivers bind it
(``plain``), ``numbered`` (PostgreSQL's ``$1, $2, ...`` for the ``?`` every query is written
with), and the statements of a move that each driver writes its own way (group-committed,
batched): the compare-and-set on a game's ply, the move log's row, the ratings' upsert and
their history. Every
other query sits in its domain's store (``storage.stores``).

>>> numbered("SELECT * FROM games WHERE id = ? AND ply = ?")
'SELECT * FROM games WHERE id = $1 AND ply = $2'
>>> change_game(("status", "ply"))
"UPDATE games SET status = ?, ply = ? WHERE id = ? AND ply = ? AND status = 'active'"
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable
from enum import Enum
from typing import Any

from storage.errors import StorageError
from storage.records import (
    CHANGEABLE_COLUMNS,
    GameChanges,
    NewMove,
    RatingRecord,
)

# The tables of a games database, in the order a row's references are already there.
TABLES = (
    "players",
    "games",
    "moves",
    "challenges",
    "ratings",
    "server_settings",
    "server_players",
    "glicko_ratings",
    "puzzle_attempts",
    "tournaments",
    "tournament_players",
    "tournament_games",
    "vacations",
    "digest_settings",
    "digests",
    "premoves",
    "limit_counters",
    "rating_history",
    "game_reviews",
    "player_codes",
    "mail_stops",
)


def checked_table(name: str) -> str:
    """``name`` if it is one of ``TABLES`` (a name never reaches SQL unchecked)."""
    if name not in TABLES:
        raise StorageError(f"not a table of the games database: {name}")
    return name


def whole_table(name: str) -> str:
    return f"SELECT * FROM {checked_table(name)} ORDER BY 1, 2"


@functools.lru_cache(maxsize=256)
def numbered(sql: str) -> str:
    counter = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


def plain(value: Any) -> Any:
    """A value as both drivers bind it: booleans are the schema's 0 and 1, enums their word."""
    if isinstance(value, bool):
        return int(value)
    return value.value if isinstance(value, Enum) else value


# -- games: the compare-and-set every change goes through ---------------------------------------


@functools.lru_cache(maxsize=256)
def change_game(columns: tuple[str, ...]) -> str:
    """The compare-and-set that writes ``columns`` (parameters: their values, then the game's
    id and the ply the caller last saw; see ``change_values``)."""
    unknown = set(columns) - CHANGEABLE_COLUMNS
    if unknown:
        raise StorageError(f"not a column a change may set: {', '.join(sorted(unknown))}")
    assignments = ", ".join(f"{column} = ?" for column in columns)
    return f"UPDATE games SET {assignments} WHERE id = ? AND ply = ? AND status = 'active'"


def change_values(changes: GameChanges, game_id: int, ply: int) -> tuple[Any, ...]:
    return (*(plain(value) for value in changes.values()), game_id, ply)


MOVE_COLUMNS = "game_id, ply, move, player_id, played_at, board, mover"  # move_values' order
INSERT_MOVE = f"INSERT INTO moves ({MOVE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"


def move_values(game_id: int, ply: int, move: NewMove) -> tuple[Any, ...]:
    """The parameters of ``INSERT_MOVE`` for the move that makes the game's ply ``ply``."""
    return (
        game_id,
        ply,
        move["move"],
        move["player_id"],
        move["played_at"],
        move["board"],
        move["mover"],
    )


# -- ratings ---------------------------------------------------------------------------------

RATING_COLUMNS = (  # rating_values' order
    "player_id, family, rating, deviation, volatility, rated_at, games, wins, losses, draws"
)
UPSERT_RATING = (
    f"INSERT INTO glicko_ratings ({RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (player_id, family) DO UPDATE "
    "SET rating = excluded.rating, deviation = excluded.deviation, "
    "volatility = excluded.volatility, rated_at = excluded.rated_at, games = excluded.games, "
    "wins = excluded.wins, losses = excluded.losses, draws = excluded.draws"
)


def rating_values(ratings: Iterable[RatingRecord]) -> list[tuple[Any, ...]]:
    return [
        (
            r.player_id,
            str(r.family),
            float(r.rating),
            float(r.deviation),
            float(r.volatility),
            float(r.rated_at),
            r.games,
            r.wins,
            r.losses,
            r.draws,
        )
        for r in ratings
    ]


# Each rating a game's end sets, kept as the player's history: written beside UPSERT_RATING.
INSERT_RATING_HISTORY = (
    "INSERT INTO rating_history (game_id, player_id, family, rating, deviation, rated_at) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)


def history_values(game_id: int, ratings: Iterable[RatingRecord]) -> list[tuple[Any, ...]]:
    """The parameters of ``INSERT_RATING_HISTORY`` for the ratings game ``game_id`` set."""
    return [
        (game_id, r.player_id, str(r.family), float(r.rating), float(r.deviation), r.rated_at)
        for r in ratings
    ]
