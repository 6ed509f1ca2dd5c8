"""The addresses that said stop (``storage.stores.mail_stops``), on both backends: a stop is
kept by its key alone, a second stop keeps the first one's time, ``start`` lifts it."""

from __future__ import annotations

from storage import open_storage


async def test_a_stop_is_kept_by_its_key_until_started_again(database):
    store = await open_storage(database)
    try:
        stops = store.mail_stops
        assert await stops.stopped_at("k1") is None
        assert await stops.stop("k1", 100.0) is True
        assert await stops.stop("k1", 200.0) is False  # already: the first time stays
        assert await stops.stopped_at("k1") == 100.0
        assert await stops.stopped_at("k2") is None  # another address is not stopped
        assert await store.table_rows("mail_stops") == [{"address_key": "k1", "stopped_at": 100.0}]
        assert await stops.start("k1") is True
        assert await stops.start("k1") is False
        assert await stops.stopped_at("k1") is None
    finally:
        await store.close()
