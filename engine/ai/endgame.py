"""Endgame databases: the exact value of every board with at most K seeds left in the pits.

Where play depends only on the pits and the player to move (``search.stores_irrelevant``: no
majority rule, no repetition), a board's value is its stores' margin plus a number that
depends on the pits alone. So one table, indexed by the pits as the mover sees them, holds
every endgame. Seeds in the pits never increase, so the table is built layer by layer (0
seeds left, then 1, ...); a move that reaches no store stays in its layer, and that child is
solved first, by a depth-first walk. The solver reads the table instead of searching those subtrees:
in Kalah(6,4) most of a proof's nodes have 16 or fewer seeds left.

A board's index: the boards with fewer seeds come first, then the pits (the mover's row
first, then the opponent's) in lexicographic order, ranked by the combinatorial number
system. ``counts[p, s]`` is the number of ways to put s seeds into p pits; row 0 holds where
each layer starts.

>>> import numpy as np
>>> from engine import Ruleset
>>> from engine.ai.encoding import encode
>>> code = encode(Ruleset.parse("kalah:pits=2,seeds=1"))
>>> counts, values = build(code, 4)
>>> len(values)  # boards of 2 + 2 pits holding 0..4 seeds
70
>>> board = np.array([0, 1, 0, 0, 0, 0])  # South to move with one seed in B: it goes home
>>> int(values[index(counts, board, 0, 2)])
1
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ai.encoding import MAX_MOVES, PITS, SPECIAL, Int64s, RulesCode, Table
from engine.ai.rules_kernel import legal_moves, no_move_end, play, row_sum
from engine.ai.unowned_views import unowned

UNKNOWN = -128  # not built yet
BUSY = -127  # being built: met again further down the walk means a cycle
AT, COUNT, NEXT, BEST, GAINED = range(5)  # a frame of the depth-first walk
FRAME_SIZE = 5
# South as an int64, not the literal 0: a literal argument compiles a function once more.
SOUTH = np.int64(0)


def layer_counts(pits: int, max_seeds: int) -> Int64s:
    """counts[p, s] = C(s + p - 1, p - 1) for p in 1..2*pits; counts[0, s] = where layer s
    starts in the table (counts[0, max_seeds + 1] is the table's size)."""
    n2 = 2 * pits
    counts = np.zeros((n2 + 1, max_seeds + 2), np.int64)
    counts[1, :] = 1
    for p in range(2, n2 + 1):
        counts[p] = np.cumsum(counts[p - 1])  # sum over the seeds the first pit takes
    counts[0, 1:] = np.cumsum(counts[n2, :-1])
    return counts


@njit(cache=True, forceinline=True)
def index(counts, board, mover, n):
    """The table index of ``board``'s pits seen from ``mover`` (stores ignored)."""
    n2 = 2 * n
    rem = row_sum(board, 0, n2)
    at = counts[0, rem]
    for i in range(n2 - 1):
        seeds = board[(mover * n + i) % n2]
        parts = n2 - i
        at += counts[parts, rem] - counts[parts, rem - seeds]
        rem -= seeds
    return at


def build(code: RulesCode, max_seeds: int) -> Table:
    """The table for every board with at most ``max_seeds`` seeds in the pits, as
    (counts, values): values[index(...)] is the best final margin minus the current one, for
    the player to move. ValueError if the rules let a board come back, or have Togyz
    Kumalak's keys (``engine.ai.tables_know``): no table then."""
    if code.rules[SPECIAL] != 0:
        raise ValueError("no endgame table under Togyz Kumalak's keys (tuzdyks, sowing)")
    if max_seeds > 100:
        raise ValueError("an endgame table holds at most 100 seeds (values are bytes)")
    pits = int(code.rules[PITS])
    counts = layer_counts(pits, max_seeds)
    values = np.full(counts[0, max_seeds + 1], UNKNOWN, np.int8)
    # The walk's arrays, made here rather than in the kernel (np.zeros there costs compiling).
    # A move that stays in its layer moves the mover's seeds towards the store, so a chain of
    # them is at most one step per seed and pit; past that, something loops.
    cap = max_seeds * pits + 2
    size = 2 * pits + 2
    walk = (
        np.zeros((cap + 1, size), np.int64),
        np.zeros((cap + 1, MAX_MOVES), np.int64),
        np.zeros((cap + 1, FRAME_SIZE), np.int64),
        np.zeros(size, np.int64),
        np.zeros(size - 2, np.int64),
    )
    if not _build(code.rules, code.next_slot, code.prev_pit, counts, values, max_seeds, *walk):
        raise ValueError("positions can repeat under these rules: no endgame table")
    return counts, values


def fits(table: Table, pits: int, max_seeds: int) -> bool:
    """Whether ``table`` (counts, values) has the shape of the table ``build`` makes for
    ``pits`` pits a side and ``max_seeds`` seeds: a check for one read from a file.

    >>> from engine import Ruleset
    >>> from engine.ai.encoding import encode
    >>> table = build(encode(Ruleset.parse("kalah:pits=2,seeds=1")), 4)
    >>> fits(table, 2, 4), fits(table, 2, 3), fits(table, 3, 4)
    (True, False, False)
    """
    counts, values = table
    expected = layer_counts(pits, max_seeds)
    return (
        counts.shape == expected.shape
        and bool((counts == expected).all())
        and values.dtype == np.int8
        and values.shape == (int(expected[0, -1]),)
    )


@njit(cache=True)
def _build(R, NXT, PRV, counts, values, max_seeds, boards, moves, frames, scratch, pits):
    n = R[PITS]
    n2 = 2 * n
    # Loops, not slice assignments: those compile an error message's formatting (seconds).
    for seeds in range(max_seeds + 1):
        for i in range(n2):
            pits[i] = 0
        pits[n2 - 1] = seeds
        for _ in range(counts[n2, seeds]):
            for i in range(n2):
                boards[0, i] = pits[i]
            boards[0, n2] = 0
            boards[0, n2 + 1] = 0
            if values[index(counts, boards[0], SOUTH, n)] == UNKNOWN:
                if not _solve(R, NXT, PRV, counts, values, boards, moves, frames, scratch):
                    return False
            _next_composition(pits)
    return True


@njit(cache=True, forceinline=True)
def _next_composition(pits):
    """The next way to share the same seeds among the pits, in lexicographic order."""
    last = len(pits) - 1
    tail = pits[last]
    i = last - 1
    while i >= 0 and tail == 0:
        tail += pits[i]
        i -= 1
    if i < 0:
        return
    # pits[i] is the rightmost pit with seeds after it: one more there, the rest at the end.
    pits[i] += 1
    for j in range(i + 1, last):
        pits[j] = 0
    pits[last] = tail - 1


@njit(cache=True, forceinline=True)
def as_mover_sees_it(child, following, n, scratch):
    """The board as its mover (``following``) sees it (their row first), stores emptied, in
    place: how tables index boards."""
    n2 = 2 * n
    for j in range(n2):
        scratch[j] = child[(following * n + j) % n2]
    for j in range(n2):
        child[j] = scratch[j]
    child[n2] = 0
    child[n2 + 1] = 0


# _enter and _solve are inlined by numba (inline="always"): each has one caller, and a
# function compiled on its own is optimized and made into machine code twice, once alone and
# once more in its caller's module (a second of cold compiling each).
@njit(cache=True, inline="always")
def _enter(R, NXT, PRV, counts, values, boards, moves, frames, scratch, depth):
    """Start on boards[depth] (South to move, stores empty): mark it, list its moves.
    Returns its value if it has no move, else UNKNOWN."""
    n = R[PITS]
    n2 = 2 * n
    board = boards[depth]
    frame = frames[depth]
    frame[AT] = index(counts, board, SOUTH, n)
    values[frame[AT]] = BUSY
    frame[COUNT] = legal_moves(R, NXT, PRV, board, SOUTH, moves[depth], scratch)
    frame[NEXT] = 0
    frame[BEST] = -(1 << 20)
    if frame[COUNT] > 0:
        return UNKNOWN
    for i in range(n2 + 2):
        scratch[i] = board[i]
    no_move_end(R, scratch, SOUTH)
    return scratch[n2] - scratch[n2 + 1]


@njit(cache=True, inline="always")
def _solve(R, NXT, PRV, counts, values, boards, moves, frames, scratch):
    """Fill in the value of boards[0] and of every board of its layer it depends on.

    A depth-first walk with an explicit stack (numba's cache cannot hold a recursive
    function called from another). Returns False if a board comes back (a cycle)."""
    # Views of these arrays count no references: see engine.ai.unowned_views.
    R, NXT, PRV, counts = unowned(R), unowned(NXT), unowned(PRV), unowned(counts)
    values, boards, moves = unowned(values), unowned(boards), unowned(moves)
    frames, scratch = unowned(frames), unowned(scratch)
    n = R[PITS]
    n2 = 2 * n
    depth = np.int64(0)  # not the literal 0, which would compile _enter a second time
    done = _enter(R, NXT, PRV, counts, values, boards, moves, frames, scratch, depth)
    while True:
        frame = frames[depth]
        if done == UNKNOWN and frame[NEXT] < frame[COUNT]:
            child = boards[depth + 1]
            following, over = play(
                R, NXT, PRV, boards[depth], child, SOUTH, moves[depth, frame[NEXT]]
            )
            frame[NEXT] += 1
            gained = child[n2] - child[n2 + 1]
            if not over:
                as_mover_sees_it(child, following, n, scratch)
                sign = 1 if following == 0 else -1
                rest = values[index(counts, child, SOUTH, n)]
                if rest == BUSY or depth + 1 >= boards.shape[0] - 1:
                    return False
                if rest == UNKNOWN:  # in this layer and not built yet: go down
                    frame[GAINED] = gained * 2 + (1 if sign < 0 else 0)
                    depth += 1
                    done = _enter(
                        R, NXT, PRV, counts, values, boards, moves, frames, scratch, depth
                    )
                    continue
                gained += sign * rest
            if gained > frame[BEST]:
                frame[BEST] = gained
            continue
        # This board is finished: record it, and hand its value up to the parent.
        value = done if done != UNKNOWN else frame[BEST]
        values[frame[AT]] = value
        if depth == 0:
            return True
        depth -= 1
        parent = frames[depth]
        packed = parent[GAINED]
        gained = (packed >> 1) + (-value if packed & 1 else value)
        if gained > parent[BEST]:
            parent[BEST] = gained
        done = UNKNOWN
