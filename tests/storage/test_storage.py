"""The storage contract, on a real SQLite file and on a real PostgreSQL server (the
``database`` fixture runs each test on both): migrations, foreign keys, the
one-game-per-channel index and the compare-and-set that makes a move apply once."""

import sqlite3

import pytest

from engine import Side
from storage import ChannelTaken, StorageError, is_postgres_url, open_storage
from storage.migrations import LATEST
from storage.records import GameStatus, NewGame, NewMove, RatingRecord, ReviewRecord


def game_row(south, north, channel="c1", now=0.0) -> NewGame:
    return NewGame(
        rules="kalah",
        south_id=south,
        north_id=north,
        channel_surface="discord",
        channel_id=channel,
        first=Side.SOUTH,
        board="[4,4,4,4,4,4,4,4,4,4,4,4,0,0]",
        mover=0,
        options="{}",
        rated=True,
        created_at=now,
        last_move_at=now,
        remind_at=None,
        forfeit_at=None,
    )


def move_row(player, move="C") -> NewMove:
    return NewMove(
        move=move, player_id=player, played_at=1.0, board="[4,4,0,5,5,5,4,4,4,4,4,4,1,0]", mover=0
    )


async def test_new_file_is_migrated_in_wal_mode_with_foreign_keys(tmp_path):
    store = await open_storage(tmp_path / "sub" / "games.sqlite3")
    assert await store.schema_version() == LATEST
    await store.close()
    conn = sqlite3.connect(tmp_path / "sub" / "games.sqlite3")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"players", "games", "moves", "challenges", "ratings", "schema_version"} <= tables
    conn.close()


async def run_sql(database: str, sql: str) -> None:
    """One statement straight into the database, behind the storage's back."""
    if is_postgres_url(database):
        import asyncpg

        conn = await asyncpg.connect(database)
        await conn.execute(sql)
        await conn.close()
    else:
        conn = sqlite3.connect(database)
        conn.execute(sql)
        conn.commit()
        conn.close()


async def test_reopening_keeps_data_and_does_not_migrate_twice(database):
    store = await open_storage(database)
    pid = await store.players.id("email", "a@example.org", 0.0)
    await store.close()
    store = await open_storage(database)
    assert await store.players.id("email", "a@example.org", 5.0) == pid
    assert await store.schema_version() == LATEST
    await store.close()
    await run_sql(database, "DELETE FROM schema_version WHERE version = 1")  # count them
    store = await open_storage(database)  # a migration rerun would fail: its tables exist
    assert await store.schema_version() == LATEST
    await store.close()


async def test_a_newer_schema_is_refused_rather_than_touched(database):
    await (await open_storage(database)).close()
    await run_sql(database, f"INSERT INTO schema_version VALUES ({LATEST + 1})")
    with pytest.raises(StorageError, match="newer than this program"):
        await open_storage(database)


async def test_foreign_keys_are_enforced(database):
    store = await open_storage(database)
    with pytest.raises(Exception, match="(?i)foreign key"):
        await store.games.create(game_row(98, 99))
    await store.close()


async def test_one_active_game_per_channel(database):
    store = await open_storage(database)
    a = await store.players.id("discord", "1", 0.0)
    b = await store.players.id("discord", "2", 0.0)
    first = await store.games.create(game_row(a, b))
    with pytest.raises(ChannelTaken):
        await store.games.create(game_row(a, b))
    assert await store.games.create(game_row(a, b, channel="c2")) != first
    assert await store.games.update(first, 0, {"status": GameStatus.OVER})
    await store.games.create(game_row(a, b))  # the channel is free once the game is over
    await store.close()


async def test_a_move_is_recorded_only_at_the_ply_it_was_made_for(database):
    store = await open_storage(database)
    a = await store.players.id("discord", "1", 0.0)
    b = await store.players.id("discord", "2", 0.0)
    game = await store.games.create(game_row(a, b))
    assert await store.games.record_move(game, 0, move_row(a), {"mover": 1})
    assert not await store.games.record_move(game, 0, move_row(a), {"mover": 1})  # stale: ply is 1
    assert [m.ply for m in await store.games.moves(game)] == [1]
    stored = await store.games.get(game)
    assert stored is not None and stored.ply == 1 and stored.status is GameStatus.ACTIVE
    assert await store.games.take_back(game, 1, 0, {"mover": 0})
    assert await store.games.moves(game) == []
    await store.close()


def rating_row(player, rating, at, family="kalah") -> RatingRecord:
    return RatingRecord(player, family, rating, 300.0 - at, 0.06, at, 1, 1, 0, 0)


