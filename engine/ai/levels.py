"""The opponents a player picks by name: the applet's eight strategies and four search
levels, weakest to strongest (``LEVELS``), and the move each plays (``choose_move``).

``choose_move(position, level, time_limit=None, seed=0) -> AIMove`` takes and returns
picklable values, so the bot can run it in a worker process.

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

The search runs in a kernel that numba compiles once per machine; it knows every ruleset
(``kernel_knows``), Togyz Kumalak's and Bestemshe's included, though not their endgame tables
(``tables_know``). Until it is compiled, a caller that must not wait passes
``compiled=False``: the search levels then play through the pure-Python search
(``engine.ai.pysearch``) within the same limits, which reaches a few plies less, and say so
(``AIMove.reduced``):

>>> choose_move(pos, "medium", compiled=False).reduced
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from engine.ai import book, loading
from engine.ai.capabilities import kernel_knows
from engine.ai.strategies import STRATEGIES, pick
from engine.position import Position
from engine.translation import _

if TYPE_CHECKING:  # numpy and numba load only when a search is wanted
    from engine.ai.encoding import Endgame
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
        loading.load_kernel()  # before the clock starts: loading or compiling is not thinking time
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
    if settings.depth >= BOOK_DEPTH:
        entry = book.lookup(position)
        if entry is not None:  # proven: any of its best moves, picked by the seed
            move = entry.best[seed % len(entry.best)]
            return AIMove(move, float(entry.value), 0, 0, time.perf_counter() - started)
    if not compiled:
        return _in_python(position, settings, limit, seed, started)
    # numba loads with the compiled search, only when it is wanted
    from engine.ai.search import (
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
            **table_args(endgame),
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
BOOK_DEPTH = 8  # and the opening book (engine.ai.book)


def table_args(endgame: Endgame | None) -> dict[str, Any]:
    """``endgame`` as the compiled search's keyword arguments."""
    return {} if endgame is None else {"endgame_seeds": endgame[0], "endgame_table": endgame[1]}


def _in_python(
    position: Position, settings: Level, limit: float, seed: int, started: float
) -> AIMove:
    """The level's search through the pure-Python search, within the same time limit (the
    noise of ``easy`` included): a few plies shallower, never waiting on a compiler."""
    # loads numba (not its compiler) for the search's constants: only when a search is wanted
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
        # loads numba (not its compiler): only when a search is wanted
        from engine.ai.pysearch import search

        def iterate(
            pos: Position, depth: int, nodes: int, seconds: float, seed: int, tt_bits: int
        ) -> SearchResult:
            return search(pos, depth, nodes, seconds / len(position.legal_moves()))
    else:
        from engine.ai.search import iterate  # numba loads only when a search is wanted

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
