"""The referee commands: rules, board and move, as a correspondence player uses them."""

import subprocess
import sys

from bot.cli import main
from engine import Game, render


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:  # str or bytes, read as a real standard input would be
        import io

        data = stdin.encode() if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_rules_lists_presets_and_explains_one(capsys):
    status, out, _ = run(capsys, "rules")
    assert status == 0
    for name in ("kalah", "kalah-nosweep", "wari", "oware", "al-manqala", "mankala", "manbula"):
        assert f"\n{name} " in "\n" + out
    status, out, _ = run(capsys, "rules", "awale:captures=2-4")
    assert status == 0 and out.startswith("wari: captures=2-4\n")
    assert "grand_slam=take_all:" in out and "must_feed=reach:" in out


def test_board_after_moves_matches_the_engine(capsys):
    status, out, _ = run(capsys, "board", "wari", "--moves", "E d A")
    assert status == 0
    assert out.strip() == render(Game.from_moves("wari", "E d A").position).strip()
    status, out, _ = run(capsys, "board", "wari", "--moves", "E d A", "--perspective", "north")
    assert out.splitlines()[-2].startswith("Captured: South 0, North 0")


def test_board_prints_togyz_kumalak_with_its_tuzdyks_and_playstrategys_string(capsys):
    moves = "F f I h B d"  # North's last stone makes 3 in South's E: North's tuzdyk
    status, out, _ = run(capsys, "board", "togyz-kumalak", "--moves", moves, "--fen")
    assert status == 0
    *board, fen = out.rstrip("\n").splitlines()
    assert "\n".join(board) == render(Game.from_moves("togyz-kumalak", moves).position)
    assert board[3].split() == ["12", "2", "13", "13", "X", "3", "12", "12", "1"]
    assert "Tuzdyk: North's at E." in board
    assert fen == "13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4"
    status, out, err = run(capsys, "board", "toguz-korgool", "--moves", moves + " E")
    assert status == 1 and "E is North's tuzdyk: nobody sows from it" in err


def test_move_reads_playstrategys_string(capsys, tmp_path):
    board = tmp_path / "fen.txt"
    board.write_text("13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4\n")
    status, out, _ = run(capsys, "move", "togyz-kumalak", "--position", str(board), "--move", "A")
    expected = Game.from_moves("togyz-kumalak", "F f I h B d A").position
    assert status == 0 and out.strip() == render(expected).strip()


def test_move_reads_a_position_checks_the_move_and_prints_the_next(capsys, tmp_path, monkeypatch):
    board = tmp_path / "board.txt"
    board.write_text(render(Game.from_moves("wari", "E d").position))
    status, out, _ = run(capsys, "move", "wari", "--position", str(board), "--move", "A")
    assert status == 0 and out.strip() == render(Game.from_moves("wari", "E d A").position).strip()

    status, out, err = run(capsys, "move", "wari", "--position", str(board), "--move", "E")
    assert status == 1 and out == ""
    assert "pit E is empty; legal moves: A, B, C, D, F" in err

    status, out, _ = run(
        capsys,
        "move",
        "wari",
        "--position",
        "-",
        "--move",
        "B",
        stdin=board.read_text(),
        monkeypatch=monkeypatch,
    )
    assert status == 0 and "North to move; last move B." in out


def test_move_from_north_side_uses_north_letters(capsys, tmp_path):
    # North writes the board from their side, their pits uppercase at the bottom.
    board = tmp_path / "north.txt"
    board.write_text(render(Game.from_moves("wari", "E").position, perspective="north"))
    status, out, _ = run(
        capsys, "move", "wari", "--position", str(board), "--move", "A", "--perspective", "north"
    )
    assert status == 0
    expected = render(Game.from_moves("wari", "E a").position, perspective="north")
    assert out.strip() == expected.strip()


def test_errors_are_one_line_and_nonzero(capsys, tmp_path):
    for argv, says in [
        (("rules", "chess"), "unknown ruleset 'chess'"),
        (("board", "wari", "--moves", "E Z"), "move 2 (Z)"),
        (
            ("move", "wari", "--position", str(tmp_path / "missing"), "--move", "A"),
            "cannot read the position",
        ),
    ]:
        status, out, err = run(capsys, *argv)
        assert status == 1 and out == "" and says in err and "Traceback" not in err
    garbage = tmp_path / "garbage.txt"
    garbage.write_bytes(b"\xff\xfe not a board \x00")
    status, _, err = run(capsys, "move", "wari", "--position", str(garbage), "--move", "A")
    assert status == 1 and err.startswith("error: ")


def test_the_console_script_runs():
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "board", "kalah", "--moves", "C"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "South to move; last move C." in done.stdout
