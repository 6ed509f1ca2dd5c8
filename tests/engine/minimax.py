"""Plain minimax over the engine's own Position.play: the reference the solver, the search
levels and the endgame tables are checked against."""

from engine import Position
from engine.position import settle_by_cycle


def minimax(pos: Position) -> int:
    """Final seed margin for the player to move, by memoised minimax (acyclic rules only)."""
    memo = {}

    def value(p):
        key = p.key()  # the board, the mover and the tuzdyks (Togyz Kumalak)
        if key not in memo:
            memo[key] = max(child_value(p, m) for m in p.legal_moves())
        return memo[key]

    def child_value(p, move):
        c = p.play(move)
        if c.is_over():
            return c.stores[p.mover] - c.stores[1 - p.mover]
        return value(c) if c.mover == p.mover else -value(c)

    return value(pos)


def path_minimax(pos: Position) -> int:
    """Minimax without memo for rules where positions repeat: a repeat on the path scores by
    the ruleset's cycle policy, as the solver does."""
    rules = pos.rules
    n = rules.pits

    def value(p, path):
        key = (p.board, p.mover)
        if key in path:
            if rules.cycle == "draw":
                return 0
            b = settle_by_cycle(rules, p.board)
            return b[2 * n + p.mover] - b[2 * n + 1 - p.mover]
        best = None
        for move in p.legal_moves():
            c = p.play(move)
            if c.is_over():
                v = c.stores[p.mover] - c.stores[1 - p.mover]
            else:
                v = value(c, path | {key})
                v = v if c.mover == p.mover else -v
            best = v if best is None else max(best, v)
        return best

    return value(pos, frozenset())
