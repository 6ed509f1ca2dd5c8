"""The rules of the mancala family, the ASCII notation of 003, and nothing that does I/O.

- ``ruleset``: ``Ruleset``, a preset name plus overrides, and every parameter's meaning;
- ``side``: ``Side``, South and North, the one definition every layer uses;
- ``position``: ``Position``, the pits, stores and player to move, and the verbs of play;
  ``sowing``: the mechanics of one move (sowing, relay laps, captures, the grand slam);
- ``game``: ``Game``, a position plus its history, repetition, agreed end and result;
  ``outcome``: how a game ended (``Termination``, ``Outcome``) and its words;
- ``notation``: the ASCII board of 003, drawn and read back from either side;
  ``fen``: PlayStrategy's position strings for Togyz Kumalak, Bestemshe and Oware;
  ``records``: the community's game records (PlayStrategy's PGN, the Kazakh scoresheet,
  Aualé's OGN), read with every move checked, and written;
- ``inputs``: what people type, normalised and bounded before it is converted;
  ``errors``: the engine's exceptions and the one way a message quotes a user's input;
  ``translation``: ``_`` and ``N_``, where a message meets a translator (``bot.i18n``);
- ``review``: a game reviewed move by move by the solver;
  ``puzzles``: the shipped puzzles (in ``data``), one right move in a real ending;
- ``ai``: the computer opponents, the compiled search and the exact solver.

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
