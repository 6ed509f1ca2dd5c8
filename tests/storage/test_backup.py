"""Backup while the service writes, and restore with checks: through the real command."""

import sqlite3

import pytest

from bot.cli import main
from bot.service import Channel, GameService, ManualClock, Player

ALICE, BOB = Player("discord", "1"), Player("email", "b@example.org")


async def test_a_backup_taken_while_games_are_played_is_a_sound_copy(tmp_path, monkeypatch, capsys):
    database = tmp_path / "games.sqlite3"
    monkeypatch.setenv("MANCALA_DB", str(database))
    service = await GameService.open(database, clock=ManualClock(1e6), tick_every=None)
    try:
        challenge = await service.challenge(ALICE, BOB, "kalah", Channel("discord", "c"))
        game = await service.accept(challenge.id, BOB)
        await service.move(game.id, ALICE, "C")
        assert main(["backup", str(tmp_path / "copy.sqlite3")]) == 0  # the service is open
        await service.move(game.id, ALICE, "F")  # after the copy: not in it
    finally:
        await service.close()
    copy = sqlite3.connect(tmp_path / "copy.sqlite3")
    assert copy.execute("SELECT count(*) FROM moves").fetchone() == (1,)
    assert main(["backup", str(tmp_path / "copy.sqlite3")]) == 1  # never overwrites
    assert "exists already" in capsys.readouterr().err


def test_restore_checks_the_file_and_keeps_the_database_it_replaces(tmp_path, monkeypatch, capsys):
    database = tmp_path / "games.sqlite3"
    monkeypatch.setenv("MANCALA_DB", str(database))
    bogus = tmp_path / "bogus.sqlite3"
    bogus.write_text("hello")
    assert main(["restore", str(bogus)]) == 1
    assert "not a SQLite database" in capsys.readouterr().err
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as db:
        db.execute("CREATE TABLE schema_version (version INTEGER)")
        db.execute("INSERT INTO schema_version VALUES (999)")
    assert main(["restore", str(newer)]) == 1
    assert "upgrade the program first" in capsys.readouterr().err

    good = tmp_path / "good.sqlite3"
    with sqlite3.connect(database) as db:  # the current database, to be replaced
        db.execute("CREATE TABLE schema_version (version INTEGER)")
        db.execute("INSERT INTO schema_version VALUES (1)")
    assert main(["backup", str(good)]) == 0
    with sqlite3.connect(database) as db:
        db.execute("INSERT INTO schema_version VALUES (2)")
    capsys.readouterr()
    assert main(["restore", str(good)]) == 0
    said = capsys.readouterr().out
    assert "kept as" in said
    kept = next(tmp_path.glob("games.sqlite3.before-restore-*"))
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT max(version) FROM schema_version").fetchone() == (1,)
    with sqlite3.connect(kept) as db:
        assert db.execute("SELECT max(version) FROM schema_version").fetchone() == (2,)


@pytest.mark.parametrize("name", ["backup", "restore"])
def test_a_missing_database_or_file_is_said_plainly(tmp_path, monkeypatch, capsys, name):
    monkeypatch.setenv("MANCALA_DB", str(tmp_path / "none.sqlite3"))
    assert main([name, str(tmp_path / "absent.sqlite3")]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_backup_of_a_postgresql_database_points_to_pg_dump(tmp_path, capsys, monkeypatch):
    from bot.cli import main

    monkeypatch.setenv("MANCALA_DB", "postgresql://bot@db.example/games")
    assert main(["backup", str(tmp_path / "b.sqlite3"), "--env", str(tmp_path / "none")]) == 78
    assert "pg_dump" in capsys.readouterr().err
