"""Where games live: one storage interface (``Storage``) and two backends: SQLite (a file
path, the default) and PostgreSQL (a ``postgresql://`` URL, for several processes).

- ``base.py``: the interface; ``records.py``: the typed rows it hands out and takes in;
- ``sqlite.py``, ``postgres.py``: the backends; ``queries.py``: the SQL both run word for word;
  ``move_batches.py``: PostgreSQL's moves of many games written in one statement;
- ``migrations.py``: the schema, numbered; ``transfer.py`` and ``backup.py``: moving and
  copying a database; ``tables.py``: endgame tables kept as files.

>>> import asyncio, tempfile, os
>>> async def demo(path):
...     store = await open_storage(path)
...     pid = await store.player_id("terminal", "local", now=0.0)
...     again = await store.player_id("terminal", "local", now=1.0)
...     await store.close()
...     return pid == again
>>> with tempfile.TemporaryDirectory() as d:
...     asyncio.run(demo(os.path.join(d, "x.sqlite3")))
True
"""

from storage.base import ChannelTaken, Storage, StorageError, StorageUnavailable
from storage.postgres import is_postgres_url
from storage.sqlite import SQLiteStorage, open_sqlite


async def open_storage(location, durable: bool = False) -> Storage:
    """The games database at ``location``: a ``postgresql://`` URL opens PostgreSQL, anything
    else is a SQLite file path. Either is created or migrated to the current schema."""
    if is_postgres_url(location):
        from storage.postgres import open_postgres

        return await open_postgres(str(location))
    return await open_sqlite(location, durable)


__all__ = [
    "ChannelTaken",
    "SQLiteStorage",
    "Storage",
    "StorageError",
    "StorageUnavailable",
    "is_postgres_url",
    "open_storage",
]
