"""Is the bot well? A running bot says so in a heartbeat file; ``mancala health`` reads it.

Each running process (``mancala bot``, ``mancala mail``) writes a heartbeat file of its own,
``<database>.health/<host>.<pid>.json``, every ``BEAT`` seconds: when, its host and pid, each
surface's state ("connected", "listening"...), the AI's state and the number of games in
progress; it removes the file when it stops cleanly. One file per process, so that several
processes on one host (two mail workers, shards on PostgreSQL) never write the same file.
Under systemd it also tells the service manager it is ready and alive (``sd_notify``:
READY=1, then WATCHDOG=1 each beat), so a bot that hangs is restarted. A file, not a port: it
needs no setting, works inside a container's HEALTHCHECK and from another process on the
same volume, and cannot be reached from outside.

``mancala health`` checks, one line each, and exits 0 when all pass, 1 otherwise:
- the database opens read-only, is intact, and has a schema this program knows;
- a bot is running, one line per process: its heartbeat is younger than ``STALE`` seconds,
  and its surfaces are up (``--before-start`` skips this, for a check before the bot starts).
  The heartbeat of a process of this host that is gone (killed, crashed: it could not remove
  its file) is removed and not reported; a process still there whose heartbeat is stale is
  hung, and fails. A heartbeat from another host (a shared volume) is judged by its age alone;
- the mail relay answers EHLO, when mail is configured;
- the AI: its compiled search ready, compiling, or cold (said, never a failure).

>>> Check("database", True, "ok").line()
'ok    database: ok'
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # ``mancala health`` itself never opens the service
    from bot.service import GameService

log = logging.getLogger(__name__)

BEAT = 30.0  # seconds between heartbeats
STALE = 3 * BEAT + 10  # a heartbeat older than this: the bot is gone or hung
DOWN = ("disconnected", "stopped", "failed")  # surface states that make the bot unhealthy
NOT_RUNNING = "not running (no heartbeat; start it with mancala bot or mancala mail)"


def heartbeat_dir(database: str | os.PathLike[str]) -> Path:
    """Where the processes using ``database`` write their heartbeats: beside a SQLite file;
    for a PostgreSQL database, in this machine's data directory (each machine checks its own)."""
    if str(database).startswith(("postgresql://", "postgres://")):
        from bot.config import data_dir

        return data_dir() / "bot.health"
    file = Path(database)
    return file.with_name(file.name + ".health")


def heartbeat_path(database: str | os.PathLike[str], pid: int | None = None) -> Path:
    """The heartbeat of the process ``pid`` (this one by default) on this host: the host is
    in the name as well as the pid, since containers sharing a volume all run as pid 1."""
    pid = os.getpid() if pid is None else pid
    return heartbeat_dir(database) / f"{socket.gethostname()}.{pid}.json"


# -- the running bot's side ------------------------------------------------------------------


def sd_notify(message: str) -> bool:
    """Tell systemd ``message`` (READY=1, WATCHDOG=1...) when it runs us with Type=notify;
    a no-op elsewhere. The protocol is one datagram to $NOTIFY_SOCKET: no library needed."""
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
        return True
    except OSError as err:
        log.warning("could not notify systemd: %s", err)
        return False


def write_heartbeat(
    path: Path, status: dict[str, Any], now: float | None = None, pid: int | None = None
) -> None:
    """Write ``status`` with the time, host and pid, atomically (a reader never sees half).
    The temporary file is made unique (mkstemp), so that writers never share one."""
    record = {
        "time": time.time() if now is None else now,
        "host": socket.gethostname(),
        "pid": os.getpid() if pid is None else pid,
        **status,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w") as file:
            file.write(json.dumps(record, sort_keys=True))
        os.chmod(temporary, 0o644)  # mkstemp makes it private; `mancala health` may be another user
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


async def heartbeat_forever(
    path: Path, status: Callable[[], Awaitable[dict[str, Any]]], every: float = BEAT
) -> None:
    """Write the heartbeat every ``every`` seconds until cancelled, then remove it (a bot
    that stopped cleanly is not running, rather than stale)."""
    sd_notify("READY=1")
    try:
        while True:
            try:
                write_heartbeat(path, await status())
                sd_notify("WATCHDOG=1")
            except Exception:  # noqa: BLE001 - a failed beat is logged, the next one retries
                log.exception("could not write the heartbeat %s", path)
            await asyncio.sleep(every)
    finally:
        sd_notify("STOPPING=1")
        with contextlib.suppress(OSError):
            path.unlink()


async def service_status(service: GameService) -> dict[str, Any]:
    """The service's part of a heartbeat: the AI's state and the games in progress; it also
    sets the open-games gauge of the metrics."""
    from bot import metrics

    open_games = await service.open_game_count()
    metrics.OPEN_GAMES.set(open_games)
    return {"ai": service.ai_status(), "open_games": open_games}


# -- ``mancala health`` ----------------------------------------------------------------------


@dataclass
class Check:
    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'ok' if self.ok else 'FAIL':<5} {self.name}: {self.detail}"


def check_postgres(url: str) -> Check:
    """The PostgreSQL database answers and has a schema this program knows."""
    import asyncpg

    from storage.migrations import LATEST

    async def ask() -> tuple[int | None, int]:
        conn = await asyncpg.connect(url, timeout=10)
        try:
            version = await conn.fetchval("SELECT max(version) FROM schema_version")
            active = await conn.fetchval("SELECT count(*) FROM games WHERE status = 'active'")
        finally:
            await conn.close()
        return version, active

    where = url.rpartition("@")[2]  # never the password
    try:
        version, active = asyncio.run(ask())
    except Exception as err:  # noqa: BLE001 - a bad URL, DNS, refused, auth: all one failure
        return Check(
            "database",
            False,
            f"PostgreSQL at {where[:200]} does not answer: {type(err).__name__}: {str(err)[:200]}",
        )
    if version is None or version > LATEST:
        return Check(
            "database",
            False,
            f"PostgreSQL at {where} has schema version {version}; this program knows 1 to {LATEST}",
        )
    return Check(
        "database", True, f"PostgreSQL at {where} (schema {version}, {active} games in progress)"
    )


