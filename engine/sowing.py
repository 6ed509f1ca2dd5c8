"""The mechanics of one move: sowing (with relay laps), captures and the grand-slam test.

A board here is a flat list of 2n+2 counts: the 2n play pits counter-clockwise from South's A
(A..F, then a..f), then South's store, then North's store. Where a ruleset has no stores those
two slots hold the seeds each player has captured (Togyz Kumalak's kazans). Everything here is
pure and allocation-light, because random playouts and the pure-Python search run through it.

Tuzdyks (Togyz Kumalak) are a pair (South's, North's): the pit each player has made theirs, in
the opponent's row, or None. A tuzdyk's pit always holds 0: every seed sown into it goes to its
owner's kazan, and nobody sows from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from engine.ruleset import Ruleset

CCW, CW = 0, 1
Tuzdyks = tuple[int | None, int | None]  # (South's tuzdyk, North's): a pit index, or None
NO_TUZDYKS: Tuzdyks = (None, None)


class Tables(NamedTuple):
    """Per-ruleset lookup tables, built once and cached."""

    # [mover][direction][slot] -> the slot the next seed falls in
    next_slot: tuple[tuple[tuple[int, ...], ...], ...]
    # [direction][pit] -> the pit before it, against the sowing (stores skipped)
    prev_pit: tuple[tuple[int, ...], ...]
    capture_counts: frozenset[int]


@lru_cache(maxsize=256)
def tables(rules: Ruleset) -> Tables:
    n = rules.pits
    n2 = 2 * n
    south_store, north_store = n2, n2 + 1
    next_slot = []
    for mover in (0, 1):
        ccw = list(range(1, n2 + 2)) + [0]
        ccw[n - 1] = south_store if rules.stores and mover == 0 else n
        ccw[south_store] = n
        ccw[n2 - 1] = north_store if rules.stores and mover == 1 else 0
        ccw[north_store] = 0
        cw = [0] * (n2 + 2)
        for i in range(n2):
            cw[i] = i - 1
        cw[0] = north_store if rules.stores and mover == 1 else n2 - 1
        cw[north_store] = n2 - 1
        cw[n] = south_store if rules.stores and mover == 0 else n - 1
        cw[south_store] = n - 1
        next_slot.append((tuple(ccw[: n2 + 2]), tuple(cw)))
    prev_pit = (tuple((i - 1) % n2 for i in range(n2)), tuple((i + 1) % n2 for i in range(n2)))
    return Tables(tuple(next_slot), prev_pit, frozenset(rules.captures))


class MoveResult(NamedTuple):
    board: list[int]
    last: int  # the slot the last seed fell in
    reached: bool  # a seed was sown into the opponent's row
    slam: bool  # a count capture would have taken all the opponent's seeds
    tuzdyks: Tuzdyks = NO_TUZDYKS  # after the move


def apply_move(
    rules: Ruleset,
    board: Sequence[int],
    mover: int,
    pit: int,
    direction: int = CCW,
    tuzdyks: Tuzdyks = NO_TUZDYKS,
) -> MoveResult:
    """Sow from ``pit`` and make the captures; the board passed in is not changed.

    A grand slam under no_capture or forbidden captures nothing (a forbidden one is only
    legal when every move is one). Game ends (take_all, sweeps) are the caller's business.
    """
    n = rules.pits
    n2 = n + n
    t = tables(rules)
    b = list(board)
    step = t.next_slot[mover][direction]
    skip = rules.skip_origin
    has_tuzdyk = tuzdyks != NO_TUZDYKS
    north_tuzdyk = tuzdyks[1]
    lap_start = pit
    seen = None
    while True:
        seeds = b[lap_start]
        b[lap_start] = 0
        slot = lap_start
        if rules.sow_origin and seeds > 1:  # the first seed back where it was lifted
            b[lap_start] = 1
            seeds -= 1
        while seeds:
            slot = step[slot]
            if slot == lap_start and skip:
                continue
            if has_tuzdyk and slot in tuzdyks:
                b[n2 + (slot == north_tuzdyk)] += 1  # to the tuzdyk owner's kazan
            else:
                b[slot] += 1
            seeds -= 1
        if rules.laps != "relay" or slot >= n2 or b[slot] <= 1:
            break
        # A lap whose last seed makes a capturing count ends the move with that capture:
        # read literally, 003's "only ends in an empty hole" would never capture by count.
        if (
            t.capture_counts
            and b[slot] in t.capture_counts
            and (rules.capture_side == "either" or slot // n != mover)
        ):
            break
        # Relay sowing picks the pit up again; stop if this would repeat a state of this move.
        key = (tuple(b), slot)
        if seen is None:
            seen = set()
        elif key in seen:
            break
        seen.add(key)
        lap_start = slot
    last = slot
    opp_lo = n if mover == 0 else 0
    reached = any(b[opp_lo : opp_lo + n])
    slam = False
    if last < n2 and not (has_tuzdyk and last in tuzdyks):
        # The empty-pit rule first; a last pit it does not take may still capture by count
        # (skipping count captures whenever empty_capture was set made some mixes endless).
        took = rules.empty_capture != "none" and _empty_capture(rules, board, b, mover, last)
        if not took and rules.tuzdyk and last // n != mover and b[last] == 3:
            made = _make_tuzdyk(n, b, mover, last, tuzdyks)
            if made is not None:
                tuzdyks, took = made, True
        if not took:
            if rules.even_capture and last // n != mover and b[last] % 2 == 0:
                b[n2 + mover] += b[last]
                b[last] = 0
            elif t.capture_counts and b[last] in t.capture_counts:
                slam = _count_capture(rules, t, b, mover, pit, direction, last)
    return MoveResult(b, last, reached, slam, tuzdyks)


def _make_tuzdyk(n: int, b: list[int], mover: int, last: int, tuzdyks: Tuzdyks) -> Tuzdyks | None:
    """The last seed made 3 in the opponent's pit ``last``: make it the mover's tuzdyk, its 3
    seeds to the mover's kazan, and return the new pair; None where the rules forbid it (the
    mover has one already, it is the opponent's last pit, or it has the number of the
    opponent's tuzdyk)."""
    theirs = tuzdyks[1 - mover]
    number = last - (1 - mover) * n  # 0 for the opponent's first pit
    if (
        tuzdyks[mover] is not None
        or number == n - 1
        or (theirs is not None and theirs - mover * n == number)
    ):
        return None
    b[2 * n + mover] += b[last]
    b[last] = 0
    return (last, tuzdyks[1]) if mover == 0 else (tuzdyks[0], last)


