"""Where games live: one storage interface (``Storage``) and its SQLite backend.

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

from storage.base import ChannelTaken, Storage, StorageError
from storage.sqlite import SQLiteStorage, open_storage

__all__ = ["ChannelTaken", "SQLiteStorage", "Storage", "StorageError", "open_storage"]
