"""Loading the compiled search into this process (``warm_up``) before the first timed move:
the compile, or the load from numba's cache, is not charged to a move's thinking time."""

from __future__ import annotations

from collections.abc import Callable

from engine.translation import _

_loaded = False  # whether this process has the compiled search in memory


def load_kernel() -> None:
    """``warm_up`` once per process: what every caller of the compiled search runs first."""
    global _loaded
    if not _loaded:
        warm_up()
        _loaded = True


def warm_up(progress: Callable[[str], object] | None = None) -> None:
    """Compile the search (or load it from numba's cache) before the first timed move.
    ``progress(step)``, if given, hears what is being compiled as it starts."""
    if progress is not None:
        # TRANSLATORS: what is being compiled, shown as a step of a progress line
        progress(_("the search, the solver and the endgame tables"))
    # numba loads here, not when the package does: nothing a user does first waits on it
    from engine.ai.search import warm_up as compile_search

    compile_search()
