"""Moving a games database between backends (SQLite to PostgreSQL, and back), keeping every
player, game, move, challenge, rating and server setting with its id: game ids are in the mail
tokens and the Discord buttons, so they must not change.

The target must be empty (a new file, or a new PostgreSQL database); both are at the current
schema first. Afterwards the copy is checked: the same number of rows in every table, and every
game replays from its move log to the board stored for it.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from engine import Game, Ruleset
from engine.translation import _
from storage.database import Storage
from storage.errors import StorageError
from storage.queries import TABLES  # noqa: F401  (the tables copied, in order)
from storage.records import GameRecord


async def copy_database(
    source: Storage, target: Storage, progress: Callable[[str], None] = lambda s: None
) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target`` (open Storages); the rows
    copied per table. StorageError when the target holds data or the check fails."""
    if await target.games.count() or await target.table_rows("players"):
        raise StorageError(_("the target database is not empty: give a new file or database"))
    copied = {}
    for table in TABLES:
        rows = await source.table_rows(table)
        await target.insert_rows(table, rows)
        copied[table] = len(rows)
        # TRANSLATORS: progress of a copy: {table} is a table's name (games, players...)
        progress(_("{table}: {rows:,} rows").format(table=table, rows=len(rows)))
    for table in TABLES:
        if len(await target.table_rows(table)) != copied[table]:
            raise StorageError(_("the copy of {table} does not hold every row").format(table=table))
    await check_replays(target, progress)
    return copied


async def check_replays(store: Storage, progress: Callable[[str], None] = lambda s: None) -> int:
    """Every game of ``store`` replays from its moves to its stored board; the games checked."""
    games = [GameRecord.from_row(row) for row in await store.table_rows("games")]
    for n, game in enumerate(games, 1):
        moves = [m.move for m in await store.games.moves(game.id)]
        replay = Game.from_moves(Ruleset.parse(game.rules), moves, first=game.first).position
        if game.ply != len(moves) or (
            game.is_active and list(replay.board) != json.loads(game.board)
        ):
            raise StorageError(
                _("game {id} does not replay to its stored board").format(id=game.id)
            )
        if n % 1000 == 0:
            progress(_("checked {n:,} of {total:,} games").format(n=n, total=len(games)))
    return len(games)
