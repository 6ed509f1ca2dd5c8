"""A small position is solved at once on a fresh install, and a solve's table fits its board.

Issue 31: a 6-bead al-manqala endgame waited for the compiler, then for a 13-seed table, to
prove in 10 nodes what a beginner sees at a glance. The pure-Python solver
(``engine.ai.pysolve``) proves such a position while the compiled search is not ready, and a
solve never builds a table for more seeds than its board holds.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from bot.cli import main
from engine import Position, Ruleset, parse_position
from engine.ai import hint, pysolve
from tests.engine.minimax import minimax, path_minimax

PUZZLE = Path(__file__).parents[1] / "data" / "al_manqala_004_puzzle.txt"
# The position of issue 31: six beads on the board, South to move; C wins by 2.
ISSUE_31 = """\
   g  f  e  d  c  b  a
   1  -  -  -  -  -  -
   1  -  4  -  -  -  -
   A  B  C  D  E  F  G
Captured: North 46, South 46.
South to move.
"""


def random_positions(rules: Ruleset, seeds: int, count: int, seed: int) -> list[Position]:
    """Boards with ``seeds`` seeds in the pits, the rest in the stores, nobody over half."""
    rng = random.Random(seed)
    n2 = 2 * rules.pits
    rest = rules.total_seeds - seeds
    found = []
    while len(found) < count:
        pits = [0] * n2
        for _ in range(seeds):
            pits[rng.randrange(n2)] += 1
        south = rng.randint(
            max(0, rest - rules.total_seeds // 2), min(rest, rules.total_seeds // 2)
        )
        position = Position.settled(rules, (*pits, south, rest - south), rng.randrange(2))
        if not position.is_over():
            found.append(position)
    return found


@pytest.mark.parametrize(
    "name, seeds, reference",
    [
        ("kalah:pits=3,seeds=2", 6, minimax),
        ("kalah:pits=4,seeds=3", 7, minimax),
        ("oware:pits=3,seeds=2", 3, path_minimax),
        ("wari:pits=3,seeds=2", 3, path_minimax),
        ("al-manqala:pits=3,seeds=2", 3, path_minimax),
        ("mankala:pits=2", 3, path_minimax),
        ("manbula:pits=2,seeds=3", 3, path_minimax),
    ],
)
def test_the_python_solver_agrees_with_plain_minimax(name, seeds, reference):
    rules = Ruleset.parse(name)
    for position in random_positions(rules, seeds, 12, seed=31):
        result = pysolve.solve(position)
        assert result.complete
        assert result.value == reference(position), position
        # The move it names reaches that value.
        after = position.play(result.move)
        if after.is_over():
            got = after.stores[position.mover] - after.stores[1 - position.mover]
        else:
            got = reference(after) * (1 if after.mover == position.mover else -1)
        assert got == result.value, (position, result.move)


def test_a_budget_too_small_leaves_the_proof_incomplete():
    position = Position.initial(Ruleset.parse("kalah:pits=4,seeds=3"))
    result = pysolve.solve(position, node_limit=50)
    assert not result.complete and result.move in position.legal_moves()
    assert pysolve.quick(Position.initial(Ruleset.parse("kalah"))) is None  # 48 seeds: no try


@pytest.fixture
def cold_kernel(monkeypatch, tmp_path):
    """The compiled search "not ready", as on a fresh install; compiling it, searching with
    it or building a table fails the test."""
    from bot.ai_runtime import kernel_cache
    from bot.commands import ai as commands

    def forbidden(*args, **kwargs):
        raise AssertionError("a small position must not wait for the compiled search")

    monkeypatch.setenv("MANCALA_TABLES", str(tmp_path / "tables"))
    monkeypatch.setattr(kernel_cache, "is_ready", lambda: False)
    monkeypatch.setattr(kernel_cache, "compile_now", forbidden)
    monkeypatch.setattr(kernel_cache, "start_background", forbidden)
    monkeypatch.setattr(commands, "_endgame_table", forbidden)
    monkeypatch.setattr("engine.ai.loading.load_kernel", forbidden)
    monkeypatch.setattr("engine.ai.search.solve", forbidden)
    monkeypatch.setattr("engine.ai.endgame.build", forbidden)
    monkeypatch.setattr("engine.ai.retrograde.build", forbidden)
    return tmp_path


def test_the_issue_position_is_solved_without_the_compiler_or_a_table(cold_kernel, capsys):
    board = cold_kernel / "issue31.txt"
    board.write_text(ISSUE_31)
    assert main(["solve", "al-manqala", "--position", str(board), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "value +2 for South (proven)" in out
    assert "best move C\n" in out
    assert "table" not in out and "the quick solver" in out
    line = next(text for text in out.splitlines() if text.startswith("line "))
    assert line.startswith("line C ") and line.endswith("South wins.")


def test_the_004_puzzle_is_solved_without_the_compiler(cold_kernel, capsys):
    assert main(["solve", "al-manqala", "--position", str(PUZZLE), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "for South (proven)" in out and "best move C\n" in out
    line = next(text for text in out.splitlines() if text.startswith("line "))
    assert line.startswith("line C ") and line.endswith("South wins.")


def test_a_hint_on_a_small_position_is_proven_without_the_compiler(cold_kernel, capsys):
    board = cold_kernel / "issue31.txt"
    board.write_text(ISSUE_31)
    assert main(["hint", "al-manqala", "--position", str(board)]) == 0
    assert "hint: C (value +2 for South, proven;" in capsys.readouterr().out
    # The service's hint while the kernel compiles (compiled=False) is the same proof.
    position = parse_position(ISSUE_31, Ruleset.parse("al-manqala"))
    shown = hint(position, compiled=False)
    assert (shown.move, shown.value, shown.exact, shown.reduced) == ("C", 2.0, True, False)


def test_a_large_position_still_waits_for_the_compiler(cold_kernel, capsys):
    with pytest.raises(AssertionError, match="must not wait"):
        main(["solve", "al-manqala", "--quiet"])  # 98 beads: nothing quick to try


@pytest.fixture
def table_spy(monkeypatch, tmp_path):
    """The seeds of every endgame table a search is given (with the compiled search ready:
    the suite compiles it)."""
    from engine.ai.search import Searcher

    monkeypatch.setenv("MANCALA_TABLES", str(tmp_path))
    asked: list[int] = []
    use = Searcher.use_endgame_table

    def spy(self, max_seeds, table=None):
        asked.append(max_seeds)
        return use(self, max_seeds, table)

    monkeypatch.setattr(Searcher, "use_endgame_table", spy)
    return asked


def _written(tmp_path: Path, position: Position) -> str:
    from engine.notation import render

    board = tmp_path / "board.txt"
    board.write_text(render(position))
    return str(board)


def test_a_table_is_never_built_for_more_seeds_than_the_board_holds(table_spy, tmp_path, capsys):
    """Oware(3) reads a 12-seed table; a board of 6 seeds gets one of 6. (``--nodes`` makes
    the solve go straight to its table, without the try that proves a small board first.)"""
    from bot.commands.ai import choose_table_seeds

    rules = Ruleset.parse("oware:pits=3")
    assert choose_table_seeds(rules, tmp_path) > 6
    position = Position.settled(rules, (1, 0, 2, 1, 1, 1, 9, 9), 0)
    board = _written(tmp_path, position)
    assert main(["solve", str(rules), "--position", board, "--quiet", "--nodes", "1e9"]) == 0
    out = capsys.readouterr().out
    assert "(proven)" in out and "with a table of the boards with at most 6 seeds left" in out
    assert table_spy and max(table_spy) == 6
    table_spy.clear()
    assert main(["solve", str(rules), "--position", board, "--quiet", "--table", "10"]) == 0
    assert "(proven)" in capsys.readouterr().out
    assert all(seeds <= 6 for seeds in table_spy)


def test_a_small_board_is_solved_without_a_table(table_spy, tmp_path, capsys):
    """Up to SEARCH_ONLY_SEEDS (Kalah) the search alone is quicker than any table; above
    it, a small board is proven without one when the compiled search finds it quickly."""
    from bot.commands.ai import SEARCH_ONLY_SEEDS

    rules = Ruleset.parse("kalah")
    position = Position.settled(rules, (1, 0, 2, 0, 1, 0, 0, 1, 0, 1, 0, 1, 20, 21), 0)
    assert sum(position.pits) <= SEARCH_ONLY_SEEDS
    assert main(["solve", "kalah", "--position", _written(tmp_path, position), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "(proven)" in out and "table" not in out and not any(table_spy)
    # al-manqala (positions repeat) would get a table from 3 seeds up: 004's 11 beads are
    # proven without one all the same.
    assert main(["solve", "al-manqala", "--position", str(PUZZLE), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "best move C\n" in out and "table" not in out and not any(table_spy)


def test_sized_table_seeds(tmp_path):
    from bot.commands.ai import sized_table_seeds

    # An empty tables directory: whatever tables this machine keeps (another test or run may
    # have built oware's) must not decide the answer.
    sized_table_seeds = functools.partial(sized_table_seeds, directory=tmp_path)

    kalah = Ruleset.parse("kalah")
    few = Position.settled(kalah, (1, 0, 2, 0, 1, 0, 0, 1, 0, 1, 0, 1, 20, 21), 0)
    many = Position.initial(kalah)
    assert sized_table_seeds(18, few) == 0
    assert sized_table_seeds(18, many) == 18
    oware = Ruleset.parse("oware")
    three = Position.settled(oware, (1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 22, 23), 0)
    assert sized_table_seeds(15, three) == 3
    two = Position.settled(oware, (1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 23, 23), 0)
    assert sized_table_seeds(15, two) == 0
