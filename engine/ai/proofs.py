"""What the solver proves and a player is told: the exact value of a position (``solve``),
the line of best play after it (``proof_line``), and a hint, the best move proven or
estimated (``hint``, ``quick_proof``). Positions the opening book holds (``engine.ai.book``)
are answered from it.

A small ending is proved by the plain-Python solver (``engine.ai.pysolve``) where the
compiled kernel is not loaded yet, rather than wait for the compiler.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from engine.ai import book, loading, pysolve
from engine.ai.capabilities import kernel_knows, require_kernel_knows
from engine.ai.levels import SEARCH_LEVELS, choose_move, table_args
from engine.position import Position
from engine.translation import _

if TYPE_CHECKING:  # numpy and numba load only when a search is wanted
    from engine.ai.encoding import Endgame, Table
    from engine.ai.search import SearchResult


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
    ``progress(lower, upper, nodes)`` hears the bounds proven after each pass. A position
    the opening book holds (``engine.ai.book``) is answered from it at once."""
    require_kernel_knows(position.rules)
    # numba loads with the compiled search, only when it is wanted
    from engine.ai.search import UNLIMITED, SearchResult
    from engine.ai.search import solve as exact

    entry = book.lookup(position)
    if entry is not None:
        return SearchResult(entry.best[0], float(entry.value), 0, 0, 0.0, True)

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
    ``choose_move``'s; a board the table settles gets its proven value at once, as does one
    the opening book holds (``engine.ai.book``)."""
    if position.is_over():
        raise ValueError(_("the game is over: there is no move to suggest"))
    started = time.perf_counter()
    entry = book.lookup(position)
    if entry is not None:
        return BestMove(
            entry.best[0], float(entry.value), True, 0, 0, time.perf_counter() - started
        )
    compiled = compiled and kernel_knows(position.rules)
    if compiled:
        loading.load_kernel()
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
    # numba loads with the compiled search, only when it is wanted
    from engine.ai.search import iterate, result_from_bounds
    from engine.ai.search import solve as exact

    safety = 3 * time_limit
    solved = exact(
        position, node_limit=HINT_SOLVE_NODES, tt_bits=22, time_limit=safety, **table_args(endgame)
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
