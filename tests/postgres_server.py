"""A real PostgreSQL server for the tests, started from the operating system's own binaries
(Debian's ``postgresql`` package: initdb and pg_ctl under /usr/lib/postgresql/N/bin) in a
temporary directory on a free loopback port, and stopped at the end.

PostgreSQL refuses to run as root; as root (CI), the server runs as the ``postgres`` user the
package creates. Without the binaries the tests that need it skip, saying how to get them;
under ``CI=true`` that skip is a failure instead, so CI can never pass without them.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

HOW_TO_GET = (
    "PostgreSQL's server binaries are not installed: apt-get install postgresql "
    "(Debian/Ubuntu), or set MANCALA_PG_BIN to the folder holding initdb and pg_ctl"
)


def binaries() -> Path | None:
    explicit = os.environ.get("MANCALA_PG_BIN")
    candidates = (
        [explicit] if explicit else sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    )
    for folder in candidates:
        if folder and (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    found = shutil.which("initdb")
    return Path(found).parent if found and shutil.which("pg_ctl") else None


def unavailable(reason: str):
    """Skip locally; fail under CI, where a skipped PostgreSQL test would hide a gap."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the PostgreSQL tests: {reason}")
    pytest.skip(reason)


class PostgresServer:
    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="mancala-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self._databases = 0

    def _run(self, *argv: str) -> None:
        done = subprocess.run([*self.as_user, *argv], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{argv[0]} failed: {done.stdout}{done.stderr}")

    def start(self) -> PostgresServer:
        if self.as_user:
            shutil.chown(self.root, "postgres")
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale",
            "C",
        )
        self.resume()
        return self

    def resume(self) -> None:
        """Start the server on its data (again, after ``halt``)."""
        options = (
            f"-p {self.port} -h 127.0.0.1 -k {self.root} -F "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=200"
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def halt(self) -> None:
        """Stop the server as an operator's restart would (its clients are disconnected), and
        keep its data for ``resume``."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database on the server; its URL."""
        self._databases += 1
        name = f"t{os.getpid()}_{self._databases}"
        self._run(
            str(self.bindir / "psql"),
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "-q",
            "-c",
            f"CREATE DATABASE {name}",
        )
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run(
                str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"
            )
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
