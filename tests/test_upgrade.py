"""Upgrading keeps every row: a database at each earlier schema version, holding what the bot
stores (players, challenges, games in progress and finished, moves, ratings), is migrated on
open, and every value it held is still there and every game still replays to its board.

The data is made by today's service and written back in the shape of each older version, so a
new migration is covered by adding it, with no test to write by hand."""

from __future__ import annotations

import sqlite3

import pytest

from bot.service import Channel, GameService, ManualClock, Player
from storage.migrations import LATEST, MIGRATIONS

TABLES = ("players", "challenges", "games", "moves", "ratings")  # each version has these


async def reference_database(path) -> None:
    """A database as a busy bot leaves it, made through the service."""
    service = await GameService.open(path, clock=ManualClock(1e6), tick_every=None)
    ann, bob = Player("discord", "1001"), Player("email", "bob@example.org")
    try:
        await service.set_display_name(ann, "Ann")
        challenge = await service.challenge(ann, bob, "wari", Channel("discord", "c1"))
        game = await service.accept(challenge.id, bob)
        for move, player in (("C", ann), ("d", bob), ("E", ann)):
            game = await service.move(game.id, player, move)
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
    old.commit()
    old.close()
    source.close()
    return columns


@pytest.mark.parametrize("version", range(1, LATEST))
async def test_every_earlier_schema_upgrades_keeping_all_data(tmp_path, version):
    reference = tmp_path / "today.sqlite3"
    await reference_database(reference)
    path = tmp_path / f"v{version}.sqlite3"
    columns = database_at(version, path, reference)
    assert sum(len(rows(sqlite3.connect(path), t)) for t in TABLES) > 10  # there is data

    service = await GameService.open(path, clock=ManualClock(2e6), tick_every=None)
    try:
        for game_id in (1, 2):
            game = await service.get_game(game_id)  # replays its moves from the log
            assert game.ply == len(game.moves) > 0
        assert (await service.get_game(1)).outcome.winner == "south"
        assert (await service.rating(Player("discord", "1001"), "wari")) is not None
    finally:
        await service.close()

    upgraded, today = sqlite3.connect(path), sqlite3.connect(reference)
    assert upgraded.execute("SELECT max(version) FROM schema_version").fetchone() == (LATEST,)
    for table in TABLES:
        assert rows(upgraded, table, columns[table]) == rows(today, table, columns[table]), table
    # the endings stored as words before version 2 became the same data as today's
    assert rows(upgraded, "games", ["result_termination", "result_by"]) == rows(
        today, "games", ["result_termination", "result_by"]
    )
