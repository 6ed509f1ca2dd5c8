"""Endgame tables kept on disk: a big one is built once per machine, not once per solve.

The engine builds a table in memory (``engine.ai.endgame``; it does no I/O). This module keeps
each table in a ``.npy`` file in a directory (``bot.config.tables_dir``), named after the
ruleset, a digest of its encoded rules and the table's size, and reads it back the next time.
A file that cannot be read, or that is not the table it claims to be, is built again and
replaced; a directory that cannot be written only costs the saving.

>>> import tempfile
>>> from engine import Ruleset
>>> rules = Ruleset.parse("kalah:pits=3,seeds=2")
>>> with tempfile.TemporaryDirectory() as folder:
...     first = endgame_table(rules, 6, folder)
...     again = endgame_table(rules, 6, folder)
>>> first.source, again.source
('built', 'loaded')
>>> bool((first.values == again.values).all())
True
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import tempfile
from pathlib import Path
from typing import NamedTuple

import numpy as np

from engine.ai import retrograde
from engine.ai.encoding import encode
from engine.ai.endgame import BUSY, build
from engine.ai.search import stores_irrelevant, table_counts, table_fits
from engine.errors import excerpt
from engine.ruleset import Ruleset
from engine.translation import _
from storage.errors import StorageError

# Part of every file name: change it when the table's layout or values change meaning.
FORMAT = "v1"


class StoredTable(NamedTuple):
    counts: np.ndarray
    values: np.ndarray | None  # None when the file is missing or unusable
    path: Path
    source: str  # "loaded", "built" (and saved), or "built, not saved"
    note: str  # what happened, for the user: where it came from or why it was rebuilt

    @property
    def table(self) -> tuple[np.ndarray, np.ndarray]:
        """The (counts, values) pair the solver takes (StorageError when there is none)."""
        if self.values is None:
            raise StorageError(f"no endgame table at {self.path}: {self.note}")
        return self.counts, self.values


def table_path(rules: Ruleset, max_seeds: int, directory: str | os.PathLike) -> Path:
    """Where the table for ``rules`` and ``max_seeds`` lives: the digest covers everything
    the kernel plays by, so two spellings of one ruleset share a file and two rulesets never do.

    >>> table_path(Ruleset.parse("kalah"), 20, "/tables").name  # doctest: +ELLIPSIS
    'kalah-...-20-v1.npy'
    """
    code = encode(rules)
    digest = hashlib.sha256()
    for part in code:
        digest.update(np.ascontiguousarray(part, dtype=np.int64).tobytes())
    name = re.sub(r"[^a-z0-9]+", "-", rules.name.lower()).strip("-") or "rules"
    return Path(directory) / f"{name}-{digest.hexdigest()[:16]}-{max_seeds}-{FORMAT}.npy"


def endgame_table(
    rules: Ruleset, max_seeds: int, directory: str | os.PathLike, progress=None
) -> StoredTable:
    """The endgame table of every board with at most ``max_seeds`` seeds in the pits: read
    from ``directory`` if it is there and sound, else built and saved there. ValueError (from
    the engine) where the rules admit no table. ``progress(seeds)``, if given, hears each
    layer of a table of bounds (wari, oware) as its build starts."""
    path = table_path(rules, max_seeds, directory)
    found = stored_table(rules, max_seeds, directory)
    if found.source == "loaded":
        return found
    problem = found.note
    counts, values = _build(rules, max_seeds, progress)
    try:
        _write(path, values)
    except OSError as err:
        fields = {
            "problem": problem,
            "path": excerpt(str(path), 160),
            "error": err.strerror or excerpt(err),
        }
        note = (
            # TRANSLATORS: an endgame table (a file of solved positions) was computed
            _("built (the saved one was unusable: {problem}); not saved to {path}: {error}")
            if problem
            else _("built; not saved to {path}: {error}")
        )
        return StoredTable(counts, values, path, "built, not saved", note.format(**fields))
    note = (
        # TRANSLATORS: an endgame table (a file of solved positions) was computed
        _("built (the saved one was unusable: {problem}) and saved to {path}")
        if problem
        else _("built and saved to {path}")
    )
    return StoredTable(counts, values, path, "built", note.format(problem=problem, path=path))


def stored_table(
    rules: Ruleset, max_seeds: int, directory: str | os.PathLike, shared: bool = False
) -> StoredTable:
    """The table kept in ``directory``, without building one: ``source`` is "loaded", or
    "missing" with ``note`` saying why ("" if there is no file). ``shared``: map the file
    rather than read it, so that processes reading one table share its memory."""
    try:
        path = table_path(rules, max_seeds, directory)
    except OSError:
        path = Path(str(directory))
    counts = table_counts(rules, max_seeds)
    values, problem = _read(path, shared)
    if values is not None:
        if not table_fits((counts, values), rules, max_seeds):
            problem = _("it is not a table of that size")
        elif (
            stores_irrelevant(rules) and values.size and int(values.min()) <= BUSY
        ):  # a board the build never finished
            problem = _("some boards have no value")
        else:
            return StoredTable(
                counts, values, path, "loaded", _("loaded from {path}").format(path=path)
            )
    return StoredTable(counts, None, path, "missing", problem)


def _build(rules: Ruleset, max_seeds: int, progress=None):
    code = encode(rules)
    if stores_irrelevant(rules):
        return build(code, max_seeds)
    counts, values = retrograde.start(code, max_seeds)
    for seeds in range(max_seeds + 1):
        if progress is not None:
            progress(seeds)
        retrograde.build_layer(code, counts, values, seeds)
    return counts, values


def largest_stored(
    rules: Ruleset, directory: str | os.PathLike, at_least: int, at_most: int
) -> int | None:
    """The seeds of the largest table for ``rules`` kept in ``directory`` between
    ``at_least`` and ``at_most``, or None (only the file is looked for: reading checks it)."""
    for seeds in range(at_most, at_least - 1, -1):
        try:
            if table_path(rules, seeds, directory).is_file():
                return seeds
        except OSError:  # a name too long for the system, say: no table can be kept there
            return None
    return None


def _read(path: Path, shared: bool = False) -> tuple[np.ndarray | None, str]:
    """The array in ``path``, or None and why it could not be read ("" if there is no file)."""
    try:
        values = np.load(path, allow_pickle=False, mmap_mode="r" if shared else None)
    except (FileNotFoundError, NotADirectoryError):  # no file yet (or no directory)
        return None, ""
    except OSError as err:
        if err.errno == errno.ENAMETOOLONG:  # no such file can exist: saving will say why
            return None, ""
        return None, err.strerror or type(err).__name__
    except (ValueError, EOFError) as err:
        return None, excerpt(err) or type(err).__name__
    return values, ""


def _write(path: Path, values: np.ndarray) -> None:
    """Save atomically: a reader sees the old file or the whole new one, never a part."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            np.save(file, values, allow_pickle=False)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
