"""Upgrading a database whose finished games say in words how they ended: migration 2 turns
the words into ``Termination`` values (with the side named), losing nothing."""

import json
import sqlite3

import pytest

from bot.service import GameService, ManualClock
from engine import Termination
from storage.migrations import MIGRATIONS

ENDINGS = [  # words written by every earlier version -> (termination, side named)
    ("a row is empty", Termination.ROW_EMPTY, None),
    ("every pit is empty", Termination.ALL_EMPTY, None),
    ("south has no move", Termination.NO_MOVE, "south"),
    ("the mover cannot feed", Termination.CANNOT_FEED, None),
    ("more than half the seeds", Termination.MAJORITY, None),
    ("grand slam", Termination.GRAND_SLAM, None),
    ("a position repeated", Termination.REPETITION, None),
    ("agreed end", Termination.AGREED_END, None),
    ("draw agreed", Termination.AGREED_DRAW, None),
    ("North resigned", Termination.RESIGNATION, "north"),
    ("South ran out of time", Termination.TIME, "south"),
]


def version_1_database(path):
    """A file as version 1 of the schema left it, with one finished game per ending."""
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0][1])
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (1)")
    db.execute(
        "INSERT INTO players VALUES (1, 'discord', '1', NULL, 0), "
        "(2, 'email', 'b@example.org', NULL, 0)"
    )
    board = json.dumps([4] * 12 + [0, 0])  # the start: no moves to replay
    for number, (words, _, _) in enumerate(ENDINGS, 1):
        db.execute(
            "INSERT INTO games (id, rules, south_id, north_id, channel_surface, channel_id, "
            "first, status, ply, board, mover, options, result_reason, result_winner, "
            "score_south, score_north, created_at, last_move_at, ended_at) VALUES "
            "(?, 'kalah', 1, 2, 'discord', ?, 'south', 'over', 0, ?, 0, '{}', ?, 'south', "
            "30, 18, 0, 0, 0)",
            (number, f"c{number}", board, words),
        )
    db.commit()
    db.close()


async def test_stored_endings_become_terminations_and_keep_their_words(tmp_path):
    path = tmp_path / "old.sqlite3"
    version_1_database(path)
    service = await GameService.open(path, clock=ManualClock(1e6), tick_every=None)
    try:
        for number, (words, termination, by) in enumerate(ENDINGS, 1):
            game = await service.get_game(number)
            assert game.outcome.termination is termination, words
            assert game.outcome.by == by and game.outcome.score == (30, 18)
            if by:
                assert game.outcome.words.lower().startswith(by)
    finally:
        await service.close()
    with sqlite3.connect(path) as db:
        kept = [row[0] for row in db.execute("SELECT result_reason FROM games ORDER BY id")]
    assert kept == [words for words, _, _ in ENDINGS]


@pytest.mark.parametrize("words", ["nonsense"])
async def test_an_unknown_ending_is_left_empty_not_guessed(tmp_path, words):
    path = tmp_path / "odd.sqlite3"
    version_1_database(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET result_reason = ? WHERE id = 1", (words,))
    service = await GameService.open(path, clock=ManualClock(1e6), tick_every=None)
    await service.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT result_termination FROM games WHERE id = 1").fetchone() == (None,)
