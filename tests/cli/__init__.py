"""Tests of the ``mancala`` program's other commands (``bot.cli``, ``bot.commands``): solve
and hint, the referee commands, the bare command, settings errors, health and metrics, and a
new user's first run on a fresh machine."""
