"""The endgame tables the hard and expert levels read (wari, oware): built once per machine in
the background, then mapped by every AI worker.

A game whose rules have a play table (``engine.ai.search.play_table_seeds``) asks for it when
the AI first moves or hints (``prepare``). If the tables directory (``bot.config.tables_dir``)
does not hold it, one background process builds it there (about 20 s for oware's, 25 s for
wari's, at a low priority) and the levels play on without it meanwhile: nobody waits for a
table. The workers read it with ``loaded``, which maps the file once per process, so all of
them share one copy in memory. ``MANCALA_ENDGAME_TABLES=off`` turns them off.
"""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from engine.errors import excerpt
from engine.ruleset import Ruleset

if TYPE_CHECKING:
    from engine.ai.encoding import Endgame

LOCK_STALE = 600.0  # seconds after which a build's lock file is taken as abandoned
log = logging.getLogger(__name__)
_loaded: dict[tuple[str, int], Endgame | None] = {}  # this process's tables, by rules and seeds
_warned: list[str] = []


def enabled(environ: Mapping[str, str] | None = None) -> bool:
    """``MANCALA_ENDGAME_TABLES=off`` turns the play tables off (a machine short of memory or
    disk); anything but on/off is reported once and taken as on.

    >>> enabled({}), enabled({"MANCALA_ENDGAME_TABLES": "Off"})
    (True, False)
    """
    value = (os.environ if environ is None else environ).get("MANCALA_ENDGAME_TABLES", "")
    value = value.strip().lower()
    if value in ("off", "no", "0", "false"):
        return False
    if value not in ("", "on", "yes", "1", "true") and not _warned:
        _warned.append(value)
        log.warning(
            "MANCALA_ENDGAME_TABLES takes on or off, not %r: taken as on", excerpt(value, 40)
        )
    return True


def wanted(rules: Ruleset) -> int:
    """The seeds of the table the levels read for ``rules`` (0: none)."""
    from engine.ai.search import play_table_seeds

    return play_table_seeds(rules) if enabled() else 0


def _path(rules: Ruleset, seeds: int, directory: Path | None) -> Path:
    from bot.config import tables_dir
    from storage.tables import table_path

    return table_path(rules, seeds, directory or tables_dir())


def is_building(rules: Ruleset, directory: Path | None = None) -> bool:
    seeds = wanted(rules)
    try:
        lock = _path(rules, seeds, directory).with_suffix(".building")
        return time.time() - lock.stat().st_mtime < LOCK_STALE
    except OSError:
        return False


def prepare(rules: Ruleset, directory: Path | None = None) -> str:
    """Make sure the table for ``rules`` is on disk or on its way: "none" (these rules have
    no play table), "ready", "building" (started now or earlier) or "unavailable" (the
    tables directory cannot be written: the levels play without it)."""
    seeds = wanted(rules)
    if not seeds:
        return "none"
    try:
        path = _path(rules, seeds, directory)
        if path.is_file():
            return "ready"
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = path.with_suffix(".building")
        if is_building(rules, directory):
            return "building"
        lock.unlink(missing_ok=True)  # a stale lock: its build died
        with open(lock, "x") as handle:  # one process wins the race to create it
            handle.write(str(os.getpid()))
    except FileExistsError:
        return "building"
    except OSError as err:
        log.warning(
            "no endgame table for %s: the tables directory cannot be written (%s)",
            rules,
            err.strerror or type(err).__name__,
        )
        return "unavailable"
    command = [sys.executable, "-m", "bot.ai_runtime.table_cache", str(rules), str(path.parent)]
    subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env=dict(os.environ),
    )
    log.info(
        "building the %s endgame table (%d seeds, about half a minute) in %s; the AI "
        "plays without it meanwhile",
        rules,
        seeds,
        path.parent,
    )
    return "building"


def loaded(rules: Ruleset, directory: Path | None = None) -> Endgame | None:
    """(seeds, table) for ``choose_move``'s ``endgame``, mapped from disk once per process,
    or None while there is none (not built yet, or these rules have none)."""
    seeds = wanted(rules)
    if not seeds:
        return None
    key = (str(rules), seeds)
    if _loaded.get(key) is None:
        from bot.config import tables_dir
        from storage.tables import stored_table

        found = stored_table(rules, seeds, directory or tables_dir(), shared=True)
        _loaded[key] = (seeds, found.table) if found.source == "loaded" else None
    return _loaded[key]


def build_now(rules: Ruleset, directory: Path) -> str:
    """Build the table into ``directory`` (or find it there); return what happened."""
    from storage.tables import endgame_table

    return endgame_table(rules, wanted(rules), directory).note


def _background(rules_text: str, directory: str) -> int:
    """The background build: build, then release the lock whatever happened."""
    rules = Ruleset.parse(rules_text)
    lock = _path(rules, wanted(rules), Path(directory)).with_suffix(".building")
    with contextlib.suppress(OSError):
        os.nice(10)  # the games going on meanwhile come first
    try:
        build_now(rules, Path(directory))
        return 0
    finally:
        lock.unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(_background(sys.argv[1], sys.argv[2]))
