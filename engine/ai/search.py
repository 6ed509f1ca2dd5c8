"""Driving the compiled search: iterative deepening under a node and time budget, and the
exact solver (MTD(f) over the same alpha-beta with no horizon).

>>> from engine import Position, Ruleset
>>> result = solve(Position.initial(Ruleset.parse("kalah:pits=3,seeds=2")))
>>> result.complete, result.value, result.move in ("A", "B", "C")
(True, 4.0, True)
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import NamedTuple, TypeVar

import numpy as np
from numpy.typing import NDArray

from engine.ai import retrograde
from engine.ai.capabilities import tables_know
from engine.ai.encoding import (
    MAX_MOVES,
    Endgame,
    Int64s,
    Table,
    board_size,
    decode_move,
    encode,
    kernel_board,
    may_cycle,
)
from engine.ai.endgame import build, fits, layer_counts
from engine.ai.endgame import index as _table_index
from engine.ai.search_kernel import (
    ABORTED,
    BOUNDS,
    BUDGET_START,
    ENDGAME_SEEDS,
    ETC_SEEDS,
    EXACT_DEPTH,
    EXACT_MODE,
    EXACT_VALUES,
    HISTORY,
    INF,
    MIRROR,
    NODE_LIMIT,
    NODES,
    RELATIVE,
    ROOT_BONUS,
    ROOT_MOVE,
    ROOT_ROW,
    ROOT_VALUE,
    SCALE,
    SEL_DEPTH,
    STOP,
    TABLE_KIND,
    TRUNCATED,
    TT_EMPTY,
    VALUES_PER_STORE,
    make_workspace,
    negamax,
)
from engine.position import Position
from engine.ruleset import Ruleset

UNLIMITED = 1 << 62
# The node budget a solve's first try at each move gets (see search_kernel._budgeted); 0: none.
# Budgets paid while moves were ordered by captures alone; ordered by the seeds each move
# brings home, plain alpha-beta proves Kalah(6,4) faster (standard capture: 43 s against 57 s
# with 4096; 001: 20 s against 22 s, bench/solve.py --budget).
SOLVE_BUDGET = 0
# What a solve tells a caller after each pass: the proven (lower, upper) bounds and the nodes.
Progress = Callable[[float, float, int], object]


class SearchResult(NamedTuple):
    move: str
    value: float  # seeds of margin for the player to move (exact when ``complete``)
    depth: int  # the deepest completed iteration (plies); for a solve, the longest line
    nodes: int
    seconds: float
    complete: bool  # True when the value is proven (only the exact solver claims this)


class SearchStats(NamedTuple):
    """What a searcher has done so far, as ``Searcher.statistics`` reads it (also while a
    search runs in another thread, for a progress line)."""

    nodes: int  # nodes searched by this searcher since it was made
    best_move: str | None  # the best root move of the running search so far, if any
    table_fill: float  # the share of the transposition table in use (0 to 1), sampled


@lru_cache(maxsize=16)
def _zobrist(size: int, total: int) -> Int64s:
    # A fixed seed: hashing must be the same in every process, so searches replay exactly.
    rng = np.random.default_rng(20240611)
    return rng.integers(-(2**63), 2**63 - 1, size=(size + 1, total + 1), dtype=np.int64)


def stores_irrelevant(rules: Ruleset) -> bool:
    """Whether play from a board depends only on its pits and the mover, the stores adding a
    fixed margin: true unless a majority in store ends the game, or positions can repeat (the
    path check compares whole boards).

    >>> stores_irrelevant(Ruleset.parse("kalah")), stores_irrelevant(Ruleset.parse("wari"))
    (True, False)
    """
    return not rules.majority and not may_cycle(rules)


# The largest endgame table a solve uses: Kalah(6,4)'s is 226 MB and builds in about two
# minutes (engine.ai.endgame); each seed more costs about 2.4 times the memory.
LARGEST_TABLE_SEEDS = 20


def default_table_seeds(rules: Ruleset) -> int:
    """The endgame table ``mancala solve`` builds when it has none on disk: boards with up to
    5/12 of the seeds left in the pits, at most 18, so that a first solve waits well under a
    minute for it (Kalah(6,4): 86 MB, about 45 s). Where play depends on the stores (wari,
    oware) it is the table the levels play with (``play_table_seeds``). A bigger table kept
    on disk (up to LARGEST_TABLE_SEEDS, ``--table 20``) is used instead.

    >>> [default_table_seeds(Ruleset.parse(name)) for name in ("kalah", "wari", "togyz-kumalak")]
    [18, 13, 0]
    """
    if not tables_know(rules):
        return 0
    if stores_irrelevant(rules):
        return min(18, rules.total_seeds * 5 // 12)
    return play_table_seeds(rules)


# The table the hard and expert levels read where positions can repeat (engine.ai.retrograde):
# up to 15 seeds left, as far as it stays within PLAY_TABLE_BYTES. Oware: 15 seeds, 35 MB,
# built in 20 s; wari (one value per store): 13 seeds, 68 MB, 24 s (bench/tables.py).
PLAY_TABLE_SEEDS = 15
PLAY_TABLE_BYTES = 80_000_000
LARGEST_BOUNDS_TABLE_BYTES = 1_000_000_000  # what ``mancala solve --table`` may build


def play_table_seeds(rules: Ruleset) -> int:
    """The seeds of the endgame table the levels read for ``rules``: PLAY_TABLE_SEEDS (or
    fewer, where a majority needs fewer) where positions can repeat and both players sow
    alike, else 0 (Kalah's tables are for the solver: the levels do not wait for one).

    >>> names = ("kalah", "oware", "wari", "wari:seeds=2", "al-manqala")
    >>> [play_table_seeds(Ruleset.parse(name)) for name in names]
    [0, 15, 13, 12, 13]
    """
    if stores_irrelevant(rules) or not tables_know(rules):
        return 0
    return _fitting(rules, min(PLAY_TABLE_SEEDS, largest_table_seeds(rules)), PLAY_TABLE_BYTES)


def _fitting(rules: Ruleset, seeds: int, most_bytes: int) -> int:
    code = encode(rules)
    while seeds > 0 and retrograde.table_size(code, seeds) > most_bytes:
        seeds -= 1
    return seeds


def largest_table_seeds(rules: Ruleset) -> int:
    """The largest endgame table these rules may have (0: none)."""
    if not tables_know(rules):
        return 0
    if stores_irrelevant(rules):
        return min(LARGEST_TABLE_SEEDS, rules.total_seeds)
    code = encode(rules)
    if not retrograde.symmetric(code):
        return 0
    return _fitting(
        rules, min(retrograde.largest_allowed(code), rules.total_seeds), LARGEST_BOUNDS_TABLE_BYTES
    )


def table_counts(rules: Ruleset, max_seeds: int) -> Int64s:
    """The ``counts`` half of the endgame table these rules get for ``max_seeds`` seeds."""
    if stores_irrelevant(rules):
        return layer_counts(rules.pits, max_seeds)
    return retrograde.table_counts(encode(rules), max_seeds)


def table_fits(table: Table, rules: Ruleset, max_seeds: int) -> bool:
    """Whether ``table`` (counts, values) has the shape of the table these rules get for
    ``max_seeds`` seeds: exact values, or pairs of bounds where play depends on the stores."""
    if stores_irrelevant(rules):
        return fits(table, rules.pits, max_seeds)
    if not 0 <= max_seeds <= largest_table_seeds(rules):
        return False
    code = encode(rules)
    counts, values = table
    expected = table_counts(rules, max_seeds)
    return (
        counts.shape == expected.shape
        and bool((counts == expected).all())
        and values.dtype == np.int8
        and values.shape == (retrograde.table_size(code, max_seeds),)
    )


def move_bounds(position: Position, endgame: Endgame) -> dict[str, tuple[int, int]] | None:
    """Where a table of bounds (oware) holds every move's outcome: each legal move's (low,
    high), the final margin for the player to move in the game played out without the majority
    rule, which has the same result (win, draw or loss). None if the rules keep no bounds or a
    child is not in the table. An outcome never moves the margin by more than the seeds left,
    which clamps the bounds. (tests/engine/test_play_tables.py checks them against brute force.)"""
    seeds, (counts, values) = endgame
    rules = position.rules
    if stores_irrelevant(rules) or retrograde.per_store(encode(rules)):
        return None
    n2 = 2 * rules.pits
    found = {}
    for move in position.legal_moves():
        child = position.play(move)
        board = child.board
        if child.is_over():
            low = high = board[n2 + position.mover] - board[n2 + 1 - position.mover]
        else:
            left = sum(board[:n2])
            if left > seeds:
                return None
            at = int(_table_index(counts, np.array(board, np.int64), child.mover, rules.pits))
            stake = board[n2 + child.mover] - board[n2 + 1 - child.mover]
            low = stake + max(int(values[2 * at]), -left)
            high = stake + min(int(values[2 * at + 1]), left)
            if child.mover != position.mover:
                low, high = -high, -low
        found[move] = (low, high)
    return found


def result_from_bounds(position: Position, endgame: Endgame) -> tuple[str, str, int] | None:
    """Where a table of bounds (oware) proves the result of ``position`` but not its margin:
    ("win" | "draw" | "loss", a move that keeps it, the bound that decides it: the margin is
    at least that, or at most for a loss, in the game played out without the majority rule).
    None if the bounds leave the result open or the board is not in the table."""
    bounds = move_bounds(position, endgame)
    if not bounds:
        return None
    keeps = max(bounds, key=lambda move: bounds[move][0])
    best_low = bounds[keeps][0]
    best_high = max(high for _, high in bounds.values())
    if best_low >= 1:
        return "win", keeps, best_low
    if best_high <= -1:
        return "loss", keeps, best_high
    if best_low >= 0 >= best_high:
        return "draw", keeps, 0
    return None


def keeping_result(position: Position, move: str, endgame: Endgame) -> str:
    """``move``, unless a table of bounds (oware) proves that another move secures a better
    result: a win where ``move`` is not proved one, a draw where ``move`` may lose. Then the
    move with the best proved bound.

    >>> rules = Ruleset.parse("oware:pits=2,seeds=2")
    >>> position = Position.settled(rules, (0, 1, 1, 2, 1, 3), 1)
    >>> table = (4, retrograde.build(encode(rules), 4))
    >>> move_bounds(position, table)  # 'a' may win by 6 or lose by 2; 'b' wins by 4
    {'a': (-2, 6), 'b': (4, 4)}
    >>> keeping_result(position, "a", table)
    'b'
    """
    bounds = move_bounds(position, endgame)
    if not bounds:
        return move

    def secured(low: int) -> int:  # 1: a win, 0: a draw, -1: nothing proved
        return 1 if low >= 1 else 0 if low >= 0 else -1

    best = max(bounds, key=lambda m: bounds[m][0])
    return best if secured(bounds[best][0]) > secured(bounds[move][0]) else move


def default_tt_bits(rules: Ruleset) -> int:
    """Transposition-table size for a solve: 64 MB up to 40 seeds, 512 MB beyond, so that a
    Kalah(6,4) solve with its 20-seed endgame table stays under 1 GB (880 MB at its peak)."""
    return 22 if rules.total_seeds <= 40 else 25


def _read_only(table: Table) -> Table:
    """Read-only views of a table's arrays. numba compiles the kernel once per array type, and
    a table read from disk is a read-only memory map (shared by the bot's workers): with every
    table read-only, one compile (warm_up's) serves them all, instead of a second one of half a
    minute in the first move that reads a table from disk."""
    counts, values = table
    return _read_only_view(counts), _read_only_view(values)


_Item = TypeVar("_Item", bound=np.generic)


def _read_only_view(array: NDArray[_Item]) -> NDArray[_Item]:
    view = np.asarray(array).view()  # a plain array, even from a memory map
    view.setflags(write=False)
    return view


class Searcher:
    """One ruleset's compiled search with its own transposition table (2**tt_bits entries)."""

    def __init__(self, rules: Ruleset, tt_bits: int = 20) -> None:
        self.rules = rules
        self.code = encode(rules)
        self.size = board_size(rules)  # with the tuzdyks, where the rules have them
        self.zobrist = _zobrist(self.size, rules.total_seeds)
        self.ws = make_workspace(self.size, tt_bits)
        self.stats = self.ws[3]
        # ETC sows every move and reads the table for each child: it pays only where the
        # subtrees are big. From 2/3 of the seeds (32 of 48) the standard-capture Kalah(6,4)
        # solved in 78.7 s against 82.8 s without ETC; from half of them it cost more than it
        # saved (a 44-seed position: 10.5 s against 8.4 s; bench/solve.py --etc-seeds).
        self.stats[ETC_SEEDS] = (2 * rules.total_seeds + 2) // 3
        if stores_irrelevant(rules):
            # Hash the pits and the mover only; the kernel stores values relative to the
            # stores' margin (see search_kernel.negamax).
            n2 = 2 * rules.pits
            self.zobrist = self.zobrist.copy()
            self.zobrist[n2 : n2 + 2] = 0
            self.stats[RELATIVE] = 1
            # Both sides share entries (see search_kernel.MIRROR), where no tuzdyk breaks
            # the symmetry.
            self.stats[MIRROR] = int(not rules.tuzdyk)
        none_yet = (np.zeros((1, 1), np.int64), np.zeros(1, np.int8))
        self.endgame = _read_only(none_yet)
        self.stats[ENDGAME_SEEDS] = -1
        self.stats[ROOT_MOVE] = -1  # no best move before a search (each run sets it so too)

    def use_endgame_table(self, max_seeds: int, table: Table | None = None) -> None:
        """Read the values of boards with at most ``max_seeds`` seeds left in the pits from an
        endgame table instead of searching them: ``table``, a (counts, values) pair for these
        rules (kept on disk, say), or one built now. Where play does not depend on the stores
        the table is ``engine.ai.endgame``'s; elsewhere (wari, oware) it is
        ``engine.ai.retrograde``'s, which holds bounds. ValueError if the rules admit none
        (``engine.ai.tables_know``) or ``table`` is not one for them."""
        if not tables_know(self.rules):
            raise ValueError(f"{self.rules} has no endgame tables (its tuzdyks and sowing)")
        repeats = not self.stats[RELATIVE]
        if table is None:
            table = (retrograde.build if repeats else build)(self.code, max_seeds)
        elif not table_fits(table, self.rules, max_seeds):
            raise ValueError(f"that endgame table is not one of {max_seeds} seeds for {self.rules}")
        self.endgame = _read_only(table)
        self.stats[ENDGAME_SEEDS] = max_seeds
        self.stats[TABLE_KIND] = (
            EXACT_VALUES
            if not repeats
            else VALUES_PER_STORE
            if retrograde.per_store(self.code)
            else BOUNDS
        )

    def run(
        self,
        position: Position,
        depth: int,
        alpha: int,
        beta: int,
        node_limit: int,
        exact: bool = False,
    ) -> tuple[int, int]:
        """One alpha-beta search from ``position``; returns (value, best move code).
        ``stats`` holds nodes, whether it aborted at the node limit, and more. TRUNCATED stays
        set once an exact search of this searcher has cut a line at MAX_PLY: the table keeps
        that line's guess as if proven, so no later pass may claim a proof."""
        stats = self.stats
        stats[NODE_LIMIT] = stats[NODES] + node_limit
        stats[ABORTED] = 0
        stats[EXACT_MODE] = int(exact)
        stats[ROOT_MOVE] = -1
        kids, per_ply, tt, _ = self.ws
        kids[ROOT_ROW, 0, :] = kernel_board(position)
        value = negamax(
            self.code.rules,
            self.code.next_slot,
            self.code.prev_pit,
            self.zobrist,
            kids,
            per_ply,
            tt,
            *self.endgame,
            stats,
            position.mover,
            EXACT_DEPTH if exact else depth,
            alpha,
            beta,
            0,
        )
        return int(value), int(stats[ROOT_MOVE])

    def statistics(self) -> SearchStats:
        """Nodes, the best root move so far and how full the table is. Safe to call while a
        search runs in another thread: it only reads, and the table is sampled (at most
        65,536 entries: a whole table can be 512 MB)."""
        tt = self.ws[2]
        sample = tt[:: max(1, len(tt) // 65536), 0]
        move = int(self.stats[ROOT_MOVE])
        return SearchStats(
            int(self.stats[NODES]),
            decode_move(self.rules, move) if move >= 0 else None,
            float((sample != TT_EMPTY).mean()),
        )

    def set_root_bonus(self, seed: int) -> None:
        """Seeded tie-breaks between root moves the ordering cannot tell apart."""
        rng = random.Random(seed)
        for i in range(MAX_MOVES):
            self.stats[ROOT_BONUS + i] = rng.randrange(64)


@contextmanager
def deadline(stats: Int64s, seconds: float | None) -> Iterator[None]:
    """Stop any search on ``stats`` that is still running ``seconds`` from now: a thread sets
    the kernel's STOP slot, which it reads at every node (it runs without the GIL)."""
    stats[STOP] = 0
    if seconds is None:
        yield
        return
    if seconds <= 0:  # already past: stop at once (a timer of 0 s would race the search)
        stats[STOP] = 1
        try:
            yield
        finally:
            stats[STOP] = 0
        return
    timer = threading.Timer(seconds, stats.__setitem__, (STOP, 1))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        timer.join()  # so it cannot fire into the next search
        stats[STOP] = 0


def iterate(
    position: Position,
    max_depth: int,
    node_limit: int = UNLIMITED,
    time_limit: float | None = None,
    seed: int = 0,
    tt_bits: int = 20,
    searcher: Searcher | None = None,
    endgame: Endgame | None = None,
    whole_time: bool = False,
) -> SearchResult:
    """Iterative deepening to ``max_depth`` plies. The node budget makes a search
    deterministic; the time limit only shortens it on a machine too slow for that budget,
    and is hard: an iteration still running when it expires is abandoned for the last one
    finished. A ``searcher`` given keeps the table (the solver reuses its move hints).
    ``endgame``: (max_seeds, table), an endgame table for these rules to read from.
    ``whole_time``: think until the time limit. Iterations start while any time is left, and
    one that a limit stops still counts where it got: its best move among those it finished
    (the last iteration's best is searched first, so it is never a worse choice)."""
    started = time.perf_counter()
    searcher = searcher or Searcher(position.rules, tt_bits)
    if endgame is not None and endgame[0] > searcher.stats[ENDGAME_SEEDS]:
        searcher.use_endgame_table(*endgame)
    searcher.set_root_bonus(seed)
    stats = searcher.stats
    start_nodes = int(stats[NODES])
    # The clock started on entry: making a fresh table can take a tenth of a second.
    remaining = None if time_limit is None else time_limit - (time.perf_counter() - started)
    with deadline(stats, remaining):
        best_move, best_value, reached = _deepen(
            position, searcher, max_depth, node_limit, time_limit, started, start_nodes, whole_time
        )
    if best_move < 0:  # not even depth 1 finished: any legal move is as good as none
        best_move = encode_first(position)
    return SearchResult(
        decode_move(position.rules, best_move),
        best_value / SCALE,
        reached,
        int(stats[NODES]) - start_nodes,
        time.perf_counter() - started,
        False,
    )


def _deepen(
    position: Position,
    searcher: Searcher,
    max_depth: int,
    node_limit: int,
    time_limit: float | None,
    started: float,
    start_nodes: int,
    whole_time: bool,
) -> tuple[int, int, int]:
    """The iterations of ``iterate``: (best move, its value, depth) of the last one done."""
    stats = searcher.stats
    best_move, best_value, reached = -1, 0, 0
    for depth in range(1, max_depth + 1):
        limit = node_limit - (int(stats[NODES]) - start_nodes)
        if limit <= 0:
            break
        if (
            time_limit is not None
            and depth > 1
            and not whole_time
            and time.perf_counter() - started > time_limit / 2
        ):
            break  # the next iteration would take longer than everything so far
        value, move = searcher.run(position, depth, -INF, INF, limit)
        if stats[ABORTED] and depth == 1 and stats[STOP]:
            # The time was gone before the search began (a busy machine, a slow setup): depth
            # 1 still runs, a few dozen nodes, so the move is never a blind one. The deadline
            # has passed, so nothing stops this one; nothing deeper starts.
            stats[STOP] = 0
            value, move = searcher.run(position, 1, -INF, INF, limit)
            if not stats[ABORTED]:
                best_move, best_value, reached = move, value, 1
            break
        if stats[ABORTED]:
            if whole_time and move >= 0:
                best_move, best_value = move, int(stats[ROOT_VALUE])  # depth not finished
            break
        best_move, best_value, reached = move, value, depth
    return best_move, best_value, reached


def encode_first(position: Position) -> int:
    pit, direction = position.parse_move(position.legal_moves()[0])
    return 2 * pit + direction


def solve(
    position: Position,
    node_limit: int = UNLIMITED,
    tt_bits: int = 22,
    searcher: Searcher | None = None,
    progress: Progress | None = None,
    endgame_seeds: int = 0,
    time_limit: float | None = None,
    endgame_table: Table | None = None,
    budget: int = SOLVE_BUDGET,
) -> SearchResult:
    """The exact value by MTD(f): null-window searches with no horizon until the bounds meet.
    ``complete`` is False if the node budget or the (hard) time limit ran out (then value is
    the last guess).
    ``progress(lower, upper, nodes)``, if given, hears the proven bounds after each pass.
    ``endgame_seeds``: read boards with at most that many seeds left in the pits from an
    endgame table, ``endgame_table`` if given (built for these rules), else built first.
    ``budget``: the node budget of each move's first try in the exact search (0: none)."""
    if position.is_over():
        raise ValueError("the game is over: there is nothing to solve")
    started = time.perf_counter()
    searcher = searcher or Searcher(position.rules, tt_bits)
    # (Rules without tables solve without one; a table of 0 seeds is only what a solve makes
    # where it is given none.)
    if endgame_seeds > searcher.stats[ENDGAME_SEEDS] and (
        endgame_seeds > 0 or tables_know(position.rules)
    ):
        searcher.use_endgame_table(endgame_seeds, endgame_table)
    stats = searcher.stats
    # Start MTD(f) near the answer: a short heuristic search, rounded to a margin of the right
    # parity (the two totals add up to every seed, so the margin has that number's parity).
    total = position.rules.total_seeds
    # It runs in the solver's own table: its best moves become the exact search's first tries.
    rough = iterate(
        position,
        64,
        node_limit=2_000_000,
        searcher=searcher,
        time_limit=None if time_limit is None else time_limit / 4,
    ).value
    guess = SCALE * (round((rough - total) / 2) * 2 + total)
    stats[HISTORY:] = 0  # the heuristic search's cutoff counts would drown the solver's own
    stats[BUDGET_START] = budget
    start_nodes = int(stats[NODES])
    stats[SEL_DEPTH] = 0
    remaining = None if time_limit is None else time_limit - (time.perf_counter() - started)
    with deadline(stats, remaining):
        lower, upper, guess, best_move, complete = _mtdf(
            position, searcher, guess, node_limit, start_nodes, progress
        )
    if stats[TRUNCATED]:
        complete = False
    if best_move < 0:
        best_move = encode_first(position)
    value = lower if complete else guess
    return SearchResult(
        decode_move(position.rules, best_move),
        value / SCALE,
        int(stats[SEL_DEPTH]),
        int(stats[NODES]) - start_nodes,
        time.perf_counter() - started,
        complete,
    )


def _mtdf(
    position: Position,
    searcher: Searcher,
    guess: int,
    node_limit: int,
    start_nodes: int,
    progress: Progress | None,
) -> tuple[int, int, int, int, bool]:
    """The null-window passes of ``solve``: (lower, upper, last guess, best move, whether
    the bounds met before a budget ran out)."""
    stats = searcher.stats
    lower, upper = -INF, INF
    best_move = -1
    complete = True
    while lower < upper:
        beta = guess + 1 if guess == lower else guess
        limit = node_limit - (int(stats[NODES]) - start_nodes)
        if limit <= 0:
            complete = False
            break
        value, move = searcher.run(position, EXACT_DEPTH, beta - 1, beta, limit, exact=True)
        if stats[ABORTED]:  # keep the last finished guess: an aborted search returns nothing
            complete = False
            break
        guess = value
        if guess < beta:
            upper = guess
        else:
            lower = guess
            best_move = move
        if progress is not None:
            progress(lower / SCALE, upper / SCALE, int(stats[NODES]) - start_nodes)
    return lower, upper, guess, best_move, complete


def warm_up() -> None:
    """Compile (or load from numba's cache) the search, so the first timed move is not
    charged for it. The bot calls this once in each worker process."""
    tiny = Position.initial(Ruleset.parse("kalah:pits=2,seeds=1"))
    iterate(tiny, 2, tt_bits=4)
    solve(tiny, tt_bits=4)
    wari = Position.initial(Ruleset.parse("wari:pits=2,seeds=1"))
    table = retrograde.build(encode(wari.rules), 2)
    iterate(wari, 2, tt_bits=4, endgame=(2, table))
