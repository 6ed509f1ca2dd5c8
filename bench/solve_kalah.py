"""Kalah(6,4) solved from the start under both capture rules, each in a process of its own,
with time, nodes and peak memory, the endgame table's figures apart (issue 22).

    .venv/bin/python bench/solve_kalah.py [--runs 3] [--fresh] [--cmancala PATH/Mancala]

- ``001``: the rules of seed 001 (a last seed in an empty pit of one's own captures even when
  the opposite pit is empty); ``standard``: ``kalah:capture_needs_opposite=yes``.
- Without ``--fresh`` the tables come from the tables directory, as ``mancala solve`` finds
  them (built there the first time); with it, from a new empty directory each run, so the
  figures are those of a first use, table build included.
- ``--cmancala``: also solve the standard start with CMancala's LOCAL solver and a 2^26 table
  (its ``--api`` mode), in the same run. CMancala's "classic" rules are the standard capture.
- The baseline, measured in the same run: replaying 3000 seeded random games of Kalah(6,4) with
  the engine (pure Python). Ratios to it compare machines of different speeds.

Each figure is the median of ``--runs`` runs.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # bench/engine.py is not engine

from engine import Game, Ruleset  # noqa: E402

VARIANTS = {"001": "kalah", "standard": "kalah:capture_needs_opposite=yes"}
CMANCALA_START = "008080808080800080808080809"  # its code for the 4-seed start, South to move


def baseline() -> float:
    """Seconds to play 3000 seeded random games of Kalah(6,4) with the engine."""
    rules = Ruleset.parse("kalah")
    rng = random.Random(1)
    started = time.perf_counter()
    for _ in range(3000):
        game = Game(rules)
        while not game.is_over():
            game.play(rng.choice(game.position.legal_moves()))
    return time.perf_counter() - started


def run_child(command: list[str], given: str | None = None) -> tuple[str, float, int]:
    """Run ``command`` (``given`` on its input); (its output, wall seconds, its peak resident
    memory in MB, from the kernel's accounts of that one child)."""
    started = time.perf_counter()
    child = subprocess.Popen(
        command,
        stdin=subprocess.PIPE if given else None,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    if given:
        child.stdin.write(given)
        child.stdin.close()
    output = child.stdout.read()
    child.stdout.close()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{output[-2000:]}")
    return output, time.perf_counter() - started, usage.ru_maxrss // 1024


def our_solve(spec: str, fresh: bool) -> dict:
    command = [sys.executable, str(ROOT / "bench" / "solve.py"), spec]
    with tempfile.TemporaryDirectory() as folder:
        if fresh:
            command += ["--cache", folder]
        output, _, peak = run_child(command)
    value = re.search(r"value ([+-]\d+) \((\w+)", output)
    figures = re.search(
        r"nodes ([\d,]+)  time ([\d.]+) s \(table ([\d.]+) s, search ([\d.]+) s", output
    )
    table = re.search(r"table (built|loaded).*?-(\d+)-v\d+\.npy", output)
    return {
        "value": value.group(1),
        "proven": value.group(2) == "proven",
        "nodes": int(figures.group(1).replace(",", "")),
        "total": float(figures.group(2)),
        "table": float(figures.group(3)),
        "search": float(figures.group(4)),
        "peak": peak,
        "table_note": f"{table.group(1)}, {table.group(2)} seeds" if table else "none",
    }


def cmancala_solve(binary: str) -> dict:
    output, seconds, peak = run_child(
        [binary, "--api", "--cache", "26"], f"SOLVE {CMANCALA_START}\nQUIT\n"
    )
    value = re.search(r"EVAL (-?\d+)", output)
    return {"value": f"{int(value.group(1)):+d}" if value else "?", "total": seconds, "peak": peak}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="a new empty tables directory each run: first use, build included",
    )
    parser.add_argument(
        "--cmancala",
        metavar="BINARY",
        help="CMancala's executable, to solve the standard start beside ours",
    )
    parser.add_argument("--variants", default="001,standard")
    args = parser.parse_args()
    names = args.variants.split(",")
    results: dict[str, list[dict]] = {name: [] for name in names}
    peers: list[dict] = []
    bases = []
    for run in range(1, args.runs + 1):
        bases.append(baseline())
        for name in names:
            results[name].append(our_solve(VARIANTS[name], args.fresh))
            last = results[name][-1]
            print(
                f"run {run} {name:8}: {last['value']} proven={last['proven']} "
                f"table {last['table']:.1f} s ({last['table_note']}), search "
                f"{last['search']:.1f} s, {last['nodes']:,} nodes, {last['peak']} MB",
                flush=True,
            )
        if args.cmancala:
            peers.append(cmancala_solve(args.cmancala))
            print(
                f"run {run} CMancala standard: {peers[-1]['value']} in "
                f"{peers[-1]['total']:.1f} s, {peers[-1]['peak']} MB",
                flush=True,
            )
    base = statistics.median(bases)
    print(f"\nbaseline (3000 random games, pure Python): {base:.2f} s, median of {args.runs}")
    print("| variant | value | table s | search s | total s | total / baseline | nodes | peak MB |")
    print("|---|---|---|---|---|---|---|---|")
    for name in names:
        rows = results[name]
        total = statistics.median(r["total"] for r in rows)
        print(
            f"| {name} ({rows[0]['table_note']}) | {rows[0]['value']} | "
            f"{statistics.median(r['table'] for r in rows):.1f} | "
            f"{statistics.median(r['search'] for r in rows):.1f} | {total:.1f} | "
            f"{total / base:.1f}x | {statistics.median(r['nodes'] for r in rows):,.0f} | "
            f"{statistics.median(r['peak'] for r in rows):.0f} |"
        )
    if peers:
        total = statistics.median(p["total"] for p in peers)
        print(
            f"| CMancala standard (2^26 table) | {peers[0]['value']} | - | {total:.1f} | "
            f"{total:.1f} | {total / base:.1f}x | - | "
            f"{statistics.median(p['peak'] for p in peers):.0f} |"
        )


if __name__ == "__main__":
    main()
