"""The queries both engines run word for word, written once with ``?`` placeholders, and
the parameters they take; ``numbered`` gives PostgreSQL's ``$1, $2, ...`` spelling. The
stores (``storage.stores``) run them on either driver.

>>> numbered("SELECT * FROM games WHERE id = ? AND ply = ?")
'SELECT * FROM games WHERE id = $1 AND ply = $2'
>>> change_game(("status", "ply"))
"UPDATE games SET status = ?, ply = ? WHERE id = ? AND ply = ? AND status = 'active'"
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Sequence
from enum import Enum
from typing import Any

from storage.errors import StorageError
from storage.records import (
    CHANGEABLE_COLUMNS,
    Established,
    GameChanges,
    NewChallenge,
    NewGame,
    NewMove,
    NewPairing,
    NewPremove,
    NewPuzzleAttempt,
    NewTournament,
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


def _plain(value: Any) -> Any:
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
    return (*(_plain(value) for value in changes.values()), game_id, ply)


NEW_GAME_COLUMNS = tuple(NewGame.__annotations__)
INSERT_GAME = (
    f"INSERT INTO games ({', '.join(NEW_GAME_COLUMNS)}, status, ply) "
    f"VALUES ({', '.join('?' * len(NEW_GAME_COLUMNS))}, 'active', 0)"
)


def game_values(game: NewGame) -> tuple[Any, ...]:
    return tuple(_plain(game[column]) for column in NEW_GAME_COLUMNS)  # type: ignore[literal-required]


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


TAKE_BACK = "DELETE FROM moves WHERE game_id = ? AND ply > ?"  # parameters: game id, ply
GAME = "SELECT * FROM games WHERE id = ?"
MOVES = "SELECT * FROM moves WHERE game_id = ? ORDER BY ply"
ACTIVE_GAME_IN = (  # parameters: channel surface, channel id
    "SELECT * FROM games WHERE channel_surface = ? AND channel_id = ? AND status = 'active'"
)


def games_of(include_finished: bool) -> str:
    """A player's games, unfinished first (parameters: player id twice, limit)."""
    status = "" if include_finished else "AND status = 'active' "
    return (
        f"SELECT * FROM games WHERE (south_id = ? OR north_id = ?) {status}"
        "ORDER BY status = 'over', last_move_at DESC LIMIT ?"
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


RATING = "SELECT * FROM glicko_ratings WHERE player_id = ? AND family = ?"

# A leaderboard: the ratings of a family, best first; with ``established``, only those whose
# deviation grown to now stays under the bound (storage.records.Established).
_BOARD = (
    "SELECT r.*, p.surface, p.external_id, p.display_name FROM glicko_ratings r "
    "JOIN players p ON p.id = r.player_id "
)
_ESTABLISHED = (
    "AND r.deviation * r.deviation + r.volatility * r.volatility * ? * (? - r.rated_at) < ? "
)
_BEST_FIRST = "ORDER BY r.rating DESC, r.games DESC, r.player_id LIMIT ?"


def leaderboard(server: bool, established: bool) -> str:
    """The leaderboard's query; parameters: family, [surface, server id], [growth, now,
    bound²], limit (see ``leaderboard_values``)."""
    join = "JOIN server_players s ON s.player_id = p.id " if server else ""
    where = "WHERE r.family = ? " + ("AND s.surface = ? AND s.server_id = ? " if server else "")
    return _BOARD + join + where + (_ESTABLISHED if established else "") + _BEST_FIRST


def leaderboard_values(
    family: str, limit: int, server: tuple[str, str] | None, established: Established | None
) -> tuple[Any, ...]:
    values: tuple[Any, ...] = (family, *(server or ()))
    if established is not None:
        bound = established.deviation_below
        values += (established.growth, established.now, bound * bound)
    return (*values, limit)


HEAD_TO_HEAD = (  # parameters: the first player's id twice, then both pairs of ids
    "SELECT rules, count(*) AS games, "
    "sum(CASE WHEN (result_winner = 'south' AND south_id = ?) "
    "OR (result_winner = 'north' AND north_id = ?) THEN 1 ELSE 0 END) AS wins, "
    "sum(CASE WHEN result_winner = 'draw' THEN 1 ELSE 0 END) AS draws "
    "FROM games WHERE status = 'over' "
    "AND ((south_id = ? AND north_id = ?) OR (south_id = ? AND north_id = ?)) "
    "GROUP BY rules ORDER BY rules"
)


def head_to_head_values(first: int, second: int) -> tuple[int, ...]:
    return (first, first, first, second, second, first)


# -- players and challenges ------------------------------------------------------------------

PLAYER = "SELECT * FROM players WHERE id = ?"
PLAYER_ID = "SELECT id FROM players WHERE surface = ? AND external_id = ?"
ADD_PLAYER = (  # parameters: surface, external id, now
    "INSERT INTO players (surface, external_id, created_at) VALUES (?, ?, ?) "
    "ON CONFLICT (surface, external_id) DO NOTHING"
)
SET_DISPLAY_NAME = "UPDATE players SET display_name = ? WHERE id = ?"
SET_PING = "UPDATE players SET ping = ? WHERE id = ?"
SET_LANGUAGE = "UPDATE players SET language = ? WHERE id = ?"
SET_LANGUAGE_SEEN = "UPDATE players SET language_seen = ? WHERE id = ?"
FIND_PLAYER = "SELECT * FROM players WHERE surface = ? AND external_id = ?"

NEW_CHALLENGE_COLUMNS = tuple(NewChallenge.__annotations__)
INSERT_CHALLENGE = (
    f"INSERT INTO challenges ({', '.join(NEW_CHALLENGE_COLUMNS)}, status) "
    f"VALUES ({', '.join('?' * len(NEW_CHALLENGE_COLUMNS))}, 'open')"
)


def challenge_values(challenge: NewChallenge) -> tuple[Any, ...]:
    return tuple(_plain(challenge[column]) for column in NEW_CHALLENGE_COLUMNS)  # type: ignore[literal-required]


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


# -- servers and leases ----------------------------------------------------------------------

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
RELEASE_LEASE = "DELETE FROM leases WHERE name = ? AND holder = ?"


GAMES_AWAITING_AI = (
    "SELECT g.* FROM games g JOIN players p "
    "ON p.id = CASE g.mover WHEN 0 THEN g.south_id ELSE g.north_id END "
    "WHERE g.status = 'active' AND p.surface = 'ai'"
)
DUE_CLOCKS = (  # parameters: now, now
    "SELECT * FROM games WHERE status = 'active' AND (forfeit_at <= ? "
    "OR (remind_at <= ? AND reminded_at IS NULL))"
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


# -- puzzles ---------------------------------------------------------------------------------

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


# -- tournaments (storage.migrations, version 7) ---------------------------------------------

NEW_TOURNAMENT_COLUMNS = tuple(NewTournament.__annotations__)
INSERT_TOURNAMENT = (
    f"INSERT INTO tournaments ({', '.join(NEW_TOURNAMENT_COLUMNS)}, status) "
    f"VALUES ({', '.join('?' * len(NEW_TOURNAMENT_COLUMNS))}, 'open')"
)


def tournament_values(tournament: NewTournament) -> tuple[Any, ...]:
    return tuple(_plain(tournament[column]) for column in NEW_TOURNAMENT_COLUMNS)  # type: ignore[literal-required]


TOURNAMENT = "SELECT * FROM tournaments WHERE id = ?"
DUE_TOURNAMENTS = (  # parameters: now
    "SELECT * FROM tournaments WHERE status = 'running' "
    "OR (status = 'open' AND starts_at <= ?) ORDER BY id"
)


def tournaments(status: bool, player: bool) -> str:
    """Tournaments, newest first (parameters: [status], [player id], limit)."""
    join = "JOIN tournament_players p ON p.tournament_id = t.id " if player else ""
    where = [*(["t.status = ?"] if status else []), *(["p.player_id = ?"] if player else [])]
    condition = f"WHERE {' AND '.join(where)} " if where else ""
    return f"SELECT t.* FROM tournaments t {join}{condition}ORDER BY t.id DESC LIMIT ?"


TOURNAMENT_PLAYERS = (
    "SELECT * FROM tournament_players WHERE tournament_id = ? ORDER BY joined_at, player_id"
)
# A player joins while the tournament is open (an arena: also while it runs), if it has room;
# one who withdrew from a running arena comes back. Parameters: tournament, player, now,
# rating, tournament, tournament, most players.
JOIN_TOURNAMENT = (
    "INSERT INTO tournament_players (tournament_id, player_id, joined_at, rating) "
    "SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS DOUBLE PRECISION), "
    "CAST(? AS DOUBLE PRECISION) WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND "
    "(status = 'open' OR (status = 'running' AND format = 'arena'))) "
    "AND (SELECT count(*) FROM tournament_players "
    "WHERE tournament_id = ? AND withdrawn_at IS NULL) < ? "
    "ON CONFLICT (tournament_id, player_id) DO UPDATE SET withdrawn_at = NULL, "
    "joined_at = excluded.joined_at, rating = excluded.rating "
    "WHERE tournament_players.withdrawn_at IS NOT NULL"
)
LEAVE_OPEN_TOURNAMENT = (  # before the start a player just leaves: tournament, player, tournament
    "DELETE FROM tournament_players WHERE tournament_id = ? AND player_id = ? "
    "AND EXISTS (SELECT 1 FROM tournaments WHERE id = ? AND status = 'open')"
)
WITHDRAW = (  # parameters: now, tournament, player
    "UPDATE tournament_players SET withdrawn_at = ? "
    "WHERE tournament_id = ? AND player_id = ? AND withdrawn_at IS NULL"
)
START_TOURNAMENT = (  # parameters: rounds, now, tournament
    "UPDATE tournaments SET status = 'running', rounds = ?, started_at = ? "
    "WHERE id = ? AND status = 'open'"
)
SEED_PLAYER = (  # parameters: seed, rating, tournament, player
    "UPDATE tournament_players SET seed = ?, rating = ? WHERE tournament_id = ? AND player_id = ?"
)
# The compare-and-set that begins a round once (parameters: the round, the tournament, the
# round before it); its pairings are written in the same transaction.
BEGIN_ROUND = (
    "UPDATE tournaments SET current_round = ? "
    "WHERE id = ? AND current_round = ? AND status = 'running'"
)
INSERT_PAIRING = (  # parameters: pairing_values
    "INSERT INTO tournament_games "
    "(tournament_id, round, board, south_id, north_id, kind, result, recorded_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


def pairing_values(
    tournament_id: int, round_no: int, pairings: Iterable[NewPairing], now: float
) -> list[tuple[Any, ...]]:
    return [
        (
            tournament_id,
            round_no,
            p["board"],
            p["south_id"],
            p["north_id"],
            _plain(p["kind"]),
            _plain(p["result"]),
            now if p["result"] is not None else None,
        )
        for p in pairings
    ]


SET_PAIRING_GAME = (  # parameters: game, tournament, round, board
    "UPDATE tournament_games SET game_id = ? WHERE tournament_id = ? AND round = ? "
    "AND board = ? AND kind = 'game' AND game_id IS NULL"
)
# Each finished game's result copied to its pairing, once (parameters: now, tournament).
RECORD_RESULTS = (
    "UPDATE tournament_games SET recorded_at = ?, result = "
    "(SELECT g.result_winner FROM games g WHERE g.id = tournament_games.game_id) "
    "WHERE tournament_id = ? AND result IS NULL AND game_id IN "
    "(SELECT id FROM games WHERE status = 'over' AND result_winner IS NOT NULL)"
)
TOURNAMENT_GAMES = "SELECT * FROM tournament_games WHERE tournament_id = ? ORDER BY round, board"
TOURNAMENT_OF_GAME = "SELECT tournament_id FROM tournament_games WHERE game_id = ?"
CLAIM_TOURNAMENT_NEWS = (  # parameters: round, tournament, round
    "UPDATE tournaments SET announced_round = ? WHERE id = ? AND announced_round < ?"
)
END_TOURNAMENT = (  # parameters: end_values
    "UPDATE tournaments SET status = ?, ended_at = ? WHERE id = ? AND status IN (?, ?)"
)


def end_values(
    tournament_id: int, status: Enum, now: float, ending: Sequence[Enum]
) -> tuple[Any, ...]:
    """The new status, now, the tournament, and the two statuses it may end from (one twice
    when ``ending`` names one)."""
    froms = [_plain(s) for s in ending[:2]] or [None]
    return (_plain(status), now, tournament_id, froms[0], froms[-1])


# -- correspondence on a human schedule (storage.migrations, version 8) ----------------------

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
PLAYER_ACTIVE_GAMES = (  # parameters: player twice
    "SELECT id FROM games WHERE status = 'active' AND (south_id = ? OR north_id = ?)"
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
