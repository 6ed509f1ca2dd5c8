"""The community's records on the command line: ``mancala review --record`` in each format,
``mancala move --position`` on PlayStrategy's Oware string, and a malformed record's message."""

import json

from bot.cli import main
from engine import Game, render

RECORDS = {
    "game.ogn": (
        '[Variant "Abapa"]\n[South "Joan"]\n[North "Aalina"]\n\n1. D e 2. E d *\n',
        "D e E d",
    ),
    "game.pgn": ('[Variant "Bestemshe"]\n[P1 "dana"]\n[P2 "timur"]\n\n1. b1e2 c2b1 *\n', "B c"),
    "sheet.txt": ("1. 65 33\n", "F c"),
}


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_review_reads_each_format(capsys, tmp_path):
    for name, (text, moves) in RECORDS.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        argv = ("review", "--record", str(path), "--json", "--nodes", "1e3", "--time", "1")
        status, out, _ = run(capsys, *argv, "--quiet")
        assert status == 0, out
        assert [p["move"] for p in json.loads(out)["plies"]] == moves.split()


def test_review_names_line_and_ply_of_a_bad_record(capsys, tmp_path):
    path = tmp_path / "bad.ogn"
    path.write_text('[Variant "Abapa"]\n\n1. D e\n2. E+1 d *\n', encoding="utf-8")
    status, out, _ = run(capsys, "review", "--record", str(path), "--quiet")
    assert status == 2
    assert "line 4, ply 3 ('E+1'): this move captures 0 seeds, not 1" in out


def test_move_reads_playstrategys_oware_string(capsys, tmp_path):
    board = tmp_path / "fen.txt"
    board.write_text("1,4S,4S,4S,4S,5S/1,6S,2S,7S,6S,6S 0 0 N 2\n", encoding="utf-8")
    status, out, _ = run(capsys, "move", "oware", "--position", str(board), "--move", "e")
    assert status == 0
    assert out.strip() == render(Game.from_moves("oware", "C f A e").position).strip()


def test_record_converts_our_export_and_lists_formats(capsys, tmp_path):
    ours = tmp_path / "game-7.txt"
    ours.write_text(
        '[Game "7"]\n[Rules "togyz-kumalak"]\n[South "Aruzhan"]\n[North "Yerlan"]\n'
        '[First "south"]\n[Result "*"]\n\nF c\n',
        encoding="utf-8",
    )
    status, out, _ = run(capsys, "record", str(ours))
    assert status == 0 and out.split() == ["playstrategy-pgn", "kazakh-scoresheet"]
    status, out, _ = run(capsys, "record", str(ours), "--to", "kazakh-scoresheet")
    assert status == 0 and out == "1. 65 33\n"
    status, out, _ = run(capsys, "record", str(ours), "--to", "playstrategy-pgn")
    assert status == 0 and '[P1 "Aruzhan"]' in out and "1. f1e2 g2c1 *" in out
    status, out, _ = run(capsys, "record", str(ours), "--to", "auale-ogn")
    assert status == 2 and "Aualé's OGN records oware games" in out
    kalah = tmp_path / "kalah.txt"
    kalah.write_text('[Rules "kalah"]\n\nC\n', encoding="utf-8")
    status, out, _ = run(capsys, "record", str(kalah))
    assert status == 1 and "no community format describes kalah" in out


def test_move_needs_no_rules_for_a_playstrategy_string(capsys, tmp_path):
    board = tmp_path / "fen.txt"
    board.write_text("1,4S,4S,4S,4S,5S/1,6S,2S,7S,6S,6S 0 0 N 2\n", encoding="utf-8")
    status, out, _ = run(capsys, "move", "--position", str(board), "--move", "e")
    assert status == 0
    assert out.strip() == render(Game.from_moves("oware", "C f A e").position).strip()
    status, _, err = run(
        capsys, "move", "--position", str(board), "--move", "e", "--to-move", "south"
    )
    assert status == 1 and "North to move" in err
    drawn = tmp_path / "board.txt"
    drawn.write_text(render(Game("oware").position), encoding="utf-8")
    status, _, err = run(capsys, "move", "--position", str(drawn), "--move", "C")
    assert status == 1 and "give the RULES" in err
