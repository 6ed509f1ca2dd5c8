"""Hostile input for as long as asked: the generators and checks of ``tests/test_fuzz.py``,
random (not derandomized), counting what happened to each input.

    .venv/bin/python bench/fuzz.py --count 100000            # spread over every target
    .venv/bin/python bench/fuzz.py --count 20000 --only position

For each target it prints the inputs tried, how many were accepted and refused (by the error
the project raised), and the failures: an unhandled exception or a broken invariant, each
with the input that caused it (there should be none; add any found as an ``@example``).
"""

from __future__ import annotations

import argparse
import collections
import logging
import pathlib
import sys
import time

sys.path[0] = str(pathlib.Path(__file__).resolve().parent.parent)  # bench/engine.py is not engine

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests import test_fuzz  # noqa: E402

# target: (the test whose checks run, its share of --count: the service and the mail bot open
# a database per input and the command line runs argparse, so they get fewer)
TARGETS = {
    "ruleset": (test_fuzz.test_any_ruleset_text_gives_a_ruleset_or_a_clear_refusal, 30),
    "game": (test_fuzz.test_every_accepted_ruleset_ends_on_a_small_board, 10),
    "move": (test_fuzz.test_any_move_text_plays_or_is_refused_clearly, 20),
    "position": (test_fuzz.test_any_written_position_reads_or_is_refused_clearly, 25),
    "cli": (test_fuzz.test_any_command_line_answers_with_a_status_not_a_traceback, 12),
    "service": (
        test_fuzz.test_any_service_call_answers_with_a_service_error_and_keeps_the_log_whole,
        3,
    ),
    "mail": (test_fuzz.test_any_mail_is_answered_or_dropped_and_never_retried_forever, 8),
}


def run(name: str, count: int) -> dict:
    test, _ = TARGETS[name]
    inner = test.hypothesis.inner_test
    strategy = (
        st.tuples(*test.hypothesis._given_kwargs.values())
        if test.hypothesis._given_kwargs
        else None
    )
    tally = collections.Counter()
    failures: list[str] = []
    arg_names = list(test.hypothesis._given_kwargs)

    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        derandomize=False,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def one(args):
        tally["inputs"] += 1
        try:
            inner(**dict(zip(arg_names, args, strict=False)))
        except AssertionError as err:
            tally["broken invariant"] += 1
            failures.append(f"invariant: {str(err)[:200]} <- {str(args)[:200]}")
        except BaseException as err:  # noqa: BLE001 - counting is the point
            if type(err).__name__ in ("UnsatisfiedAssumption", "StopTest"):
                tally["skipped (not accepted)"] += 1
                raise
            tally["unhandled exception"] += 1
            failures.append(f"{type(err).__name__}: {str(err)[:200]} <- {str(args)[:200]}")
        else:
            tally["ok"] += 1

    one()
    return {"tally": tally, "failures": failures}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000, help="inputs in all")
    parser.add_argument("--only", choices=sorted(TARGETS), action="append")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # the mail bot logs each refused reply; the counts say it
    names = args.only or list(TARGETS)
    weight = sum(TARGETS[n][1] for n in names)
    total = collections.Counter()
    print(
        f"{'target':9} {'inputs':>8} {'ok':>8} {'skipped':>8} {'unhandled':>10} "
        f"{'broken':>7} {'seconds':>8}"
    )
    for name in names:
        count = max(1, args.count * TARGETS[name][1] // weight)
        started = time.perf_counter()
        result = run(name, count)
        tally = result["tally"]
        total.update(tally)
        print(
            f"{name:9} {tally['inputs']:8,} {tally['ok']:8,} "
            f"{tally['skipped (not accepted)']:8,} {tally['unhandled exception']:10,} "
            f"{tally['broken invariant']:7,} {time.perf_counter() - started:8.1f}",
            flush=True,
        )
        for line in result["failures"][:5]:
            print("   ", line)
    print(
        f"{'all':9} {total['inputs']:8,} {total['ok']:8,} {total['skipped (not accepted)']:8,} "
        f"{total['unhandled exception']:10,} {total['broken invariant']:7,}"
    )
    print(
        "ok: accepted, or refused with a documented error and a short clean message; skipped: "
        "a drawn ruleset the parser refused, where the check needs an accepted one"
    )


if __name__ == "__main__":
    main()
