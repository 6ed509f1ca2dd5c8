"""First contact: how long a new user waits for the AI, on a machine with nothing compiled.

    .venv/bin/python bench/first_contact.py [--runs 3] [--levels medium,expert]

Measured in one run, each figure the median of ``--runs`` tries:
- cold first reply, terminal: the real ``mancala play`` with an empty home and numba cache;
  seconds from sending the first move to the AI's reply on screen, per level, divided by the
  moves in that reply (after A, the AI may sow into its store and move again);
- cold first reply, service: the game service (the path the Discord bot and mail use), from
  the move to the AI's last MoveMade event, likewise per AI move;
- cold compile: ``mancala warm-up`` on an empty cache (what a first reply used to wait for);
- warm start: a new process loading the compiled search from a filled cache.
Background compiles started by the cold tries are stopped before the next try.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import pathlib
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # bench/engine.py is not engine

LEVELS = ["random", "greedy", "easy", "medium", "hard", "expert"]


def fresh_env(home: pathlib.Path, cache: pathlib.Path | None = None) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in ("MANCALA_COMPILE", "XDG_CACHE_HOME", "XDG_DATA_HOME", "MANCALA_DB", "DISCORD_TOKEN")
    }
    env.update(HOME=str(home), NUMBA_CACHE_DIR=str(cache or home / "numba"), PYTHONPATH=str(ROOT))
    return env


def stop_compile(cache: pathlib.Path) -> None:
    lock = cache / "mancala-kernel.compiling"
    with contextlib.suppress(OSError, ValueError):
        os.killpg(int(lock.read_text()), signal.SIGKILL)


def terminal_reply(level: str) -> float:
    """Seconds from typing the first move to the AI's reply, in a fresh home."""
    with tempfile.TemporaryDirectory() as home:
        home = pathlib.Path(home)
        proc = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "play", "kalah", "--vs", level],
            cwd=home,
            env=fresh_env(home),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        try:
            text = ""
            while not text.endswith("help): "):
                text += proc.stdout.read(1)
            started = time.perf_counter()
            proc.stdin.write("A\n")
            proc.stdin.flush()
            line = ""
            while not line.startswith("The AI plays"):
                line = proc.stdout.readline()
                if not line:
                    raise RuntimeError("the program ended before the AI replied")
            seconds = (time.perf_counter() - started) / (line.count(", then ") + 1)
            proc.stdin.write("quit\n")
            proc.stdin.close()
            proc.wait(60)
            return seconds
        finally:
            if proc.poll() is None:
                proc.kill()
            stop_compile(home / "numba")


SERVICE_TRY = """
import asyncio, sys, time
from bot.service import Channel, GameService, Player
async def main(level):
    service = await GameService.open("games.sqlite3", tick_every=None)
    me = Player("terminal", "local")
    game = await service.start_game(me, Player.ai(level), "kalah", Channel("terminal", "t"))
    started = time.perf_counter()
    await service.move(game.id, me, "A")
    await service.idle()
    replies = len((await service.get_game(game.id)).moves) - 1
    print((time.perf_counter() - started) / replies)
    await service.close()
asyncio.run(main(sys.argv[1]))
"""


def service_reply(level: str) -> float:
    """Seconds from a move to the AI's reply through the game service, in a fresh home."""
    with tempfile.TemporaryDirectory() as home:
        home = pathlib.Path(home)
        try:
            done = subprocess.run(
                [sys.executable, "-c", SERVICE_TRY, level],
                cwd=home,
                env=fresh_env(home),
                capture_output=True,
                text=True,
                timeout=600,
                check=True,
            )
            return float(done.stdout.split()[-1])
        finally:
            stop_compile(home / "numba")


def cold_compile(cache: pathlib.Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "bot.cli", "warm-up"],
        env=fresh_env(cache, cache),
        capture_output=True,
        check=True,
    )
    return time.perf_counter() - started


def warm_start(cache: pathlib.Path) -> float:
    code = (
        "import time; t = time.perf_counter(); from engine.ai import warm_up; warm_up(); "
        "print(time.perf_counter() - t)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=fresh_env(cache, cache),
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--levels", default=",".join(LEVELS))
    args = parser.parse_args()
    levels = args.levels.split(",")
    rows = []
    for level in levels:
        term = [terminal_reply(level) for _ in range(args.runs)]
        serv = [service_reply(level) for _ in range(args.runs)]
        rows.append((level, statistics.median(term), max(term), statistics.median(serv), max(serv)))
        print(
            f"  {level:8} terminal {statistics.median(term):6.2f} s (worst {max(term):.2f})  "
            f"service {statistics.median(serv):6.2f} s (worst {max(serv):.2f})",
            flush=True,
        )
    with tempfile.TemporaryDirectory() as folder:
        cache = pathlib.Path(folder)
        compile_s = cold_compile(cache)
        warm = statistics.median(warm_start(cache) for _ in range(args.runs))
    print(f"\nCold cache, first AI reply, seconds per AI move (median of {args.runs}; worst):")
    print("| level | terminal | service (Discord, mail) |")
    print("|---|---|---|")
    for level, term, term_worst, serv, serv_worst in rows:
        print(f"| {level} | {term:.2f} s ({term_worst:.2f}) | {serv:.2f} s ({serv_worst:.2f}) |")
    print(f"\ncold compile (`mancala warm-up`, empty cache): {compile_s:.1f} s, once")
    print(f"warm start (new process, kernel from the cache): {warm:.2f} s, median")
    medium = next((r[1] for r in rows if r[0] == "medium"), None)
    if medium:
        print(f"first reply at medium / waiting for the compile: {medium / compile_s:.3f}")


if __name__ == "__main__":
    main()
