"""The elf.org applet's eight computer strategies (000), played through the engine's rules.

Each looks at the legal moves in sowing order, the pit farthest from the mover's store first
(the order ``Position.legal_moves`` gives), and picks one without looking further ahead.

>>> from engine import Position, Ruleset
>>> pos = Position.initial(Ruleset.parse("kalah"))
>>> [pick(pos, name) for name in ("first", "last", "greedy")]
['A', 'F', 'C']
"""

from __future__ import annotations

import random
from dataclasses import replace

from engine.position import Position
from engine.sowing import apply_move
from engine.translation import _

STRATEGIES = (
    "random",
    "first",
    "first-largest",
    "first-smallest",
    "last",
    "last-largest",
    "last-smallest",
    "greedy",
)


def pick(position: Position, strategy: str, seed: int = 0) -> str:
    """The move ``strategy`` plays; ``seed`` drives ``random``. ValueError for an unknown name
    or a finished game."""
    moves = position.legal_moves()
    if not moves:
        raise ValueError(_("the game is over: there is no move to choose"))
    if strategy == "random":
        return random.Random(seed).choice(moves)
    if strategy == "first":
        return moves[0]
    if strategy == "last":
        return moves[-1]
    if strategy == "greedy":
        return _greedy(position, moves)
    if strategy in ("first-largest", "last-largest", "first-smallest", "last-smallest"):
        seeds = [position.board[position.parse_move(m)[0]] for m in moves]
        target = max(seeds) if strategy.endswith("largest") else min(seeds)
        matching = [m for m, s in zip(moves, seeds, strict=False) if s == target]
        return matching[0] if strategy.startswith("first") else matching[-1]
    raise ValueError(
        _("unknown strategy '{strategy}'; strategies are: {strategies}").format(
            strategy=strategy, strategies=", ".join(STRATEGIES)
        )
    )


def _greedy(position: Position, moves: list[str]) -> str:
    """The last move that earns another turn, else the last that captures, else the last."""
    replays = [m for m in moves if _earns_replay(position, m)]
    if replays:
        return replays[-1]
    captures = [m for m in moves if _captures(position, m)]
    return captures[-1] if captures else moves[-1]


def _earns_replay(position: Position, move: str) -> bool:
    after = position.play(move)
    return not after.is_over() and after.mover == position.mover


def _captures(position: Position, move: str) -> bool:
    """Whether the move takes seeds: its board differs from the same sowing with the
    ruleset's captures switched off."""
    rules = position.rules
    pit, direction = position.parse_move(move)
    plain_rules = replace(
        rules, empty_capture="none", captures=(), even_capture=False, tuzdyk=False
    )
    tuzdyks = position.tuzdyks
    real = apply_move(rules, position.board, position.mover, pit, direction, tuzdyks).board
    plain = apply_move(plain_rules, position.board, position.mover, pit, direction, tuzdyks).board
    return real != plain
