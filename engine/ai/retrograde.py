"""Endgame tables where positions can repeat (wari, oware): retrograde analysis with bounds.

``engine.ai.endgame`` walks each layer of boards depth-first, which needs every chain of moves
to end. Under wari's and oware's rules seeds can circle the board for ever; a repeated position
ends the game by the ruleset's ``cycle`` policy, and what that policy scores depends on which
position came back, so no single number per board is exact. This table keeps two:

- ``low``: the best the player to move can force if an endless cycle counted as the worst
  possible result for them;
- ``high``: the same if it counted as the best.

Both are margins of the seeds still in the pits (what the mover will gain from now on, minus
what the opponent will), as if the game were played out without the majority rule, which ends
a game early only once its winner is settled (so results are exact, margins may differ). Where
``low == high`` the value is exact whatever the cycle policy. Elsewhere the search plays on
from the board instead of reading it.

Under wari's policy (a repeated position is a draw, whatever the counts) a cycle scores 0 in
all, and the value would be ``clamp(0, margin + low, margin + high)`` (``margin``: the stores')
if the majority rule did not matter; but it does (a player one seed short of a majority wins
by reaching it, though a cycle would draw the game played out). So where that rule and policy
go together (``per_store``) the table keeps one exact value per board and store the mover may
hold, the same thresholds pass solving the mover's store and the opponent's together.

How: a board's layer is the seeds left in its pits. Captures lead to lower layers, which are
built first; moves that capture nothing stay in the layer. Each layer is solved as a game on a
graph, threshold by threshold from the best result down: for each threshold u, the boards whose
mover can force at least u (the ``low`` game) and the boards whose mover cannot avoid at most
-u (the ``high`` game of the opponent), each found from the other backwards along the moves,
as in any retrograde analysis. Both sets only grow as u falls, so one pass over the thresholds
does every layer in time proportional to its moves.

Boards are indexed as in ``engine.ai.endgame`` (the mover's row first, stores left out);
``values[2 * i]`` is board i's ``low``, ``values[2 * i + 1]`` its ``high``; ``UNBOUNDED`` stands
for the endless cycle's infinite badness or goodness. Per store, layer k's values are k + 1
blocks of its boards (see ``table_counts``), each the mover's gain from now on.

>>> import numpy as np
>>> from engine import Ruleset
>>> from engine.ai.encoding import encode
>>> from engine.ai.endgame import index
>>> counts, values = build(encode(Ruleset.parse("oware:pits=2,seeds=2")), 3)
>>> board = np.array([0, 1, 1, 1, 0, 0])  # South to move: B's seed makes 2 in a
>>> i = index(counts, board, 0, 2)
>>> int(values[2 * i]), int(values[2 * i + 1])  # South gets all three, whatever North does
(3, 3)
>>> board = np.array([1, 0, 0, 1, 0, 0])  # one seed each, chasing round: a repetition
>>> i = index(counts, board, 0, 2)
>>> int(values[2 * i]), int(values[2 * i + 1])  # decides, and which one comes back matters
(-127, 127)
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from engine.ai.encoding import (
    CYCLE,
    LEFTOVER_OWNER,
    MAJORITY,
    MAX_MOVES,
    PITS,
    SPECIAL,
    TOTAL,
    Int64s,
    RulesCode,
    Table,
)
from engine.ai.endgame import _next_composition, as_mover_sees_it, index, layer_counts
from engine.ai.rules_kernel import legal_moves, no_move_end, play, row_sum

UNBOUNDED = 127  # low = -UNBOUNDED or high = +UNBOUNDED: an endless cycle decides it
MAX_SEEDS = 60  # values are bytes: margins must stay well inside +-UNBOUNDED
SOUTH = np.int64(0)
DRAW = 0  # encoding's cycle policies: draw, split, owners


def largest_allowed(rules_code: RulesCode) -> int:
    """The most seeds a table may hold for these rules: a capture in it must never give a
    majority (the table plays as if there were none), and values must fit in a byte."""
    cap = MAX_SEEDS
    if rules_code.rules[MAJORITY] != 0:
        cap = min(cap, int(rules_code.rules[TOTAL]) // 2)
    return cap


def symmetric(code: RulesCode) -> bool:
    """Whether both players sow by the same rules, turned half round: the table keeps every
    board as its mover sees it, which is only sound then."""
    n = int(code.rules[PITS])
    n2 = 2 * n
    nxt = code.next_slot

    def turn(slot: int) -> int:
        if slot >= n2:
            return n2 + 1 - (slot - n2)
        return (slot + n) % n2

    for direction in range(nxt.shape[1]):
        for slot in range(n2 + 2):
            north = nxt[1, direction, turn(slot)]
            if turn(int(nxt[0, direction, slot])) != north:
                return False
    return True


def per_store(code: RulesCode) -> bool:
    """Whether the table keeps one exact value per board and store (wari: a repetition is a
    draw whatever the counts, and a majority ends the game, so who reaches it first matters)
    rather than bounds independent of the stores."""
    return bool(code.rules[MAJORITY] != 0 and code.rules[CYCLE] == DRAW)


def build(code: RulesCode, max_seeds: int) -> Table:
    """The (counts, values) table for every board with at most ``max_seeds`` seeds in the
    pits (see the module's docstring). ValueError where the rules admit no such table. A
    caller that shows progress calls ``start`` and then ``build_layer`` for 0, 1, ... seeds."""
    counts, values = start(code, max_seeds)
    for seeds in range(max_seeds + 1):
        build_layer(code, counts, values, seeds)
    return counts, values


def start(code: RulesCode, max_seeds: int) -> Table:
    """An empty table, after checking that these rules admit one (ValueError if not). For a
    table per store, ``counts`` has one more row: where each layer's values start."""
    if code.rules[SPECIAL] != 0:  # engine.ai.tables_know
        raise ValueError("no endgame table under Togyz Kumalak's keys (tuzdyks, sowing)")
    if max_seeds < 0 or max_seeds > largest_allowed(code):
        raise ValueError(
            f"a table for these rules holds 0 to {largest_allowed(code)} seeds, not {max_seeds}"
        )
    if not symmetric(code):
        raise ValueError("the two players sow differently under these rules: no endgame table")
    return table_counts(code, max_seeds), np.zeros(table_size(code, max_seeds), np.int8)


def table_counts(code: RulesCode, max_seeds: int) -> Int64s:
    """``engine.ai.endgame.layer_counts``; for a table per store, with one more row: where
    each layer's values start. Layer k holds k + 1 blocks, one per store the mover may hold
    with k seeds left and no majority yet: from ceil(total / 2) - k up."""
    pits = int(code.rules[PITS])
    counts = layer_counts(pits, max_seeds)
    if not per_store(code):
        return counts
    starts = np.zeros((1, max_seeds + 2), np.int64)
    starts[0, 1:] = np.cumsum(counts[2 * pits, : max_seeds + 1] * np.arange(1, max_seeds + 2))
    return np.vstack([counts, starts])


def table_size(code: RulesCode, max_seeds: int) -> int:
    """The bytes a table of ``max_seeds`` seeds takes."""
    counts = layer_counts(int(code.rules[PITS]), max_seeds)
    if per_store(code):
        n2 = 2 * int(code.rules[PITS])
        return int((counts[n2, : max_seeds + 1] * np.arange(1, max_seeds + 2)).sum())
    return 2 * int(counts[0, max_seeds + 1])


def build_layer(code: RulesCode, counts: Int64s, values: NDArray[np.int8], seeds: int) -> None:
    """Solve the boards with exactly ``seeds`` seeds in the pits; every smaller layer must be
    solved already."""
    pits = int(code.rules[PITS])
    n2 = 2 * pits
    size = int(counts[n2, seeds])
    # Work arrays made here, not in the kernel (allocating there costs compiling time).
    board = np.zeros(n2 + 2, np.int64)
    child = np.zeros(n2 + 2, np.int64)
    moves = np.zeros(MAX_MOVES, np.int64)
    scratch = np.zeros(n2 + 2, np.int64)
    composition = np.zeros(n2, np.int64)
    inside = np.zeros(size, np.int32)
    starts = np.zeros(size + 1, np.int64)
    out_starts = np.zeros(size + 1, np.int64)
    edges = _count(
        code.rules,
        code.next_slot,
        code.prev_pit,
        counts,
        seeds,
        inside,
        starts,
        out_starts,
        board,
        child,
        moves,
        scratch,
        composition,
    )
    parents = np.empty(edges, np.int32)
    exits = np.empty((int(out_starts[-1]), EXIT_FIELDS), np.int32)
    _link(
        code.rules,
        code.next_slot,
        code.prev_pit,
        counts,
        seeds,
        starts,
        parents,
        out_starts,
        exits,
        board,
        child,
        moves,
        scratch,
        composition,
    )
    halves = 2 if per_store(code) else 1
    nodes = halves * size
    best_low = np.empty(nodes, np.int16)
    best_high = np.empty(nodes, np.int16)
    pending = np.empty(nodes, np.int32)
    by_low = np.empty(nodes, np.int32)
    by_high = np.empty(nodes, np.int32)
    low_at = np.zeros(2 * seeds + 3, np.int64)
    high_at = np.zeros(2 * seeds + 3, np.int64)
    # A node may be pushed once per move into it, and once more from a bucket.
    stack = np.empty(halves * (edges + 2 * size) + 1, np.int64)
    state = np.zeros(nodes, np.int8)
    low = np.empty(nodes, np.int8)
    high = np.empty(nodes, np.int8)
    work = (pending, starts, parents, by_low, by_high, low_at, high_at, stack, state, low, high)
    if not per_store(code):
        _bounds_of_exits(counts, values, out_starts, exits, best_low, best_high)
        pending[:] = inside
        _solve(size, 1, seeds, best_low, best_high, *work)
        base = int(counts[0, seeds])
        values[2 * base : 2 * (base + size) : 2] = low
        values[2 * base + 1 : 2 * (base + size) : 2] = high
        return
    # Per store: the mover's store and the opponent's are one game (a move hands the turn,
    # and with it the other store, to the opponent), solved together as two halves.
    total = int(code.rules[TOTAL])
    leftover = int(code.rules[LEFTOVER_OWNER])
    first = (total + 1) // 2 - seeds  # the least the mover can hold with no majority yet
    for store in range(first, total // 2 + 1):
        other = total - seeds - store
        if other < store:
            break  # solved with its pair
        pair = (store, other) if other != store else (store,)
        for half, mine in enumerate(pair):
            _values_of_exits(
                counts,
                values,
                out_starts,
                exits,
                best_low[half * size :],
                mine,
                total,
                seeds,
                leftover,
            )
            pending[half * size : (half + 1) * size] = inside
        _solve(size, len(pair), seeds, best_low, best_low, *work)
        for half, mine in enumerate(pair):
            stake = mine - (total - seeds - mine)  # the stores' margin for the mover
            at = int(counts[n2 + 1, seeds]) + (mine - first) * size
            part = slice(half * size, (half + 1) * size)
            # A repetition scores 0 in all: -stake of what is left (module docstring).
            values[at : at + size] = np.maximum(low[part], np.minimum(-stake, high[part]))


EXIT_FIELDS = 5
KIND, GAIN, SWEEP, LAYER, CHILD = range(EXIT_FIELDS)  # an exit's fields
OVER, SAME, OTHER = 0, 1, 2  # kinds: the game ends; a lower layer, same mover or the other


@njit(cache=True, forceinline=True)
def _first_board(composition: Int64s, board: Int64s, seeds: int, n2: int) -> None:
    for i in range(n2):
        composition[i] = 0
    composition[n2 - 1] = seeds
    _copy_board(composition, board, n2)


@njit(cache=True, forceinline=True)
def _copy_board(composition: Int64s, board: Int64s, n2: int) -> None:
    for i in range(n2):
        board[i] = composition[i]
    board[n2] = 0
    board[n2 + 1] = 0


@njit(cache=True)
def _count(
    R: Int64s,
    NXT: Int64s,
    PRV: Int64s,
    counts: Int64s,
    seeds: int,
    inside: NDArray[np.int32],
    starts: Int64s,
    out_starts: Int64s,
    board: Int64s,
    child: Int64s,
    moves: Int64s,
    scratch: Int64s,
    composition: Int64s,
) -> int:
    """First pass over the layer: each board's moves that stay in the layer (``inside``), the
    moves of the layer that lead to each board (``starts``, shifted by one), and each board's
    exits: moves out of the layer or that end the game, or its end if it has no move
    (``out_starts``, shifted by one). Both counts become offsets. Returns the moves within."""
    n = R[PITS]
    n2 = 2 * n
    base = counts[0, seeds]
    _first_board(composition, board, seeds, n2)
    edges = 0
    for _ in range(counts[n2, seeds]):
        _copy_board(composition, board, n2)
        at = index(counts, board, SOUTH, n) - base
        count = legal_moves(R, NXT, PRV, board, SOUTH, moves, scratch)
        if count == 0:
            out_starts[at + 1] += 1
        for m in range(count):
            following, over = play(R, NXT, PRV, board, child, SOUTH, moves[m])
            if over or row_sum(child, 0, n2) != seeds:
                out_starts[at + 1] += 1
                continue
            as_mover_sees_it(child, following, n, scratch)
            inside[at] += 1
            starts[index(counts, child, SOUTH, n) - base + 1] += 1
            edges += 1
        _next_composition(composition)
    for i in range(1, counts[n2, seeds] + 1):
        starts[i] += starts[i - 1]
        out_starts[i] += out_starts[i - 1]
    return edges


@njit(cache=True)
def _link(
    R: Int64s,
    NXT: Int64s,
    PRV: Int64s,
    counts: Int64s,
    seeds: int,
    starts: Int64s,
    parents: NDArray[np.int32],
    out_starts: Int64s,
    exits: NDArray[np.int32],
    board: Int64s,
    child: Int64s,
    moves: Int64s,
    scratch: Int64s,
    composition: Int64s,
) -> None:
    """Second pass: for each board, the boards of the layer with a move to it (the parent's
    index times 2, plus 1 where the mover moves again); and each board's exits."""
    n = R[PITS]
    n2 = 2 * n
    base = counts[0, seeds]
    filled = starts.copy()
    _first_board(composition, board, seeds, n2)
    for _ in range(counts[n2, seeds]):
        _copy_board(composition, board, n2)
        at = index(counts, board, SOUTH, n) - base
        out = out_starts[at]
        count = legal_moves(R, NXT, PRV, board, SOUTH, moves, scratch)
        if count == 0:
            for i in range(n2 + 2):
                child[i] = board[i]
            no_move_end(R, child, SOUTH)
            exits[out, KIND] = OVER
            exits[out, GAIN] = child[n2] - child[n2 + 1]
            out += 1
        for m in range(count):
            following, over = play(R, NXT, PRV, board, child, SOUTH, moves[m])
            left = row_sum(child, 0, n2)
            if over or left != seeds:
                exits[out, KIND] = OVER if over else (SAME if following == 0 else OTHER)
                exits[out, GAIN] = child[n2] - child[n2 + 1]
                # What a sweep to the owners would add, should a majority end the game here.
                exits[out, SWEEP] = row_sum(child, 0, n) - row_sum(child, n, n)
                exits[out, LAYER] = left
                if not over:
                    as_mover_sees_it(child, following, n, scratch)
                    exits[out, CHILD] = index(counts, child, SOUTH, n) - counts[0, left]
                out += 1
                continue
            as_mover_sees_it(child, following, n, scratch)
            j = index(counts, child, SOUTH, n) - base
            parents[filled[j]] = 2 * at + (1 if following == 0 else 0)
            filled[j] += 1
        _next_composition(composition)


@njit(cache=True)
def _bounds_of_exits(
    counts: Int64s,
    values: NDArray[np.int8],
    out_starts: Int64s,
    exits: NDArray[np.int32],
    best_low: NDArray[np.int16],
    best_high: NDArray[np.int16],
) -> None:
    """Per board, the best of its exits in the low and in the high game (-1000: no exit).
    A lower layer's bounds swap sides when the other player moves there."""
    for i in range(len(best_low)):
        low = -1000
        high = -1000
        for e in range(out_starts[i], out_starts[i + 1]):
            gain = exits[e, GAIN]
            lo = gain
            hi = gain
            if exits[e, KIND] != OVER:
                j = counts[0, exits[e, LAYER]] + exits[e, CHILD]
                if exits[e, KIND] == SAME:
                    lo = gain + values[2 * j]
                    hi = gain + values[2 * j + 1]
                else:
                    lo = gain - values[2 * j + 1]
                    hi = gain - values[2 * j]
            low = max(low, lo)
            high = max(high, hi)
        best_low[i] = max(low, -UNBOUNDED) if low > -1000 else -1000
        best_high[i] = min(high, UNBOUNDED) if high > -1000 else -1000


@njit(cache=True)
def _values_of_exits(
    counts: Int64s,
    values: NDArray[np.int8],
    out_starts: Int64s,
    exits: NDArray[np.int32],
    best: NDArray[np.int16],
    store: int,
    total: int,
    seeds: int,
    leftover: int,
) -> None:
    """Per board, the best of its exits (what is left to gain, for the mover holding
    ``store``), from exact values per store: a capture that gives the mover a majority ends
    the game (the rows swept to their owners where the rules say so)."""
    n2 = 2 * ((counts.shape[0] - 2) // 2)
    other = total - seeds - store
    for i in range(len(out_starts) - 1):
        top = -1000
        for e in range(out_starts[i], out_starts[i + 1]):
            gain = exits[e, GAIN]
            value = gain
            kind = exits[e, KIND]
            if kind != OVER:
                if 2 * (store + gain) > total:
                    value = gain + (exits[e, SWEEP] if leftover else 0)
                else:
                    layer = exits[e, LAYER]
                    first = (total + 1) // 2 - layer  # the lowest store of that layer's blocks
                    mine = store + gain if kind == SAME else other
                    theirs = other if kind == SAME else store + gain
                    at = (
                        counts[n2 + 1, layer] + (mine - first) * counts[n2, layer] + exits[e, CHILD]
                    )
                    future = mine - theirs + values[at]  # the final margin for the child's mover
                    whole = future if kind == SAME else -future
                    value = whole - (store - other)
            top = max(top, value)
        best[i] = top


IN_LOW, IN_HIGH = 1, 2  # state bits: the board's low / high value is settled


@njit(cache=True)
def _solve(
    boards: int,
    halves: int,
    seeds: int,
    best_low: NDArray[np.int16],
    best_high: NDArray[np.int16],
    pending: NDArray[np.int32],
    starts: Int64s,
    parents: NDArray[np.int32],
    by_low: NDArray[np.int32],
    by_high: NDArray[np.int32],
    low_at: Int64s,
    high_at: Int64s,
    stack: Int64s,
    state: NDArray[np.int8],
    low: NDArray[np.int8],
    high: NDArray[np.int8],
) -> None:
    """The thresholds pass. For u from +seeds down to -seeds (t = -u): a board joins the low
    set at u when a move out of the layer gives it u, or a move leads to a board that joined
    the high set at t (or the low set at u, after a replay); it joins the high set at t when
    every move is settled at most t: out of the layer, or to a board in the low set at -t (in
    the high set at t, after a replay). ``pending`` counts a board's moves not settled yet.

    With ``halves`` = 2 the graph has two copies of the layer's ``boards`` (a table per
    store: the mover holding one store, or the other, which is the opponent's after a move);
    a move to another player leads to the other copy, a replay stays."""
    size = halves * boards
    span = 2 * seeds + 1
    for k in range(span + 2):
        low_at[k] = 0
        high_at[k] = 0
    for i in range(size):
        state[i] = 0
    # Bucket the boards by the value of their best move out of the layer (low game), and by
    # the worst bound among those moves (high game); boards whose moves out cannot reach the
    # range are left out of the buckets.
    for i in range(size):
        if best_low[i] >= -seeds:
            low_at[seeds - best_low[i] + 1] += 1
        if best_high[i] > -1000:
            pending[i] += 1  # the moves out of the layer: settled once t reaches best_high
            if best_high[i] <= seeds:
                high_at[max(best_high[i], -seeds) + seeds + 1] += 1
    for k in range(1, span + 1):
        low_at[k] += low_at[k - 1]
        high_at[k] += high_at[k - 1]
    fill_low = low_at.copy()
    fill_high = high_at.copy()
    for i in range(size):
        if best_low[i] >= -seeds:
            k = seeds - best_low[i]
            by_low[fill_low[k]] = i
            fill_low[k] += 1
        if best_high[i] > -1000 and best_high[i] <= seeds:
            k = max(best_high[i], -seeds) + seeds
            by_high[fill_high[k]] = i
            fill_high[k] += 1
    for step in range(span):
        u = seeds - step
        t = -u
        top = 0
        for k in range(low_at[step], low_at[step + 1]):
            stack[top] = 2 * by_low[k]
            top += 1
        for k in range(high_at[step], high_at[step + 1]):
            q = by_high[k]
            pending[q] -= 1
            if pending[q] == 0:
                stack[top] = 2 * q + 1
                top += 1
        while top > 0:
            top -= 1
            item = stack[top]
            p = item >> 1
            joined = item & 1  # 0: p joins the low set at u, 1: the high set at t
            bit = IN_HIGH if joined else IN_LOW
            if state[p] & bit:
                continue
            state[p] |= bit
            if joined:
                high[p] = t
            else:
                low[p] = u
            half = p // boards
            for e in range(starts[p % boards], starts[p % boards + 1]):
                r = _parent(parents[e], half, halves, boards)
                # A replay hands p's set on to r as it is; a move to the other player turns
                # p's low of u into r's high at t = -u, and p's high into r's low. One such
                # move puts r in a low set; a high set needs all of them (``pending``).
                if parents[e] & 1 == 1 - joined:
                    if state[r] & IN_LOW == 0:
                        stack[top] = 2 * r
                        top += 1
                else:
                    pending[r] -= 1
                    if pending[r] == 0:
                        stack[top] = 2 * r + 1
                        top += 1
    for i in range(size):
        if state[i] & IN_LOW == 0:
            low[i] = -UNBOUNDED
        if state[i] & IN_HIGH == 0:
            high[i] = UNBOUNDED


@njit(cache=True, forceinline=True)
def _parent(edge: int, half: int, halves: int, boards: int) -> int:
    """The node of the board moving to a node in copy ``half`` by ``edge`` (see _solve)."""
    if halves == 1 or edge & 1:
        return edge >> 1 if halves == 1 else (edge >> 1) + half * boards
    return (edge >> 1) + (1 - half) * boards
