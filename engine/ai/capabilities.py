"""Which rulesets the compiled kernel plays (``kernel_knows``) and which its endgame tables
cover (``tables_know``): plain Python, so any caller may ask before numba loads."""

from __future__ import annotations

from engine.ruleset import Ruleset

KERNEL_PITS = 9  # the widest row the kernel's arrays hold (encoding.MAX_MOVES and others)


def kernel_knows(rules: Ruleset) -> bool:
    """Whether the compiled kernel plays ``rules``: every key, Togyz Kumalak's included
    (``sow_origin``, ``even_capture``, ``tuzdyk``, ``leftover=no_move``), on boards of up to
    KERNEL_PITS pits, which every ruleset the engine reads fits. ``choose_move``, ``hint`` and
    ``solve`` play any other through the pure-Python search and solver (``solve`` refuses
    it). Endgame tables know less: ``tables_know``.

    >>> kernel_knows(Ruleset.parse("wari")), kernel_knows(Ruleset.parse("togyz-kumalak"))
    (True, True)
    """
    return rules.pits <= KERNEL_PITS


def tables_know(rules: Ruleset) -> bool:
    """Whether endgame tables (``engine.ai.endgame``, ``engine.ai.retrograde``) can be built
    for ``rules``: not with Togyz Kumalak's keys, whose tuzdyks a table's index leaves out
    (and whose sowing, captures and end the tables were never checked against), so
    togyz-kumalak and bestemshe are searched and solved without one.

    >>> tables_know(Ruleset.parse("oware")), tables_know(Ruleset.parse("bestemshe"))
    (True, False)
    """
    return kernel_knows(rules) and not (
        rules.sow_origin or rules.even_capture or rules.tuzdyk or rules.leftover == "no_move"
    )


def require_kernel_knows(rules: Ruleset) -> None:
    """ValueError, saying where such rules are played instead, unless ``kernel_knows(rules)``."""
    if not kernel_knows(rules):
        raise ValueError(
            f"the compiled solver does not know {rules.name}'s rules (boards of more than "
            f"{KERNEL_PITS} pits); hints and the levels play it through the Python search"
        )
