"""Compile time of the AI's kernel: cold (empty numba cache), warm (cache hit), per use and
per function.

    .venv/bin/python bench/compile.py [--runs 3]

Each run makes an empty NUMBA_CACHE_DIR under /tmp and starts two processes on it: the cold
one compiles, use by use, what ``warm_up()`` compiles (``mancala warm-up``, the bot's
background compile), the warm one does the same from the cache. The uses, in this order:

- ``play``: what a first AI move of the search levels needs (the search, no table), compiled
  first, so its figure is a first move's whole cold compile;
- ``solve``: what a solve adds to that (the exact search, the endgame table's build, which a
  solve makes even of no seeds);
- ``tables``: what the play tables of wari and oware add (engine.ai.retrograde's build and the
  search reading a read-only table);
- ``selfcheck``: the rules functions ``engine.ai.selfcheck`` calls, for tests and
  bench/kernel_diff.py only (no user compiles them).

``warm_up`` is then play + solve + tables: everything a user can trigger. Prints one line per
run, then a table of medians: seconds per phase, cold and warm, and seconds per compiled
function (its own time, callees excluded, from numba's ``numba:compile`` events; a function
compiled for several signatures counts them all), split into type inference (with numba's
inlining) and lowering (with LLVM's optimization and machine code).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # bench/engine.py is not engine

PHASES = ("import", "play", "solve", "tables", "selfcheck")
USES = ("play", "solve", "tables")  # what warm_up() compiles


def child() -> None:
    """One process: time each phase, and numba's compiles within them; print JSON."""
    started = time.perf_counter()
    import numpy as np
    from numba.core import event

    from engine import Position, Ruleset
    from engine.ai import retrograde, search
    from engine.ai.encoding import encode
    from engine.ai.rules_kernel import legal_moves, play_settled

    times = {"import": time.perf_counter() - started}
    # The positions and tables search.warm_up() compiles with, use by use.
    tiny = Position.initial(Ruleset.parse("kalah:pits=2,seeds=1"))
    wari = Position.initial(Ruleset.parse("wari:pits=2,seeds=1"))
    code = encode(tiny.rules)
    board = np.array([1, 1, 1, 1, 0, 0], np.int64)
    moves = np.zeros(32, np.int64)
    steps = {
        "play": lambda: search.iterate(tiny, 2, tt_bits=4),
        "solve": lambda: search.solve(tiny, tt_bits=4),
        "tables": lambda: search.iterate(
            wari, 2, tt_bits=4, endgame=(2, retrograde.build(encode(wari.rules), 2))
        ),
        "selfcheck": lambda: (
            legal_moves(code.rules, code.next_slot, code.prev_pit, board, 0, moves, board.copy()),
            play_settled(
                code.rules,
                code.next_slot,
                code.prev_pit,
                board,
                board.copy(),
                0,
                0,
                moves,
                board.copy(),
            ),
        ),
    }
    with (
        event.install_recorder("numba:compile") as compiles,
        event.install_recorder("numba:run_pass") as passes,
    ):
        for name, step in steps.items():
            begin = time.perf_counter()
            step()
            times[name] = time.perf_counter() - begin
        begin = time.perf_counter()
        search.warm_up()  # all of it in the cache now: this checks that the uses cover it
        times["warm_up, after the uses"] = time.perf_counter() - begin
    times["warm_up"] = sum(times[use] for use in USES)
    events = sorted(compiles.buffer + passes.buffer, key=lambda pair: pair[0])
    print(json.dumps({"phases": times, "functions": _own_times(events)}))


def _stage(compiler_pass: str) -> str:
    """Which column of the table a compiler pass's time goes in."""
    if compiler_pass in ("nopython_type_inference", "inline_inlinables", "inline_overloads"):
        return "typing"
    if compiler_pass == "native_lowering":  # numba's lowering and LLVM's optimization
        return "llvm"
    return "other"


