"""Tests of ``bot.service`` (and the AI's worker pool it drives): games, correspondence,
pairings and tournaments, ratings, puzzles, reviews, languages, fairness between players,
races, a crash, and several processes on one database. ``conftest.py``: ``clock``,
``service``."""
