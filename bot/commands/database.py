"""``mancala backup FILE``, ``mancala restore FILE`` and ``mancala migrate-db SOURCE TARGET``:
the games database, kept safe and moved between backends.

    mancala backup /srv/backups/mancala-$(date +%F).sqlite3   # while the bot runs
    mancala restore /srv/backups/mancala-2026-11-24.sqlite3  # with the bot stopped
    mancala migrate-db mancala.sqlite3 postgresql://bot@db/mancala   # with the bot stopped
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.cli_args import Subparsers, add_env_option, text
from bot.i18n import _


def register(subparsers: Subparsers) -> None:
    backup = subparsers.add_parser(
        "backup",
        help=_("copy the games database, consistently, even while the bot runs"),
        description=_(
            "Copy the games database (MANCALA_DB, else the data directory's) to FILE with "
            "SQLite's online backup API: a consistent copy, even while the bot writes. FILE "
            "must not exist yet."
        ),
    )
    backup.add_argument("file", metavar="FILE")
    add_env_option(backup)
    backup.set_defaults(func=run_backup)
    restore = subparsers.add_parser(
        "restore",
        help=_("put a backup back, after checking it (stop the bot first)"),
        description=_(
            "Check FILE (a SQLite games database, intact, of a schema this program knows), "
            "keep the current database beside itself, and put FILE in its place. Stop the "
            "bot first."
        ),
    )
    restore.add_argument("file", metavar="FILE")
    add_env_option(restore)
    restore.set_defaults(func=run_restore)
    migrate = subparsers.add_parser(
        "migrate-db",
        help=_("copy a games database into another backend (SQLite <-> PostgreSQL)"),
        description=_(
            "Copy every player, game, move, challenge, rating and server setting of SOURCE "
            "into TARGET, ids included, then check the copy: the same rows, and every game "
            "replays to its board. Each is a SQLite file or a postgresql:// URL; TARGET must "
            "be empty. Stop the bot first, then point MANCALA_DB at TARGET."
        ),
    )
    migrate.add_argument("source", metavar="SOURCE", type=text(1000))
    migrate.add_argument("target", metavar="TARGET", type=text(1000))
    migrate.set_defaults(func=run_migrate_db)


def run_migrate_db(args: argparse.Namespace) -> int:
    import asyncio

    from bot.config import ConfigError
    from bot.progress import waiting
    from storage import StorageError, is_postgres_url, open_storage
    from storage.transfer import copy_database

    if not is_postgres_url(args.source) and not Path(args.source).is_file():
        raise ConfigError(_("there is no database at {source}").format(source=args.source))

    async def copy() -> dict[str, int]:
        source = await open_storage(args.source)
        try:
            target = await open_storage(args.target)
            try:
                with waiting(_("Copying the games database")) as wait:
                    return await copy_database(source, target, wait.update)
            finally:
                await target.close()
        finally:
            await source.close()

    try:
        copied = asyncio.run(copy())
    except (StorageError, OSError) as err:
        print(f"mancala migrate-db: {err}", file=sys.stderr)
        return 1
    # the tables' names (players, games...) are the database's own words: as they are
    counts = ", ".join(f"{n:,} {t}" for t, n in copied.items())
    print(_("Copied and checked: {counts}.").format(counts=counts))
    return 0


def _database(args: argparse.Namespace) -> Path:
    """The SQLite file to back up or restore; ConfigError (one line, 78) for a PostgreSQL
    URL, whose server has its own tools."""
    from bot.config import ConfigError, database_path, load_env

    load_env(args.env)
    database = database_path()
    if isinstance(database, str):
        raise ConfigError(
            _(
                "MANCALA_DB is a PostgreSQL database: back it up with pg_dump "
                "(pg_dump -Fc URL > FILE) and restore with pg_restore; mancala backup and "
                "restore copy a SQLite file"
            )
        )
    return database


def run_backup(args: argparse.Namespace) -> int:
    from storage import StorageError
    from storage.backup import backup

    try:
        made = backup(_database(args), args.file)
    except (StorageError, OSError) as err:
        print(f"mancala backup: {err}", file=sys.stderr)
        return 1
    print(_("Backed up to {file}.").format(file=made))
    return 0


def run_restore(args: argparse.Namespace) -> int:
    from storage import StorageError
    from storage.backup import restore

    database = _database(args)
    try:
        kept = restore(args.file, database)
    except (StorageError, OSError) as err:
        print(f"mancala restore: {err}", file=sys.stderr)
        return 1
    restored = _("Restored {file} to {database}.").format(file=args.file, database=database)
    if kept:
        restored += " " + _("The database it replaced is kept as {file}.").format(file=kept)
    print(restored)
    return 0
