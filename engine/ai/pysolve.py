"""The exact solver in plain Python: for a position with few seeds left, proven at once.

The compiled solver (``engine.ai.search.solve``) is far faster per node, but on a fresh
install it first waits for numba to compile it (a minute or more), and an endgame table it
reads is compiled code too. A position with a handful of seeds on the board needs neither:
its whole game tree is a few thousand nodes, which this module proves in a fraction of a
second, through the engine's own rules (``Position``), importing neither numba nor the kernel.

It is alpha-beta with no horizon, as the kernel's exact mode: values are final seed margins
for the player to move; an extra turn is searched with the same window and not negated; the
seeds left in the pits bound how far the margin can still move; a position repeated on the
search path ends the game by the ruleset's ``cycle`` policy. So a node's value depends on which
positions are above it (graph history interaction): its table key holds those that can come
back below it, as an order-free XOR of their hashes (as the kernel's). Seeds never leave a
store or a captured pile, so only the positions above with the same stores can (those since
the last capture).

>>> from engine import Position, Ruleset
>>> result = solve(Position.initial(Ruleset.parse("kalah:pits=3,seeds=2")))
>>> result.complete, result.value, result.move in ("A", "B", "C")
(True, 4.0, True)
"""

from __future__ import annotations

import sys
import time
from typing import NamedTuple

from engine.position import Board, Key, Move, Position, move_name, settle_by_cycle
from engine.ruleset import Ruleset

# The work a caller that must answer at once grants a proof: about a second here (the nodes
# of a board with cycles cost more: wari, oware, al-manqala).
QUICK_NODES = 50_000
# Boards with more seeds than this are not worth the try: their proofs take millions of nodes.
QUICK_SEEDS = 16
MAX_PLY = 400  # the longest line it searches, as the kernel's: a longer one leaves it unproven

EXACT, LOWER, UPPER = 0, 1, 2
_INF = 1 << 20


class Solved(NamedTuple):
    """As ``engine.ai.search.SearchResult``, which needs numba to import."""

    move: str
    value: float  # the final seed margin for the player to move (exact when ``complete``)
    depth: int  # the longest line searched (plies)
    nodes: int
    seconds: float
    complete: bool  # the value is proven: the search ended within its budget


class _OutOfBudget(Exception):
    pass


def may_cycle(rules: Ruleset) -> bool:
    """As ``engine.ai.encoding.may_cycle`` (which imports numpy): whether positions repeat."""
    return not (rules.stores and rules.choose == "own" and rules.direction == "ccw")


def solve(position: Position, node_limit: int = 1 << 62, time_limit: float | None = None) -> Solved:
    """The exact value of ``position`` and a best move, unless ``node_limit`` nodes or
    ``time_limit`` seconds run out first (then ``complete`` is False, and the move and value
    are only the root's best so far). The node limit makes the outcome the same on every
    machine; the time limit is a safety net."""
    if position.is_over():
        raise ValueError("the game is over: there is nothing to solve")
    # Two frames a ply: a line of MAX_PLY plies needs more than Python's default 1000.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 3 * MAX_PLY + 1000))
    try:
        return _Solver(position.rules, node_limit, time_limit).root(position)
    finally:
        sys.setrecursionlimit(limit)


def quick(position: Position, time_limit: float = 3.0) -> Solved | None:
    """The proof of a small position, for a caller that must not wait for the compiler: None
    if the board holds more than QUICK_SEEDS seeds or the proof takes more than QUICK_NODES
    nodes (or, on a machine far slower than ours, ``time_limit`` seconds)."""
    if position.is_over() or sum(position.pits) > QUICK_SEEDS:
        return None
    result = solve(position, node_limit=QUICK_NODES, time_limit=time_limit)
    return result if result.complete else None


