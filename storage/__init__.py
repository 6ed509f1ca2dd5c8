"""Where games live: a store per domain, written once, on one of two drivers: SQLite (a file
path, the default) or PostgreSQL (a ``postgresql://`` URL, for several processes).

- ``database.py``: ``Storage``, what ``open_storage`` returns: one store per domain
  (``storage.games``, ``.challenges``, ``.players``, ``.ratings``, ``.reviews``,
  ``.puzzles``, ``.tournaments``, ``.schedule``, ``.limits``, ``.identities``,
  ``.mail_stops``), from ``stores`` (see its docstring);
- ``driver.py``: the verbs every store is written against (``one``, ``all``, ``execute``,
  ``transaction``...), and what only an engine can do;
- ``sqlite_driver.py``, ``postgres_driver.py``: the two engines (group commit and WAL
  checkpoints; LISTEN/NOTIFY, "unavailable"); ``move_batches.py``: PostgreSQL's moves of
  many games written in one statement;
- ``queries.py``: what stores and drivers share (the SQL of a move, ``numbered``);
  ``records.py``: the typed rows the stores hand out and take in; ``errors.py``: what
  storage raises;
- ``migrations.py``: the schema, numbered; ``transfer.py`` and ``backup.py``: moving and
  copying a database; ``tables.py``: endgame tables kept as files.

Rows come back as the typed records of ``storage.records`` (a ``GameRecord``...); new rows and
changes go in as its TypedDicts (``NewGame``, ``GameChanges``...), so a misspelt column is a
type error. Times are float seconds from the service's clock.

>>> import asyncio, tempfile, os
>>> async def demo(path):
...     store = await open_storage(path)
...     pid = await store.players.id("terminal", "local", now=0.0)
...     again = await store.players.id("terminal", "local", now=1.0)
...     await store.close()
...     return pid == again
>>> with tempfile.TemporaryDirectory() as d:
...     asyncio.run(demo(os.path.join(d, "x.sqlite3")))
True
"""

from storage.database import Storage, open_storage
from storage.errors import ChannelTaken, StorageError, StorageUnavailable
from storage.postgres_driver import is_postgres_url

__all__ = [
    "ChannelTaken",
    "Storage",
    "StorageError",
    "StorageUnavailable",
    "is_postgres_url",
    "open_storage",
]
