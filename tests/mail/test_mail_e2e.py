"""End to end over real SMTP on loopback: a player's mail reaches the running ``mancala mail``
server and the reply arrives at a second aiosmtpd server, the player's mailbox."""

from __future__ import annotations

import asyncio
import os
import sys

import pytest

from bot.mail import runner
from bot.mail.mail_settings import MailSettings
from engine import Ruleset, parse_position
from tests.mail.mail_support import Mailbox, free_port, mail, send_raw

OPENING = """Rules: wari
Move: E

    f  e  d  c  b  a
    4  4  4  4  4  4
    4  4  4  4  4  4
    A  B  C  D  E  F
Captured: North 0, South 0.
"""


def board_of(reply) -> str:
    """The board in a position reply: the lines between 'Level:' and 'Move:'."""
    body = reply.get_body(("plain",)).get_content()
    after_level = body[body.index("Level:") :].split("\n", 1)[1]
    return after_level.split("Move:")[0]


async def wait_for_port(port: int, timeout: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.1)


async def test_the_mancala_mail_command_answers_over_smtp(tmp_path):
    """The real command in its own process: listen, read the move, answer with the default
    level's search in a worker process, reply through the relay."""
    mailbox = await Mailbox().start()
    port = free_port()
    env = dict(
        os.environ,
        MANCALA_MAIL_LISTEN=f"127.0.0.1:{port}",
        MANCALA_MAIL_RELAY=f"127.0.0.1:{mailbox.port}",
        MANCALA_MAIL_ADDRESS="Mancala <mancala@bot.test>",
        MANCALA_MAIL_SECRET="test-secret",
        MANCALA_DB=str(tmp_path / "games.sqlite3"),
    )
    log = open(tmp_path / "stderr.txt", "wb")  # noqa: SIM115  (the child writes it)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "mail",
        "--env",
        str(tmp_path / "none.env"),
        env=env,
        stderr=log,
    )
    try:
        await wait_for_port(port)
        await send_raw(port, mail(OPENING), "ann@example.org", ["mancala@bot.test"])
        [reply] = await mailbox.wait_for(1, timeout=30)
    finally:
        process.terminate()
        status = await asyncio.wait_for(process.wait(), 20)
        await mailbox.stop()
        log.close()
    assert status == 0, (tmp_path / "stderr.txt").read_text()
    assert reply["To"] == "ann@example.org"
    assert reply["In-Reply-To"] == "<m1@example.org>"
    assert reply["Auto-Submitted"] == "auto-replied"
    assert mailbox.envelopes[0][1] == ["ann@example.org"]
    # the reply's board is the position after E and the AI's answer, from Ann's side
    rules = Ruleset.parse("wari")
    after = parse_position(board_of(reply), rules, perspective="south")
    assert after.to_move == "south"
    assert sum(after.pits) + sum(after.stores) == 48
    assert after.pits[4] == 0  # Ann's E was sown


@pytest.fixture
async def running_bot(tmp_path):
    """``runner.serve`` in this event loop, relaying to a fresh mailbox."""
    mailbox = await Mailbox().start()
    settings = MailSettings(
        listen=("127.0.0.1", free_port()),
        relay=("127.0.0.1", mailbox.port),
        bot_address="Mancala <mancala@bot.test>",
        secret=b"test-secret",
        max_bytes=20_000,
        database=str(tmp_path / "games.sqlite3"),
        level="first",
    )
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(runner.serve(settings, stop, ready, with_games=False))
    await asyncio.wait_for(ready.wait(), 20)
    yield settings, mailbox
    stop.set()
    await task
    await mailbox.stop()


async def test_garbage_gets_the_format_and_bounces_get_nothing(running_bot):
    settings, mailbox = running_bot
    port = settings.listen[1]
    await send_raw(
        port,
        mail("Out of office", extra="Auto-Submitted: auto-replied\r\n"),
        "ann@example.org",
        ["mancala@bot.test"],
    )
    await send_raw(port, mail("Delivery failed", message_id="<b@x>"), "", ["mancala@bot.test"])
    await send_raw(
        port, mail("what is this\nzzz", message_id="<g@x>"), "ann@example.org", ["mancala@bot.test"]
    )
    [reply] = await mailbox.wait_for(1)
    await asyncio.sleep(0.2)  # give a wrongly answered bounce time to arrive
    assert len(mailbox.messages) == 1
    body = reply.get_body(("plain",)).get_content()
    assert reply["In-Reply-To"] == "<g@x>"
    assert "> what is this" in body and "Rules: wari" in body


async def test_an_oversized_message_is_refused_at_smtp(running_bot):
    import aiosmtplib

    settings, mailbox = running_bot
    huge = mail(OPENING + "x" * 30_000)
    with pytest.raises(aiosmtplib.SMTPResponseException) as refused:
        await send_raw(settings.listen[1], huge, "ann@example.org", ["mancala@bot.test"])
    assert refused.value.code == 552
    assert mailbox.messages == []


async def test_a_relay_that_is_down_defers_the_message(tmp_path):
    """451 while the relay is unreachable, so the sending server keeps the mail and retries."""
    import aiosmtplib

    settings = MailSettings(
        listen=("127.0.0.1", free_port()),
        relay=("127.0.0.1", free_port()),
        bot_address="mancala@bot.test",
        secret=b"test-secret",
        level="first",
    )
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(runner.serve(settings, stop, ready, with_games=False))
    await asyncio.wait_for(ready.wait(), 20)
    try:
        with pytest.raises(aiosmtplib.SMTPResponseException) as deferred:
            await send_raw(
                settings.listen[1], mail(OPENING), "ann@example.org", ["mancala@bot.test"]
            )
        assert deferred.value.code == 451
    finally:
        stop.set()
        await task


async def test_bad_settings_stop_the_command_with_a_clear_message(tmp_path):
    env = dict(
        os.environ,
        MANCALA_MAIL_LEVEL="grandmaster",
        MANCALA_MAIL_SECRET="test-secret",
        MANCALA_DB=str(tmp_path / "games.sqlite3"),
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "mail",
        "--env",
        str(tmp_path / "none.env"),
        env=env,
        stderr=asyncio.subprocess.PIPE,
    )
    _, error = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 78  # EX_CONFIG: a service manager does not restart on it
    assert "MANCALA_MAIL_LEVEL is one of" in error.decode()
    assert "Traceback" not in error.decode()
