"""Differential check of the compiled rules against the engine, on random positions.

Used by ``tests/engine/test_ai_kernel.py`` (a few thousand positions) and ``bench/kernel_diff.py``
(100,000 and more). Seeded, so a failure can be replayed.

>>> import random
>>> rng = random.Random(1)
>>> rules = random_rules(rng)
>>> mismatches(random_position(rules, rng))
[]
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np

from engine.ai.capabilities import kernel_knows
from engine.ai.encoding import RulesCode, board_size, decode_move, encode, kernel_board
from engine.ai.rules_kernel import legal_moves, play_settled
from engine.errors import RulesetError
from engine.position import Position
from engine.ruleset import PARAMETERS, PRESETS, Ruleset
from engine.side import Side
from engine.sowing import NO_TUZDYKS, Tuzdyks


def random_rules(rng: random.Random, names: Sequence[str] = ()) -> Ruleset:
    """A preset (half the time as it is) or a preset with random overrides that parse, of
    the rules the kernel knows (``engine.ai.kernel_knows``): one of ``names`` if given, else
    any. Overrides draw every key, Togyz Kumalak's too, and up to 9 pits from its presets."""
    name = rng.choice(list(names) or [p for p in PRESETS if kernel_knows(Ruleset.parse(p))])
    if rng.random() < 0.5:
        return Ruleset.parse(name)
    while True:
        options = []
        for key, param in PARAMETERS.items():
            if key == "first" or rng.random() < 0.5:
                continue
            if param.kind == "int":
                lo, hi = param.whole_range
                if key == "pits":
                    lo, hi = PRESETS[name].pit_bounds or (lo, hi)
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
        if rules.laps == "relay" and not rules.stores and not rules.captures:
            # Relay laps that only an empty pit stops (no store, no capturing count; Togyz
            # Kumalak's mixes): on a full board one move can run millions of laps before a
            # state comes back, in the engine's sowing too (13 GB on
            # togyz-kumalak:sow_origin=no,laps=relay), and checks nothing more.
            continue
        if kernel_knows(rules):
            return rules


def random_position(rules: Ruleset, rng: random.Random) -> Position:
    """Either a position reached by random play from the start, or seeds thrown at random
    (with random tuzdyks, where the rules have them)."""
    if rng.random() < 0.5:
        pos = Position.initial(rules, Side.SOUTH if rng.random() < 0.5 else Side.NORTH)
        # Long enough for Togyz Kumalak's tuzdyks and ends (its games run 100-200 plies).
        for _ in range(rng.randint(0, 200 if rules.pits > 6 else 60)):
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
    tuzdyks = random_tuzdyks(rules, rng)
    for owner, pit in enumerate(tuzdyks):
        if pit is not None:  # a tuzdyk's pit holds nothing: its seeds are its owner's
            board[slots - 2 + owner] += board[pit]
            board[pit] = 0
    return Position.settled(rules, tuple(board), rng.randrange(2), tuzdyks=tuzdyks)


def random_tuzdyks(rules: Ruleset, rng: random.Random) -> Tuzdyks:
    """No tuzdyk, one or two, as the rules allow them (``engine.position.tuzdyk_problem``):
    in the opponent's row, never its last pit, never both of one number."""
    if not rules.tuzdyk:
        return NO_TUZDYKS
    n = rules.pits
    numbers = list(range(n - 1))  # the last pit never
    rng.shuffle(numbers)
    chosen: list[int | None] = [None, None]
    for owner in (0, 1):
        if numbers and rng.random() < 0.5:
            chosen[owner] = (1 - owner) * n + numbers.pop()
    return chosen[0], chosen[1]


def mismatches(pos: Position, code: RulesCode | None = None) -> list[str]:
    """Every way the kernel disagrees with the engine on this position's moves (empty if none).
    ``code``: the encoded rules to run the kernel with (default: ``encode(pos.rules)``)."""
    rules = pos.rules
    code = encode(rules) if code is None else code
    size = board_size(rules)
    board = np.array(kernel_board(pos), np.int64)
    moves = np.zeros(4 * rules.pits + 4, np.int64)
    scratch = np.zeros(size, np.int64)
    dst = np.zeros(size, np.int64)
    child_moves = np.zeros(4 * rules.pits + 4, np.int64)
    where = f"{rules} {kernel_board(pos)} mover={pos.mover}"
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
        want = (tuple(kernel_board(after)), after.mover, after.is_over())
        if got != want:
            problems.append(f"{where} move {name}: kernel {got} != engine {want}")
    return problems


def run(count: int, seed: int = 0, names: Sequence[str] = ()) -> tuple[int, int, list[str]]:
    """Check ``count`` random positions (of the presets ``names`` and their mixes, if given);
    return (positions, moves checked, first problems)."""
    rng = random.Random(seed)
    problems: list[str] = []
    moves = 0
    for _ in range(count):
        pos = random_position(random_rules(rng, names), rng)
        moves += len(pos.legal_moves())
        found = mismatches(pos)
        if found and len(problems) < 20:
            problems.extend(found[:2])
    return count, moves, problems
