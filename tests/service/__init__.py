"""Tests of ``bot.service`` (and the AI's worker pool it drives): games, correspondence,
pairings and tournaments, ratings, puzzles, reviews, languages, fairness between players,
races, a crash, several processes on one database, and the hooks the parts react by. ``conftest.py``: ``clock``,
``service``."""
