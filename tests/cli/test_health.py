"""``mancala health``, the heartbeat, the metrics endpoint and the logs, as an operator meets
them: a real ``mancala mail`` process started with the ``.env.example`` values, a loopback SMTP
relay, real HTTP scrapes."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import re
import sqlite3
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from bot import health, logs, metrics
from bot.cli import main
from bot.config import EX_CONFIG
from bot.service import Channel, GameService, NotYourTurn, Player
from storage.migrations import LATEST
from tests.mail.mail_support import Mailbox, free_port

ENV_EXAMPLE = Path(__file__).parents[2] / "deploy" / ".env.example"
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456"


def example_env(tmp_path: Path, **more: str) -> dict[str, str]:
    """The environment of a fresh deploy: ``.env.example`` as shipped, copied to ``.env``,
    with its directories pointed into ``tmp_path`` (and no token: terminal or mail mode)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MANCALA_", "DISCORD_", "LOG_", "METRICS_"))
    }
    env.update(MANCALA_DB=str(tmp_path / "data" / "mancala.sqlite3"), **more)
    (tmp_path / ".env").write_text(ENV_EXAMPLE.read_text())
    return env


async def run_cli(env, *argv, cwd) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        *argv,
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    return process.returncode, out.decode(), err.decode()


async def wait_until(predicate, timeout: float = 30.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError("the condition never held")
        await asyncio.sleep(0.1)


async def test_the_example_settings_start_a_bot_that_answers_health(tmp_path):
    """Copy .env.example to .env, start the mail surface (no token needed), and
    `mancala health` sees the database, the running bot, the relay and the AI."""
    mailbox = await Mailbox().start()
    metrics_port = free_port()
    env = example_env(
        tmp_path,
        MANCALA_MAIL_LISTEN=f"127.0.0.1:{free_port()}",
        MANCALA_MAIL_RELAY=f"127.0.0.1:{mailbox.port}",
        MANCALA_MAIL_ADDRESS="Mancala <mancala@bot.test>",
        MANCALA_MAIL_SECRET="s3cret-for-tests",
        METRICS_PORT=str(metrics_port),
        LOG_LEVEL="info",
    )
    stderr = open(tmp_path / "stderr.txt", "wb")  # noqa: SIM115  (the child writes it)
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "mail", env=env, cwd=tmp_path, stderr=stderr
    )
    beat = health.heartbeat_path(env["MANCALA_DB"], process.pid)
    try:
        await wait_until(beat.exists)
        status, out, err = await run_cli(env, "health", cwd=tmp_path)
        assert status == 0, out + err
        assert "ok    database:" in out and "(schema" in out
        assert "ok    bot: pid" in out and "mail listening" in out
        assert f"ok    mail relay: 127.0.0.1:{mailbox.port} answers EHLO" in out
        assert "ok    AI:" in out
        scraped = (
            urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10)
            .read()
            .decode()
        )
        assert "mancala_open_games 0.0" in scraped
    finally:
        process.terminate()
        code = await asyncio.wait_for(process.wait(), 20)
        stderr.close()
        await mailbox.stop()
    log = (tmp_path / "stderr.txt").read_text()
    assert code == 0, log
    assert "s3cret-for-tests" not in log
    assert not beat.exists()  # a bot that stopped cleanly is "not running", not "stale"
    status, out, _ = await run_cli(env, "health", cwd=tmp_path)
    assert status == 1 and "FAIL  bot: not running" in out


async def test_health_fails_for_a_stale_heartbeat_or_a_lost_surface(tmp_path):
    beat = tmp_path / "g.sqlite3.health.json"
    health.write_heartbeat(beat, {"surfaces": {"discord": "connected"}, "open_games": 3})
    assert health.check_bot(beat).ok
    assert not health.check_bot(beat, now=json.loads(beat.read_text())["time"] + 600).ok
    health.write_heartbeat(beat, {"surfaces": {"discord": "disconnected"}})
    check = health.check_bot(beat)
    assert not check.ok and "discord disconnected" in check.detail
    beat.write_text("{half")
    assert "unreadable" in health.check_bot(beat).detail


