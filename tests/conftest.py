"""Hypothesis profiles, chosen once for the whole suite.

- ``ci`` (where ``CI`` is set): derandomized, so every run tries the same inputs and a red CI
  is always a real failure, never a new random draw. What random runs find is kept as
  explicit ``@example``s, which every profile runs.
- ``dev`` (the default elsewhere): random, to find new failures while working.
- ``long``: random and ten times the examples, for a longer local search
  (``HYPOTHESIS_PROFILE=long``); ``bench/fuzz.py`` runs the same generators at any length.
"""

import os

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


# -- the storage backends: every storage test runs on SQLite and on a real PostgreSQL ---------

import pytest  # noqa: E402

from tests.postgres_server import HOW_TO_GET, PostgresServer, binaries, unavailable  # noqa: E402

_server: PostgresServer | None = None


def _postgres() -> PostgresServer:
    """One server for the whole session, started on first use."""
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
