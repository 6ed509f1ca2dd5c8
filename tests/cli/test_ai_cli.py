"""``mancala solve`` and ``mancala hint`` through the real CLI entry point."""

import re
from pathlib import Path

import pytest

from bot.cli import main


def test_solve_prints_the_proven_value_and_a_best_move(capsys):
    assert main(["solve", "kalah:pits=4,seeds=3"]) == 0
    out = capsys.readouterr().out
    assert "value +8 for South (proven)" in out
    assert re.search(r"best move [A-D]\n", out)
    assert re.search(
        r"[\d,]+ nodes in [\d.]+ s \(with a table of the boards with at most 10 "
        r"seeds left\)",
        out,
    )
    assert main(["solve", "kalah:pits=4,seeds=3", "--table", "0", "--tt-bits", "16"]) == 0
    out = capsys.readouterr().out
    assert "value +8 for South (proven)" in out and "table" not in out


def test_solve_refuses_a_table_bigger_than_the_rules_allow(capsys):
    # Wari's table plays as if there were no majority rule: a capture in it must never give
    # one, so 12 seeds in all allow a table of 6.
    assert main(["solve", "wari:seeds=1", "--table", "10"]) == 2
    assert "--table takes 0 to 6 seeds for wari:seeds=1" in capsys.readouterr().out
    assert main(["solve", "kalah:pits=2,seeds=2", "--table", "10"]) == 2
    assert "--table takes 0 to 8 seeds" in capsys.readouterr().out


def test_solve_proves_a_wari_endgame_from_its_table(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("MANCALA_TABLES", str(tmp_path))
    from engine import Position, Ruleset
    from engine.notation import render

    # Ten seeds left, South one short of a majority: the table says whether it gets there.
    position = Position.settled(
        Ruleset.parse("wari"), (1, 1, 0, 3, 0, 0, 2, 0, 2, 0, 1, 0, 24, 14), 0
    )
    board = tmp_path / "board.txt"
    board.write_text(render(position))
    assert main(["solve", "wari", "--position", str(board), "--table", "10"]) == 0
    out = capsys.readouterr().out
    assert "(proven)" in out and "table of the boards with at most 10 seeds" in out


@pytest.mark.parametrize(
    "argv, says",
    [
        (["solve", "kalah", "--table", "30"], "--table: a seed count from 0 to 20, not '30'"),
        (["solve", "kalah", "--tt-bits", "40"], "--tt-bits: a number of bits from 10 to 32"),
        (["solve", "kalah:pits=3,seeds=2", "--nodes", "1e19"], "a node count from 1 to 1e+12"),
        (["solve", "kalah", "--nodes", "nan"], "a node count from 1"),
        (["hint", "kalah", "--time", "0"], "--time: seconds more than 0 and at most 600"),
        (["hint", "kalah", "--time", "-1"], "--time: seconds from 0 to 600, not '-1'"),
        (["hint", "kalah", "--time", "inf"], "--time: seconds from 0 to 600"),
    ],
)
def test_out_of_range_options_get_the_usage_line_and_status_2(capsys, argv, says):
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "usage: mancala" in err and says in err


def test_solve_after_moves_speaks_for_the_player_to_move(capsys):
    assert main(["solve", "kalah:pits=3,seeds=3", "--moves", "B"]) == 0
    out = capsys.readouterr().out
    assert "after B: North to move" in out and "for North (proven)" in out


def test_solve_with_a_node_cap_says_it_did_not_finish(capsys):
    assert main(["solve", "kalah", "--nodes", "20000", "--table", "0"]) == 0
    assert "not proven within 20,000 nodes" in capsys.readouterr().out


def test_hint_names_a_legal_move(capsys):
    assert main(["hint", "kalah:pits=4,seeds=2", "--moves", "A", "--time", "1"]) == 0
    out = capsys.readouterr().out
    move = re.search(r"hint: (\w)", out).group(1)
    assert move in "abcd" and "proven" in out


def test_bad_input_gets_a_clear_message_and_status_2(capsys):
    assert main(["solve", "kalah", "--moves", "A Q"]) == 2
    assert "move 2 (Q)" in capsys.readouterr().out
    assert main(["hint", "chess"]) == 2
    assert "unknown ruleset 'chess'" in capsys.readouterr().out
    assert main(["solve", "kalah:pits=1,seeds=1", "--moves", "A"]) == 2
    assert "the game is over" in capsys.readouterr().out


def test_a_long_solve_reports_progress_and_stops_cleanly_on_ctrl_c(tmp_path):
    """Its output is a pipe, not a terminal: progress still comes (a line at a time), and
    Ctrl-C prints what was proved instead of a traceback."""
    import os
    import signal
    import subprocess
    import sys

    env = dict(os.environ, MANCALA_TABLES=str(tmp_path))
    # Three plies in: the opening book answers the first two at once.
    command = ["solve", "kalah", "--moves", "A a B", "--table", "0", "--tt-bits", "16"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = proc.stderr.readline()  # the first progress line, after about a second
        assert line.startswith("Solving kalah: ") and "nodes" in line and "table" in line
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "interrupted: value in [" in out and "best move" in out
    assert "Traceback" not in err


PUZZLE = Path(__file__).parents[1] / "data" / "al_manqala_004_puzzle.txt"


def test_the_al_manqala_puzzle_is_answered_with_its_proof_line(capsys):
    """004's endgame problem (our reconstruction: docs/rules.md): South needs four beads.
    Protecting the single bead in B loses at once, since South can then not feed North;
    only C wins, and the proof line plays the game out to South's win."""
    assert main(["solve", "al-manqala", "--position", str(PUZZLE), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "for South (proven)" in out and "value +" in out
    assert "best move C\n" in out
    line = next(text for text in out.splitlines() if text.startswith("line "))
    assert line.startswith("line C ") and line.endswith("South wins.")
    assert main(["solve", "al-manqala", "--position", str(PUZZLE), "--moves", "B", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "for North (proven)" in out and "value +" in out
    assert "line g: Game over (South cannot feed)" in out and out.rstrip().endswith("North wins.")


def test_the_proof_line_can_be_left_out(capsys):
    assert main(["solve", "kalah:pits=3,seeds=2", "--no-line", "--quiet"]) == 0
    assert "line " not in capsys.readouterr().out
    assert main(["solve", "kalah:pits=3,seeds=2", "--quiet"]) == 0
    assert "\nline " in capsys.readouterr().out


def test_togyz_kumalak_is_solved_by_the_compiled_solver(capsys, tmp_path):
    # The compiled solver knows tuzdyks: a full board is searched within its budget (no
    # endgame table: Togyz Kumalak has none), a small ending proven with its line.
    assert main(["solve", "togyz-kumalak", "--moves", "E", "--nodes", "20000"]) == 0
    out = capsys.readouterr().out
    assert "not proven within 20,000 nodes" in out and "with a table" not in out
    board = tmp_path / "ending.txt"
    board.write_text(
        """
          i  h  g  f  e  d  c  b  a
          -  -  -  -  -  -  1  2  -
      75                            79
          -  -  -  -  -  -  -  3  2
          A  B  C  D  E  F  G  H  I"""
    )
    assert main(["solve", "togyz-kumalak", "--position", str(board)]) == 0
    out = capsys.readouterr().out
    assert "value +7 for South (proven)" in out and "South 82, North 75: South wins." in out
    assert main(["hint", "togyz-kumalak", "--moves", "E", "--time", "0.5"]) == 0
    assert re.search(r"hint: [a-i] ", capsys.readouterr().out)
