"""Settings from ``.env`` and the environment (the environment wins).

``MANCALA_DB`` is the games database; without it the file lives in the user's data directory
as platformdirs gives it (``~/.local/share/mancala`` on Linux, honouring ``XDG_DATA_HOME``;
``~/Library/Application Support/mancala`` on macOS; ``%APPDATA%\\mancala`` on Windows).
``MANCALA_TABLES`` is where ``mancala solve`` keeps its endgame tables (``storage.tables``);
without it, the user's cache directory. The compiled search's cache is ``bot.ai_runtime.kernel_cache``.
``MANCALA_AI_*`` set the AI's workers and one player's caps (``ai_options``, ``AILimits``).

Settings sit below everything that reads them: this module imports no surface, no service and
no AI runtime, so any of them may import it (``bot.ai_runtime.table_cache`` reads
``tables_dir``, ``bot.service.ai_limits`` enforces ``AILimits``).

>>> database_path({"MANCALA_DB": "/tmp/games.sqlite3"})
PosixPath('/tmp/games.sqlite3')
>>> database_path({}) == platformdirs.user_data_path("mancala") / "mancala.sqlite3"
True
>>> tables_dir({"MANCALA_TABLES": "/srv/tables"}), tables_dir({}).name
(PosixPath('/srv/tables'), 'tables')
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from bot.i18n import N_, _
from engine import excerpt
from engine.inputs import whole_number

APP = "mancala"
DB_FILE = "mancala.sqlite3"


def load_env(env_file: str | os.PathLike[str] | None = ".env") -> None:
    """Read ``env_file`` (if it exists) into the environment, never overriding what is set."""
    if env_file and Path(env_file).is_file():
        from dotenv import load_dotenv

        load_dotenv(env_file, override=False)


def data_dir() -> Path:
    """The user's data directory for this program (not created here)."""
    return platformdirs.user_data_path(APP)


def database_path(environ: Mapping[str, str] | None = None) -> Path | str:
    """``MANCALA_DB`` if set (``~`` expanded), else the data directory's database file. A
    ``postgresql://`` URL is returned as it is: the PostgreSQL backend (storage.postgres_driver)."""
    environ = os.environ if environ is None else environ
    explicit = environ.get("MANCALA_DB", "").strip()
    if explicit.startswith(("postgresql://", "postgres://")):
        return explicit
    if explicit:
        return Path(explicit).expanduser()
    return data_dir() / DB_FILE


