"""Tests of ``bot.terminal``: play and puzzles in the terminal, driven as a real process, in
every language."""
