"""The shipped puzzles (engine.puzzles, engine/data/puzzles.json): every one proven again here
by the plain-Python solver, its solution unique by the documented rule, its proof line and
refutation lines legal and best play at every step; and the API the surfaces use (check,
daily, pick, by_id, mine)."""

import datetime
import json
import os
import re
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

import pytest

from engine import Game, IllegalMove, MancalaError, Position, Ruleset
from engine import puzzles as P
from engine.ai import pysolve

PUZZLES = P.load()
ROOT = Path(__file__).resolve().parents[2]
# What one proof may cost here: far more than the miner allowed (it keeps only puzzles whose
# proofs finish within engine.puzzles.FIND_NODES or less), so a failure is a wrong value.
NODES = 1_000_000
# Each family's puzzles at least: Togyz Kumalak's and Bestemshe's came later and are fewer.
FAMILIES = {
    "kalah": 50,
    "wari": 50,
    "oware": 50,
    "al-manqala": 50,
    "togyz-kumalak": 30,
    "bestemshe": 30,
}


def margin(position, mover):
    n2 = 2 * position.rules.pits
    return position.board[n2 + mover] - position.board[n2 + 1 - mover]


def proven(position, mover):
    """The final margin for ``mover`` with best play from ``position``, by pysolve."""
    if position.is_over():
        return margin(position, mover)
    solved = pysolve.solve(position, node_limit=NODES)
    assert solved.complete, f"{position}: not proven within {NODES} nodes"
    value = int(solved.value)
    return value if position.mover == mover else -value


def result(value):
    return (value > 0) - (value < 0)


def check_line(puzzle, line, value):
    """``line`` is legal from the puzzle, ends the game (played as a game, repetitions seen)
    with ``value`` for the puzzle's mover, and every move after the first keeps that value:
    the player to move at each step plays a best move."""
    start = puzzle.position
    mover = start.mover
    game = Game.from_moves(start.rules, line, position=start)  # IllegalMove names the ply
    assert game.is_over(), f"{puzzle.id}: the line {' '.join(line)} does not end the game"
    assert margin(game.position, mover) == value, f"{puzzle.id}: {' '.join(line)}"
    for ply, position in enumerate(game.positions[1:-1], 2):
        assert proven(position, mover) == value, f"{puzzle.id}: ply {ply} of {' '.join(line)}"


def test_the_set_is_large_enough_in_every_family():
    assert len(PUZZLES) >= 300
    counts = {family: sum(p.family == family for p in PUZZLES) for family in FAMILIES}
    assert all(counts[family] >= least for family, least in FAMILIES.items()), counts
    assert {p.family for p in PUZZLES} == set(FAMILIES)
    assert {p.source for p in PUZZLES} <= set(P.SOURCES)


def test_ids_are_unique_and_name_the_family():
    ids = [p.id for p in PUZZLES]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids)
    for puzzle in PUZZLES:
        assert re.fullmatch(
            r"(kalah|wari|oware|al-manqala|togyz-kumalak|bestemshe)-\d{4}", puzzle.id
        )
        assert puzzle.id.rpartition("-")[0] == puzzle.family
    # numbered from 1 in each family, no gaps (a re-mine keeps ids and numbers after them)
    for family in FAMILIES:
        numbers = sorted(int(p.id.rpartition("-")[2]) for p in PUZZLES if p.family == family)
        assert numbers == list(range(1, len(numbers) + 1))


def test_positions_are_distinct():
    keys = [(p.position.rules, *p.position.key()) for p in PUZZLES]  # with the tuzdyks
    assert len(set(keys)) == len(keys)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.id for p in PUZZLES])
def test_every_puzzle_is_proven_unique_and_its_lines_best_play(puzzle):
    position = puzzle.position
    assert not position.is_over()
    legal = position.legal_moves()
    assert len(legal) >= 2 and puzzle.solution in legal
    values = {move: proven(position.play(move), position.mover) for move in legal}
    # the solution: its value as stored, and the position's own value (solved as a whole)
    assert values[puzzle.solution] == puzzle.value >= 0
    whole = pysolve.solve(position, node_limit=NODES)
    assert whole.complete and (whole.move, int(whole.value)) == (puzzle.solution, puzzle.value)
    # uniqueness: every other move worsens the result, or gives away at least GAP of margin
    assert [r.move for r in puzzle.refutations] == [m for m in legal if m != puzzle.solution]
    for wrong in puzzle.refutations:
        assert values[wrong.move] == wrong.value, f"{wrong.move}: {values[wrong.move]}"
        assert result(wrong.value) < result(puzzle.value) or puzzle.value - wrong.value >= P.GAP, (
            f"{wrong.move} ({wrong.value:+d}) is about as good as {puzzle.solution}"
        )
    # the lines
    assert puzzle.line[0] == puzzle.solution
    check_line(puzzle, puzzle.line, puzzle.value)
    for wrong in puzzle.refutations:
        assert wrong.line[0] == wrong.move
        check_line(puzzle, wrong.line, wrong.value)
    # the grade
    assert puzzle.depth == len(puzzle.line)
    assert puzzle.grade == P.grade_of(puzzle.depth)


