"""The rules of the mancala family, the ASCII notation of 003, and nothing that does I/O.

>>> from engine import Game
>>> game = Game("wari")
>>> game.play("E")
>>> game.position.legal_moves()
['a', 'b', 'c', 'd', 'e', 'f']
"""

from engine.errors import IllegalMove, MancalaError, PositionError, RulesetError, excerpt
from engine.game import Game
from engine.notation import from_perspective, parse_position, render, to_perspective
from engine.outcome import Outcome, Termination, result_lines
from engine.position import Position
from engine.review import MoveClass, PlayerSummary, PlyReview, Review, review_move
from engine.ruleset import PARAMETERS, Ruleset
from engine.side import SIDES, Side

__all__ = [
    "Game",
    "IllegalMove",
    "MancalaError",
    "MoveClass",
    "Outcome",
    "PARAMETERS",
    "PlayerSummary",
    "PlyReview",
    "Position",
    "Review",
    "PositionError",
    "Ruleset",
    "SIDES",
    "Side",
    "RulesetError",
    "Termination",
    "excerpt",
    "from_perspective",
    "parse_position",
    "render",
    "result_lines",
    "review_move",
    "to_perspective",
]
