"""The identity store's map of the schema (storage.stores.identities): every column that
refers to a player is in ``PLAYER_COLUMNS``, so linking and erasing a player miss no table;
and a link merges two players' ratings of one family into the better established one."""

import sqlite3

from storage import open_storage
from storage.queries import TABLES
from storage.stores.identities import PLAYER_COLUMNS


async def test_every_reference_to_a_player_is_mapped(tmp_path):
    path = tmp_path / "games.sqlite3"
    store = await open_storage(path)
    await store.close()
    db = sqlite3.connect(path)
    references = {
        (table, ref[3])
        for table in TABLES
        for ref in db.execute(f"PRAGMA foreign_key_list({table})")
        if ref[2] == "players"
    }
    assert references  # the schema names players: the PRAGMA saw them
    assert references == {(c.table, c.column) for c in PLAYER_COLUMNS}


async def test_a_merge_keeps_the_better_established_rating_with_both_counts(database):
    store = await open_storage(database)
    try:
        ann = await store.players.id("discord", "1", 0.0)
        mail = await store.players.id("email", "ann@example.org", 0.0)
        insert = (
            "INSERT INTO glicko_ratings (player_id, family, rating, deviation, volatility, "
            "rated_at, games, wins, losses, draws) VALUES (?, ?, ?, ?, 0.06, 0, ?, ?, ?, 0)"
        )
        await store.db.execute(insert, ann, "kalah", 1700.0, 200.0, 3, 3, 0)
        await store.db.execute(insert, mail, "kalah", 1550.0, 80.0, 30, 15, 15)
        await store.db.execute(insert, mail, "oware", 1400.0, 300.0, 1, 0, 1)
        await store.identities.merge(ann, mail, 10.0)
        kalah = await store.ratings.get(ann, "kalah")
        assert (kalah.rating, kalah.deviation, kalah.games, kalah.wins) == (1550.0, 80.0, 33, 18)
        assert (await store.ratings.get(ann, "oware")).rating == 1400.0
        assert await store.players.id("email", "ann@example.org", 0.0) == ann
        assert [i.surface for i in await store.identities.identities(ann)] == ["discord", "email"]
    finally:
        await store.close()