WRITER = """
import sys
from bot import health

path = health.heartbeat_path(sys.argv[1])
for beat in range(int(sys.argv[2])):
    health.write_heartbeat(path, {"surfaces": {"mail": "listening"}, "open_games": beat})
print("written", flush=True)
sys.stdin.read()  # until the test says stop: then stop cleanly, as heartbeat_forever does
path.unlink()
"""


def test_two_processes_on_one_host_each_have_a_heartbeat_and_health_reports_both(
    tmp_path, capsys, monkeypatch
):
    """Two mail workers on one database and one host: each writes its own heartbeat, many
    times at once without a collision; `mancala health` reports each; a process that stops
    cleanly removes its heartbeat, and the heartbeat of a killed one is removed by health."""
    for name in ("LOG_LEVEL", "METRICS_PORT", "MANCALA_MAIL_ADDRESS", "MANCALA_MAIL_RELAY"):
        monkeypatch.delenv(name, raising=False)
    database = tmp_path / "g.sqlite3"
    asyncio.run(_create(database))
    monkeypatch.setenv("MANCALA_DB", str(database))
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(database), "400"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        for writer in writers:
            assert writer.stdout is not None
            line = writer.stdout.readline()
            assert line == "written\n", writer.communicate()[1]
        assert main(["health", "--env", str(tmp_path / "none")]) == 0
        out = capsys.readouterr().out
        for writer in writers:  # its last beat, whatever its age on a busy machine
            line = rf"ok    bot: pid {writer.pid}, beat \d+ s ago: mail listening; 399 games"
            assert re.search(line, out), out
        assert sorted(p.name for p in health.heartbeat_dir(database).iterdir()) == sorted(
            health.heartbeat_path(database, writer.pid).name for writer in writers
        )  # no temporary file left behind
        clean, killed = writers
        clean.communicate("", timeout=30)
        assert clean.returncode == 0
        killed.kill()
        killed.wait(30)
        assert health.heartbeat_path(database, killed.pid).exists()  # it could not remove it
        assert main(["health", "--env", str(tmp_path / "none")]) == 1
        assert "FAIL  bot: not running (no heartbeat" in capsys.readouterr().out
        assert list(health.heartbeat_dir(database).iterdir()) == []
    finally:
        for writer in writers:
            if writer.poll() is None:
                writer.kill()
                writer.wait(30)


async def _create(database: Path) -> None:
    await (await GameService.open(database, tick_every=None)).close()


