"""Upgrading keeps every row: a database at each earlier schema version, holding what the bot
stores (players, challenges, games in progress and finished, moves, ratings), is migrated on
open, and every value it held is still there and every game still replays to its board.

The data is made by today's service and written back in the shape of each older version, so a
new migration is covered by adding it, with no test to write by hand. Today's service writes
no Elo ratings (version 5 moved ratings to Glicko-2, docs/ratings.md): the Elo rows an older
bot kept are written in by hand, and must come out unchanged in ``ratings`` and as their
documented starting point in ``glicko_ratings``."""

from __future__ import annotations

import sqlite3

import pytest

from bot.service import Channel, GameService, ManualClock, Player
from storage import open_storage
from storage.migrations import LATEST, MIGRATIONS
from storage.postgres_driver import is_postgres_url, postgres_sql

TABLES = ("players", "challenges", "games", "moves")  # each version has these, as today
GLICKO = 5  # the version that moved ratings from Elo to Glicko-2

# Elo rows as versions 1 to 4 kept them, per (surface, external id): ruleset, rating, games,
# wins, losses, draws. Ann's wari row matches the game she won in ``reference_database``.
ELO = [
    (("discord", "1001"), "wari", 1516.0, 1, 1, 0, 0),
    (("discord", "1001"), "wari:captures=2-4", 1600.0, 3, 2, 1, 0),
    (("discord", "1001"), "kalah-nosweep", 1700.0, 30, 25, 4, 1),
    (("discord", "1001"), "kalah:pits=4,seeds=3", 1400.0, 10, 4, 6, 0),
    (("email", "bob@example.org"), "wari", 1484.0, 1, 0, 1, 0),
    (("email", "bob@example.org"), "manbula", 1450.0, 12, 5, 7, 0),
    (("email", "bob@example.org"), "al-manqala", 1500.0, 0, 0, 0, 0),
    (("ai", "first"), "kalah", 1520.0, 5, 3, 2, 0),  # from before games with the AI went unrated
]
# What version 5 makes of them: per player and family, the rating averaged over the games,
# the deviation max(1400 / (4 + games), 50), volatility 0.06, the counts summed, as of the
# player's last rated game of the family ("game": the wari game's end) or else when the
# player was first seen ("seen").
GLICKO_ROWS = [
    (("discord", "1001"), "kalah", 1625.0, 50.0, 40, 29, 10, 1, "seen"),
    (("discord", "1001"), "wari", 1579.0, 175.0, 4, 3, 1, 0, "game"),
    (("email", "bob@example.org"), "al-manqala", 1500.0, 350.0, 0, 0, 0, 0, "seen"),
    (("email", "bob@example.org"), "applet", 1450.0, 87.5, 12, 5, 7, 0, "seen"),
    (("email", "bob@example.org"), "wari", 1484.0, 280.0, 1, 0, 1, 0, "game"),
    (("ai", "first"), "kalah", 1520.0, 1400 / 9, 5, 3, 2, 0, "seen"),
]


async def reference_database(path) -> None:
    """A database as a busy bot leaves it, made through the service."""
    clock = ManualClock(1e6)
    service = await GameService.open(path, clock=clock, tick_every=None)
    ann, bob = Player("discord", "1001"), Player("email", "bob@example.org")
    try:
        await service.set_display_name(ann, "Ann")
        challenge = await service.challenge(ann, bob, "wari", Channel("discord", "c1"))
        game = await service.accept(challenge.id, bob)
        for move, player in (("C", ann), ("d", bob), ("E", ann)):
            game = await service.move(game.id, player, move)
        clock.advance(3600)  # the game ends an hour after the players were first seen
        await service.resign(game.id, bob)  # finished: rated, with a termination
        await service.challenge(bob, ann, "kalah", Channel("email", "x"))  # left open
        played = await service.start_game(
            ann, Player.ai("first"), "kalah", Channel("discord", "c2")
        )
        await service.move(played.id, ann, "A")  # in progress, against the AI
        await service.idle()
        await service.set_ping_mode(ann, "dm")
    finally:
        await service.close()


def rows(db: sqlite3.Connection, table: str, columns: list[str] | None = None) -> list[tuple]:
    columns = columns or [c[1] for c in db.execute(f"PRAGMA table_info({table})")]
    return db.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY 1, 2").fetchall()


def database_at(version: int, path, reference) -> dict[str, list[str]]:
    """Write ``reference``'s rows into a new file at schema ``version``; the columns each
    table had then."""
    old = sqlite3.connect(path)
    for _number, script in MIGRATIONS[:version]:
        old.executescript(script)
    old.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    old.executemany(
        "INSERT INTO schema_version VALUES (?)", [(number,) for number, _ in MIGRATIONS[:version]]
    )
    source = sqlite3.connect(reference)
    columns = {}
    for table in TABLES:
        columns[table] = [c[1] for c in old.execute(f"PRAGMA table_info({table})")]
        marks = ", ".join("?" * len(columns[table]))
        old.executemany(
            f"INSERT INTO {table} ({', '.join(columns[table])}) VALUES ({marks})",
            rows(source, table, columns[table]),
        )
    if version < GLICKO:
        ids = {
            (r[1], r[2]): r[0] for r in old.execute("SELECT id, surface, external_id FROM players")
        }
        old.executemany(
            "INSERT INTO ratings (player_id, rules, rating, games, wins, losses, draws) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(ids[who], *rest) for who, *rest in ELO],
        )
    else:  # a bot at version 5 or later kept Glicko-2 ratings: those version 5 made of ELO
        old.executemany(
            f"INSERT INTO glicko_ratings VALUES ({', '.join('?' * 10)})", expected_glicko(old)
        )
    old.commit()
    old.close()
    source.close()
    return columns


