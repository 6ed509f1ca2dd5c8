"""AI opponents. PLACEHOLDER until the AI work lands: the contract below is fixed.

``choose_move(position, level, time_limit=None, seed=0) -> AIMove`` takes and returns
picklable values, so the bot can run it in a worker process.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.position import Position


class AIMove(NamedTuple):
    move: str  # a pit letter, as Position.play accepts
    value: float | None  # the search's value for the mover (seeds), if it has one
    depth: int  # plies searched (0 for the applet's strategies)
    nodes: int
    seconds: float


LEVELS = ("first",)


def choose_move(position: Position, level: str = "first", time_limit: float | None = None,
                seed: int = 0) -> AIMove:
    moves = position.legal_moves()
    if not moves:
        raise ValueError("the game is over: there is no move to choose")
    return AIMove(moves[0], None, 0, 0, 0.0)
