"""Endgame tables on disk (``storage.tables``) and ``mancala solve`` using them: built once,
read back the same, rebuilt when the file is damaged, and never a crash over the directory."""

import os

import numpy as np
import pytest

from bot.cli import main
from engine import Position, Ruleset
from engine.ai.encoding import encode
from engine.ai.endgame import build
from engine.ai.search import solve
from storage.tables import endgame_table, table_path

RULES = Ruleset.parse("kalah:pits=4,seeds=3")


def test_a_table_is_built_once_and_read_back_identical(tmp_path):
    first = endgame_table(RULES, 9, tmp_path)
    assert first.source == "built" and first.path.exists()
    again = endgame_table(RULES, 9, tmp_path)
    assert again.source == "loaded" and str(first.path) in again.note
    fresh = build(encode(RULES), 9)
    assert np.array_equal(again.values, fresh[1]) and np.array_equal(again.counts, fresh[0])


def test_the_solver_gives_the_same_value_with_a_loaded_table(tmp_path):
    endgame_table(RULES, 9, tmp_path)
    loaded = endgame_table(RULES, 9, tmp_path)
    start = Position.initial(RULES)
    with_file = solve(start, endgame_seeds=9, endgame_table=loaded.table)
    assert with_file.complete and with_file.value == solve(start, tt_bits=16).value == 8


def test_a_table_of_another_size_is_refused_by_the_solver(tmp_path):
    other = endgame_table(RULES, 8, tmp_path)
    with pytest.raises(ValueError, match="not one of 9 seeds"):
        solve(Position.initial(RULES), endgame_seeds=9, endgame_table=other.table)


def test_rulesets_and_sizes_get_their_own_files(tmp_path):
    paths = {
        table_path(Ruleset.parse(text), seeds, tmp_path)
        for text in ("kalah", "kalah:pits=4,seeds=3", "kalah:empty_capture=none")
        for seeds in (8, 9)
    }
    assert len(paths) == 6
    # two spellings of one ruleset share one file
    assert table_path(Ruleset.parse("kalah:pits=6"), 8, tmp_path) == table_path(
        Ruleset.parse("kalah"), 8, tmp_path
    )


@pytest.mark.parametrize(
    "damage",
    [
        lambda path: path.write_bytes(path.read_bytes()[:1000]),  # cut short
        lambda path: path.write_bytes(b"not a table at all"),
        lambda path: np.save(path, np.zeros(10, np.int8)),  # the wrong size
        lambda path: np.save(path, np.full(np.load(path).size, -128, np.int8)),  # unfinished
    ],
)
def test_a_damaged_file_is_rebuilt_and_replaced(tmp_path, damage):
    good = endgame_table(RULES, 9, tmp_path)
    damage(good.path)
    again = endgame_table(RULES, 9, tmp_path)
    assert again.source == "built" and "unusable" in again.note
    assert np.array_equal(again.values, good.values)
    assert endgame_table(RULES, 9, tmp_path).source == "loaded"  # the file is whole again


def test_an_unwritable_directory_only_costs_the_saving(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the directory should be")
    stored = endgame_table(RULES, 9, blocker / "tables")
    assert stored.source == "built, not saved" and "not saved" in stored.note
    assert "unusable" not in stored.note  # there was no file to be unusable
    assert np.array_equal(stored.values, build(encode(RULES), 9)[1])


def test_no_temporary_files_are_left_behind(tmp_path):
    endgame_table(RULES, 9, tmp_path)
    assert [p.suffix for p in tmp_path.iterdir()] == [".npy"]


def test_solve_command_saves_a_big_table_and_reads_it_the_next_time(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MANCALA_TABLES", str(tmp_path))
    arguments = ["solve", "kalah", "--table", "11", "--nodes", "20000", "--tt-bits", "16"]
    assert main(arguments) == 0
    first = capsys.readouterr().out
    assert "the table: built and saved to " + str(tmp_path) in first
    assert main(arguments) == 0
    second = capsys.readouterr().out
    assert "the table: loaded from " + str(tmp_path) in second
    # the same search either way
    assert (
        first.split("the table")[0].split("nodes in")[0]
        == second.split("the table")[0].split("nodes in")[0]
    )


def test_solve_command_builds_small_tables_without_a_file(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MANCALA_TABLES", str(tmp_path))
    assert main(["solve", "kalah:pits=4,seeds=3"]) == 0
    assert "the table" not in capsys.readouterr().out
    assert not os.listdir(tmp_path)


def test_an_unreadable_file_is_rebuilt_without_a_crash(tmp_path):
    good = endgame_table(RULES, 9, tmp_path)
    good.path.unlink()
    good.path.mkdir()  # something that is not a file where the table should be
    again = endgame_table(RULES, 9, tmp_path)
    assert again.source == "built, not saved" and "unusable" in again.note
    assert np.array_equal(again.values, good.values)


def test_a_solve_uses_the_largest_table_kept_and_else_builds_the_quick_one(tmp_path, monkeypatch):
    # A first solve builds a table that takes under a minute (18 seeds for Kalah(6,4)); a
    # bigger one built on request (--table 20) is used by later solves without asking. Only
    # the file's name is looked at here: reading it checks it (and rebuilds a bad one).
    from bot.commands.ai import choose_table_seeds
    from storage.tables import largest_stored

    monkeypatch.setenv("MANCALA_TABLES", str(tmp_path))
    kalah = Ruleset.parse("kalah")
    assert choose_table_seeds(kalah) == 18
    table_path(Ruleset.parse("kalah:capture_needs_opposite=yes"), 20, tmp_path).touch()
    assert choose_table_seeds(kalah) == 18  # another ruleset's table is not this one's
    table_path(kalah, 19, tmp_path).touch()
    assert choose_table_seeds(kalah) == 19
    table_path(kalah, 20, tmp_path).touch()
    table_path(kalah, 21, tmp_path).touch()  # beyond what a solve reads
    assert choose_table_seeds(kalah) == 20
    assert largest_stored(kalah, tmp_path, 10, 17) is None
    # Where play depends on the stores, the table of bounds the levels also read.
    assert choose_table_seeds(Ruleset.parse("wari")) == 13


def test_a_tables_directory_the_system_cannot_name_costs_only_the_saving(
    tmp_path, monkeypatch, capsys
):
    # MANCALA_TABLES longer than a file name may be: looking for a kept table must not raise,
    # and the note that the table was not saved quotes a short excerpt of the setting.
    from bot.commands.ai import choose_table_seeds
    from storage.tables import largest_stored

    too_long = tmp_path / ("a" * 5000)
    kalah = Ruleset.parse("kalah")
    assert largest_stored(kalah, too_long, 18, 20) is None
    monkeypatch.setenv("MANCALA_TABLES", str(too_long))
    assert choose_table_seeds(kalah) == 18
    stored = endgame_table(RULES, 9, too_long)
    assert stored.source == "built, not saved" and len(stored.note) < 300
