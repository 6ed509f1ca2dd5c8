"""``mancala solve`` and ``mancala hint`` through the real CLI entry point."""

import re

from bot.cli import main


def test_solve_prints_the_proven_value_and_a_best_move(capsys):
    assert main(["solve", "kalah:pits=4,seeds=3"]) == 0
    out = capsys.readouterr().out
    assert "value +8 for South (proven)" in out
    assert re.search(r"best move [A-D]\n", out)
    assert re.search(r"[\d,]+ nodes in [\d.]+ s \(with a table of the boards with at most 10 "
                     r"seeds left\)", out)
    assert main(["solve", "kalah:pits=4,seeds=3", "--table", "0", "--tt-bits", "16"]) == 0
    out = capsys.readouterr().out
    assert "value +8 for South (proven)" in out and "table" not in out


def test_solve_refuses_a_table_where_the_stores_matter(capsys):
    assert main(["solve", "wari", "--table", "10"]) == 2
    assert "no endgame table for wari" in capsys.readouterr().out
    assert main(["solve", "kalah", "--table", "30"]) == 2
    assert "--table takes 0 to 20 seeds" in capsys.readouterr().out
    assert main(["solve", "kalah", "--tt-bits", "40"]) == 2
    assert "--tt-bits takes 10 to 32" in capsys.readouterr().out


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
    assert main(["hint", "kalah", "--time", "-1"]) == 2
    assert "--time takes seconds" in capsys.readouterr().out
    assert main(["solve", "kalah:pits=1,seeds=1", "--moves", "A"]) == 2
    assert "the game is over" in capsys.readouterr().out
