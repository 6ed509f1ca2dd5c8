"""A setting that cannot work gets one clear line and EX_CONFIG (78), which systemd's
RestartPreventExitStatus and the container's restart limit treat as final: no restart loop,
no traceback. The real program runs, as an operator would start it."""

import os
import subprocess
import sys

import pytest


def mancala(*args, env_extra, cwd):
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "MANCALA_DB")}
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        env=env,
        cwd=cwd,
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("args", [["play"], ["bot"], ["mail"], []])
def test_a_database_path_that_is_a_directory_is_one_line_and_status_78(tmp_path, args):
    env = {
        "MANCALA_DB": str(tmp_path),
        "DISCORD_TOKEN": "t" if args != ["play"] else "",
        "MANCALA_MAIL_ADDRESS": "mancala@example.org",
        "MANCALA_MAIL_RELAY": "127.0.0.1:1",
    }
    done = mancala(*args, env_extra=env, cwd=tmp_path)
    assert done.returncode == 78, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines[-1].startswith("mancala: MANCALA_DB is") and "a directory" in lines[-1]
    assert "Traceback" not in done.stderr


def test_an_unwritable_or_foreign_database_file_is_refused_clearly(tmp_path):
    foreign = tmp_path / "notes.txt"
    foreign.write_text("not a database")
    done = mancala("play", env_extra={"MANCALA_DB": str(foreign)}, cwd=tmp_path)
    assert done.returncode == 78 and "not a SQLite database" in done.stderr
    if os.geteuid() != 0:  # root may write anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        done = mancala("play", env_extra={"MANCALA_DB": str(locked / "g.sqlite3")}, cwd=tmp_path)
        assert done.returncode == 78 and "cannot be written" in done.stderr


def test_the_env_example_gives_a_working_setup(tmp_path):
    """Copying deploy/.env.example to .env must not break the program (it once named a
    directory, unwritable by the bot)."""
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "deploy" / ".env.example"
    (tmp_path / ".env").write_text(example.read_text())
    done = mancala("play", "--vs", "human", env_extra={"HOME": str(tmp_path)}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "New game #1" in done.stdout


@pytest.mark.parametrize(
    "url", ["postgresql://bot:s3cret-pw@127.0.0.1:1/games", "postgresql://::::"]
)
def test_an_unreachable_or_malformed_postgresql_url_is_one_line(tmp_path, url):
    """Not a traceback, and never the password; status 1, so a service manager retries a
    database that is down for a moment."""
    done = mancala("play", env_extra={"MANCALA_DB": url}, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().startswith("mancala: cannot reach the PostgreSQL database")
    assert "Traceback" not in done.stderr and "s3cret-pw" not in done.stderr


@pytest.mark.parametrize("args", [["bot"], ["mail"]])
@pytest.mark.parametrize(
    "name,value",
    [("MANCALA_AI_WORKERS", "0"), ("MANCALA_AI_WAITING_PER_PLAYER", "many")],
)
def test_a_bad_ai_setting_is_one_line_and_status_78(tmp_path, args, name, value):
    env = {
        "MANCALA_DB": str(tmp_path / "games.sqlite3"),
        "DISCORD_TOKEN": "t",
        "MANCALA_MAIL_ADDRESS": "mancala@example.org",
        "MANCALA_MAIL_RELAY": "127.0.0.1:1",
        name: value,
    }
    done = mancala(*args, env_extra=env, cwd=tmp_path)
    assert done.returncode == 78, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"mancala: {name} is '{value}'") and "whole number" in last
    assert "Traceback" not in done.stderr
