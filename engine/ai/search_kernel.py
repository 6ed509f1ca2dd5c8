"""Alpha-beta in numba: negamax with extra turns, a transposition table and move ordering.

One function serves both the levels (depth-limited, with an evaluation at the horizon) and the
exact solver (``exact``: no horizon, the value is the final seed margin). Values are seed
margins for the player to move, times ``SCALE`` so the evaluation can add a smaller term.

Extra turns (replay): a child where the same player moves again is searched with the same
window and its value is not negated. A repeated position on the search path is scored by the
ruleset's cycle policy, but only in exact mode and only where positions can repeat
(``MAY_CYCLE``); depth-limited searches end every loop at the horizon anyway.

What makes the solver prove games: move ordering (a proof's cost swings tenfold or more with
which move is tried first: replays nearest the store first, then by the seeds a move brings
home, by sowing and capture, then by the cutoffs it made elsewhere); the table read of a child
started before the call that needs it (``prefetch``: the table misses the cache at nearly every
node); optional budgeted tries (``_budgeted``: a refutation that is cheap to prove is found
before an expensive first try is finished; off by default, see search.SOLVE_BUDGET); the
stores bound (the seeds left limit how far the margin can still move); enhanced
transposition cutoffs (a child the table already proves good enough refutes the node); and,
where the stores cannot change play (``RELATIVE``), a table keyed by the pits alone and, when
one is built, the endgame table (``engine.ai.endgame``): a board with at most
``stats[ENDGAME_SEEDS]`` seeds left in the pits is read, not searched.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from engine.ai.encoding import (
    BOARD_SIZE,
    CAPTURE_EITHER,
    CHOOSE_ANY,
    CYCLE,
    EMPTY_CAPTURE,
    EVAL_WEIGHTS,
    FORBIDDEN,
    GRAND_SLAM,
    GUESS_MASK,
    MAX_MOVES,
    MAY_CYCLE,
    MUST_FEED,
    NEEDS_OPPOSITE,
    PITS,
    REPLAY,
    SKIP_ORIGIN,
    SOW_ORIGIN,
    TOTAL,
    TUZDYK,
    Int64s,
)
from engine.ai.endgame import index
from engine.ai.evaluation import WEIGHT_SHIFT
from engine.ai.rules_kernel import legal_moves, no_move_end, play, row_sum
from engine.ai.unowned_views import prefetch, unowned

CHECKED_NUMBA = "0.68."  # the numba release _memoize_recursive_typing was checked against


def _memoize_recursive_typing() -> None:
    """Make numba type negamax's recursion once per state instead of once per call site.

    numba types a recursive call by copying the caller's type inference and running it again
    over the whole function (``TypeInferer.return_types_from_partial``), at every recursive
    call site and in every round of inference: negamax has six sites (``_child``, inlined
    three times, calls negamax twice), and those re-runs were 5 of the 7 s that typing
    negamax took, most of them on a state already typed. The result depends only on the
    function and the types inferred so far, so it is kept per state: the same types, the
    same machine code, half the typing. (Fewer call sites would type faster still, but each
    shape tried made LLVM compile a search 30-50% slower: bench/search_set.py.) Only on the
    numba release it was checked against (the same nodes and moves, tests/engine/test_ai_*.py): a
    later one may type recursion otherwise, and then compiles as numba does, slower."""
    import numba
    from numba.core import typeinfer

    if not numba.__version__.startswith(CHECKED_NUMBA):
        return
    inferer = typeinfer.TypeInferer
    partial = getattr(inferer, "return_types_from_partial", None)
    if partial is None or getattr(partial, "memoized", False):
        return

    def memoized(self: Any) -> Any:
        state = tuple(var.type for _, var in sorted(self.typevars.items()))
        known = self.__dict__.setdefault("_partial_return_types", {})
        if state not in known:
            known[state] = partial(self)
        return known[state]

    memoized.memoized = True  # type: ignore[attr-defined]
    setattr(inferer, "return_types_from_partial", memoized)  # noqa: B010 (mypy: a method)


_memoize_recursive_typing()

SCALE = 4  # search units per seed of margin
INF = 1 << 20
MAX_PLY = 400
ROOT_ROW = MAX_PLY + 1  # kids[ROOT_ROW, 0] holds the root board
EXACT_DEPTH = 30000  # the depth an exact search claims, so the TT treats it as final
EXACT, LOWER, UPPER = 0, 1, 2

# Slots of the stats array the search reads and writes.
NODES, NODE_LIMIT, ABORTED, EXACT_MODE, ROOT_MOVE, TRUNCATED, SEL_DEPTH, RELATIVE = range(8)
ENDGAME_SEEDS = 8  # boards with at most this many seeds in the pits are in the endgame table
STOP = 9  # set to 1 by another thread (the time limit): the search aborts at its next node
# Budgeted tries (exact null-window searches only): each move is first searched under a node
# budget that starts at stats[BUDGET_START] (0: off) and grows; see _budgeted.
BUDGET_START = 10
BUDGET_GROWTH = 4
# 1 where the rules treat both sides alike, the stores do not change play (RELATIVE) and there
# are no tuzdyks (whose slots the rotation would not turn): a board with North to move is hashed as its half-turn rotation with South to move, so the
# two share one table entry (values are already for the mover, relative to the stores).
MIRROR = 11
# Enhanced transposition cutoffs are tried at nodes with at least this many seeds in the pits
# (-1: the search sets it to half the seeds; see negamax).
ETC_SEEDS = 12
# What the endgame table holds: EXACT_VALUES (engine.ai.endgame), or, where positions can
# repeat (engine.ai.retrograde), BOUNDS independent of the stores or VALUES_PER_STORE.
TABLE_KIND = 13
EXACT_VALUES, BOUNDS, VALUES_PER_STORE = 0, 1, 2
# The value of stats[ROOT_MOVE], the best root move searched to the end so far (an iteration
# stopped by the clock still has one once its first move is done).
ROOT_VALUE = 14
ROOT_BONUS = 15  # stats[ROOT_BONUS + move]: a 0-63 tie-break for root moves, from the seed
HISTORY = ROOT_BONUS + MAX_MOVES  # stats[HISTORY + MAX_MOVES * mover + move]: its cutoffs
STATS_SIZE = HISTORY + 2 * MAX_MOVES
HISTORY_CAP = (1 << 20) - 1


MOVES, ORDER, PATH = 0, 1, 3  # rows of the per-ply array
TT_EMPTY = -1
# Spreads the hash of the positions above a node over its table key (see negamax): the golden
# ratio's odd constant, as a signed 64-bit number; and a second odd constant (splitmix64's)
# for ``path_member``.
PATH_MIX = -7046029254386353131
PATH_MIX_2 = -4658895280553007687


def make_workspace(size: int, tt_bits: int) -> tuple[Int64s, Int64s, Int64s, Int64s]:
    """The arrays one search owns. Few and packed on purpose: numba passes each array
    argument of the recursive call separately, and many arguments make every call slow.

    kids[ply, 0] is the board after the move being searched at that ply (kids[MAX_PLY, 0] is
    scratch, kids[ROOT_ROW, 0] the root); per_ply[ply, MOVES|ORDER, i] the moves and their
    ordering scores, per_ply[ply, PATH, 0] the hash of the node at that ply and
    per_ply[ply, PATH, 1] that of the set of positions above it (exact searches where positions
    repeat);
    tt[slot] = (key, packed value|depth|bound|move)."""
    return (
        np.zeros((MAX_PLY + 2, 1, size), np.int64),
        np.zeros((MAX_PLY + 1, 4, MAX_MOVES), np.int64),
        np.full((1 << tt_bits, 2), TT_EMPTY, np.int64),
        np.zeros(STATS_SIZE, np.int64),
    )


@njit(cache=True, forceinline=True)
def tt_pack(value, depth, kind, work, move):
    """value (32 bits) | depth (16) | log2 of the nodes spent (6) | bound kind (2) | move+1 (8)"""
    return ((value + (1 << 30)) << 32) | (depth << 16) | (work << 10) | (kind << 8) | (move + 1)


@njit(cache=True, forceinline=True)
def path_member(h):
    """A position's hash as a member of the set of positions above a node: scrambled, so
    that the XOR of a set is not the XOR of Zobrist numbers. Zobrist hashes are linear (each
    is the XOR of one number per pit and count), so the plain XOR of two positions' hashes
    equals that of two other positions that swap a pit's count between them; on small boards
    such sets meet on the search path, and the solver read a value proven under other
    positions above it (oware:pits=3,seeds=2, pits 3 1 0 / 0 0 0, stores 6-2: +2 for +4)."""
    x = h * PATH_MIX
    x ^= x >> 29
    x *= PATH_MIX_2
    return x ^ (x >> 32)


@njit(cache=True, forceinline=True)
def position_hash(Z, board, size, mover, mirror):
    """Zobrist hash of the board (``size`` slots: with the tuzdyks, where the rules have them)
    and the mover; with ``mirror`` (never with tuzdyks), of the board as the mover sees it
    (North's boards rotated by half a turn, no mover bit)."""
    if mirror != 0 and mover != 0:
        n2 = size - 2
        n = n2 >> 1
        h = 0
        for i in range(n2):
            h ^= Z[i - n if i >= n else i + n, board[i]]
        return h ^ Z[n2, board[n2 + 1]] ^ Z[n2 + 1, board[n2]]
    h = Z[size, 0] if mover and mirror == 0 else 0
    for i in range(size):
        h ^= Z[i, board[i]]
    return h


@njit(cache=True, forceinline=True)
def mirrored_move(move, n, mirror, mover):
    """A move as kept in the table: with ``mirror``, North's moves as their rotation (an
    involution, so the same call turns a kept move back)."""
    if mirror == 0 or mover == 0 or move < 0:
        return move
    pit = move >> 1
    return ((pit - n if pit >= n else pit + n) << 1) | (move & 1)


@njit(cache=True, forceinline=True)
def margin(R, board, mover):
    n2 = 2 * R[PITS]
    return board[n2 + mover] - board[n2 + 1 - mover]


@njit(cache=True, forceinline=True)
def evaluate(R, board, mover):
    """Seeds captured (stores, or captures where there are none) dominate; seeds in one's own
    row count a quarter as much, as material that will mostly come home. Where the rules have
    tuzdyks, Togyz Kumalak's tuned features instead (``togyz_value``)."""
    if R[TUZDYK] != 0:
        return togyz_value(R, board, mover)
    n = R[PITS]
    own = row_sum(board, mover * n, n)
    other = row_sum(board, (1 - mover) * n, n)
    return SCALE * margin(R, board, mover) + own - other


@njit(cache=True, forceinline=True)
def _reach(R, board, side, captures):
    """What ``side`` could do with one move now: (the stones in its row; with ``captures``,
    the most stones an even count in the other row takes, else 0; 1 if a move makes a
    tuzdyk; the empty pits in its row, the other's tuzdyk not counted). Each last seed is
    found without sowing: the first seed stays (a single one moves on), so c stones end
    c - 1 pits on, after (c - 1) // 2n laps. It runs at every leaf, whose boards no branch
    predictor guesses: so tests become arithmetic, and the possible tuzdyks a bit mask (one
    loop, both measured: bench/ai.py)."""
    n = R[PITS]
    n2 = n + n
    lo = side * n
    other_lo = n - lo
    mine = board[n2 + 2 + side] - 1  # side's tuzdyk (in the other row), -1 for none
    theirs = board[n2 + 3 - side] - 1  # the other's, in side's row
    stones = 0
    best = 0
    threes = 0  # bit t: a last seed makes 3 in pit t
    empty = 0
    for p in range(lo, lo + n):
        c = board[p]
        stones += c
        empty += c == 0
        d = c - 1 + (c == 1)  # -1 for an empty pit: ruled out below
        laps = 0
        if d >= n2:  # rare: 19 stones or more
            laps = d // n2
            d -= laps * n2
        t = p + d
        if t >= n2:
            t -= n2
        if t < 0:
            t = 0
        landed = board[t] + laps + 1
        if captures:
            number = t - other_lo
            hit = (c > 0) & (number >= 0) & (number < n) & (t != mine) & (landed & 1 == 0)
            best = max(best, landed if hit else 0)
        if mine < 0:
            threes |= (1 << t) if (landed == 3) & (c > 0) else 0
    # A tuzdyk: one a player, never the other's last pit nor the number of the other's.
    allowed = 0
    if mine < 0:
        allowed = ((1 << (n - 1)) - 1) << other_lo
        if theirs >= 0:
            allowed &= ~(1 << (theirs - lo + other_lo))
    return stones, best, 1 if threes & allowed != 0 else 0, empty - (theirs >= 0)


@njit(cache=True, forceinline=True)
def togyz_features(R, board, mover):
    """The features of engine.ai.evaluation.FEATURES, in its order, for ``mover``."""
    n2 = 2 * R[PITS]
    other = 1 - mover
    owned = (board[n2 + 2 + mover] != 0) - (board[n2 + 2 + other] != 0)
    own, take, make, empty = _reach(R, board, mover, True)
    rival, _, threat, empty_other = _reach(R, board, other, False)
    return (own - rival, owned, take, make, threat, empty - empty_other)


@njit(cache=True, forceinline=True)
def togyz_value(R, board, mover):
    """The kazans' margin and the weighted features (weights at R[EVAL_WEIGHTS:], in
    sixteenths of a search unit: see engine.ai.evaluation)."""
    return _togyz_leaf(R, board, mover)[0]


@njit(cache=True, forceinline=True)
def _togyz_leaf(R, board, mover):
    """(togyz_value, the stones in the mover's row): _leaf's test for a mover without a
    move, which the features count anyway."""
    n2 = 2 * R[PITS]
    other = 1 - mover
    own, take, make, empty = _reach(R, board, mover, True)
    rival, _, threat, empty_other = _reach(R, board, other, False)
    owned = (board[n2 + 2 + mover] != 0) - (board[n2 + 2 + other] != 0)
    f = (own - rival, owned, take, make, threat, empty - empty_other)
    w = EVAL_WEIGHTS
    total = (
        R[w] * f[0]
        + R[w + 1] * f[1]
        + R[w + 2] * f[2]
        + R[w + 3] * f[3]
        + R[w + 4] * f[4]
        + R[w + 5] * f[5]
    )
    return SCALE * margin(R, board, mover) + (total >> WEIGHT_SHIFT), own


@njit(cache=True, forceinline=True)
def cycle_value(R, board, mover):
    """A repeated position, settled by the ruleset's cycle policy (draw, split, owners)."""
    policy = R[CYCLE]
    if policy == 0:
        return 0
    if policy == 1:  # split: the halves cancel, so the stores decide
        return SCALE * margin(R, board, mover)
    n = R[PITS]
    own = row_sum(board, mover * n, n)
    other = row_sum(board, (1 - mover) * n, n)
    return SCALE * (margin(R, board, mover) + own - other)


NO_VALUE = INF + 1  # table_value: the table bounds this board's value but does not fix it


@njit(cache=True, forceinline=True)
def table_value(R, counts, endgame, stats, board, following, mover):
    """The exact value for ``mover`` of a board in the endgame table, ``following`` to move,
    or NO_VALUE. A table of bounds fixes the value where its bounds meet, and everywhere
    under a draw for a repeated position (see engine.ai.retrograde)."""
    at = index(counts, board, following, R[PITS])
    stake = margin(R, board, following)
    kind = stats[TABLE_KIND]
    if kind == EXACT_VALUES:
        value = SCALE * (stake + endgame[at])
    elif kind == VALUES_PER_STORE:
        n2 = 2 * R[PITS]
        left = row_sum(board, 0, n2)
        block = board[n2 + following] - ((R[TOTAL] + 1) // 2 - left)  # see retrograde
        if block < 0 or block > left:  # a board whose seeds do not add up to the total
            return NO_VALUE
        at = counts[n2 + 1, left] + block * counts[n2, left] + at - counts[0, left]
        value = SCALE * (stake + endgame[at])
    else:
        low = endgame[2 * at]
        high = endgame[2 * at + 1]
        if low == high:
            value = SCALE * (stake + low)
        elif R[CYCLE] == 0:
            value = SCALE * max(stake + low, min(0, stake + high))
        else:
            return NO_VALUE
    return value if following == mover else -value


@njit(cache=True, forceinline=True)
def _known(R, counts, endgame, stats, child, following, over, mover):
    """The value for ``mover`` of a child that needs no search: the game is over, or the
    endgame table holds it (read, not searched, but counted as a node). -INF otherwise."""
    if over:
        return SCALE * margin(R, child, mover)
    if row_sum(child, 0, 2 * R[PITS]) <= stats[ENDGAME_SEEDS]:
        value = table_value(R, counts, endgame, stats, child, following, mover)
        if value != NO_VALUE:
            stats[NODES] += 1
            return value
    return -INF


@njit(cache=True, forceinline=True)
def guess_gain(R, NXT, board, mover, move, exact):
    """A quick ordering score without sowing (laps ignored): a replay first, nearest the store
    first; then a capture by its size; in an ``exact`` search also the seeds a move sows into
    the mover's store on the way. (Those cut the standard-capture Kalah(6,4) proofs tenfold;
    in the levels' depth-limited search they cost nodes: bench/search_set.py.) Under Togyz
    Kumalak's keys the first seed goes back into its pit, and ``GUESS_MASK`` adds the even
    counts and a tuzdyk's 3 to the capturing counts. (Written without a test of its own: any
    test here, even one never taken, made Kalah's search 5-8% slower.)"""
    n = R[PITS]
    n2 = 2 * n
    pit = move >> 1
    direction = move & 1
    seeds = board[pit]
    seeds -= R[SOW_ORIGIN] & (seeds > 1)  # the first seed back into its pit
    slot = pit
    skip = R[SKIP_ORIGIN] != 0
    home = 0  # seeds sown into the mover's own store
    while seeds > 0:
        slot = NXT[mover, direction, slot]
        if slot != pit or not skip:
            seeds -= 1
            if slot == n2 + mover and exact:
                home += 1
    if slot == n2 + mover:
        # Of several replays, the one nearest the store first: it leaves the others intact.
        return 512 - min(board[pit], 32) if R[REPLAY] != 0 else 1 + 2 * home
    if slot >= n2:
        return 2 * home
    laps = board[pit] // (n2 + 1)  # seeds that went all the way round
    landed = board[slot] + laps + (1 if slot != pit else 0)
    if R[EMPTY_CAPTURE] != 0:
        if landed == 1 and (R[CHOOSE_ANY] != 0 or slot // n == mover):
            across = board[n2 - 1 - slot] + laps
            if across > 0 or R[NEEDS_OPPOSITE] == 0:
                return 2 * (home + across + 1) + 1
        return 2 * home
    if R[GUESS_MASK] != 0 and landed < 62 and (R[GUESS_MASK] >> landed) & 1 == 1:
        if R[CAPTURE_EITHER] != 0 or slot // n != mover:
            return 2 * (home + landed) + 1
    return 2 * home


@njit(cache=True)
def _etc(
    R, NXT, PRV, Z, kids, tt, counts, endgame, stats, board, mover, moves, count, beta, ply, salt
):
    """Enhanced transposition cutoff: a move whose child the table already proves good
    enough (or that ends the game well enough) refutes this node without a search.
    Returns that value, or -INF."""
    n2 = 2 * R[PITS]
    size = R[BOARD_SIZE]
    child = kids[ply, 0]
    mask = tt.shape[0] - 2
    bounded = not (R[MAY_CYCLE] != 0 and R[CYCLE] == 0)
    for i in range(count):
        following, over = play(R, NXT, PRV, board, child, mover, moves[i])
        if over:
            value = SCALE * margin(R, child, mover)
            if value >= beta:
                return value
            continue
        left = row_sum(child, 0, n2)
        if left <= stats[ENDGAME_SEEDS]:
            value = table_value(R, counts, endgame, stats, child, following, mover)
            if value != NO_VALUE:
                if value >= beta:
                    return value
                continue
        if bounded:  # the child is already won by enough, whatever the seeds left do
            value = SCALE * (margin(R, child, mover) - left)
            if value >= beta:
                return value
        h = position_hash(Z, child, size, following, stats[MIRROR]) ^ salt
        base = h & mask
        slot = -1
        if tt[base, 0] == h:
            slot = base
        elif tt[base + 1, 0] == h:
            slot = base + 1
        if slot < 0:
            continue
        data = tt[slot, 1]
        if ((data >> 16) & 65535) < EXACT_DEPTH:  # a heuristic value: no proof
            continue
        offset = SCALE * margin(R, child, following) if stats[RELATIVE] else 0
        value = (data >> 32) - (1 << 30) + offset
        kind = (data >> 8) & 3
        if following == mover:
            if kind != UPPER and value >= beta:
                return value
        elif kind != LOWER and -value >= beta:
            return -value
    return -INF


@njit(cache=True, forceinline=True)
def _count_node(stats, ply):
    """Count a node and the deepest ply reached; True once the node budget is spent or the
    search is told to stop."""
    stats[NODES] += 1
    if stats[NODES] >= stats[NODE_LIMIT] or stats[STOP] != 0:
        stats[ABORTED] = 1
    if ply > stats[SEL_DEPTH]:
        stats[SEL_DEPTH] = ply
    return stats[ABORTED] != 0


@njit(cache=True, forceinline=True)
def _leaf(R, NXT, PRV, kids, per_ply, stats, board, mover, ply):
    """What ``negamax`` does at the horizon of a depth-limited search, without the call:
    leaves are most of the tree, and a recursive call with many arrays is slow."""
    if _count_node(stats, ply):
        return 0
    if R[TUZDYK] != 0:  # the features count the mover's stones: its moves, under these rules
        value, own = _togyz_leaf(R, board, mover)
        return value if own > 0 else _stuck_value(R, kids, board, mover)
    n = R[PITS]
    if R[MUST_FEED] == 0 and R[GRAND_SLAM] != FORBIDDEN:
        # Without feeding or grand-slam rules, any seed in a row one may sow from is a move.
        stuck = (
            row_sum(
                board, 0 if R[CHOOSE_ANY] != 0 else mover * n, 2 * n if R[CHOOSE_ANY] != 0 else n
            )
            == 0
        )
    else:
        stuck = legal_moves(R, NXT, PRV, board, mover, per_ply[ply, MOVES], kids[MAX_PLY, 0]) == 0
    if stuck:
        return _stuck_value(R, kids, board, mover)
    return evaluate(R, board, mover)


@njit(cache=True, forceinline=True)
def _stuck_value(R, kids, board, mover):
    """The value of a board whose player to move has no move: settled in a scratch copy.
    (The scratch view is made here, off the common path: each view costs reference-count
    calls, even on arrays that count none.)"""
    scratch = kids[MAX_PLY, 0]
    for i in range(2 * R[PITS] + 2):
        scratch[i] = board[i]
    no_move_end(R, scratch, mover)
    return SCALE * margin(R, scratch, mover)


# Inlined into negamax by numba (inline="always"), as _budgeted is: both call negamax, and a
# separately compiled function that recurses into negamax leaves an unresolved symbol. Every
# other helper is compiled once and inlined by LLVM (forceinline=True): numba-level inlining
# of all of them made negamax one function that type inference took 30 s over.
@njit(cache=True, inline="always")
def _child(
    R,
    NXT,
    PRV,
    Z,
    kids,
    per_ply,
    tt,
    counts,
    endgame,
    stats,
    mover,
    following,
    depth,
    alpha,
    beta,
    ply,
):
    """The value for ``mover`` of the child in kids[ply]: same window after an extra turn,
    negated otherwise."""
    if following == mover:
        return negamax(
            R,
            NXT,
            PRV,
            Z,
            kids,
            per_ply,
            tt,
            counts,
            endgame,
            stats,
            mover,
            depth - 1,
            alpha,
            beta,
            ply + 1,
        )
    return -negamax(
        R,
        NXT,
        PRV,
        Z,
        kids,
        per_ply,
        tt,
        counts,
        endgame,
        stats,
        1 - mover,
        depth - 1,
        -beta,
        -alpha,
        ply + 1,
    )


@njit(cache=True, forceinline=True)
def _bring_best(moves, order, j, count):
    """Swap the best-scored of moves[j:count] into place j."""
    pick = j
    for k in range(j + 1, count):
        if order[k] > order[pick]:
            pick = k
    if pick != j:
        moves[j], moves[pick] = moves[pick], moves[j]
        order[j], order[pick] = order[pick], order[j]


@njit(cache=True, forceinline=True)
def _credit(stats, mover, move, amount):
    """History: a cutoff ``move`` made, for ordering it elsewhere."""
    slot = HISTORY + MAX_MOVES * mover + move
    stats[slot] = min(stats[slot] + amount, HISTORY_CAP)


@njit(cache=True, forceinline=True)
def _prefetch_entry(R, Z, tt, stats, child, following, salt):
    """Start loading the table bucket of the child about to be searched, so that the miss
    overlaps the work the child does before it reads the table (see negamax)."""
    h = position_hash(Z, child, R[BOARD_SIZE], following, stats[MIRROR]) ^ salt
    prefetch(tt, 2 * (h & (tt.shape[0] - 2)))


@njit(cache=True, inline="always")
def _budgeted(
    R,
    NXT,
    PRV,
    Z,
    kids,
    per_ply,
    tt,
    counts,
    endgame,
    stats,
    board,
    mover,
    moves,
    order,
    count,
    depth,
    beta,
    ply,
    salt,
):
    """The children of a null-window node (beta - 1, beta), tried in rounds: each move not
    settled yet is searched under a node budget that grows by BUDGET_GROWTH per round, so a
    cheap refutation further down the list is found before an expensive first try is
    finished. Subtrees an aborted try completed stay in the table, so a retry resumes more
    than it repeats. Returns (best, best move); stats[ABORTED] set if the outer limit ran out."""
    for j in range(count):  # the whole order up front: every round walks it
        _bring_best(moves, order, j, count)
    child = kids[ply, 0]
    best = -INF
    best_move = -1
    pending = (1 << count) - 1
    budget = stats[BUDGET_START]
    outer = stats[NODE_LIMIT]
    while pending != 0:
        for j in range(count):
            if (pending >> j) & 1 == 0:
                continue
            m = moves[j]
            following, over = play(R, NXT, PRV, board, child, mover, m)
            value = _known(R, counts, endgame, stats, child, following, over, mover)
            if value == -INF:
                _prefetch_entry(R, Z, tt, stats, child, following, salt)
                stats[NODE_LIMIT] = min(outer, stats[NODES] + budget)
                value = _child(
                    R,
                    NXT,
                    PRV,
                    Z,
                    kids,
                    per_ply,
                    tt,
                    counts,
                    endgame,
                    stats,
                    mover,
                    following,
                    depth,
                    beta - 1,
                    beta,
                    ply,
                )
                stats[NODE_LIMIT] = outer
                if stats[ABORTED]:
                    if stats[NODES] >= outer or stats[STOP] != 0:
                        return best, best_move
                    stats[ABORTED] = 0  # only this try's budget ran out: later rounds retry
                    continue
            pending &= ~(1 << j)
            if value > best:
                best = value
                best_move = m
            if value >= beta:
                _credit(stats, mover, m, 1)
                return best, best_move
        budget *= BUDGET_GROWTH
    return best, best_move


# nogil: the time limit's thread runs meanwhile. _nrt=False: no reference counting at all (the
# arrays belong to the caller), so views cost no calls; the functions it calls inherit it.
# numba's stubs do not list the private _nrt option, hence the ignore.
@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]
def negamax(
    R, NXT, PRV, Z, kids, per_ply, tt, counts, endgame, stats, mover, depth, alpha, beta, ply
):
    """The value for ``mover`` (times SCALE) of the board the parent left in kids[ply - 1]
    (the root's in kids[ROOT_ROW]), fail-soft within (alpha, beta). The board is not an
    argument because every array argument makes the recursive call slower."""
    # Views of these arrays count no references: see engine.ai.unowned_views.
    R, NXT, PRV, Z, kids = unowned(R), unowned(NXT), unowned(PRV), unowned(Z), unowned(kids)
    per_ply, tt = unowned(per_ply), unowned(tt)
    counts, endgame = unowned(counts), unowned(endgame)
    stats = unowned(stats)
    if _count_node(stats, ply):
        return 0
    board = kids[ply - 1, 0] if ply > 0 else kids[ROOT_ROW, 0]
    n = R[PITS]
    n2 = 2 * n
    size = R[BOARD_SIZE]
    left = row_sum(board, 0, n2)  # seeds still in the pits
    # (Not at the root, which must name a move: its children are read instead.)
    if left <= stats[ENDGAME_SEEDS] and ply > 0:  # -1 without a table
        value = table_value(R, counts, endgame, stats, board, mover, mover)
        if value != NO_VALUE:
            return value
    exact = stats[EXACT_MODE] == 1
    moves = per_ply[ply, MOVES]
    order = per_ply[ply, ORDER]
    h = 0
    keyed = False  # h is this node's table key
    salt = 0  # what its children's keys mix in
    if exact and R[MAY_CYCLE] != 0:
        h = position_hash(Z, board, size, mover, 0)  # whole boards on the path
        per_ply[ply, PATH, 0] = h
        for i in range(ply - 1, -1, -1):
            if per_ply[i, PATH, 0] == h:
                return cycle_value(R, board, mover)
        # Graph history interaction: a repetition ends the game, so a value here holds only
        # for the positions above this one on the path, and a table keyed by the position
        # alone would hand it to other paths (it made the solver prove wrong values in
        # oware). So the key also holds the set of those positions: an order-free XOR of
        # their scrambled hashes (path_member), mixed so that it cannot cancel the position's.
        above = 0
        if ply > 0:
            above = per_ply[ply - 1, PATH, 1] ^ path_member(per_ply[ply - 1, PATH, 0])
        per_ply[ply, PATH, 1] = above
        salt = (above ^ path_member(h)) * PATH_MIX
        h ^= above * PATH_MIX
        keyed = True
    if exact and not (R[MAY_CYCLE] != 0 and R[CYCLE] == 0):
        # Every seed left ends in a store (or nobody's): the margin can move by at most that
        # (checked before the moves are even listed: it cuts many endgame nodes).
        now = margin(R, board, mover)
        if SCALE * (now + left) <= alpha:
            return SCALE * (now + left)
        if SCALE * (now - left) >= beta:
            return SCALE * (now - left)
    count = legal_moves(R, NXT, PRV, board, mover, moves, kids[MAX_PLY, 0])
    if count == 0:
        return _stuck_value(R, kids, board, mover)
    if (depth <= 0 and not exact) or ply >= MAX_PLY - 1:
        if exact:
            stats[TRUNCATED] = 1
        return evaluate(R, board, mover)
    # Nodes one ply above the horizon are most of the tree and gain little from the table;
    # skipping it there saves the hashing and a cache miss per node.
    use_tt = exact or depth >= 2
    # The table is in buckets of two (see _store).
    base = 0
    slot = -1
    mirror = stats[MIRROR]
    if use_tt:
        if not keyed:
            h = position_hash(Z, board, size, mover, mirror)
        base = h & (tt.shape[0] - 2)
        if tt[base, 0] == h:
            slot = base
        elif tt[base + 1, 0] == h:
            slot = base + 1
    hint = -1
    # With RELATIVE on, the hash leaves the stores out and the table keeps values relative to
    # the stores' margin: where the future does not depend on the stores, boards that differ
    # only in them share one entry (many more transpositions).
    offset = SCALE * margin(R, board, mover) if use_tt and stats[RELATIVE] else 0
    nodes_before = stats[NODES]
    if slot >= 0:
        data = tt[slot, 1]
        hint = mirrored_move((data & 255) - 1, n, mirror, mover)
        if ((data >> 16) & 65535) >= depth:
            value = (data >> 32) - (1 << 30) + offset
            kind = (data >> 8) & 3
            if kind == EXACT:
                if ply == 0:
                    stats[ROOT_MOVE] = hint
                    stats[ROOT_VALUE] = value
                return value
            if kind == LOWER and value >= beta and ply > 0:
                return value
            if kind == UPPER and value <= alpha and ply > 0:
                return value
    # ETC costs a sowing and a table read per move: it pays only where subtrees are big, with
    # many seeds in play (stats[ETC_SEEDS]; everywhere, it costs time).
    if exact and ply > 0 and left >= stats[ETC_SEEDS]:
        cut = _etc(
            R,
            NXT,
            PRV,
            Z,
            kids,
            tt,
            counts,
            endgame,
            stats,
            board,
            mover,
            moves,
            count,
            beta,
            ply,
            salt,
        )
        if cut > -INF:
            return cut
    # Order the moves by a cheap guess (a replay, then the likely capture), without sowing
    # them: most nodes cut after the first child, so the others are never made.
    for i in range(count):
        m = moves[i]
        # The guess first, then the history of cutoffs this move made elsewhere.
        score = (guess_gain(R, NXT, board, mover, m, exact) << 20) + stats[
            HISTORY + MAX_MOVES * mover + m
        ]
        if m == hint:
            score += 1 << 40
        if ply == 0:
            score = score * 64 + stats[ROOT_BONUS + m]
        order[i] = score
    if exact and beta - alpha == 1 and stats[BUDGET_START] > 0:
        best, best_move = _budgeted(
            R,
            NXT,
            PRV,
            Z,
            kids,
            per_ply,
            tt,
            counts,
            endgame,
            stats,
            board,
            mover,
            moves,
            order,
            count,
            depth,
            beta,
            ply,
            salt,
        )
        if stats[ABORTED]:
            return 0
        if ply == 0:
            stats[ROOT_MOVE] = best_move
        return _store(
            tt,
            stats,
            h,
            base,
            best,
            mirrored_move(best_move, n, mirror, mover),
            alpha,
            beta,
            offset,
            depth,
            exact,
            nodes_before,
        )
    best = -INF
    best_move = -1
    a = alpha
    at_horizon = not exact and depth <= 1  # the children are leaves: evaluate them here
    child = kids[ply, 0]
    for j in range(count):
        _bring_best(moves, order, j, count)  # one step of a selection sort per child
        m = moves[j]
        following, over = play(R, NXT, PRV, board, child, mover, m)
        value = _known(R, counts, endgame, stats, child, following, over, mover)
        if value > -INF:
            pass  # settled without a search
        elif at_horizon:
            if following == mover:
                value = _leaf(R, NXT, PRV, kids, per_ply, stats, child, mover, ply + 1)
            else:
                value = -_leaf(R, NXT, PRV, kids, per_ply, stats, child, 1 - mover, ply + 1)
        else:
            # Principal variation search: prove the later moves worse with a null window,
            # and search again with the full window only when one turns out better. (Two
            # calls of _child, not one per case: every recursive call site costs compiling.)
            top = beta if j == 0 or beta - a <= 1 else a + 1
            if exact or depth >= 3:  # where the child reads the table
                _prefetch_entry(R, Z, tt, stats, child, following, salt)
            value = _child(
                R,
                NXT,
                PRV,
                Z,
                kids,
                per_ply,
                tt,
                counts,
                endgame,
                stats,
                mover,
                following,
                depth,
                a,
                top,
                ply,
            )
            if top != beta and a < value < beta and not stats[ABORTED]:
                value = _child(
                    R,
                    NXT,
                    PRV,
                    Z,
                    kids,
                    per_ply,
                    tt,
                    counts,
                    endgame,
                    stats,
                    mover,
                    following,
                    depth,
                    a,
                    beta,
                    ply,
                )
        if stats[ABORTED]:
            return 0
        if value > best:
            best = value
            best_move = m
            if ply == 0:
                stats[ROOT_MOVE] = best_move
                stats[ROOT_VALUE] = best
        if value > a:
            a = value
        if a >= beta:
            _credit(stats, mover, m, 1 if exact else depth * depth)
            break
    if not use_tt:
        return best
    return _store(
        tt,
        stats,
        h,
        base,
        best,
        mirrored_move(best_move, n, mirror, mover),
        alpha,
        beta,
        offset,
        depth,
        exact,
        nodes_before,
    )


@njit(cache=True, forceinline=True)
def _store(tt, stats, h, base, best, best_move, alpha, beta, offset, depth, exact, nodes_before):
    """Keep a node's result in the table and return its value. The table is in buckets of
    two: slot ``base`` keeps the entry that cost the most nodes to find, ``base + 1`` the
    newest (so deep results survive the flood of small ones)."""
    kind = EXACT
    if best <= alpha:
        kind = UPPER
    elif best >= beta:
        kind = LOWER
    work = 0
    spent = stats[NODES] - nodes_before
    while spent > 0 and work < 63:
        spent >>= 1
        work += 1
    packed = tt_pack(
        best - offset, EXACT_DEPTH if exact else min(depth, EXACT_DEPTH), kind, work, best_move
    )
    # An exact search also takes the place of a heuristic entry: those only give move hints.
    if (
        tt[base, 0] == h
        or work >= ((tt[base, 1] >> 10) & 63)
        or tt[base, 0] == TT_EMPTY
        or (exact and ((tt[base, 1] >> 16) & 65535) < EXACT_DEPTH)
    ):
        if tt[base, 0] != h and tt[base, 0] != TT_EMPTY:
            tt[base + 1, 0] = tt[base, 0]  # the displaced entry becomes the newest
            tt[base + 1, 1] = tt[base, 1]
        tt[base, 0] = h
        tt[base, 1] = packed
    else:
        tt[base + 1, 0] = h
        tt[base + 1, 1] = packed
    return best
