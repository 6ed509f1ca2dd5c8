"""Backing the games database up while the bot runs, and putting a backup back.

SQLite's online backup API copies a consistent snapshot page by page, so a backup taken while
the bot writes is a database as it was at one moment (WAL mode lets the copy read while the
writer works). A restore checks the file first: SQLite, intact, and of a schema this program
knows; the database it replaces is kept beside it, so a restore loses nothing either.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from engine.translation import _
from storage.errors import StorageError
from storage.migrations import LATEST

HEADER = b"SQLite format 3\x00"


def backup(database: str | Path, target: str | Path) -> Path:
    """Copy ``database`` to ``target`` (a new file), consistently, while others write."""
    database, target = Path(database), Path(target)
    if not database.is_file():
        raise StorageError(_("there is no database at {path}").format(path=database))
    if target.exists():
        raise StorageError(_("{path} exists already; give a new file name").format(path=target))
    _copy(database, target)
    check(target)
    return target


def check(path: str | Path) -> int:
    """The schema version of a sound backup; StorageError saying what is wrong otherwise."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            if handle.read(16) != HEADER:
                raise StorageError(_("{path} is not a SQLite database").format(path=path))
    except OSError as err:
        raise StorageError(
            _("cannot read {path}: {error}").format(path=path, error=err.strerror or err)
        ) from None
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise StorageError(
                _("{path} is damaged (SQLite's integrity check failed)").format(path=path)
            )
        try:
            version = db.execute("SELECT max(version) FROM schema_version").fetchone()[0]
        except sqlite3.DatabaseError:
            raise StorageError(
                _("{path} is not a games database (no schema version)").format(path=path)
            ) from None
    finally:
        db.close()
    if version is None or version > LATEST:
        raise StorageError(
            _(
                "{path} has schema version {version}, which this program does not know (it "
                "knows 1 to {latest}); upgrade the program first"
            ).format(path=path, version=version, latest=LATEST)
        )
    return version


def restore(backup_file: str | Path, database: str | Path) -> Path | None:
    """Put ``backup_file`` in place of ``database`` after checking it; the database it
    replaces is kept as ``<database>.before-restore-<time>`` (returned). Stop the bot first:
    a running bot would go on with the data it had."""
    check(backup_file)
    database = Path(database)
    kept = None
    if database.exists():
        kept = database.with_name(f"{database.name}.before-restore-{int(time.time())}")
        backup(database, kept)
    _copy(backup_file, database)
    return kept


def _copy(source_path: str | Path, target_path: Path) -> None:
    """SQLite's online backup of ``source_path`` (opened read-only) into ``target_path``."""
    target_path.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    target = sqlite3.connect(target_path)
    try:
        source.backup(target)
    finally:
        target.close()
        source.close()