def _empty_capture(
    rules: Ruleset, before: Sequence[int], b: list[int], mover: int, last: int
) -> bool:
    """The capture from an empty pit; return whether the last pit was one (the rule applies,
    even where it takes nothing because the opposite pit is empty)."""
    n = rules.pits
    if rules.choose == "own" and last // n != mover:
        return False
    empty = b[last] == 1 if rules.empty_means == "before_drop" else before[last] == 0
    if not empty:
        return False
    opposite = 2 * n - 1 - last
    if b[opposite] == 0 and rules.capture_needs_opposite:
        return True
    if rules.empty_capture == "across":
        b[last] += b[opposite]
    else:
        gain = b[opposite]
        if rules.capture_takes_sower:
            gain += b[last]
            b[last] = 0
        b[2 * n + mover] += gain
    b[opposite] = 0
    return True


def _count_capture(
    rules: Ruleset, t: Tables, b: list[int], mover: int, origin: int, direction: int, last: int
) -> bool:
    """Capture by count with backward chaining; return True for a grand slam."""
    n = rules.pits
    either = rules.capture_side == "either"
    if not either and last // n == mover:
        return False
    counts = t.capture_counts
    prev = t.prev_pit[direction]
    chain = [last]
    pit = prev[last]
    while pit != origin and pit != last and b[pit] in counts and (either or pit // n != mover):
        chain.append(pit)
        pit = prev[pit]
    opp_lo = n if mover == 0 else 0
    taken_from_opponent = sum(b[p] for p in chain if opp_lo <= p < opp_lo + n)
    slam = taken_from_opponent > 0 and taken_from_opponent == sum(b[opp_lo : opp_lo + n])
    if slam and rules.grand_slam in ("no_capture", "forbidden"):
        return True
    store = 2 * n + mover
    for p in chain:
        b[store] += b[p]
        b[p] = 0
    return slam
