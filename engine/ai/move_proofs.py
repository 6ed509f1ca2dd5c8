"""The exact value of each move of a position (``MoveProver``): for the review, which judges
the move played against the best, and the opening book's build, which keeps every best move.

Through the compiled solver's ``Searcher.run`` in exact mode: MTD(f) for a position's value,
then one null-window test a move for whether it keeps it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.position import Position

if TYPE_CHECKING:  # numpy and numba load only when a proof is wanted
    from engine.ai.search import Searcher


def margin_for(position: Position, mover: int) -> int:
    """The stores' margin for ``mover`` (the final margin, once the game is over)."""
    n2 = 2 * position.rules.pits
    board = position.board
    return board[n2 + mover] - board[n2 + 1 - mover]


class OutOfBudget(Exception):
    """A ``MoveProver`` ran out of nodes (or the clock stopped its search)."""


class MoveProver:
    """Exact values through ``Searcher.run`` in exact mode: MTD(f) for a value, null-window
    tests for whether a move keeps it."""

    def __init__(self, searcher: Searcher, node_end: int) -> None:
        # numba loads only when the compiled solver is wanted
        from engine.ai.search_kernel import SCALE

        self.searcher = searcher
        self.node_end = node_end
        self.scale = SCALE

    def values(self, position: Position, played: str) -> dict[str, int]:
        """Each legal move's value for the mover: exact for ``played``, for every move that
        keeps the best value and for moves that end the game; for the others a bound, the
        best value minus one (enough to say they are not best)."""
        mover = position.mover
        children = {move: position.play(move) for move in position.legal_moves()}
        # The move played first: its position is the next ply's, which a review reviews
        # first, so its proof is in the table; its value is then MTD(f)'s first guess.
        after = self.child_value(children[played], mover, None)
        best_value, best_move = self.solve(position, after)
        values: dict[str, int] = {played: after}
        for move, child in children.items():
            if move == played:
                continue
            if child.is_over():
                values[move] = margin_for(child, mover)
            elif move == best_move or self.at_least(child, mover, best_value):
                values[move] = best_value
            else:
                values[move] = best_value - 1  # a bound: below the best
        return values

    def best_moves(self, position: Position, value: int) -> tuple[str, ...]:
        """Every move of ``position`` that keeps ``value``, its proven value for the player
        to move: a null-window test each (the best ones are cheap once ``value`` is proven,
        their proofs being in the table)."""
        mover = position.mover
        best = []
        for move in position.legal_moves():
            child = position.play(move)
            if child.is_over():
                keeps = margin_for(child, mover) == value
            else:
                keeps = self.at_least(child, mover, value)
            if keeps:
                best.append(move)
        return tuple(best)

    def child_value(self, child: Position, mover: int, guess: int | None) -> int:
        """The exact value of ``child`` for ``mover`` (the player who moved into it)."""
        if child.is_over():
            return margin_for(child, mover)
        same = child.mover == mover
        value, _ = self.solve(child, None if guess is None else guess if same else -guess)
        return value if same else -value

    def solve(self, position: Position, guess: int | None) -> tuple[int, str]:
        """MTD(f): null-window passes from ``guess`` until the bounds meet."""
        # numba loads only when the compiled solver is wanted
        from engine.ai.encoding import decode_move
        from engine.ai.search_kernel import INF

        scale = self.scale
        if guess is None:
            guess = margin_for(position, position.mover)
        guess *= scale
        lower, upper = -INF, INF
        best = -1
        while lower < upper:
            beta = guess + 1 if guess == lower else guess
            value, move = self.run(position, beta - 1, beta)
            guess = value
            if value < beta:
                upper = value
            else:
                lower = value
                best = move
        if best < 0:  # every pass failed low: the last one's move is as good as any
            best = self.run(position, lower - 1, lower)[1]
        return lower // scale, decode_move(position.rules, best)

    def at_least(self, child: Position, mover: int, value: int) -> bool:
        """Whether ``child`` is worth at least ``value`` to ``mover``: one null-window pass."""
        scale = self.scale
        if child.mover == mover:
            return self.run(child, value * scale - 1, value * scale)[0] >= value * scale
        return self.run(child, -value * scale, -value * scale + 1)[0] <= -value * scale

    def run(self, position: Position, alpha: int, beta: int) -> tuple[int, int]:
        # numba loads only when the compiled solver is wanted
        from engine.ai.search_kernel import ABORTED, EXACT_DEPTH, NODES

        stats = self.searcher.stats
        left = self.node_end - int(stats[NODES])
        if left <= 0:
            raise OutOfBudget
        found = self.searcher.run(position, EXACT_DEPTH, alpha, beta, left, exact=True)
        if stats[ABORTED]:
            raise OutOfBudget
        return found
