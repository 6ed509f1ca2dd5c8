"""The same alpha-beta in plain Python, through the engine's own rules.

The baseline ``bench/ai.py`` measures the compiled kernel against, and a readable statement
of what the kernel computes: negamax over ``Position`` objects, extra turns searched without
negation, a dict transposition table, the evaluation of ``search_kernel.evaluate`` (but
for Togyz Kumalak's tuned features, ``engine.ai.evaluation``: here the margin and the rows).

>>> from engine import Position, Ruleset
>>> result = search(Position.initial(Ruleset.parse("kalah:pits=3,seeds=2")), depth=30)
>>> result.value, result.depth
(4.0, 30)
"""

from __future__ import annotations

import time

from engine.ai.search import SearchResult
from engine.ai.search_kernel import EXACT, INF, LOWER, SCALE, UPPER
from engine.position import Board, Key, Move, Position, move_name
from engine.ruleset import Ruleset


class _Abort(Exception):
    pass


def _value(rules: Ruleset, board: Board, mover: int) -> int:
    n = rules.pits
    own, other = (
        sum(board[mover * n : mover * n + n]),
        sum(board[(1 - mover) * n : (2 - mover) * n]),
    )
    return SCALE * (board[2 * n + mover] - board[2 * n + 1 - mover]) + own - other


def search(
    position: Position, depth: int, node_limit: int = 1 << 62, time_limit: float | None = None
) -> SearchResult:
    """Iterative deepening to ``depth`` plies within the node and time limits."""
    rules = position.rules
    n2 = 2 * rules.pits
    # position key -> (value, depth, bound kind, best move)
    table: dict[Key, tuple[int, int, int, Move | None]] = {}
    nodes = 0
    started = time.perf_counter()
    deadline = started + time_limit if time_limit else None

    def negamax(pos: Position, depth: int, alpha: int, beta: int) -> tuple[int, Move | None]:
        nonlocal nodes
        nodes += 1
        if nodes >= node_limit or (
            deadline and nodes % 1024 == 0 and time.perf_counter() > deadline
        ):
            raise _Abort
        mover = pos.mover
        if depth <= 0:
            return _value(rules, pos.board, mover), None
        key = pos.key()
        entry = table.get(key)
        hint = None
        if entry:
            value, stored_depth, kind, hint = entry
            if stored_depth >= depth and (
                kind == EXACT
                or (kind == LOWER and value >= beta)
                or (kind == UPPER and value <= alpha)
            ):
                return value, hint
        children = []
        for move in pos._legal or ():
            after = pos._play(move)
            gain = after.board[n2 + mover] - pos.board[n2 + mover]
            replay = not after.is_over() and after.mover == mover
            children.append((move == hint, replay, gain, move, after))
        children.sort(key=lambda c: c[:3], reverse=True)
        best, a = -INF, alpha
        best_move: Move | None = None
        for *_, move, after in children:
            if after.is_over():
                value = SCALE * (after.board[n2 + mover] - after.board[n2 + 1 - mover])
            elif after.mover == mover:
                value = negamax(after, depth - 1, a, beta)[0]
            else:
                value = -negamax(after, depth - 1, -beta, -a)[0]
            if value > best:
                best, best_move = value, move
            a = max(a, value)
            if a >= beta:
                break
        kind = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        table[key] = (best, depth, kind, best_move)
        return best, best_move

    legal = position._legal or ()
    best: tuple[int, Move | None] = (0, legal[0])
    reached = 0
    for d in range(1, depth + 1):
        try:
            best = negamax(position, d, -INF, INF)
        except _Abort:
            break
        reached = d
    return SearchResult(
        move_name(rules, best[1] or legal[0]),
        best[0] / SCALE,
        reached,
        nodes,
        time.perf_counter() - started,
        False,
    )