def _own_times(events) -> dict:
    """Seconds per function from nested compile and compiler-pass events, each callee's
    compile subtracted from its caller's: {name: {"seconds", "signatures", stage: seconds}}."""
    own: dict[str, dict] = {}
    # [event, start, seconds in nested events, seconds in nested compiles]
    stack = []
    for stamp, ev in events:
        if ev.is_start:
            stack.append([ev, stamp, 0.0, 0.0])
            continue
        ev, start, inner, compiles = stack.pop()
        spent = stamp - start
        compiling = ev.kind == "numba:compile"
        if stack:
            stack[-1][2] += spent
            stack[-1][3] += spent if compiling else compiles
        if compiling:
            entry = own.setdefault(
                ev.data["dispatcher"].py_func.__qualname__, {"seconds": 0.0, "signatures": 0}
            )
            entry["seconds"] += spent - compiles
            entry["signatures"] += 1
        else:
            # Passes inside an inlined function count for the function that inlines it.
            name = next(
                (
                    e.data["dispatcher"].py_func.__qualname__
                    for e, *_ in reversed(stack)
                    if e.kind == "numba:compile"
                ),
                ev.data["qualname"],
            )
            stage = _stage(ev.data["name"].split(" [")[0])
            entry = own.setdefault(name, {"seconds": 0.0, "signatures": 0})
            entry[stage] = entry.get(stage, 0.0) + spent - inner
    return own


def run_child(cache: str) -> tuple[dict, float]:
    """A fresh process on ``cache``: its report and its wall-clock seconds, start to exit."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    begin = time.perf_counter()
    out = subprocess.run(
        [sys.executable, __file__, "--child"], env=env, check=True, capture_output=True, text=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1]), time.perf_counter() - begin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json", help="also write every run's figures to this file")
    args = parser.parse_args()
    if args.child:
        child()
        return
    runs = []
    for run in range(args.runs):
        cache = tempfile.mkdtemp(prefix="mancala-numba-", dir="/tmp")
        try:
            cold, cold_wall = run_child(cache)
            warm, warm_wall = run_child(cache)
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        runs.append({"cold": cold, "warm": warm, "cold_wall": cold_wall, "warm_wall": warm_wall})
        print(
            f"run {run + 1}: cold {cold_wall:6.1f} s   warm {warm_wall:5.2f} s  (process "
            f"start to exit)",
            flush=True,
        )
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(runs))
    report(runs)


def report(runs: list) -> None:
    def med(values):
        return statistics.median(values)

    print(f"\nmedians of {len(runs)} runs (seconds)\n")
    print(f"  {'phase':28} {'cold':>8} {'warm':>8}")
    for phase in (*PHASES, "warm_up", "warm_up, after the uses"):
        label = {"warm_up": "warm_up (play+solve+tables)"}.get(phase, phase)
        print(
            f"  {label:28} {med(r['cold']['phases'][phase] for r in runs):8.2f} "
            f"{med(r['warm']['phases'][phase] for r in runs):8.2f}"
        )
    print(
        f"  {'process, start to exit':28} {med(r['cold_wall'] for r in runs):8.2f} "
        f"{med(r['warm_wall'] for r in runs):8.2f}"
    )
    names = {name for r in runs for name in r["cold"]["functions"]}
    columns = ("seconds", "signatures", "typing", "llvm")

    def figure(name, column):
        return med(r["cold"]["functions"].get(name, {}).get(column, 0.0) for r in runs)

    rows = sorted(((*(figure(name, c) for c in columns), name) for name in names), reverse=True)
    print(f"\n  {'function (cold compile)':28} {'own s':>8} {'sigs':>5} {'typing':>7} {'llvm':>7}")
    shown = [row for row in rows if row[0] >= 0.1]
    for seconds, sigs, typing, llvm, name in shown:
        print(f"  {name[:28]:28} {seconds:8.2f} {sigs:5g} {typing:7.2f} {llvm:7.2f}")
    rest = rows[len(shown) :]
    print(f"  {f'{len(rest)} more, under 0.1 s each':28} {sum(row[0] for row in rest):8.2f}")
    print(f"  {'total':28} {sum(row[0] for row in rows):8.2f}")


if __name__ == "__main__":
    main()
