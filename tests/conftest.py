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

from bot.kernel_cache import configure as configure_kernel_cache

# The suite compiles the AI's kernel once, in the foreground, like a benchmark: tests of the
# AI's moves want the compiled search, not the quick one that stands in while it compiles.
# The tests of that stand-in (tests/test_first_contact.py) set their own environment.
os.environ.setdefault("MANCALA_COMPILE", "wait")
configure_kernel_cache()  # as `mancala` does, before numba loads: one cache for every process

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", derandomize=True, database=None, print_blob=True, **_COMMON)
settings.register_profile("dev", **_COMMON)
settings.register_profile("long", max_examples=1000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI")
                                                                 else "dev"))