class _Solver:
    def __init__(self, rules: Ruleset, node_limit: int, time_limit: float | None) -> None:
        self.rules = rules
        self.n2 = 2 * rules.pits
        self.cycles = may_cycle(rules)
        # A repetition scored as a draw can leave the margin anywhere: no bound from the stores.
        self.bounded = not (self.cycles and rules.cycle == "draw")
        self.nodes = 0
        self.node_limit = node_limit
        self.started = time.perf_counter()
        self.deadline = None if time_limit is None else self.started + time_limit
        self.depth = 0
        # (position key, the positions above that may come back) -> (value, kind, best move)
        self.table: dict[tuple[Key, int], tuple[int, int, Move | None]] = {}
        self.path: set[Key] = set()  # the positions above the node searched

    def root(self, position: Position) -> Solved:
        legal = position._legal or ()
        best_move: Move = legal[0]
        best = -_INF
        complete = True
        self.path.add(position.key())
        try:
            for move, after in self._children(position, None):
                value = self._child_value(position, after, best, _INF, 0, 1)
                if value > best:
                    best, best_move = value, move
        except _OutOfBudget:
            complete = False
        return Solved(
            move_name(self.rules, best_move),
            float(best if best > -_INF else 0),
            self.depth,
            self.nodes,
            time.perf_counter() - self.started,
            complete,
        )

    def _margin(self, board: Board, mover: int) -> int:
        return board[self.n2 + mover] - board[self.n2 + 1 - mover]

    def _children(self, pos: Position, hint: Move | None) -> list[tuple[Move, Position]]:
        """The moves and their positions: the table's best move first, then extra turns, then
        by the seeds each move brings home."""
        n2, mover = self.n2, pos.mover
        scored = []
        for move in pos._legal or ():
            after = pos._play(move)
            gain = after.board[n2 + mover] - pos.board[n2 + mover]
            replay = not after.is_over() and after.mover == mover
            scored.append((move == hint, replay, gain, move, after))
        scored.sort(key=lambda child: child[:3], reverse=True)
        return [(move, after) for *_, move, after in scored]

    def _child_value(
        self, pos: Position, after: Position, alpha: int, beta: int, above: int, ply: int
    ) -> int:
        """The value of ``after`` for ``pos``'s mover. ``above``: the XOR of the hashes of
        the positions above ``pos`` on the path with its stores."""
        mover = pos.mover
        if after.is_over():
            return self._margin(after.board, mover)
        if self.cycles:
            # Stores only grow: after a capture no position above can come back.
            n2 = self.n2
            above = above ^ hash(pos.key()) if after.board[n2:] == pos.board[n2:] else 0
        if after.mover == mover:
            return self._value(after, alpha, beta, above, ply)
        return -self._value(after, -beta, -alpha, above, ply)

    def _value(self, pos: Position, alpha: int, beta: int, above: int, ply: int) -> int:
        """Negamax with no horizon: the value for the player to move. ``above``: the XOR of
        the hashes of the positions above it on the path that may come back below it (those
        with its stores): part of its table key."""
        self.nodes += 1
        if self.nodes >= self.node_limit or (
            self.deadline is not None
            and self.nodes % 1024 == 0
            and time.perf_counter() > self.deadline
        ):
            raise _OutOfBudget
        if ply > self.depth:
            if ply > MAX_PLY:  # a line this long is beyond a quick proof (and Python's stack)
                raise _OutOfBudget
            self.depth = ply
        board, mover = pos.board, pos.mover
        key = pos.key()
        if self.cycles and key in self.path:  # (a position above with other stores is not it)
            return self._cycle_value(board, mover)
        if self.bounded:
            now = self._margin(board, mover)
            left = sum(board[: self.n2])
            if now + left <= alpha:
                return now + left
            if now - left >= beta:
                return now - left
        hint = None
        entry = self.table.get((key, above))
        if entry is not None:
            value, kind, hint = entry
            if (
                kind == EXACT
                or (kind == LOWER and value >= beta)
                or (kind == UPPER and value <= alpha)
            ):
                return value
        best, a = -_INF, alpha
        best_move: Move | None = None
        self.path.add(key)
        try:
            for move, after in self._children(pos, hint):
                value = self._child_value(pos, after, a, beta, above, ply + 1)
                if value > best:
                    best, best_move = value, move
                a = max(a, value)
                if a >= beta:
                    break
        finally:
            self.path.discard(key)
        kind = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        self.table[(key, above)] = (best, kind, best_move)
        return best

    def _cycle_value(self, board: Board, mover: int) -> int:
        """A repeated position, settled by the ruleset's cycle policy."""
        if self.rules.cycle == "draw":
            return 0
        return self._margin(settle_by_cycle(self.rules, board), mover)


def proof_line(
    position: Position, first_move: str, node_limit: int = QUICK_NODES, max_plies: int = 200
) -> tuple[list[str], bool]:
    """As ``engine.ai.proof_line``: the line of best play after ``position``'s proven best
    move ``first_move``, each next move proven within ``node_limit`` nodes; and whether the
    line reaches the end of the game."""
    line = [first_move]
    position = position.play(first_move)
    while not position.is_over() and len(line) < max_plies:
        result = solve(position, node_limit)
        if not result.complete:
            return line, False
        line.append(result.move)
        position = position.play(result.move)
    return line, position.is_over()