def rounded(table: list[tuple]) -> list[tuple]:
    return [tuple(round(v, 6) if isinstance(v, float) else v for v in row) for row in table]


def expected_glicko(db: sqlite3.Connection) -> list[tuple]:
    """``GLICKO_ROWS`` as rows of ``glicko_ratings``, with the ids and times of ``db``."""
    ids = {
        (r[1], r[2]): (r[0], r[3])
        for r in db.execute("SELECT id, surface, external_id, created_at FROM players")
    }
    (ended,) = db.execute("SELECT ended_at FROM games WHERE rules = 'wari'").fetchone()
    return sorted(
        (
            ids[who][0],
            family,
            rating,
            deviation,
            0.06,
            ended if when == "game" else ids[who][1],
            *counts,
        )
        for who, family, rating, deviation, *counts, when in GLICKO_ROWS
    )


@pytest.mark.parametrize("version", range(1, LATEST))
async def test_every_earlier_schema_upgrades_keeping_all_data(tmp_path, version):
    reference = tmp_path / "today.sqlite3"
    await reference_database(reference)
    path = tmp_path / f"v{version}.sqlite3"
    columns = database_at(version, path, reference)
    old_copy = sqlite3.connect(":memory:")
    sqlite3.connect(path).backup(old_copy)  # as it was before the upgrade
    assert sum(len(rows(sqlite3.connect(path), t)) for t in TABLES) > 10  # there is data

    service = await GameService.open(path, clock=ManualClock(2e6), tick_every=None)
    try:
        for game_id in (1, 2):
            game = await service.get_game(game_id)  # replays its moves from the log
            assert game.ply == len(game.moves) > 0
        assert (await service.get_game(1)).outcome.winner == "south"
        ann = await service.rating(Player("discord", "1001"), "wari:captures=2-3-4")
        assert (ann.rules, round(ann.rating), ann.games, ann.provisional) == ("wari", 1579, 4, True)
        board = await service.leaderboard("kalah-nosweep")  # Ann: established; the AI: never
        assert [(r.player, r.shown, r.wins) for r in board] == [
            (Player("discord", "1001"), "1625", 29)
        ]
    finally:
        await service.close()

    upgraded, today = sqlite3.connect(path), sqlite3.connect(reference)
    assert upgraded.execute("SELECT max(version) FROM schema_version").fetchone() == (LATEST,)
    for table in TABLES:
        assert rows(upgraded, table, columns[table]) == rows(today, table, columns[table]), table
    # every Elo row is kept as it was, and each became its documented starting point
    ratings = ["player_id", "rules", "rating", "games", "wins", "losses", "draws"]
    assert rows(upgraded, "ratings", ratings) == rows(old_copy, "ratings", ratings)
    assert rounded(rows(upgraded, "glicko_ratings")) == rounded(expected_glicko(upgraded))
    # the limits' counters (version 11) start empty: nothing was counted before
    assert rows(upgraded, "limit_counters") == []
    # the endings stored as words before version 2 became the same data as today's
    assert rows(upgraded, "games", ["result_termination", "result_by"]) == rows(
        today, "games", ["result_termination", "result_by"]
    )


async def test_elo_ratings_become_the_same_glicko_rows_on_both_backends(tmp_path, database):
    """Version 5's SQL on PostgreSQL (its arithmetic, its types) gives what it gives on SQLite."""
    reference = tmp_path / "today.sqlite3"
    await reference_database(reference)
    source_path = tmp_path / "v4.sqlite3"
    database_at(GLICKO - 1, source_path, reference)
    source = sqlite3.connect(source_path)
    if is_postgres_url(database):
        import asyncpg

        conn = await asyncpg.connect(database)
        try:
            for _number, script in MIGRATIONS[: GLICKO - 1]:
                await conn.execute(postgres_sql(script))
            await conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            await conn.executemany(
                "INSERT INTO schema_version VALUES ($1)",
                [(number,) for number, _ in MIGRATIONS[: GLICKO - 1]],
            )
            for table in ("players", "games", "moves", "challenges", "ratings"):
                columns = [c[1] for c in source.execute(f"PRAGMA table_info({table})")]
                marks = ", ".join(f"${i + 1}" for i in range(len(columns)))
                await conn.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                    rows(source, table, columns),
                )
        finally:
            await conn.close()
    else:
        source.backup(sqlite3.connect(database))
    store = await open_storage(database)  # migrates
    try:
        glicko = await store.table_rows("glicko_ratings")
        assert len(await store.table_rows("ratings")) == len(ELO)
    finally:
        await store.close()
    assert rounded([tuple(row.values()) for row in glicko]) == rounded(expected_glicko(source))
