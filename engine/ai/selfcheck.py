"""Differential check of the compiled rules against the engine, on random positions.

Used by ``tests/test_ai_kernel.py`` (a few thousand positions) and ``bench/kernel_diff.py``
(100,000 and more). Seeded, so a failure can be replayed.

>>> import random
>>> rng = random.Random(1)
>>> rules = random_rules(rng)
>>> mismatches(random_position(rules, rng))
[]
"""

from __future__ import annotations

import random

import numpy as np

from engine.ai import kernel_knows
from engine.ai.encoding import RulesCode, decode_move, encode
from engine.ai.rules_kernel import legal_moves, play_settled
from engine.errors import RulesetError
from engine.position import Position
from engine.ruleset import PARAMETERS, PRESETS, Ruleset
from engine.side import Side


def random_rules(rng: random.Random) -> Ruleset:
    """A preset (half the time as it is) or a preset with random overrides that parse, of
    the rules the kernel knows (``engine.ai.kernel_knows``: not Togyz Kumalak's)."""
    name = rng.choice([p for p in PRESETS if kernel_knows(Ruleset.parse(p))])
    if rng.random() < 0.5:
        return Ruleset.parse(name)
    while True:
        options = []
        for key, param in PARAMETERS.items():
            if key == "first" or rng.random() < 0.5:
                continue
            if param.kind == "int":
                lo, hi = param.whole_range
                value = str(rng.randint(lo, min(hi, 6 if key == "seeds" else hi)))
            elif param.kind == "bool":
                value = rng.choice(("yes", "no"))
            elif param.kind == "counts":
                value = (
                    "-".join(map(str, sorted(rng.sample(range(1, 6), rng.randint(0, 3))))) or "none"
                )
            else:
                value = rng.choice(param.choices)
            options.append(f"{key}={value}")
        try:
            rules = Ruleset.parse(name + ":" + ",".join(options))
        except RulesetError:
            continue  # an impossible mix (e.g. replay without stores): draw again
        if kernel_knows(rules):
            return rules


def random_position(rules: Ruleset, rng: random.Random) -> Position:
    """Either a position reached by random play from the start, or seeds thrown at random."""
    if rng.random() < 0.5:
        pos = Position.initial(rules, Side.SOUTH if rng.random() < 0.5 else Side.NORTH)
        for _ in range(rng.randint(0, 60)):
            moves = pos.legal_moves()
            if not moves:
                break
            after = pos.play(rng.choice(moves))
            if after.is_over():
                break
            pos = after
        return pos
    slots = 2 * rules.pits + 2
    board = [0] * slots
    for _ in range(rules.total_seeds):
        # Weight the play pits so that empty rows and stores both come up.
        board[rng.randrange(slots) if rng.random() < 0.3 else rng.randrange(slots - 2)] += 1
    for i in range(2 * rules.pits):
        if rng.random() < 0.15:  # empty some pits outright, to reach feeding and end rules
            board[slots - 2 + rng.randrange(2)] += board[i]
            board[i] = 0
    return Position.settled(rules, tuple(board), rng.randrange(2))


def mismatches(pos: Position, code: RulesCode | None = None) -> list[str]:
    """Every way the kernel disagrees with the engine on this position's moves (empty if none).
    ``code``: the encoded rules to run the kernel with (default: ``encode(pos.rules)``)."""
    rules = pos.rules
    code = encode(rules) if code is None else code
    size = 2 * rules.pits + 2
    board = np.array(pos.board, np.int64)
    moves = np.zeros(4 * rules.pits + 4, np.int64)
    scratch = np.zeros(size, np.int64)
    dst = np.zeros(size, np.int64)
    child_moves = np.zeros(4 * rules.pits + 4, np.int64)
    where = f"{rules} {pos.board} mover={pos.mover}"
    if pos.is_over():
        return []
    count = legal_moves(code.rules, code.next_slot, code.prev_pit, board, pos.mover, moves, scratch)
    kernel_moves = [decode_move(rules, m) for m in moves[:count]]
    if kernel_moves != pos.legal_moves():
        return [f"{where}: legal moves {kernel_moves} != engine {pos.legal_moves()}"]
    problems = []
    for i, name in enumerate(kernel_moves):
        after = pos.play(name)
        following, left = play_settled(
            code.rules,
            code.next_slot,
            code.prev_pit,
            board,
            dst,
            pos.mover,
            moves[i],
            child_moves,
            scratch,
        )
        got = (tuple(int(x) for x in dst), int(following), left == 0)
        want = (after.board, after.mover, after.is_over())
        if got != want:
            problems.append(f"{where} move {name}: kernel {got} != engine {want}")
    return problems


def run(count: int, seed: int = 0) -> tuple[int, int, list[str]]:
    """Check ``count`` random positions; return (positions, moves checked, first problems)."""
    rng = random.Random(seed)
    problems: list[str] = []
    moves = 0
    for _ in range(count):
        pos = random_position(random_rules(rng), rng)
        moves += len(pos.legal_moves())
        found = mismatches(pos)
        if found and len(problems) < 20:
            problems.extend(found[:2])
    return count, moves, problems