def check_database(path: Path | str) -> Check:
    """Opens read-only (never creating or migrating it), passes SQLite's quick check, and
    has a schema version this program knows (a PostgreSQL URL: ``check_postgres``)."""
    from storage.migrations import LATEST

    if str(path).startswith(("postgresql://", "postgres://")):
        return check_postgres(str(path))
    path = Path(path)
    if not path.is_file():
        return Check("database", False, f"there is no database at {path}")
    if path.stat().st_size == 0:
        return Check("database", False, f"{path} is empty: no bot has started on it yet")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            verdict = db.execute("PRAGMA quick_check").fetchone()[0]
            version = db.execute("SELECT max(version) FROM schema_version").fetchone()[0]
            active = db.execute("SELECT count(*) FROM games WHERE status = 'active'").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error as err:
        return Check("database", False, f"{path} cannot be read: {err}")
    if verdict != "ok":
        return Check("database", False, f"{path} is damaged: {verdict}")
    if version is None or version > LATEST:
        return Check(
            "database",
            False,
            f"{path} has schema version {version}; this program knows 1 to {LATEST}",
        )
    return Check("database", True, f"{path} (schema {version}, {active} games in progress)")


def pid_alive(pid: int) -> bool:
    """Whether a process ``pid`` runs on this host (signal 0 asks without sending)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, but another user's
        return True
    except (OSError, OverflowError):  # not a pid at all
        return False
    return True


def check_bot(path: Path, now: float | None = None) -> Check:
    """The heartbeat is fresh and every surface in it is up."""
    now = time.time() if now is None else now
    try:
        beat = json.loads(path.read_text())
        age = now - float(beat["time"])
    except FileNotFoundError:
        return Check("bot", False, NOT_RUNNING)
    except (OSError, ValueError, KeyError, TypeError) as err:
        return Check("bot", False, f"unreadable heartbeat {path}: {err}")
    host = beat.get("host")
    elsewhere = f" on {host}" if host and host != socket.gethostname() else ""
    if age > STALE:
        return Check(
            "bot",
            False,
            f"no heartbeat for {age:.0f} s (pid {beat.get('pid')}{elsewhere}): stopped or hung",
        )
    surfaces = beat.get("surfaces", {})
    down = [f"{name} {state}" for name, state in surfaces.items() if state in DOWN]
    states = ", ".join(f"{name} {state}" for name, state in surfaces.items()) or "no surface"
    detail = (
        f"pid {beat.get('pid')}{elsewhere}, beat {age:.0f} s ago: {states}; "
        f"{beat.get('open_games', '?')} games in progress"
    )
    return Check("bot", not down, detail)


def _gone(path: Path, alive: Callable[[int], bool]) -> bool:
    """Whether ``path`` is the heartbeat of a process of this host that no longer runs."""
    try:
        beat = json.loads(path.read_text())
        host, pid = beat.get("host"), beat["pid"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False  # unreadable: check_bot says so
    return host == socket.gethostname() and isinstance(pid, int) and not alive(pid)


def check_bots(
    directory: Path, now: float | None = None, alive: Callable[[int], bool] = pid_alive
) -> list[Check]:
    """One check per process with a heartbeat in ``directory`` (by pid), after removing the
    heartbeats of this host's processes that are gone, and temporary files older than
    ``STALE`` (a writer killed between writing and renaming); "not running" when none is left."""
    here = socket.gethostname()
    clock = time.time() if now is None else now
    with contextlib.suppress(OSError):
        for temporary in directory.glob(".*.tmp"):
            with contextlib.suppress(OSError):
                if clock - temporary.stat().st_mtime > STALE:
                    temporary.unlink()

    def order(path: Path) -> tuple[bool, str, int]:  # this host's first, then by pid
        host, _, pid = path.stem.rpartition(".")
        return host != here, host, int(pid) if pid.isdigit() else -1

    try:
        paths = sorted(directory.glob("*.json"), key=order)
    except OSError:
        paths = []
    checks = []
    for path in paths:
        if _gone(path, alive):
            with contextlib.suppress(OSError):
                path.unlink()
            continue
        check = check_bot(path, now)
        if check.detail != NOT_RUNNING:  # else its process removed it since the listing
            checks.append(check)
    return checks or [Check("bot", False, NOT_RUNNING)]


def check_relay(host: str, port: int, timeout: float = 5.0) -> Check:
    """The relay answers EHLO (nothing is sent)."""
    import smtplib

    try:
        with smtplib.SMTP(host, port, timeout=timeout) as smtp:
            code, _ = smtp.ehlo()
    except (OSError, smtplib.SMTPException) as err:
        return Check("mail relay", False, f"{host}:{port} does not answer: {err}")
    return Check("mail relay", 200 <= code < 300, f"{host}:{port} answers EHLO ({code})")


def check_ai() -> Check:
    import bot.ai_runtime.kernel_cache as kernel

    if kernel.is_ready():
        return Check("AI", True, "compiled search ready")
    if kernel.is_compiling():
        return Check(
            "AI", True, "compiling in the background; levels play at reduced strength meanwhile"
        )
    return Check(
        "AI",
        True,
        "not compiled yet: the first search level compiles it in the "
        "background (or run mancala warm-up)",
    )
