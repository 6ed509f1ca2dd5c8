"""`mancala puzzle` in the terminal: the board from the solver's seat, right and wrong answers
with their lines, another puzzle on request, and short messages (never a traceback) for
anything else typed."""

import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.commands.puzzle import build_args, run_puzzle
from engine import puzzles as P
from engine import to_perspective

ROOT = Path(__file__).resolve().parents[2]


def north_puzzle():
    return next(p for p in P.load() if p.position.mover == 1 and p.family == "kalah")


def south_puzzle():
    return next(p for p in P.load() if p.position.mover == 0 and p.family == "oware")


def seat(puzzle, moves):
    return " ".join(to_perspective(m, puzzle.side) for m in moves)


def test_a_right_answer_shows_the_proof_line(capsys):
    puzzle = south_puzzle()
    assert main(["puzzle", "--id", puzzle.id, "--answer", puzzle.solution]) == 0
    out = capsys.readouterr().out
    assert f"Puzzle {puzzle.id}" in out and "South to move" in out
    assert f"Right: {puzzle.solution}." in out
    assert seat(puzzle, puzzle.line) in out


def test_a_wrong_answer_shows_the_refutation_line(capsys):
    puzzle = south_puzzle()
    wrong = puzzle.refutations[0]
    assert main(["puzzle", "--id", puzzle.id, "--answer", wrong.move]) == 1
    out = capsys.readouterr().out
    assert f"Not {wrong.move}" in out
    assert seat(puzzle, wrong.line) in out
    assert "Traceback" not in out


def test_north_solves_from_their_own_seat(capsys):
    puzzle = north_puzzle()
    typed = to_perspective(puzzle.solution, "north")  # their own pits uppercase
    assert typed.isupper()
    assert main(["puzzle", "--id", puzzle.id, "--answer", typed]) == 0
    out = capsys.readouterr().out
    assert "North to move" in out and f"Right: {typed}." in out
    # the board is drawn from North's seat: North's pits are the bottom row, A to F
    lines = out.splitlines()
    bottom = lines[lines.index("North to move.") - 1]
    assert bottom.split() == list("ABCDEF")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--id", "kalah-0001", "--answer", "Z"], "error: 'Z' is not a move"),
        (["--id", "kalah-9999"], "error: there is no puzzle 'kalah-9999'"),
        (["--id", "\x1b[31mred", "--answer", "A"], "error: there is no puzzle"),
    ],
)
def test_bad_input_gets_a_short_message(capsys, argv, message):
    assert main(["puzzle", *argv]) == 2
    out = capsys.readouterr().out
    assert message in out and "Traceback" not in out and "\x1b" not in out


def test_an_unknown_family_or_grade_is_refused_by_the_parser(capsys):
    for argv in (["--family", "chess"], ["--grade", "brutal"]):
        with pytest.raises(SystemExit) as exit:
            main(["puzzle", *argv])
        assert exit.value.code == 2
        assert "invalid choice" in capsys.readouterr().err


def answers(*lines):
    """A ``read`` for run_puzzle: the lines given, then the end of input."""
    typed = iter(lines)
    prompts = []

    def read(prompt):
        prompts.append(prompt)
        return next(typed, None)

    return read, prompts


def test_a_session_tries_again_then_goes_on_to_another(capsys):
    puzzle = south_puzzle()
    wrong = puzzle.refutations[0].move
    read, prompts = answers("", "Q9", wrong, puzzle.solution, "y", "solution", "n")
    assert run_puzzle(build_args(id=puzzle.id), read) == 0
    out = capsys.readouterr().out
    assert "Type a move, 'solution', 'next' or 'quit'." in out
    assert "'Q9' is not a move" in out
    assert f"Not {wrong}" in out and "Try again" in out
    assert f"Right: {puzzle.solution}." in out
    assert out.count("Puzzle ") == 2  # another one after "y"
    assert "The solution is" in out
    assert prompts.count("Another puzzle? [Y/n] ") == 2


def test_a_session_keeps_to_its_family_and_grade(capsys):
    read, _ = answers("next", "next", "next", "quit")
    assert run_puzzle(build_args(family="wari", grade="easy"), read) == 0
    out = capsys.readouterr().out
    heads = [line for line in out.splitlines() if line.startswith("Puzzle ")]
    assert len(heads) == 4 and len(set(heads)) == 4
    assert all("wari" in head and ", easy)" in head for head in heads)


def test_the_end_of_input_ends_the_session(capsys):
    read, _ = answers()
    assert run_puzzle(build_args(id="kalah-0001"), read) == 0


def test_the_command_reads_standard_input_whatever_its_bytes():
    puzzle = south_puzzle()
    typed = b"\xff\xfe\n" + b"x" * 5000 + b"\n" + puzzle.solution.encode() + b"\nn\n"
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "puzzle", "--id", puzzle.id],
        input=typed,
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()
    assert "Traceback" not in out + done.stderr.decode()
    assert out.count("is not a move") == 2
    assert f"Right: {puzzle.solution}." in out


def test_an_illegal_move_is_explained_in_the_solvers_own_letters(capsys):
    puzzle = next(
        p
        for p in P.load()
        if p.position.mover == 1 and p.family == "kalah" and 0 in p.position.pits[6:]
    )
    empty = "ABCDEF"[puzzle.position.pits[6:].index(0)]  # North's own empty pit, as they see it
    assert main(["puzzle", "--id", puzzle.id, "--answer", empty]) == 2
    out = capsys.readouterr().out
    legal = ", ".join(seat(puzzle, (m,)) for m in puzzle.position.legal_moves())
    assert f"error: pit {empty} is empty; legal moves: {legal}" in out
    assert legal.isupper()