async def test_every_rated_end_leaves_one_history_row_per_player_in_its_transaction(database):
    """A game's end by a move (alone, or with other games' moves in one commit) or without
    one (a resignation) writes each player's new rating and a row of their history; a stale
    end writes neither."""
    import asyncio

    store = await open_storage(database)
    a = await store.players.id("discord", "1", 0.0)
    b = await store.players.id("discord", "2", 0.0)
    games = [await store.games.create(game_row(a, b, channel=f"h{n}")) for n in range(4)]
    over = {"status": GameStatus.OVER}
    assert await store.games.record_move(
        games[0], 0, move_row(a), over, [rating_row(a, 1600.0, 1.0), rating_row(b, 1400.0, 1.0)]
    )
    assert not await store.games.record_move(  # stale: nothing of it is written
        games[0], 0, move_row(a), over, [rating_row(a, 9999.0, 2.0)]
    )
    ends = [  # two games ending at once: on SQLite, one group commit
        store.games.record_move(
            game, 0, move_row(a), over, [rating_row(a, rating, at), rating_row(b, 1300.0, at)]
        )
        for game, rating, at in ((games[1], 1650.0, 3.0), (games[2], 1700.0, 4.0))
    ]
    assert await asyncio.gather(*ends) == [True, True]
    assert await store.games.update(games[3], 0, over, [rating_row(a, 1690.0, 5.0, "wari")])

    kalah = await store.ratings.history(a, "kalah", 10)
    assert [(p.game_id, p.rating, p.rated_at) for p in kalah] == [
        (games[0], 1600.0, 1.0),
        (games[1], 1650.0, 3.0),
        (games[2], 1700.0, 4.0),
    ]
    assert kalah[0].deviation == 299.0 and kalah[0].family == "kalah"
    assert [p.rating for p in await store.ratings.history(a, "kalah", 2)] == [1650.0, 1700.0]
    assert [p.game_id for p in await store.ratings.history(a, "wari", 10)] == [games[3]]
    assert [p.rating for p in await store.ratings.history(b, "kalah", 10)] == [
        1400.0,
        1300.0,
        1300.0,
    ]
    assert (await store.ratings.get(a, "kalah")).rating == 1700.0  # the current one, as before
    assert len(await store.table_rows("rating_history")) == 7
    await store.close()


async def test_a_review_is_kept_per_game_and_a_new_one_replaces_it(database):
    store = await open_storage(database)
    a = await store.players.id("discord", "1", 0.0)
    b = await store.players.id("discord", "2", 0.0)
    game = await store.games.create(game_row(a, b))
    assert await store.reviews.get(game) is None
    first = ReviewRecord(game, '{"nodes": 5}', 1, '{"plies": []}', 10.0)
    await store.reviews.put(first)
    assert await store.reviews.get(game) == first
    again = ReviewRecord(game, '{"nodes": 9}', 2, '{"plies": [1]}', 20.0)
    await store.reviews.put(again)  # made again under another budget
    assert await store.reviews.get(game) == again
    assert len(await store.table_rows("game_reviews")) == 1
    with pytest.raises(Exception, match="(?i)foreign key"):  # of a game that exists
        await store.reviews.put(ReviewRecord(game + 100, "{}", 1, "{}", 0.0))
    await store.close()


async def test_only_whitelisted_columns_can_change(database):
    store = await open_storage(database)
    with pytest.raises(StorageError, match="not a column a change may set"):
        await store.games.update(1, 0, {"rules; DROP TABLE games": 1})
    await store.close()


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_migrate_db_copies_sqlite_into_postgresql_and_back(database, tmp_path, capsys):
    """Every row, ids included (the mail tokens and the buttons name game ids), then checked:
    the counts, and every game replays to its board."""
    import asyncio

    from bot.cli import main
    from bot.service import Channel, GameService, Player
    from storage.transfer import TABLES

    source = str(tmp_path / "old.sqlite3")
    service = await GameService.open(source, tick_every=None)
    ann, bob = Player("discord", "1"), Player("email", "bob@example.org")
    await service.start_game(ann, bob, "kalah", Channel("discord", "spare"))  # id 1, no moves
    game = await service.start_game(ann, bob, "wari", Channel("discord", "c"))
    for move, who in (("C", ann), ("d", bob), ("E", ann)):
        await service.move(game.id, who, move)
    await service.resign(
        (await service.start_game(bob, ann, "oware", Channel("email", "x"))).id, bob
    )
    await service.challenge(ann, bob, "kalah", Channel("discord", "d"))
    await service.set_server_settings("discord", "42", ruleset="oware")
    await service.close()

    assert await asyncio.to_thread(main, ["migrate-db", source, database]) == 0
    assert "Copied and checked: 2 players, 3 games, 3 moves" in capsys.readouterr().out
    back = str(tmp_path / "back.sqlite3")
    assert await asyncio.to_thread(main, ["migrate-db", database, back]) == 0
    assert "Copied and checked:" in capsys.readouterr().out
    stores = [await open_storage(x) for x in (source, database, back)]
    try:
        for table in TABLES:
            rows = [await s.table_rows(table) for s in stores]
            assert rows[0] == rows[1] == rows[2], table
    finally:
        for s in stores:
            await s.close()
    service = await GameService.open(database, tick_every=None)
    try:
        assert (await service.get_game(game.id)).moves == ("C", "d", "E")
        fresh = await service.start_game(ann, bob, "kalah", Channel("discord", "new"))
        assert fresh.id == 4  # ids go on after the copied ones
    finally:
        await service.close()
    assert await asyncio.to_thread(main, ["migrate-db", source, back]) == 1
    assert "not empty" in capsys.readouterr().err
