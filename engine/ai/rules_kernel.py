"""The rules, compiled: sowing, captures, legal moves and game ends for the search.

A second implementation of ``engine.sowing`` and ``engine.position`` in numba, generic over
every ruleset parameter through the arrays of ``engine.ai.encoding``. It must agree with the
engine move for move: ``tests/engine/test_ai_kernel.py`` and ``bench/kernel_diff.py`` check it on
random positions of every preset and random parameter mixes.

A board is an int64 array of 2n+2 counts in the engine's layout (pits A..F, a..f, then South's
store, North's store), and where the rules have tuzdyks two more slots: South's tuzdyk and
North's, each its pit index + 1 (0 for none); ``encoding.board_size`` gives the length. A move
is ``2 * pit + direction``. Functions write into arrays the caller owns, so the search
allocates nothing per node.

Togyz Kumalak's keys (``sow_origin``, ``even_capture``, ``tuzdyk``, ``leftover=no_move``) are
tested a few times a move, never at a seed: the sowing loop is every ruleset's. Their code is
written out in the functions every ruleset runs, not in functions of its own nor a second path
of calls: numba compiles each function it calls on its own too and links it into every
function above it, to be optimized again there (a second path cost the cold compile 6 s, this
way about 1 s). The tests are marked ``unlikely``, so that the optimizer keeps the common path
as it was (plain tests made Kalah's search a quarter slower).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from engine.ai.encoding import (
    BOARD_SIZE,
    CANNOT_FEED,
    CAPTURE_EITHER,
    CAPTURE_MASK,
    CHOOSE_ANY,
    DIRECTION_CHOICE,
    EMPTY_BEFORE_MOVE,
    EMPTY_CAPTURE,
    END,
    EVEN_CAPTURE,
    FORBIDDEN,
    GRAND_SLAM,
    LEFTOVER_NO_MOVE,
    LEFTOVER_OWNER,
    MAJORITY,
    MUST_FEED,
    NEEDS_OPPOSITE,
    NO_CAPTURE,
    PITS,
    RELAY,
    REPLAY,
    SKIP_ORIGIN,
    SOW_ORIGIN,
    SPECIAL,
    TAKE_ALL,
    TAKES_SOWER,
    TOTAL,
    TUZDYK,
)
from engine.ai.unowned_views import unlikely

RELAY_HISTORY = 256  # relay laps remembered before the history array grows
OWNERS, NO_SWEEP = -1, -2  # sweep's taker: each row to its owner; settle: no sweep at all


@njit(cache=True, forceinline=True)
def row_sum(board, lo, n):
    total = 0
    for i in range(lo, lo + n):
        total += board[i]
    return total


@njit(cache=True, forceinline=True)
def sow(R, NXT, PRV, src, dst, mover, pit, direction):
    """Play the sowing and captures of one move from ``src`` into ``dst``.

    Returns (last slot, whether the opponent's row holds seeds after, grand slam)."""
    n = R[PITS]
    n2 = n + n
    for i in range(R[BOARD_SIZE]):
        dst[i] = src[i]
    special = unlikely(R[SPECIAL] != 0)  # Togyz Kumalak's keys
    # sow_origin: the lap lifts all but the first seed, which stays (a single seed moves on).
    keep = 1 if special and R[SOW_ORIGIN] != 0 and dst[pit] > 1 else 0
    if special:
        dst[pit] -= keep
    slot = _lap(NXT, R[SKIP_ORIGIN], dst, mover, direction, pit)
    if special:
        dst[pit] += keep
        for owner in range(2 if R[TUZDYK] != 0 else 0):
            tuzdyk = dst[n2 + 2 + owner] - 1  # what fell in it (none before) is its owner's
            if tuzdyk >= 0:
                dst[n2 + owner] += dst[tuzdyk]
                dst[tuzdyk] = 0
    if R[RELAY] != 0 and slot < n2 and dst[slot] > 1 and not _relay_stops(R, dst, mover, slot):
        slot = _relay(R, NXT, dst, mover, direction, slot)
    last = slot
    opp_lo = n if mover == 0 else 0
    reached = row_sum(dst, opp_lo, n) > 0
    slam = False
    # (A last seed sown into a tuzdyk left its pit empty: nothing more happens there.)
    if last < n2 and not (special and dst[last] == 0):
        # The empty-pit rule first; a last pit it does not take may still capture by count.
        took = R[EMPTY_CAPTURE] != 0 and _empty_capture(R, src, dst, mover, last)
        if not took and special and (last < n) == (mover == 1):
            # Togyz Kumalak, as engine.sowing.apply_move: a last seed making 3 in the
            # opponent's pit makes it the mover's tuzdyk, where the rules allow one (one a
            # player, never the opponent's last pit nor the number of their tuzdyk); else one
            # making an even count there takes it. (Numbers without a division: each is one
            # more test in the compiled code.)
            number = last - n + mover * n
            if (
                R[TUZDYK] != 0
                and dst[last] == 3
                and dst[n2 + 2 + mover] == 0
                and number != n - 1
                and dst[n2 + 3 - mover] - 1 - mover * n != number  # theirs (0: none, -1)
            ):
                dst[n2 + 2 + mover] = last + 1
                took = True
            elif R[EVEN_CAPTURE] != 0 and dst[last] % 2 == 0:
                took = True
            if took:
                dst[n2 + mover] += dst[last]
                dst[last] = 0
        if not took and R[CAPTURE_MASK] != 0 and _is_capture_count(R, dst[last]):
            slam = _count_capture(R, PRV, dst, mover, pit, direction, last)
    return last, reached, slam


@njit(cache=True, forceinline=True)
def _lap(NXT, skip, dst, mover, direction, start):
    """Sow the seeds of pit ``start`` one by one; return the slot of the last seed."""
    seeds = dst[start]
    dst[start] = 0
    slot = start
    while seeds > 0:
        slot = NXT[mover, direction, slot]
        if slot == start and skip != 0:
            continue
        dst[slot] += 1
        seeds -= 1
    return slot


@njit(cache=True, forceinline=True)
def _relay_stops(R, dst, mover, slot):
    """A lap ending on a capturing count ends the move there (as engine.sowing does)."""
    return _is_capture_count(R, dst[slot]) and (R[CAPTURE_EITHER] != 0 or slot // R[PITS] != mover)


# Not inlined (forceinline=False, else it inherits sow's): rare, and big with its allocation,
# which needs numba's runtime (_nrt=True, else it inherits the search's _nrt=False). numba's
# stubs do not list its private _nrt option, hence the ignore.
@njit(cache=True, forceinline=False, _nrt=True)  # type: ignore[call-overload]
def _relay(R, NXT, dst, mover, direction, slot):
    """Relay laps after the first: pick the last pit up and sow on, until a lap ends in an
    empty pit, a store or a capturing count, or a state of this move comes back."""
    n2 = 2 * R[PITS]
    size = n2 + 2
    history = np.empty((RELAY_HISTORY, size + 1), np.int64)
    seen = 0
    while True:
        for h in range(seen):
            same = history[h, size] == slot
            i = 0
            while same and i < size:
                same = history[h, i] == dst[i]
                i += 1
            if same:
                return slot
        if seen == history.shape[0]:
            bigger = np.empty((2 * seen, size + 1), np.int64)
            for h in range(seen):  # a loop: a slice assignment compiles seconds of error text
                for i in range(size + 1):
                    bigger[h, i] = history[h, i]
            history = bigger
        for i in range(size):
            history[seen, i] = dst[i]
        history[seen, size] = slot
        seen += 1
        slot = _lap(NXT, R[SKIP_ORIGIN], dst, mover, direction, slot)
        for owner in range(2 if R[TUZDYK] != 0 else 0):  # as in sow
            tuzdyk = dst[n2 + 2 + owner] - 1
            if tuzdyk >= 0:
                dst[n2 + owner] += dst[tuzdyk]
                dst[tuzdyk] = 0
        if slot >= n2 or dst[slot] <= 1 or _relay_stops(R, dst, mover, slot):
            return slot


@njit(cache=True, forceinline=True)
def _empty_capture(R, src, b, mover, last):
    """The capture from an empty pit; return whether the last pit was one (the rule applies,
    even where it takes nothing because the opposite pit is empty)."""
    n = R[PITS]
    if R[CHOOSE_ANY] == 0 and last // n != mover:
        return False
    if R[EMPTY_BEFORE_MOVE] != 0:
        empty = src[last] == 0
    else:
        empty = b[last] == 1
    if not empty:
        return False
    opposite = 2 * n - 1 - last
    if b[opposite] == 0 and R[NEEDS_OPPOSITE] != 0:
        return True
    if R[EMPTY_CAPTURE] == 2:  # across: the captured seeds join the capturing pit
        b[last] += b[opposite]
    else:
        gain = b[opposite]
        if R[TAKES_SOWER] != 0:
            gain += b[last]
            b[last] = 0
        b[2 * n + mover] += gain
    b[opposite] = 0
    return True


@njit(cache=True, forceinline=True)
def _is_capture_count(R, count):
    return count < 62 and (R[CAPTURE_MASK] >> count) & 1 == 1


@njit(cache=True, forceinline=True)
def _count_capture(R, PRV, b, mover, origin, direction, last):
    """Capture by count, chaining backwards; return True for a grand slam."""
    n = R[PITS]
    either = R[CAPTURE_EITHER] != 0
    if not either and last // n != 1 - mover:
        return False
    chain = 1
    pit = PRV[direction, last]
    while (
        pit != origin
        and pit != last
        and _is_capture_count(R, b[pit])
        and (either or pit // n != mover)
    ):
        chain += 1
        pit = PRV[direction, pit]
    opp_lo = n if mover == 0 else 0
    taken = 0
    pit = last
    for _ in range(chain):
        if opp_lo <= pit < opp_lo + n:
            taken += b[pit]
        pit = PRV[direction, pit]
    slam = taken > 0 and taken == row_sum(b, opp_lo, n)
    if slam and (R[GRAND_SLAM] == NO_CAPTURE or R[GRAND_SLAM] == FORBIDDEN):
        return True
    store = 2 * n + mover
    pit = last
    for _ in range(chain):
        b[store] += b[pit]
        b[pit] = 0
        pit = PRV[direction, pit]
    return slam


@njit(cache=True)
def legal_moves(R, NXT, PRV, board, mover, moves, scratch):
    """Write the legal move codes into ``moves`` in the engine's order; return how many.

    ``scratch`` is a board-sized array the feeding and grand-slam tests sow into."""
    n = R[PITS]
    count = 0
    ndir = 2 if R[DIRECTION_CHOICE] != 0 else 1
    rows = 2 if R[CHOOSE_ANY] != 0 else 1
    for r in range(rows):
        lo = (mover if r == 0 else 1 - mover) * n
        for p in range(lo, lo + n):
            if board[p] > 0:
                for d in range(ndir):
                    moves[count] = 2 * p + d
                    count += 1
    opp_lo = n if mover == 0 else 0
    if R[MUST_FEED] != 0 and count > 0 and row_sum(board, opp_lo, n) == 0:
        kept = 0
        for i in range(count):
            m = moves[i]
            last, reached, slam = sow(R, NXT, PRV, board, scratch, mover, m >> 1, m & 1)
            feeds = reached if R[MUST_FEED] == 1 else row_sum(scratch, opp_lo, n) > 0
            if feeds:
                moves[kept] = m
                kept += 1
        count = kept
    if R[GRAND_SLAM] == FORBIDDEN and R[CAPTURE_MASK] != 0 and count > 0:
        fair = 0
        for i in range(count):
            m = moves[i]
            last, reached, slam = sow(R, NXT, PRV, board, scratch, mover, m >> 1, m & 1)
            if not slam:
                moves[fair] = m  # fair <= i, so this never overwrites a move still to test
                fair += 1
        if fair > 0:  # when every move is a grand slam, all stay legal (capturing nothing)
            count = fair
    return count


@njit(cache=True, forceinline=True)
def sweep(board, n, taker):
    """Empty the pits into the stores: each row to its owner (taker < 0) or all to taker."""
    south = row_sum(board, 0, n)
    north = row_sum(board, n, n)
    for i in range(2 * n):
        board[i] = 0
    if taker < 0:
        board[2 * n] += south
        board[2 * n + 1] += north
    else:
        board[2 * n + taker] += south + north


@njit(cache=True, forceinline=True)
def settle(R, board, slam_by, following):
    """Apply the end rules that follow a move, ``following`` to move next, in place; return
    True if the game ended."""
    n = R[PITS]
    n2 = 2 * n
    # Who takes the seeds left (see sweep), or NO_SWEEP; one sweep call, inlined once.
    leftover = OWNERS if R[LEFTOVER_OWNER] != 0 else NO_SWEEP
    if slam_by >= 0:
        taker = slam_by
    elif (
        unlikely(R[LEFTOVER_NO_MOVE] != 0)
        and R[CHOOSE_ANY] == 0
        and row_sum(board, following * n, n) == 0
    ):
        # Togyz Kumalak's atsyrau: the player to move has no stone. It ends the game before
        # any majority counts, each row to its owner (as Position.settled).
        taker = OWNERS
    elif R[MAJORITY] != 0 and (2 * board[n2] > R[TOTAL] or 2 * board[n2 + 1] > R[TOTAL]):
        taker = leftover
    else:
        south_empty = row_sum(board, 0, n) == 0
        north_empty = row_sum(board, n, n) == 0
        if R[END] == 1 and (south_empty or north_empty):
            taker = leftover
        elif R[END] == 2 and south_empty and north_empty:
            taker = NO_SWEEP
        else:
            return False
    if taker != NO_SWEEP:
        sweep(board, n, taker)
    return True


@njit(cache=True, forceinline=True)
def no_move_end(R, board, mover):
    """The player to move has no legal move: settle the board in place by the end rules."""
    n = R[PITS]
    opp_lo = n if mover == 0 else 0
    own_lo = mover * n
    if R[MUST_FEED] != 0 and row_sum(board, opp_lo, n) == 0 and row_sum(board, own_lo, n) > 0:
        policy = R[CANNOT_FEED]
        taker = OWNERS if policy == 2 else (mover if policy == 0 else 1 - mover)
    elif R[LEFTOVER_OWNER] != 0 or R[LEFTOVER_NO_MOVE] != 0:
        taker = OWNERS
    else:
        return
    sweep(board, n, taker)  # one call, inlined once


@njit(cache=True, forceinline=True)
def play(R, NXT, PRV, src, dst, mover, move):
    """One move and the end rules after it (but not the no-move end, which the next node
    finds): returns (the player to move next, whether the game ended)."""
    n = R[PITS]
    last, reached, slam = sow(R, NXT, PRV, src, dst, mover, move >> 1, move & 1)
    following = mover if (R[REPLAY] != 0 and last == 2 * n + mover) else 1 - mover
    slam_by = mover if (slam and R[GRAND_SLAM] == TAKE_ALL) else -1
    ended = settle(R, dst, slam_by, following)
    return following, ended


@njit(cache=True)
def play_settled(R, NXT, PRV, src, dst, mover, move, moves, scratch):
    """As ``Position.play``: the next board, player and legal moves; a player left without a
    move ends the game. Returns (next player, number of legal moves, 0 when over)."""
    following, ended = play(R, NXT, PRV, src, dst, mover, move)
    if ended:
        return following, 0
    count = legal_moves(R, NXT, PRV, dst, following, moves, scratch)
    if count == 0:
        no_move_end(R, dst, following)
    return following, count