def test_threads_writing_one_heartbeat_at_once_never_collide(tmp_path):
    beat = health.heartbeat_path(tmp_path / "g.sqlite3")
    failures: list[BaseException] = []

    def hammer(surface: str) -> None:
        try:
            for count in range(300):
                health.write_heartbeat(beat, {"surfaces": {surface: "listening"}, "n": count})
        except BaseException as err:  # noqa: BLE001 - collected, the test fails on it
            failures.append(err)

    threads = [threading.Thread(target=hammer, args=(name,)) for name in ("mail", "web")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert json.loads(beat.read_text())["n"] == 299
    assert [p.name for p in beat.parent.iterdir()] == [beat.name]


def test_health_removes_a_gone_process_heartbeat_and_fails_a_hung_one(tmp_path):
    """With a manual clock and a made-up process table: a live process with a fresh
    heartbeat passes; a process gone from this host leaves no line (its file is removed); a
    process still there whose heartbeat is stale is hung and fails; another host's heartbeat
    is judged by its age alone."""
    now = 1_000_000.0
    database = tmp_path / "g.sqlite3"
    status = {"surfaces": {"mail": "listening"}, "open_games": 2}
    health.write_heartbeat(health.heartbeat_path(database, 101), status, now=now - 5, pid=101)
    health.write_heartbeat(health.heartbeat_path(database, 102), status, now=now - 5, pid=102)
    health.write_heartbeat(health.heartbeat_path(database, 103), status, now=now - 600, pid=103)
    elsewhere = health.heartbeat_dir(database) / "other-host.1.json"
    elsewhere.write_text(json.dumps({"time": now - 600, "host": "other-host", "pid": 1}))
    for name, written in ((".101.abc.tmp", now - 600), (".101.def.tmp", now - 5)):
        leftover = health.heartbeat_dir(database) / name  # a writer killed mid-beat
        leftover.write_text("{half")
        os.utime(leftover, (written, written))
    checks = health.check_bots(health.heartbeat_dir(database), now=now, alive=lambda p: p != 102)
    assert [check.line() for check in checks] == [
        "ok    bot: pid 101, beat 5 s ago: mail listening; 2 games in progress",
        "FAIL  bot: no heartbeat for 600 s (pid 103): stopped or hung",
        "FAIL  bot: no heartbeat for 600 s (pid 1 on other-host): stopped or hung",
    ]
    assert not health.heartbeat_path(database, 102).exists()
    assert health.heartbeat_path(database, 103).exists()  # hung, not gone: left to see
    assert not (health.heartbeat_dir(database) / ".101.abc.tmp").exists()
    assert (health.heartbeat_dir(database) / ".101.def.tmp").exists()  # may be mid-write now
    for path in health.heartbeat_dir(database).iterdir():
        path.unlink()
    assert [c.line() for c in health.check_bots(health.heartbeat_dir(database))] == [
        f"FAIL  bot: {health.NOT_RUNNING}"
    ]
    assert not health.check_bots(tmp_path / "nowhere")[0].ok


async def test_health_before_start_and_bad_settings(tmp_path, capsys, monkeypatch):
    for name in ("LOG_LEVEL", "METRICS_PORT", "MANCALA_MAIL_ADDRESS", "MANCALA_MAIL_RELAY"):
        monkeypatch.delenv(name, raising=False)
    database = tmp_path / "new" / "g.sqlite3"
    monkeypatch.setenv("MANCALA_DB", str(database))
    assert main(["health", "--env", str(tmp_path / "none")]) == 1
    assert "FAIL  database: there is no database" in capsys.readouterr().out
    assert main(["health", "--before-start", "--env", str(tmp_path / "none")]) == 0
    assert "is created on first start" in capsys.readouterr().out
    assert main(["health", "--env", str(tmp_path / "none")]) == 1
    assert "is empty: no bot has started on it yet" in capsys.readouterr().out
    monkeypatch.setenv("LOG_LEVEL", "loud")
    assert main(["health", "--env", str(tmp_path / "none")]) == EX_CONFIG
    assert "LOG_LEVEL is one of DEBUG, INFO, WARNING, ERROR" in capsys.readouterr().err
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("METRICS_PORT", "¹²³")
    assert main(["health", "--env", str(tmp_path / "none")]) == EX_CONFIG
    assert "METRICS_PORT is a port number" in capsys.readouterr().err


async def test_a_damaged_or_newer_database_fails_health_and_is_refused_at_start(
    tmp_path, capsys, monkeypatch
):
    database = tmp_path / "g.sqlite3"
    await (await GameService.open(database, tick_every=None)).close()
    assert health.check_database(database).ok
    db = sqlite3.connect(database)
    db.execute("INSERT INTO schema_version VALUES (?)", (LATEST + 1,))
    db.commit()
    db.close()
    check = health.check_database(database)
    assert not check.ok and f"schema version {LATEST + 1}" in check.detail
    monkeypatch.setenv("MANCALA_DB", str(database))
    assert main(["backup", str(tmp_path / "copy.sqlite3"), "--env", str(tmp_path / "none")]) != 0
    assert main(["play", "--env", str(tmp_path / "none")]) == EX_CONFIG
    err = capsys.readouterr().err
    assert "written by a newer version of this program" in err and "Traceback" not in err
    database.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    assert not health.check_database(database).ok


async def test_metrics_count_moves_ai_thinking_and_refusals(tmp_path):
    def sample(name, **labels):
        return metrics.REGISTRY.get_sample_value(name, labels) or 0.0

    before = (
        sample("mancala_moves_total", surface="terminal"),
        sample("mancala_moves_total", surface="ai"),
        sample("mancala_ai_think_seconds_count", level="first"),
        sample("mancala_errors_total", kind="NotYourTurn"),
    )
    service = await GameService.open(tmp_path / "g.sqlite3", tick_every=None)
    try:
        ann, ai = Player("terminal", "ann"), Player.ai("first")
        game = await service.start_game(ann, ai, "kalah", Channel("terminal", "t1"))
        await service.move(game.id, ann, "A")  # four seeds: no extra turn, the AI replies
        await service.idle()
        game = await service.get_game(game.id)
        assert game.to_move == ann
        with pytest.raises(NotYourTurn):
            await service.move(game.id, ai, "a")
        ai_moves = sum(1 for ply in range(1, game.ply) if game.moves[ply])  # after Ann's A
    finally:
        await service.close()
    assert sample("mancala_moves_total", surface="terminal") == before[0] + 1
    assert sample("mancala_moves_total", surface="ai") == before[1] + ai_moves
    assert sample("mancala_ai_think_seconds_count", level="first") == before[2] + ai_moves
    assert sample("mancala_errors_total", kind="NotYourTurn") == before[3] + 1
    NotYourTurn("made and dropped, as the service may before it decides")
    assert sample("mancala_errors_total", kind="NotYourTurn") == before[3] + 1  # not a refusal
    assert 'mancala_moves_total{surface="terminal"}' in metrics.exposition()
    assert metrics.endpoint({}) is None
    assert metrics.endpoint({"METRICS_PORT": "9464"}) == ("127.0.0.1", 9464)


def test_logs_are_one_line_per_event_with_context_and_no_secrets():
    stream = io.StringIO()
    handler = logs.setup({"LOG_LEVEL": "INFO", "MANCALA_MAIL_SECRET": "mail-secret-value"}, stream)
    try:
        log = logging.getLogger("bot.test")
        log.info(
            "move %s played",
            "C",
            extra={"game": 12, "surface": "discord", "player": "80351110224678912"},
        )
        log.info("logging in with %s", TOKEN)
        log.warning("relay said %s", "mail-secret-value")
        try:
            raise ValueError(f"bad token {TOKEN}")
        except ValueError:
            log.exception("failed")
        log.debug("not at INFO")
    finally:
        logging.getLogger().removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4  # the traceback is folded into its event's line
    assert lines[0].endswith(
        "bot.test move C played game=12 surface=discord player=80351110224678912"
    )
    assert " INFO " in lines[0] and lines[0][:4].isdigit() and "T" in lines[0][:20]
    text = stream.getvalue()
    assert TOKEN not in text and "mail-secret-value" not in text
    assert text.count("[redacted]") == 3 and "ValueError" in lines[3]
    with pytest.raises(Exception, match="LOG_LEVEL"):
        logs.level({"LOG_LEVEL": "verbose"})
    assert logs.level({"LOG_LEVEL": "warn"}) == logging.WARNING


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_health_checks_a_postgresql_database_by_its_url(
    database, tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("MANCALA_DB", database)
    for name in ("LOG_LEVEL", "METRICS_PORT", "MANCALA_MAIL_ADDRESS", "MANCALA_MAIL_RELAY"):
        monkeypatch.delenv(name, raising=False)
    await (await GameService.open(database, tick_every=None)).close()
    status = await asyncio.to_thread(
        main, ["health", "--before-start", "--env", str(tmp_path / "none")]
    )
    out = capsys.readouterr().out
    assert status == 0 and "ok    database: PostgreSQL at 127.0.0.1:" in out
    assert f"(schema {LATEST}, 0 games in progress)" in out
