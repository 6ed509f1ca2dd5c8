"""Tests of ``engine``: rules and playthroughs per preset, Togyz Kumalak (against a second,
plain implementation: ``togyz_reference.py``), notation and bad input, the AI's strategies,
search, compiled kernel, solver and endgame tables (against plain minimax: ``minimax.py``),
reviews, the shipped puzzles, and the engine's messages in every language."""