def test_the_file_is_as_the_module_writes_it():
    text = (resources.files("engine") / "data" / "puzzles.json").read_text(encoding="utf-8")
    assert P.to_json(PUZZLES) == text
    data = json.loads(text)
    assert data["gap"] == P.GAP
    assert data["grades"] == {grade.value: most for most, grade in P.GRADES}
    assert all(P.Puzzle.from_json(p.to_json()) == p for p in PUZZLES[:20])


def test_a_puzzle_keeps_its_tuzdyks_through_the_file():
    # Most Togyz Kumalak endings have a tuzdyk: a puzzle read back without it is another
    # position, whose proofs the solver may not even finish.
    made = [p for p in PUZZLES if p.position.tuzdyks != (None, None)]
    assert made and all(p.family == "togyz-kumalak" for p in made)
    position = Game.from_moves("togyz-kumalak", "A g H a").position
    assert position.tuzdyks == (None, 0)  # North's a made South's A its tuzdyk
    puzzle = P.Puzzle("togyz-kumalak-9999", position, "A", 0, ("A",), 1, P.Grade.EASY, "game", ())
    data = json.loads(json.dumps(puzzle.to_json()))
    assert data["tuzdyks"] == list(position.tuzdyks)
    assert P.Puzzle.from_json(data).position == position  # equality covers the tuzdyks


def test_the_file_ships_in_the_package():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '[tool.setuptools.package-data]\nengine = ["data/*.json"]' in pyproject


def test_the_grades_by_depth():
    assert [P.grade_of(d) for d in (1, 3, 4, 7, 8, 40)] == [
        P.Grade.EASY,
        P.Grade.EASY,
        P.Grade.MEDIUM,
        P.Grade.MEDIUM,
        P.Grade.HARD,
        P.Grade.HARD,
    ]
    assert {p.grade for p in PUZZLES} == set(P.Grade)


# -- check ------------------------------------------------------------------------------------


def test_the_solution_is_right_and_shows_the_proof_line():
    for puzzle in PUZZLES:
        answer = P.check(puzzle, puzzle.solution)
        assert answer.correct and answer.move == puzzle.solution
        assert answer.line == puzzle.line and answer.value_after == puzzle.value


def test_a_wrong_move_shows_its_refutation_at_once():
    slowest = 0.0
    for puzzle in PUZZLES:
        for wrong in puzzle.refutations:
            started = time.perf_counter()
            answer = P.check(puzzle, wrong.move)
            slowest = max(slowest, time.perf_counter() - started)
            assert not answer.correct and answer.move == wrong.move
            assert answer.line == wrong.line and answer.line[0] == wrong.move
            assert answer.value_after == wrong.value < puzzle.value
    assert slowest < 0.5


def test_check_reads_moves_as_the_engine_does():
    puzzle = next(p for p in PUZZLES if p.position.mover == 1 and p.position.rules.choose == "own")
    assert puzzle.solution.islower()
    # one's own pits either case; full-width letters as typed on a phone
    assert P.check(puzzle, puzzle.solution.upper()).correct
    assert P.check(puzzle, f"  {puzzle.solution} ").move == puzzle.solution
    wide = chr(ord(puzzle.solution.upper()) - ord("A") + ord("Ａ"))
    assert P.check(puzzle, wide).correct


def test_check_refuses_what_is_not_a_legal_move():
    puzzle = next(
        p
        for p in PUZZLES
        if p.family == "kalah" and 0 in p.position.pits[6 * p.position.mover :][:6]
    )
    with pytest.raises(IllegalMove, match="is not a move"):
        P.check(puzzle, "Z")
    with pytest.raises(IllegalMove, match="is not a move"):
        P.check(puzzle, "")
    own = puzzle.position.pits[6 * puzzle.position.mover : 6 * puzzle.position.mover + 6]
    if 0 in own:
        with pytest.raises(IllegalMove, match="empty"):
            P.check(puzzle, "ABCDEF"[own.index(0)])


def test_a_set_without_refutations_proves_them_when_asked():
    puzzle = P.by_id("kalah-0001")
    bare = P.Puzzle(**{**puzzle.__dict__, "refutations": ()})
    for wrong in puzzle.refutations:
        answer = P.check(bare, wrong.move)
        assert (answer.correct, answer.value_after) == (False, wrong.value)
        assert answer.line[0] == wrong.move


# -- choosing a puzzle --------------------------------------------------------------------------


