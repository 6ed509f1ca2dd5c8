"""AI opponents: the applet's eight strategies, four search levels and an exact solver.

``choose_move(position, level, time_limit=None, seed=0) -> AIMove`` takes and returns
picklable values, so the bot can run it in a worker process. ``LEVELS`` lists every opponent
from weakest to strongest (the applet's strategies, then the search levels).

>>> from engine import Position, Ruleset
>>> pos = Position.initial(Ruleset.parse("kalah:pits=4,seeds=3"))
>>> choose_move(pos, "first").move
'A'
>>> move = choose_move(pos, "expert")
>>> move.move, move.value
('B', 8.0)

Levels up to hard are deterministic for a given seed while their node budget, not the time
limit, ends the search (a machine much slower or busier than ours may hit the time limit
first). The expert uses its whole time where nothing is proved, and moves at once where the
solver or an endgame table has proved the result. The time limit is hard: a search still
running when it expires stops at its next node and plays the move of the last depth it
finished.

The modules:

- ``strategies``: the applet's eight strategies, one move ahead at most;
- ``search``: the compiled search driven by iterative deepening, and the exact solver;
  ``search_kernel``: its alpha-beta in numba; ``rules_kernel``: the rules compiled, a second
  implementation of ``engine.sowing``, fed by ``encoding`` (a ruleset as integer arrays);
  ``unowned_views``: array views without reference counting, for speed in the kernels;
- ``endgame``: endgame tables where positions cannot repeat (Kalah); ``retrograde``: where
  they can (wari, oware), with bounds;
- ``pysearch`` and ``pysolve``: the same search and solver in plain Python, for before the
  kernel is compiled; ``selfcheck``: the compiled rules checked against the engine on random
  positions.

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

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.ai.strategies import STRATEGIES, pick
from engine.position import Position
from engine.ruleset import Ruleset
from engine.translation import _

if TYPE_CHECKING:  # numpy and numba load only when a search is wanted
    from engine.ai.encoding import Endgame, Table
    from engine.ai.search import SearchResult


class AIMove(NamedTuple):
    move: str  # a pit letter, as Position.play accepts
    value: float | None  # the search's value for the mover (seeds), if it has one
    depth: int  # plies searched (0 for the applet's strategies)
    nodes: int
    seconds: float
    # played by the pure-Python search: the kernel was not compiled yet, or does not know
    # these rules (``kernel_knows``)
    reduced: bool = False


class BestMove(NamedTuple):
    """What ``hint`` finds: the best move and its value for the player to move, proven by the
    solver (``exact``) or estimated by the search. (The service's ``Hint`` is what a player
    is shown of it.)"""

    move: str
    value: float  # seed margin for the player to move
    exact: bool  # True when proven by the solver, False for a search estimate
    depth: int
    nodes: int
    seconds: float
    reduced: bool = False  # the pure-Python search's estimate: the kernel was not compiled yet
    timed_out: bool = False  # the clock, not the node budget, ended it: not reproducible
    # "win", "draw" or "loss" where an endgame table proves the result but not the margin
    # (oware); ``value`` is then the table's bound, for the game played out without the
    # majority rule (the result is the same; the margin may not be)
    result: str | None = None


@dataclass(frozen=True)
class Level:
    depth: int  # deepest iteration
    nodes: int  # node budget: what makes a level deterministic
    seconds: float  # default time limit per move
    noise: float = 0.0  # random seeds added to each root move's value (easy only)
    solve_seeds: int = 0  # solve exactly when at most this many seeds are still in play
    tt_bits: int = 18
    # Think until the time limit where nothing is proved (the node budget then bounds only
    # the proof attempts): the strongest play, but no longer the same move on every machine.
    whole_time: bool = False


SEARCH_LEVELS: dict[str, Level] = {
    "easy": Level(depth=2, nodes=20_000, seconds=0.5, noise=3.0, tt_bits=12),
    "medium": Level(depth=4, nodes=100_000, seconds=1.0, tt_bits=14),
    "hard": Level(depth=8, nodes=1_000_000, seconds=1.5, tt_bits=18),
    "expert": Level(
        depth=64, nodes=8_000_000, seconds=2.0, solve_seeds=24, tt_bits=22, whole_time=True
    ),
}
LEVELS = STRATEGIES + tuple(SEARCH_LEVELS)
DEFAULT_LEVEL = "medium"


def choose_move(
    position: Position,
    level: str = DEFAULT_LEVEL,
    time_limit: float | None = None,
    seed: int = 0,
    compiled: bool = True,
    endgame: Endgame | None = None,
) -> AIMove:
    """The move ``level`` plays in ``position`` (ValueError for an unknown level or a finished
    game). ``time_limit`` caps the seconds spent; the level's own budget applies otherwise.
    ``compiled=False``: never touch the compiled kernel (see the module's docstring).
    ``endgame``: (max_seeds, table), an endgame table for these rules (``storage.tables``
    keeps them), which the hard and expert levels read as exact values."""
    if position.is_over():
        raise ValueError(_("the game is over: there is no move to choose"))
    compiled = compiled and kernel_knows(position.rules)
    if compiled and level in SEARCH_LEVELS:
        _load_kernel()  # before the clock starts: loading or compiling is not thinking time
    started = time.perf_counter()
    if level in STRATEGIES:
        return AIMove(pick(position, level, seed), None, 0, 0, time.perf_counter() - started)
    if level not in SEARCH_LEVELS:
        raise ValueError(
            _("unknown level '{level}'; levels are: {levels}").format(
                level=level, levels=", ".join(LEVELS)
            )
        )
    settings = SEARCH_LEVELS[level]
    limit = settings.seconds if time_limit is None else time_limit
    if len(position.legal_moves()) == 1:
        return AIMove(position.legal_moves()[0], None, 0, 0, time.perf_counter() - started)
    if not compiled:
        return _in_python(position, settings, limit, seed, started)
    from engine.ai.search import (  # numba loads only when wanted
        UNLIMITED,
        iterate,
        keeping_result,
        solve,
    )

    if settings.noise:
        return _noisy(position, settings, seed, started)
    nodes = settings.nodes
    if settings.depth < TABLE_DEPTH:
        endgame = None  # the weaker levels play as they always have
    left = sum(position.pits)
    proof = None  # (node budget, seconds) of an attempt to prove the value first
    if endgame is not None and left <= endgame[0]:
        # The table holds this board's every line: its value is the move (NO_VALUE aside).
        proof = nodes // 2, 0.5 * limit
    elif settings.solve_seeds and left <= settings.solve_seeds:
        # At most about 40% of the time on trying to prove the value (counting on at least a
        # million nodes a second), the rest for the search if the proof does not finish.
        proof = min(nodes // 2, int(0.4 * limit * 1_000_000)), 0.4 * limit
    if proof is not None:
        solved = solve(
            position,
            node_limit=proof[0],
            tt_bits=settings.tt_bits,
            time_limit=proof[1],
            **_table_args(endgame),
        )
        if solved.complete:
            return AIMove(
                solved.move, solved.value, solved.depth, solved.nodes, time.perf_counter() - started
            )
        nodes -= solved.nodes
    # A little is kept back for the work after the search stops, so the move is on time.
    remaining = limit - (time.perf_counter() - started) - 0.1
    if settings.whole_time:
        nodes = UNLIMITED
    result = iterate(
        position,
        settings.depth,
        nodes,
        max(remaining, 0.05),
        seed,
        settings.tt_bits,
        endgame=endgame,
        whole_time=settings.whole_time,
    )
    # The search reads a table's bounds as estimates: a result they prove is kept here.
    move = result.move if endgame is None else keeping_result(position, result.move, endgame)
    return AIMove(move, result.value, result.depth, result.nodes, time.perf_counter() - started)


TABLE_DEPTH = 8  # levels searching at least this deep (hard, expert) read endgame tables


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


def _known_to_the_kernel(rules: Ruleset) -> None:
    if not kernel_knows(rules):
        raise ValueError(
            f"the compiled solver does not know {rules.name}'s rules (boards of more than "
            f"{KERNEL_PITS} pits); hints and the levels play it through the Python search"
        )


def _table_args(endgame: Endgame | None) -> dict[str, Any]:
    return {} if endgame is None else {"endgame_seeds": endgame[0], "endgame_table": endgame[1]}


def _in_python(
    position: Position, settings: Level, limit: float, seed: int, started: float
) -> AIMove:
    """The level's search through the pure-Python search, within the same time limit (the
    noise of ``easy`` included): a few plies shallower, never waiting on a compiler."""
    from engine.ai.pysearch import search

    if settings.noise:
        return _noisy(position, settings, seed, started, reduced=True)
    # Half a second of the limit is kept back: the first move of a session also pays for
    # starting the worker process, and shares the machine with the compile.
    result = search(position, settings.depth, settings.nodes, max(limit - 0.5, 0.2))
    return AIMove(
        result.move,
        result.value,
        result.depth,
        result.nodes,
        time.perf_counter() - started,
        reduced=True,
    )


def _noisy(
    position: Position, settings: Level, seed: int, started: float, reduced: bool = False
) -> AIMove:
    """Search each move a little, add seeded noise, play the best: a beatable opponent.
    ``reduced``: through the pure-Python search."""
    iterate: Callable[[Position, int, int, float, int, int], SearchResult]
    if reduced:
        from engine.ai.pysearch import search

        def iterate(
            pos: Position, depth: int, nodes: int, seconds: float, seed: int, tt_bits: int
        ) -> SearchResult:
            return search(pos, depth, nodes, seconds / len(position.legal_moves()))
    else:
        from engine.ai.search import iterate

    rng = random.Random(seed)
    rules = position.rules
    n2 = 2 * rules.pits
    scored = []
    nodes = 0
    for move in position.legal_moves():
        after = position.play(move)
        value: float
        if after.is_over():
            value = after.board[n2 + position.mover] - after.board[n2 + 1 - position.mover]
        else:
            reply = iterate(
                after, settings.depth - 1, settings.nodes, settings.seconds, seed, settings.tt_bits
            )
            nodes += reply.nodes
            value = reply.value if after.mover == position.mover else -reply.value
        scored.append((value + rng.uniform(-settings.noise, settings.noise), move))
    value, move = max(scored)
    return AIMove(
        move, round(value, 2), settings.depth, nodes, time.perf_counter() - started, reduced
    )


def solve(
    position: Position,
    node_limit: int | None = None,
    tt_bits: int = 22,
    table_seeds: int = 0,
    table: Table | None = None,
    progress: Callable[[float, float, int], object] | None = None,
) -> SearchResult:
    """The exact value of ``position`` (seed margin for the player to move), a best move, the
    nodes and seconds: a ``SearchResult`` whose ``complete`` says whether it is proven.
    ``table_seeds``: read the boards with at most that many seeds left in the pits from an
    endgame table (where play does not depend on the stores; see ``engine.ai.endgame``):
    ``table`` if given (as ``storage.tables`` keeps them), else one built first.
    ``progress(lower, upper, nodes)`` hears the bounds proven after each pass."""
    _known_to_the_kernel(position.rules)
    from engine.ai.search import UNLIMITED
    from engine.ai.search import solve as exact

    return exact(
        position,
        node_limit or UNLIMITED,
        tt_bits,
        endgame_seeds=table_seeds,
        endgame_table=table,
        progress=progress,
    )


LINE_STEP_NODES = 2_000_000  # what each further step of a proof line may cost (about 1 s)
LINE_TT_BITS = 18  # a step's table: enough for its budget, and quick to allocate each step


def proof_line(
    position: Position,
    first_move: str,
    node_limit: int = LINE_STEP_NODES,
    max_plies: int = 200,
    table_seeds: int = 0,
    table: Table | None = None,
) -> tuple[list[str], bool]:
    """The line of best play after ``position``'s proven best move ``first_move``: each next
    move proven by the solver within ``node_limit`` nodes. Returns the moves and whether the
    line reaches the end of the game (False where a step could not be proven within the
    budget, which leaves the line shorter but every move in it proven best).

    >>> from engine import Game, Ruleset
    >>> pos = Game.from_moves(Ruleset.parse("kalah:pits=2,seeds=1"), "").position
    >>> line, complete = proof_line(pos, solve(pos).move)
    >>> complete, pos.rules.total_seeds == sum(Game.from_moves(pos.rules, line).position.stores)
    (True, True)
    """
    line = [first_move]
    position = position.play(first_move)
    while not position.is_over() and len(line) < max_plies:
        result = solve(
            position, node_limit, tt_bits=LINE_TT_BITS, table_seeds=table_seeds, table=table
        )
        if not result.complete:
            return line, False
        line.append(result.move)
        position = position.play(result.move)
    return line, position.is_over()


HINT_SOLVE_NODES = 800_000  # what the solver may spend proving a hint (about 0.3 s)


def hint(
    position: Position,
    time_limit: float = 2.0,
    compiled: bool = True,
    endgame: Endgame | None = None,
) -> BestMove:
    """The best move and its value: proven by the solver when it finishes within its node
    budget, else the expert's estimate. Node budgets, not the clock, end both, so the same
    position gets the same hint; ``time_limit`` is a safety net for a machine far slower than
    ours, and a hint it cut short says so (``timed_out``). ``compiled=False``: the
    pure-Python solver's proof where it finishes at once (``quick_proof``), else the
    pure-Python search's estimate within ``time_limit`` (``reduced``). ``endgame``: as
    ``choose_move``'s; a board the table settles gets its proven value at once."""
    if position.is_over():
        raise ValueError(_("the game is over: there is no move to suggest"))
    compiled = compiled and kernel_knows(position.rules)
    if compiled:
        _load_kernel()
    started = time.perf_counter()
    if not compiled:
        quick = quick_proof(position, time_limit / 2)  # the other half for an estimate
        if quick is not None:
            return quick
        left = max(time_limit - (time.perf_counter() - started), 0.2)
        played = choose_move(position, "expert", time_limit=left, compiled=False)
        return BestMove(
            played.move,
            played.value or 0.0,
            False,
            played.depth,
            played.nodes,
            time.perf_counter() - started,
            reduced=True,
            timed_out=True,
        )
    from engine.ai.search import iterate
    from engine.ai.search import solve as exact

    safety = 3 * time_limit
    solved = exact(
        position, node_limit=HINT_SOLVE_NODES, tt_bits=22, time_limit=safety, **_table_args(endgame)
    )
    if solved.complete:
        return BestMove(
            solved.move,
            solved.value,
            True,
            solved.depth,
            solved.nodes,
            time.perf_counter() - started,
        )
    if endgame is not None and sum(position.pits) <= endgame[0]:
        from engine.ai.search import result_from_bounds

        proved = result_from_bounds(position, endgame)
        if proved is not None:
            result, keeps, bound = proved
            return BestMove(
                keeps,
                float(bound),
                False,
                0,
                solved.nodes,
                time.perf_counter() - started,
                result=result,
            )
    expert = SEARCH_LEVELS["expert"]
    # Deepening stops early once half the time limit is gone; below that, only the budget
    # decides, and the hint is the same on every run.
    estimate = iterate(
        position, expert.depth, expert.nodes, safety, 0, expert.tt_bits, endgame=endgame
    )
    seconds = time.perf_counter() - started
    return BestMove(
        estimate.move,
        estimate.value,
        False,
        estimate.depth,
        estimate.nodes + solved.nodes,
        seconds,
        timed_out=seconds > safety / 2,
    )


def quick_proof(position: Position, time_limit: float = 2.0) -> BestMove | None:
    """The proof of a small position by the pure-Python solver (``engine.ai.pysolve``), for
    a caller that must not wait for the compiled search: None where the board holds too many
    seeds or the proof takes more than its budget (about a second; ``time_limit`` is a safety
    net for a slow machine)."""
    from engine.ai import pysolve

    started = time.perf_counter()
    result = pysolve.quick(position, time_limit)
    if result is None:
        return None
    return BestMove(
        result.move,
        result.value,
        True,
        result.depth,
        result.nodes,
        time.perf_counter() - started,
    )


_loaded = False  # whether this process has the compiled search in memory


def _load_kernel() -> None:
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
    from engine.ai.search import warm_up as compile_search

    compile_search()


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
    "quick_proof",
    "solve",
    "tables_know",
    "warm_up",
]
