"""The whole suite's settings: the AI's kernel compiled once, Hypothesis profiles, and the
``database`` fixture with its PostgreSQL server.

The suite runs on every core (pytest-xdist; pyproject.toml's addopts): each worker is a
process of its own, with its own temporary directories and its own PostgreSQL server (port
and data directory). What they share is numba's cache of the AI's kernel, which
``pytest_configure`` fills before any worker starts.

Hypothesis profiles, chosen once for the whole suite:

- ``ci`` (where ``CI`` is set): derandomized, so every run tries the same inputs and a red CI
  is always a real failure, never a new random draw. What random runs find is kept as
  explicit ``@example``s, which every profile runs.
- ``dev`` (the default elsewhere): random, to find new failures while working.
- ``long``: random and ten times the examples, for a longer local search
  (``HYPOTHESIS_PROFILE=long``); ``bench/fuzz.py`` runs the same generators at any length.
"""

import os
import subprocess
import sys

from hypothesis import HealthCheck, settings

from bot.ai_runtime.kernel_cache import configure as configure_kernel_cache

# The suite compiles the AI's kernel once, in the foreground, like a benchmark: tests of the
# AI's moves want the compiled search, not the quick one that stands in while it compiles.
# The tests of that stand-in (tests/cli/test_first_contact.py) set their own environment.
os.environ.setdefault("MANCALA_COMPILE", "wait")
# No background table builds from games the tests play; tests/engine/test_play_tables.py turns
# them on.
os.environ.setdefault("MANCALA_ENDGAME_TABLES", "off")
configure_kernel_cache()  # as `mancala` does, before numba loads: one cache for every process


_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", derandomize=True, database=None, print_blob=True, **_COMMON)
settings.register_profile("dev", **_COMMON)
settings.register_profile("long", max_examples=1000, **_COMMON)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


def pytest_configure(config):
    """In the process that starts xdist's workers, before it starts them: compile the AI's
    kernel into numba's cache, unless it is there already (``mancala warm-up``; about a
    second then). Otherwise both workers would compile it at once into the same files.
    numba writes each file whole (a temporary file, renamed), but two processes saving
    different signatures of one function at the same moment may both pick the same data
    file, and leave the index naming the other's machine code. With the cache full, the
    workers only read it."""
    if hasattr(config, "workerinput") or config.getoption("dist") == "no":
        return  # a worker, or a run in this one process
    if config.getoption("collectonly"):
        return
    # without MANCALA_COMPILE=wait, which would make it take the kernel as ready
    environ = {k: v for k, v in os.environ.items() if k != "MANCALA_COMPILE"}
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "warm-up"],
        env=environ,
        cwd=config.rootpath,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"mancala warm-up failed:\n{done.stdout}{done.stderr}")


# -- the storage backends: every storage test runs on SQLite and on a real PostgreSQL ---------

import pytest  # noqa: E402

from tests.postgres_server import HOW_TO_GET, PostgresServer, binaries, unavailable  # noqa: E402

_server: PostgresServer | None = None


def _postgres() -> PostgresServer:
    """One server for this process's session (each xdist worker has its own, on a port
    and in a directory of its own), started on first use."""
    global _server
    if _server is None:
        bindir = binaries()
        if bindir is None:
            unavailable(HOW_TO_GET)
        _server = PostgresServer(bindir).start()
    return _server


def pytest_sessionfinish(session, exitstatus):
    if _server is not None:
        _server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path) -> str:
    """Where a test's games live: a fresh SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return _postgres().new_database()