def test_by_id():
    assert P.by_id("kalah-0001") is PUZZLES[[p.id for p in PUZZLES].index("kalah-0001")]
    assert P.by_id(" Oware-0001 ").id == "oware-0001"
    for bad in ("kalah-9999", "chess-0001", "", "x" * 500, "\x00"):
        with pytest.raises(P.PuzzleNotFound, match="no puzzle") as err:
            P.by_id(bad)
        assert isinstance(err.value, MancalaError) and len(str(err.value)) < 200


def test_daily_is_one_a_day_the_same_everywhere():
    day = datetime.date(2030, 5, 17)
    assert P.daily(day) == P.daily(day)
    assert P.daily(day, "wari").family == "wari"
    assert P.daily(day, "awale").family == "wari"  # a preset's name or alias: its family
    days = [day + datetime.timedelta(n) for n in range(60)]
    assert len({P.daily(d, "oware").id for d in days}) == min(
        60, sum(p.family == "oware" for p in PUZZLES)
    )
    # another process, another hash seed: the same pick
    code = (
        "import datetime; from engine import puzzles as P; "
        "print(P.daily(datetime.date(2030, 5, 17)).id, P.daily(datetime.date(2030, 5, 17), 'kalah').id)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    ).stdout.split()
    assert out == [P.daily(day).id, P.daily(day, "kalah").id]


def test_pick_avoids_what_was_seen_then_goes_round_again():
    pool = [p for p in PUZZLES if p.family == "al-manqala" and p.grade == P.Grade.EASY]
    seen: set[str] = set()
    for _ in pool:
        puzzle = P.pick(seen, family="al-manqala", grade="easy", seed=7)
        assert puzzle.id not in seen and puzzle.family == "al-manqala"
        assert puzzle.grade == P.Grade.EASY
        seen.add(puzzle.id)
    assert seen == {p.id for p in pool}
    assert P.pick(seen, family="al-manqala", grade=P.Grade.EASY, seed=7).id in seen
    assert P.pick((), seed=1) == P.pick((), seed=1)
    assert len({P.pick((), seed=s).id for s in range(20)}) > 10


def test_pick_and_daily_refuse_unknown_families_and_grades():
    with pytest.raises(
        P.PuzzleNotFound, match="families: al-manqala, bestemshe, kalah, oware, togyz-kumalak, wari"
    ):
        P.pick((), family="chess")
    with pytest.raises(P.PuzzleNotFound, match="grades: easy, medium, hard"):
        P.pick((), grade="impossible")
    with pytest.raises(P.PuzzleNotFound, match="no puzzles of"):
        P.daily(datetime.date(2030, 1, 1), family="manbula")  # a family with none


# -- mining -----------------------------------------------------------------------------------


def test_find_proves_a_known_puzzle():
    start = Position.initial(Ruleset.parse("kalah:pits=3,seeds=2"))
    found = P.find(start)
    assert found is not None
    assert (found.solution, found.value) == ("B", 4)
    assert {(r.move, r.value) for r in found.refutations} == {("A", -8), ("C", 0)}
    # a position with one legal move is no puzzle, nor a finished one
    single = Position.settled(start.rules, (0, 0, 1, 1, 1, 1, 4, 4), 0)
    assert single.legal_moves() == ["C"] and P.find(single) is None
    assert P.find(Game.from_moves(start.rules, found.line, position=start).position) is None


def test_mining_a_finished_game_finds_the_shipped_puzzles_again():
    # The miner's first kalah game (bench/mine_puzzles.py): the same game, the same puzzles.
    shipped = {(p.position.board, p.position.mover): p for p in PUZZLES if p.family == "kalah"}
    game = P.self_play("kalah", seed=0)
    assert game.is_over()
    found = list(P.mine([game], "game", max_seeds=16))
    assert found and all(p.source == "game" for p in found)
    again = [p for p in found if (p.position.board, p.position.mover) in shipped]
    assert again
    for puzzle in again:
        kept = shipped[(puzzle.position.board, puzzle.position.mover)]
        assert (puzzle.solution, puzzle.value, puzzle.line) == (
            kept.solution,
            kept.value,
            kept.line,
        )


def test_mine_takes_positions_and_skips_the_seen():
    game = Game.from_moves("kalah:pits=3,seeds=2", "B C a c")
    seen: set = set()
    first = list(P.mine([game.positions], seen=seen))
    assert len(first) == 3
    assert list(P.mine([game], seen=seen)) == []
    with pytest.raises(ValueError, match="source"):
        list(P.mine([game], source="dream"))


def test_self_play_is_reproducible():
    assert P.self_play("wari", 3).moves == P.self_play("wari", 3).moves
    assert P.self_play("wari", 3).moves != P.self_play("wari", 4).moves
