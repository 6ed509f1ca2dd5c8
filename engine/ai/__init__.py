"""AI opponents: the applet's eight strategies, four search levels and an exact solver.

>>> from engine import Position, Ruleset
>>> pos = Position.initial(Ruleset.parse("kalah:pits=4,seeds=3"))
>>> choose_move(pos, "expert").move
'B'

The public names below are defined in the package's modules; this file only re-exports them.
Modules that need numba (the compiled kernel and what drives it) load only when a search is
wanted, so importing the package costs no compile.

- ``book``: the opening book, proven values and best moves of Kalah's first plies.
- ``capabilities``: which rulesets the compiled kernel plays and its endgame tables cover.
- ``encoding``: a ruleset and a position as the small integer arrays the kernel reads.
- ``endgame``: endgame tables of the exact value of every board with few seeds left.
- ``evaluation``: Togyz Kumalak's evaluation features and their tuned, shipped weights.
- ``levels``: the opponents by name (strategies, search levels) and the move each plays.
- ``move_proofs``: the exact value of each move, for the review and the book's build.
- ``loading``: compiling or loading the kernel into the process before the first timed move.
- ``proofs``: the solver's exact value, the line of best play, and hints.
- ``pysearch``: the same alpha-beta in plain Python, for when the kernel is not compiled.
- ``pysolve``: the exact solver in plain Python, for small positions, without numba.
- ``retrograde``: endgame tables where positions can repeat (wari, oware), with bounds.
- ``rules_kernel``: the rules in numba: sowing, captures, legal moves and game ends.
- ``search``: driving the kernel: iterative deepening under budgets, and the exact solver.
- ``search_kernel``: the alpha-beta in numba, with a transposition table and move ordering.
- ``selfcheck``: the compiled rules checked against the engine's on random positions.
- ``strategies``: the elf.org applet's eight strategies, each picking without a search.
- ``unowned_views``: numba array views without reference counting, for the kernels' speed.

The search runs in a kernel that numba compiles once per machine; it knows every ruleset
(``kernel_knows``), Togyz Kumalak's and Bestemshe's included, though not their endgame tables
(``tables_know``). Until it is compiled, a caller that must
not wait passes ``compiled=False``: the search levels then play through the
pure-Python search (``engine.ai.pysearch``) within the same limits, which reaches a few plies
less, and say so (``AIMove.reduced``); and a small ending is proved exactly by the
plain-Python solver (``engine.ai.pysolve``) rather than wait for the compiler:

>>> choose_move(pos, "medium", compiled=False).reduced
True
"""

from engine.ai.capabilities import kernel_knows, tables_know
from engine.ai.levels import DEFAULT_LEVEL, LEVELS, SEARCH_LEVELS, AIMove, choose_move
from engine.ai.loading import warm_up
from engine.ai.proofs import BestMove, hint, proof_line, quick_proof, solve
from engine.ai.strategies import STRATEGIES

__all__ = [
    "AIMove",
    "BestMove",
    "DEFAULT_LEVEL",
    "LEVELS",
    "SEARCH_LEVELS",
    "STRATEGIES",
    "choose_move",
    "hint",
    "kernel_knows",
    "proof_line",
    "quick_proof",
    "solve",
    "tables_know",
    "warm_up",
]
