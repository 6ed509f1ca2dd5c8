"""The AI's compiled search on this machine: where numba keeps it, whether it is ready, and
compiling it in the background so that nobody waits for the compiler.

numba compiles the search kernel on first use and keeps the machine code in its cache. That
cache lives where it survives: ``NUMBA_CACHE_DIR`` when the user (or the container) sets it,
else the user's cache directory (``~/.cache/mancala/numba`` on Linux). ``configure()`` must
run before numba is imported in any process; ``bot.cli.main`` calls it first thing, and the
AI's worker processes inherit the setting.

A marker file says the cache holds every function the AI uses, for this very kernel: its name
carries a fingerprint of the kernel's source files, numba and Python, so an upgrade or an
edit makes the kernel "not ready" again. Until it is ready, the game service plays the search
levels through the pure-Python search (``engine.ai``'s ``compiled=False``) and starts one
background process that compiles (``start_background``); ``mancala warm-up`` compiles in the
foreground, with progress.

>>> env = {}
>>> configure(env) == Path(env["NUMBA_CACHE_DIR"]) == platformdirs.user_cache_path(APP) / "numba"
True
>>> configure({"NUMBA_CACHE_DIR": "/srv/numba"})
PosixPath('/srv/numba')
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, MutableMapping
from pathlib import Path

import platformdirs

APP = "mancala"
KERNEL_FILES = (
    "encoding.py",
    "rules_kernel.py",
    "search_kernel.py",
    "endgame.py",
    "retrograde.py",
    "unowned_views.py",
    "search.py",
)
LOCK_STALE = 600.0  # seconds after which a compile's lock file is taken as abandoned


def configure(environ: MutableMapping[str, str] | None = None) -> Path:
    """Set ``NUMBA_CACHE_DIR`` (unless set) to the user's cache directory; return it."""
    environ = os.environ if environ is None else environ
    explicit = environ.get("NUMBA_CACHE_DIR", "").strip()
    if not explicit:
        explicit = str(platformdirs.user_cache_path(APP) / "numba")
        environ["NUMBA_CACHE_DIR"] = explicit
    return Path(explicit).expanduser()


def fingerprint() -> str:
    """What the cached machine code was compiled from: the kernel's files (where they are and
    when they changed, which is what numba's own cache checks), numba's and Python's
    versions, and the processor."""
    import importlib.metadata
    import platform

    import engine.ai

    folder = Path(engine.ai.__file__).parent
    parts = [sys.version, importlib.metadata.version("numba"), platform.machine()]
    for name in KERNEL_FILES:
        stat = (folder / name).stat()
        parts.append(f"{folder / name}:{stat.st_mtime_ns}:{stat.st_size}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _marker() -> Path:
    return configure() / f"mancala-kernel-{fingerprint()}.ready"


def _lock() -> Path:
    return configure() / "mancala-kernel.compiling"


def is_ready() -> bool:
    """Whether the AI's compiled search loads from the cache (in about a second). With
    ``MANCALA_COMPILE=wait`` in the environment it is always "ready": the first search then
    compiles in the foreground, as a benchmark or a test suite wants."""
    if os.environ.get("MANCALA_COMPILE", "").strip().lower() == "wait":
        return True
    try:
        return _marker().is_file()
    except OSError:
        return False


def is_compiling() -> bool:
    """Whether a compile runs now (a lock file younger than LOCK_STALE)."""
    try:
        return time.time() - _lock().stat().st_mtime < LOCK_STALE
    except OSError:
        return False


def compile_now(progress: Callable[[str], None] | None = None) -> float:
    """Compile every function of the AI's search into the cache (or load them, if there) and
    mark the cache ready; return the seconds it took."""
    started = time.perf_counter()
    configure()
    from engine.ai import warm_up

    warm_up(progress)
    marker = _marker()
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(f"compiled in {time.perf_counter() - started:.1f} s\n")
    return time.perf_counter() - started


def start_background() -> bool:
    """Start compiling in a background process unless the kernel is ready or a compile is
    already running (in this or another process on the machine). Return whether one runs."""
    if is_ready():
        return False
    lock = _lock()
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        if is_compiling():
            return True
        lock.unlink(missing_ok=True)  # a stale lock: its compile died
        with open(lock, "x") as handle:  # only one process wins the race to create it
            handle.write(str(os.getpid()))
    except FileExistsError:
        return True
    except OSError:
        return False  # no writable cache: every process compiles on first use instead
    child = subprocess.Popen(
        [sys.executable, "-m", "bot.ai_runtime.kernel_cache"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env=dict(os.environ),
    )
    lock.write_text(str(child.pid))  # whose compile it is (a process group of its own)
    return True


def _background() -> int:
    """The background compile: compile, then release the lock whatever happened."""
    with contextlib.suppress(OSError):
        os.nice(10)  # the games going on meanwhile come first
    try:
        compile_now()
        return 0
    finally:
        _lock().unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(_background())
