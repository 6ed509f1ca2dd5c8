"""``mancala mail --pipe``: one message on standard input, as a mail server delivers it; the
exit status tells the mail server what happened (0 done, 75 try again, 65 refused)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from tests.mail.mail_support import Mailbox, free_port

DATA = Path(__file__).parent / "data"


async def run_pipe(tmp_path, raw: bytes, relay_port: int, *args: str) -> tuple[int, str]:
    env = dict(
        os.environ,
        MANCALA_MAIL_RELAY=f"127.0.0.1:{relay_port}",
        MANCALA_MAIL_ADDRESS="mancala@bot.test",
        MANCALA_MAIL_SECRET="test-secret",
        MANCALA_MAIL_MAX_BYTES="4096",
        MANCALA_DB=str(tmp_path / "games.sqlite3"),
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "mail",
        "--pipe",
        "--env",
        str(tmp_path / "none.env"),
        *args,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(process.communicate(raw), 60)
    return process.returncode, output.decode()


async def test_a_piped_message_is_answered_through_the_relay(tmp_path):
    mailbox = await Mailbox().start()
    try:
        status, output = await run_pipe(
            tmp_path,
            (DATA / "gmail_top_posted.eml").read_bytes(),
            mailbox.port,
            "--sender",
            "ann@example.org",
        )
        assert status == 0, output
        [reply] = await mailbox.wait_for(1)
        assert reply["In-Reply-To"] == "<CAGmail123@mail.gmail.com>"
        assert "You played C." in reply.get_body(("plain",)).get_content()
        # a bounce (empty envelope sender) is handled by not answering it
        status, output = await run_pipe(
            tmp_path, (DATA / "gmail_top_posted.eml").read_bytes(), mailbox.port, "--sender", ""
        )
        assert status == 0, output
        await asyncio.sleep(0.2)
        assert len(mailbox.messages) == 1
    finally:
        await mailbox.stop()


async def test_a_correspondence_challenge_by_pipe_reaches_both_players(tmp_path):
    mailbox = await Mailbox().start()
    raw = (
        b"From: ann@example.org\r\nTo: mancala@bot.test\r\nSubject: game?\r\n"
        b"Message-ID: <c1@example.org>\r\n\r\nchallenge bob@example.org oware\r\n"
    )
    try:
        status, output = await run_pipe(tmp_path, raw, mailbox.port, "--sender", "ann@example.org")
        assert status == 0, output
        messages = await mailbox.wait_for(2)
        assert sorted(m["To"] for m in messages) == ["ann@example.org", "bob@example.org"]
        assert all("[mancala challenge 1 " in m["Subject"] for m in messages)
    finally:
        await mailbox.stop()


async def test_relay_down_exits_75_so_the_mail_server_retries(tmp_path):
    status, output = await run_pipe(
        tmp_path,
        (DATA / "unknown_charset.eml").read_bytes(),
        free_port(),
        "--sender",
        "ann@example.org",
        "--no-games",
    )
    assert status == 75, output
    assert "will retry" in output


async def test_an_oversized_message_exits_65(tmp_path):
    raw = b"From: ann@example.org\r\nSubject: big\r\n\r\n" + b"4 4 4 4 4 4\r\n" * 1000
    status, output = await run_pipe(tmp_path, raw, free_port(), "--no-games")
    assert status == 65 and "limit is 4096" in output
