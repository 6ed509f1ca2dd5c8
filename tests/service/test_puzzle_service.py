"""Puzzles through the service, on the shipped puzzles and a real database (a SQLite file, and
PostgreSQL where the ``database`` fixture runs it): the daily puzzle, more on demand, answers
checked by the solver in the AI pool, the first answer counted once, streaks, the board, and
the errors a user gets."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import UTC, datetime

import pytest

from bot.service import (
    BadRequest,
    GameService,
    IllegalMove,
    ManualClock,
    NotFound,
    Player,
    UnknownPuzzle,
)
from bot.service.puzzles import PuzzleResult
from engine import puzzles as engine_puzzles
from engine.puzzles import Puzzle

ANN = Player("discord", "4001")
BOB = Player("discord", "4002")
CAT = Player("discord", "4003")
NOON = datetime(2026, 3, 14, 12, 0, tzinfo=UTC).timestamp()


@pytest.fixture
async def service(tmp_path):
    service = await GameService.open(
        tmp_path / "puzzles.sqlite3", clock=ManualClock(NOON), tick_every=None, ai_workers=1
    )
    yield service
    await service.close()


def shipped(count: int, family: str | None = None) -> list[Puzzle]:
    """``count`` shipped puzzles (of ``family``), the same every run."""
    found = [p for p in engine_puzzles.load() if family is None or p.family == family]
    assert len(found) >= count
    return found[:count]


def wrong_move(puzzle: Puzzle) -> str:
    """A legal move that is not the solution (a puzzle's solution is its only right move)."""
    return next(m for m in puzzle.position.legal_moves() if m != puzzle.solution)


def empty_pit(puzzle: Puzzle) -> str | None:
    """A pit of the mover's that is not a legal move, if there is one."""
    position = puzzle.position
    letters = position.rules.letters
    own = letters if position.to_move == "south" else letters.lower()
    return next((m for m in own if m not in position.legal_moves()), None)


async def test_the_daily_puzzle_is_the_engines_of_the_clocks_utc_date(service):
    today = datetime.fromtimestamp(NOON, UTC).date()
    assert service.puzzles.today() == today
    assert await service.daily_puzzle() == engine_puzzles.daily(today)
    assert await service.daily_puzzle(family="wari") == engine_puzzles.daily(today, family="wari")
    # a server playing wari gets wari's; one playing the applet's games, any family's
    other = next(f for f in engine_puzzles.families() if f != "kalah")
    await service.set_server_settings("discord", "77", ruleset=other)
    assert await service.daily_puzzle(("discord", "77")) == engine_puzzles.daily(
        today, family=other
    )
    await service.set_server_settings("discord", "78", ruleset="mankala")
    assert await service.daily_puzzle(("discord", "78")) == engine_puzzles.daily(today)
    service.puzzles.clock.advance(86400)  # the next day: the next puzzle
    assert service.puzzles.today() != today


async def test_a_right_answer_counts_once_and_shows_the_proof_line(service):
    puzzle = shipped(1)[0]
    result = await service.answer_puzzle(ANN, puzzle.id, puzzle.solution, "g1")
    assert isinstance(result, PuzzleResult)
    assert result.correct and result.counted and result.streak == 1
    assert result.answer == engine_puzzles.check(puzzle, puzzle.solution)
    assert "Right" in result.verdict() and "proof line" in result.verdict()
    again = await service.answer_puzzle(ANN, puzzle.id, puzzle.solution, "g1")
    assert again.correct and not again.counted and again.streak == 1  # practice
    assert "Practice" in again.streak_words()
    standing = await service.puzzle_streak(ANN)
    assert (standing.answered, standing.solved, standing.streak, standing.best_streak) == (
        1,
        1,
        1,
        1,
    )


async def test_a_wrong_answer_shows_the_refutation_and_resets_the_streak(service):
    first, second, third = shipped(3)
    assert (await service.answer_puzzle(ANN, first.id, first.solution)).streak == 1
    assert (await service.answer_puzzle(ANN, second.id, second.solution)).streak == 2
    wrong = await service.answer_puzzle(ANN, third.id, wrong_move(third))
    assert wrong.counted and not wrong.correct and wrong.streak == 0
    assert wrong.answer.line == engine_puzzles.check(third, wrong_move(third)).line
    assert "refutation" in wrong.verdict() and "starts again from 0" in wrong.streak_words()
    # a right answer after it is practice: the first answer counted
    later = await service.answer_puzzle(ANN, third.id, third.solution)
    assert later.correct and not later.counted and later.streak == 0
    standing = await service.puzzle_streak(ANN)
    assert (standing.solved, standing.answered, standing.best_streak) == (2, 3, 2)


async def test_a_move_whose_line_the_puzzle_lacks_is_proven_in_the_pool(service):
    """Every shipped puzzle carries every move's line (checked at once); one without has the
    solver prove the move in a worker process, in the player's turn, after ``thinking``."""
    puzzle = min(engine_puzzles.load(), key=lambda p: sum(p.position.board))
    wrong = wrong_move(puzzle)
    bare = dataclasses.replace(puzzle, refutations=())
    told = []

    async def thinking() -> None:
        told.append(service.ai.backlog(ANN).running)

    answer = await service.puzzles._prove(ANN, bare, wrong, thinking)
    stored = engine_puzzles.check(puzzle, wrong)
    assert told == [0] and not answer.correct
    assert (answer.move, answer.value_after, answer.line) == (
        stored.move,
        stored.value_after,
        stored.line,
    )


async def test_answers_arriving_at_once_count_once(service):
    puzzle = shipped(1)[0]
    results = await asyncio.gather(
        *(service.answer_puzzle(BOB, puzzle.id, puzzle.solution) for _ in range(6))
    )
    assert sum(r.counted for r in results) == 1
    assert (await service.puzzle_streak(BOB)).solved == 1


async def test_the_next_puzzle_is_one_not_answered_yet_of_the_family_and_grade_asked(service):
    family = shipped(1)[0].family
    seen = set()
    for _ in range(3):
        puzzle = await service.next_puzzle(CAT, family=family)
        assert puzzle.family == family and puzzle.id not in seen
        seen.add(puzzle.id)
        await service.answer_puzzle(CAT, puzzle.id, puzzle.solution)
    grade = shipped(1)[0].grade
    assert (await service.next_puzzle(CAT, grade=grade.value)).grade == grade
    with pytest.raises(BadRequest, match="no puzzles of 'chess'; puzzles are of"):
        await service.next_puzzle(CAT, family="chess")
    with pytest.raises(BadRequest, match="grade is easy, medium, hard"):
        await service.next_puzzle(CAT, grade="impossible")


async def test_every_puzzle_of_a_family_answered_is_said_plainly(service):
    family = shipped(1)[0].family
    pid = await service.players.pid(ANN)
    for puzzle in engine_puzzles.load():  # as if Ann had answered each one of the family
        if puzzle.family == family:
            await service._store.puzzles.record_attempt(
                {
                    "player_id": pid,
                    "puzzle_id": puzzle.id,
                    "server": None,
                    "move": puzzle.solution,
                    "correct": True,
                    "attempted_at": NOON,
                }
            )
    with pytest.raises(NotFound, match=f"answered every {family} puzzle there is"):
        await service.next_puzzle(ANN, family=family)
    assert (await service.next_puzzle(ANN)).family != family


async def test_bad_ids_and_moves_get_clear_errors(service):
    puzzle = shipped(1)[0]
    with pytest.raises(UnknownPuzzle, match="there is no puzzle 'nope-9999'"):
        await service.answer_puzzle(ANN, "nope-9999", "A")
    with pytest.raises(UnknownPuzzle):
        service.puzzle("x" * 500)
    with pytest.raises(IllegalMove, match="is not a move"):
        await service.answer_puzzle(ANN, puzzle.id, "Z9")
    empty = empty_pit(puzzle)
    if empty is not None:
        with pytest.raises(IllegalMove, match="legal moves"):
            await service.answer_puzzle(ANN, puzzle.id, empty)
    assert (await service.puzzle_streak(ANN)).answered == 0  # nothing was recorded


async def test_the_board_of_a_server_ranks_those_who_answered_there(database):
    service = await GameService.open(
        database, clock=ManualClock(NOON), tick_every=None, ai_workers=0
    )
    try:
        puzzles = shipped(4)
        await service.set_display_name(ANN, "Ann")
        await service.set_display_name(BOB, "Bob")
        for p in puzzles[:3]:  # Ann: 3 of 3
            await service.answer_puzzle(ANN, p.id, p.solution, "g1")
        for p, right in zip(puzzles, (True, False, True, True), strict=True):  # Bob: 3 of 4
            await service.answer_puzzle(BOB, p.id, p.solution if right else wrong_move(p), "g1")
        await service.answer_puzzle(CAT, puzzles[0].id, puzzles[0].solution, "g2")  # elsewhere
        board = await service.puzzle_board("g1")
        assert [(s.name, s.solved, s.answered, s.streak, s.best_streak) for s in board] == [
            ("Ann", 3, 3, 3, 3),
            ("Bob", 3, 4, 2, 2),
        ]
        assert [s.player for s in await service.puzzle_board("g2")] == [CAT]
        assert await service.puzzle_board("g3") == []
        assert len(await service.puzzle_board("g1", limit=1)) == 1
    finally:
        await service.close()