def tables_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``MANCALA_TABLES`` if set (``~`` expanded), else the user's cache directory: tables
    can always be built again, so they are a cache, not data."""
    environ = os.environ if environ is None else environ
    explicit = environ.get("MANCALA_TABLES", "").strip()
    if explicit:
        return Path(explicit).expanduser()
    return platformdirs.user_cache_path(APP) / "tables"


EX_CONFIG = 78  # sysexits: a configuration error; service managers do not restart on it


class ConfigError(Exception):
    """A setting that cannot work; ``mancala`` prints it as one line and exits EX_CONFIG.
    Its message is for the operator, in the language ``mancala`` talks in (LANG...)."""


def check_database(path: str | os.PathLike[str]) -> Path | str:
    """``path`` if it can be the games database: a file (not a directory) in a folder that
    exists or can be made, writable, and SQLite if it is there already. ConfigError says what
    is wrong and what to set, before anything opens it. A PostgreSQL URL comes back as it is.

    >>> check_database("/")
    Traceback (most recent call last):
    ...
    bot.config.ConfigError: MANCALA_DB is /, a directory; give a file in it, like /mancala.sqlite3

    A PostgreSQL URL is checked when the storage connects to it.
    """
    if str(path).startswith(("postgresql://", "postgres://")):
        return str(path)
    path = Path(path).expanduser()
    try:
        is_dir = path.is_dir()
    except OSError as err:  # a folder on the way that this user may not enter
        raise ConfigError(
            _(
                "MANCALA_DB is {path}, which cannot be reached ({reason}); give a file in a "
                "folder this user may read and write"
            ).format(path=path, reason=err.strerror or err)
        ) from None
    if is_dir:
        raise ConfigError(
            _("MANCALA_DB is {path}, a directory; give a file in it, like {file}").format(
                path=path, file=path / DB_FILE
            )
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab"):
            pass
    except OSError as err:
        raise ConfigError(
            _(
                "MANCALA_DB is {path}, which cannot be written ({reason}); give a file in a "
                "folder this user may write"
            ).format(path=path, reason=err.strerror or err)
        ) from None
    if path.stat().st_size:
        with open(path, "rb") as handle:
            if handle.read(16) != b"SQLite format 3\x00":
                raise ConfigError(
                    _(
                        "MANCALA_DB is {path}, which is not a SQLite database; give the games "
                        "database, or a new file name"
                    ).format(path=path)
                )
        _check_schema(path)
    return path


def _check_schema(path: Path) -> None:
    """ConfigError for a database written by a newer version of this program: opening it
    would risk its data, so it is refused before anything touches it."""
    import sqlite3

    from storage.migrations import LATEST

    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            version = db.execute("SELECT max(version) FROM schema_version").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return  # no schema yet (a new file), or locked: opening it says more
    if version is not None and version > LATEST:
        raise ConfigError(
            _(
                "MANCALA_DB is {path}, written by a newer version of this program (schema "
                "{version}; this one knows up to {latest}); upgrade the program, or restore a "
                "backup made for this version"
            ).format(path=path, version=version, latest=LATEST)
        )


@dataclass(frozen=True, kw_only=True)
class AILimits:
    """How much of the AI one player may use: the caps an operator may change
    (``MANCALA_AI_GAMES_PER_PLAYER``, ``MANCALA_AI_WAITING_PER_PLAYER``; see ``ai_options``),
    which ``bot.service.ai_limits`` enforces.

    >>> AILimits().games_per_player, AILimits().waiting_per_player
    (10, 5)
    """

    games_per_player: int = 10
    waiting_per_player: int = 5
    busy_after: float = 3.0  # seconds: Discord's interaction deadline


AI_SETTINGS = {  # variable: (what it sets, marked with N_; lowest, highest)
    "MANCALA_AI_WORKERS": (N_("AI worker processes"), 1, 64),
    "MANCALA_AI_GAMES_PER_PLAYER": (N_("games against the AI in progress per player"), 1, 1000),
    "MANCALA_AI_WAITING_PER_PLAYER": (N_("AI requests waiting per player"), 1, 1000),
}


def ai_options(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The AI's share of ``GameService.open``'s keywords, from the environment: the workers
    (``MANCALA_AI_WORKERS``) and one player's caps (``AILimits``). Unset
    variables keep the defaults; a bad one is a ConfigError naming what is accepted.

    >>> options = ai_options({"MANCALA_AI_WORKERS": "3", "MANCALA_AI_GAMES_PER_PLAYER": "4"})
    >>> options["ai_workers"], options["limits"].games_per_player
    (3, 4)
    >>> ai_options({"MANCALA_AI_WORKERS": "lots"})
    Traceback (most recent call last):
    ...
    bot.config.ConfigError: MANCALA_AI_WORKERS is 'lots'; give a whole number of AI worker processes from 1 to 64
    """
    environ = os.environ if environ is None else environ
    values: dict[str, int] = {}
    for name, (meaning, low, high) in AI_SETTINGS.items():
        text = environ.get(name, "").strip()
        if not text:
            continue
        try:
            values[name] = whole_number(text, name, low, high)
        except ValueError:
            raise ConfigError(
                # TRANSLATORS: {meaning} is what the setting counts: "AI worker processes"
                _(
                    "{name} is '{value}'; give a whole number of {meaning} from {low} to {high}"
                ).format(name=name, value=excerpt(text), meaning=_(meaning), low=low, high=high)
            ) from None
    defaults = AILimits()
    options: dict[str, Any] = {
        "limits": AILimits(
            games_per_player=values.get("MANCALA_AI_GAMES_PER_PLAYER", defaults.games_per_player),
            waiting_per_player=values.get(
                "MANCALA_AI_WAITING_PER_PLAYER", defaults.waiting_per_player
            ),
        )
    }
    if "MANCALA_AI_WORKERS" in values:
        options["ai_workers"] = values["MANCALA_AI_WORKERS"]
    return options
