"""A new user's first game on a fresh machine: nothing compiled, nothing in the cache.

The real ``mancala`` program runs with an empty home and an empty numba cache: the AI must
answer through the quick pure-Python search, say that it does, and leave one background
process compiling the full search into the user's cache directory.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

MANCALA = [sys.executable, "-m", "bot.cli"]


def fresh_env(home: Path) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in (
            "NUMBA_CACHE_DIR",
            "MANCALA_COMPILE",
            "XDG_CACHE_HOME",
            "XDG_DATA_HOME",
            "MANCALA_DB",
            "DISCORD_TOKEN",
        )
    }
    env["HOME"] = str(home)
    return env


def stop_background_compile(cache: Path) -> None:
    lock = cache / "mancala-kernel.compiling"
    if lock.exists():
        with contextlib.suppress(OSError, ValueError):
            os.killpg(int(lock.read_text()), signal.SIGTERM)


def test_the_first_ai_move_never_waits_for_the_compiler(tmp_path):
    env = fresh_env(tmp_path)
    cache = tmp_path / ".cache" / "mancala" / "numba"
    try:
        done = subprocess.run(
            MANCALA + ["play", "kalah"],
            input="A\nquit\n",
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        out = done.stdout
        assert done.returncode == 0, done.stderr
        assert "a quick search: its full search is being compiled in the background" in out
        assert "The AI plays" in out
        # One background compile was started, into the user's cache directory.
        assert (cache / "mancala-kernel.compiling").exists() or any(cache.glob("*.ready"))
    finally:
        stop_background_compile(cache)


def test_numba_cache_dir_set_by_the_user_is_where_the_compile_goes(tmp_path):
    env = fresh_env(tmp_path)
    own = tmp_path / "my-numba-cache"
    env["NUMBA_CACHE_DIR"] = str(own)
    try:
        done = subprocess.run(
            MANCALA + ["play", "kalah"],
            input="A\nquit\n",
            env=env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        assert (own / "mancala-kernel.compiling").exists() or any(own.glob("*.ready"))
        assert not (tmp_path / ".cache" / "mancala" / "numba").exists()
    finally:
        stop_background_compile(own)
