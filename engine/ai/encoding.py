"""Translate a Ruleset into the small integer arrays the compiled kernel reads.

The kernel (``engine.ai.rules_kernel``, with ``search_kernel`` and ``endgame`` on top) is a
second implementation of the rules in ``engine.sowing`` and ``engine.position``, written for
speed. It sees a ruleset only as the arrays built here, so
every parameter in ``engine.ruleset.PARAMETERS`` that changes play has a slot below.

>>> from engine import Ruleset
>>> code = encode(Ruleset.parse("kalah:pits=4,seeds=3"))
>>> int(code.rules[PITS]), int(code.rules[TOTAL]), code.next_slot.shape
(4, 24, (2, 2, 10))
>>> encode_move(Ruleset.parse("kalah"), "e", mover=1)
20
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from engine.ai.capabilities import kernel_knows
from engine.ai.evaluation import FEATURES, togyz_weights
from engine.position import Position, move_name
from engine.ruleset import MAX_PITS, Ruleset
from engine.sowing import tables

# Slots of the rules array. Choices are numbered in the order the comments give.
PITS = 0
STORES = 1
SKIP_ORIGIN = 2
CHOOSE_ANY = 3
RELAY = 4
REPLAY = 5
EMPTY_CAPTURE = 6  # 0 none, 1 store, 2 across
NEEDS_OPPOSITE = 7
TAKES_SOWER = 8
EMPTY_BEFORE_MOVE = 9
CAPTURE_MASK = 10  # bit c set when a pit holding c seeds after the drop is captured
CAPTURE_EITHER = 11
GRAND_SLAM = 12  # 0 take_all, 1 no_capture, 2 forbidden, 3 capture
MUST_FEED = 13  # 0 off, 1 reach, 2 leave
CANNOT_FEED = 14  # 0 mover, 1 opponent, 2 owners
END = 15  # 0 mover_empty, 1 either_empty, 2 all_empty
LEFTOVER_OWNER = 16
MAJORITY = 17
DIRECTION_CHOICE = 18
TOTAL = 19
CYCLE = 20  # 0 draw, 1 split, 2 owners
MAY_CYCLE = 21  # a position can repeat, so the solver must watch its path
# Togyz Kumalak's keys. SPECIAL: any of them, for the few tests a move their code needs.
SOW_ORIGIN = 22
EVEN_CAPTURE = 23
TUZDYK = 24
LEFTOVER_NO_MOVE = 25  # leftover=no_move: rows to their owners only when the mover is stuck
SPECIAL = 26
BOARD_SIZE = 27  # the kernel's board: 2n+2 counts, and two tuzdyk slots where TUZDYK is set
GUESS_MASK = 28  # the counts search_kernel.guess_gain orders as captures: CAPTURE_MASK's,
# or even counts and a tuzdyk's 3 under Togyz Kumalak's keys
RULES_SIZE = 29
# Where the rules have tuzdyks, the evaluation's weights follow the rules' slots
# (engine.ai.evaluation; zero elsewhere): one array, so no other argument to compile for.
EVAL_WEIGHTS = RULES_SIZE
CODE_SIZE = RULES_SIZE + len(FEATURES)

# The most legal moves a board can have: 2 x 9 pits (choose=any), 2 directions each.
MAX_MOVES = 4 * MAX_PITS

Int64s = NDArray[np.int64]  # the kernel's arrays: boards, moves, tables, statistics
# An endgame table, (counts, values), as engine.ai.endgame and engine.ai.retrograde build it
# and storage.tables keeps it.
Table = tuple[NDArray[np.int64], NDArray[np.int8]]
Endgame = tuple[int, Table]  # (max_seeds, table): a table as the levels are given one

GRAND_SLAMS = ("take_all", "no_capture", "forbidden", "capture")
TAKE_ALL, NO_CAPTURE, FORBIDDEN, CAPTURE = range(4)


class RulesCode(NamedTuple):
    """Everything the kernel needs to know about a ruleset (all int64 arrays)."""

    rules: Int64s  # RULES_SIZE parameters, then the evaluation's weights (CODE_SIZE)
    next_slot: Int64s  # [mover, direction, slot] -> the slot the next seed falls in
    prev_pit: Int64s  # [direction, pit] -> the pit before it, against the sowing


def may_cycle(rules: Ruleset) -> bool:
    """Whether a position can come back. With stores, own-row choice and counter-clockwise
    sowing every seed either moves forward in its row or passes the mover's store, so no
    position repeats; any other mix may loop (wari's endless cycles)."""
    return not (rules.stores and rules.choose == "own" and rules.direction == "ccw")


def special(rules: Ruleset) -> bool:
    """Whether ``rules`` use any of Togyz Kumalak's keys (``sow_origin``, ``even_capture``,
    ``tuzdyk``, ``leftover=no_move``): the code the kernel runs for them only then."""
    return rules.sow_origin or rules.even_capture or rules.tuzdyk or rules.leftover == "no_move"


def board_size(rules: Ruleset) -> int:
    """The length of the kernel's board for ``rules``: the 2n pits and the two stores, then,
    where the rules have tuzdyks, South's and North's tuzdyk (its pit index + 1, 0 for none),
    so that hashing a board covers its tuzdyks."""
    return 2 * rules.pits + (4 if rules.tuzdyk else 2)


def kernel_board(position: Position) -> list[int]:
    """``position`` as the kernel's board (see ``board_size``).

    >>> from engine import Game
    >>> pos = Game.from_moves(Ruleset.parse("togyz-kumalak:pits=3,seeds=2"), "C").position
    >>> pos.tuzdyks, kernel_board(pos)  # South's tuzdyk at North's a (index 3)
    ((3, None), [2, 2, 1, 0, 2, 2, 3, 0, 4, 0])
    """
    board = list(position.board)
    if position.rules.tuzdyk:
        board += [0 if pit is None else pit + 1 for pit in position.tuzdyks]
    return board


@lru_cache(maxsize=64)
def encode(rules: Ruleset) -> RulesCode:
    """ValueError for rules the kernel does not know (``engine.ai.kernel_knows``): the
    kernel would play them by other rules."""
    if not kernel_knows(rules):
        raise ValueError(f"the compiled kernel does not know the rules of {rules}")
    code = np.zeros(CODE_SIZE, np.int64)
    code[PITS] = rules.pits
    code[STORES] = rules.stores
    code[SKIP_ORIGIN] = rules.skip_origin
    code[CHOOSE_ANY] = rules.choose == "any"
    code[RELAY] = rules.laps == "relay"
    code[REPLAY] = rules.replay
    code[EMPTY_CAPTURE] = ("none", "store", "across").index(rules.empty_capture)
    code[NEEDS_OPPOSITE] = rules.capture_needs_opposite
    code[TAKES_SOWER] = rules.capture_takes_sower
    code[EMPTY_BEFORE_MOVE] = rules.empty_means == "before_move"
    code[CAPTURE_MASK] = sum(1 << c for c in rules.captures)
    code[CAPTURE_EITHER] = rules.capture_side == "either"
    code[GRAND_SLAM] = GRAND_SLAMS.index(rules.grand_slam)
    code[MUST_FEED] = ("off", "reach", "leave").index(rules.must_feed)
    code[CANNOT_FEED] = ("mover", "opponent", "owners").index(rules.cannot_feed)
    code[END] = ("mover_empty", "either_empty", "all_empty").index(rules.end)
    code[LEFTOVER_OWNER] = rules.leftover == "owner"
    code[MAJORITY] = rules.majority
    code[DIRECTION_CHOICE] = rules.direction == "choice"
    code[TOTAL] = rules.total_seeds
    code[CYCLE] = ("draw", "split", "owners").index(rules.cycle)
    code[MAY_CYCLE] = may_cycle(rules)
    code[SOW_ORIGIN] = rules.sow_origin
    code[EVEN_CAPTURE] = rules.even_capture
    code[TUZDYK] = rules.tuzdyk
    code[LEFTOVER_NO_MOVE] = rules.leftover == "no_move"
    code[SPECIAL] = special(rules)
    code[BOARD_SIZE] = board_size(rules)
    guess = code[CAPTURE_MASK]
    if rules.even_capture:
        guess |= sum(1 << c for c in range(2, 62, 2))
    if rules.tuzdyk:
        guess |= 1 << 3
    code[GUESS_MASK] = guess
    if rules.tuzdyk:
        code[EVAL_WEIGHTS:] = togyz_weights()
    t = tables(rules)
    next_slot = np.array(t.next_slot, np.int64)
    prev_pit = np.array(t.prev_pit, np.int64)
    for array in (code, next_slot, prev_pit):
        array.setflags(write=False)  # shared by every search on this ruleset
    return RulesCode(code, next_slot, prev_pit)


def with_weights(code: RulesCode, weights: tuple[int, ...]) -> RulesCode:
    """``code`` with other evaluation weights (in ``evaluation.FEATURES``' order): for
    tuning and comparing them (bench/train_togyz.py); the levels play the shipped ones."""
    rules = code.rules.copy()
    rules[EVAL_WEIGHTS:] = weights
    rules.setflags(write=False)
    return code._replace(rules=rules)


def encode_move(rules: Ruleset, move: str, mover: int) -> int:
    """A move's kernel code: pit index * 2 + direction (0 counter-clockwise, 1 clockwise)."""
    pit, direction = Position.settled(rules, (1,) * (2 * rules.pits) + (0, 0), mover).parse_move(
        move
    )
    return 2 * pit + direction


def decode_move(rules: Ruleset, code: int) -> str:
    """The move letter for a kernel move code (the inverse of ``encode_move``)."""
    return move_name(rules, (int(code) // 2, int(code) % 2))
