"""The limits goal of issue 45, as an operator would try it: 400 unauthenticated mails, each
from its own address, spread over two real ``mancala mail`` processes on one PostgreSQL
database, both restarted halfway. How many get a reply within the hour? The hourly limit in
all is 100 (``MANCALA_MAIL_REPLIES_PER_HOUR``); before the limits were counted in the
database, the same run got 399.

A throwaway PostgreSQL server (``tests/postgres_server.py``: the system's own binaries, a
temporary directory, a free loopback port) holds the one database. Both processes relay to a
mailbox server in this process, which counts the replies. The mails ("help", no
``Authentication-Results``, an address each) go to the two processes in turn over SMTP;
after the first half both processes are stopped (SIGTERM) and started again, then the second
half is sent. Each phase ends when no reply has arrived for a few seconds.

    .venv/bin/python bench/mail_limits.py [--mails 400] [--per-hour 100]

Prints the mails sent and answered, per phase and in all, beside the cap. The limits count in
fixed UTC hours: a run that crosses hh:00 has two hours' allowance, so the bench waits for the
next hour first when too little of this one is left, and says so. It asserts nothing about
time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

from aiosmtpd.smtp import SMTP

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.mail import free_port, wait_for_port  # noqa: E402  (the mail bench's helpers)
from bench.mail_flood import BOT, Sink, burst, raw_mail  # noqa: E402
from tests.postgres_server import HOW_TO_GET, PostgresServer, binaries  # noqa: E402

HOUR = 3600
ENOUGH_OF_THE_HOUR = 300  # seconds: a run takes about a minute; start no later than hh:55


class MailProcess:
    """The real ``mancala mail`` command in its own process, on ``database``, relaying to
    the mailbox on ``sink_port``; its log in ``folder``."""

    def __init__(self, name: str, database: str, sink_port: int, folder: Path, per_hour: int):
        self.name, self.folder = name, folder
        self.port = free_port()
        folder.mkdir(parents=True, exist_ok=True)
        self.env = dict(
            os.environ,
            MANCALA_MAIL_LISTEN=f"127.0.0.1:{self.port}",
            MANCALA_MAIL_RELAY=f"127.0.0.1:{sink_port}",
            MANCALA_MAIL_ADDRESS=f"Mancala <{BOT}>",
            MANCALA_MAIL_SECRET="bench-secret",
            MANCALA_MAIL_REPLIES_PER_HOUR=str(per_hour),
            MANCALA_DB=database,
            PYTHONPATH=str(ROOT),
        )
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> None:
        self.starts += 1
        log = open(self.folder / f"mail-{self.starts}.log", "wb")  # noqa: SIM115  (the child's)
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            "mail",
            "--env",
            os.devnull,
            env=self.env,
            cwd=self.folder,
            stdout=log,
            stderr=log,
        )
        log.close()
        await wait_for_port(self.port)

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await self.process.wait()
        self.process = None

    def errors(self) -> list[str]:
        """The lines of its logs that report an error or a traceback."""
        return [
            f"{log.name}: {line}"
            for log in sorted(self.folder.glob("mail-*.log"))
            for line in log.read_text(errors="replace").splitlines()
            if "Traceback" in line or "ERROR" in line
        ]


def wait_for_enough_of_the_hour() -> None:
    left = HOUR - time.time() % HOUR
    if left < ENOUGH_OF_THE_HOUR:
        print(f"only {left:.0f} s left in this UTC hour: waiting for the next one", flush=True)
        time.sleep(left + 1)


async def run(mails: int, per_hour: int, folder: Path, database: str) -> None:
    loop = asyncio.get_running_loop()
    sink = Sink()
    sink_port = free_port()
    sink_server = await loop.create_server(lambda: SMTP(sink, loop=loop), "127.0.0.1", sink_port)
    processes = [
        MailProcess(name, database, sink_port, folder / name, per_hour) for name in ("a", "b")
    ]
    senders = [f"s{i}@flood{i % 7}.example" for i in range(mails)]
    letters = [(who, raw_mail(who, "help", i)) for i, who in enumerate(senders)]
    half = mails // 2
    hour = int(time.time() // HOUR)
    try:
        answered_before = 0
        for phase, part in (("first half", letters[:half]), ("second half", letters[half:])):
            await asyncio.gather(*(p.start() for p in processes))
            seconds = await asyncio.gather(
                *(burst(p.port, part[i::2], connections=4) for i, p in enumerate(processes))
            )
            await sink.quiet()
            await asyncio.gather(*(p.stop() for p in processes))  # restarted halfway
            answered = len(sink.messages) - answered_before
            answered_before = len(sink.messages)
            print(
                f"{phase}: {len(part)} mails sent to two processes in {max(seconds):.1f} s, "
                f"answered: {answered}",
                flush=True,
            )
    finally:
        await asyncio.gather(*(p.stop() for p in processes))
        sink_server.close()
    same_hour = int(time.time() // HOUR) == hour
    print(
        f"in all: {mails} unauthenticated mails from {len(set(senders))} addresses over two "
        f"`mancala mail` processes on one PostgreSQL database, both restarted halfway "
        f"({sum(p.starts for p in processes)} starts): answered {len(sink.messages)}; "
        f"cap {per_hour} an hour ({'met' if len(sink.messages) <= per_hour else 'NOT met'})"
        + ("" if same_hour else "; the run crossed hh:00, so two hours' allowance")
    )
    errors = [line for p in processes for line in p.errors()]
    print(f"errors in the processes' logs: {len(errors)}")
    for line in errors[:10]:
        print(f"  {line}")


async def main(args: argparse.Namespace) -> None:
    bindir = binaries()
    if bindir is None:
        sys.exit(HOW_TO_GET)
    wait_for_enough_of_the_hour()
    server = PostgresServer(bindir).start()
    try:
        with tempfile.TemporaryDirectory(prefix="mail-limits-") as tmp:
            await run(args.mails, args.per_hour, Path(tmp), server.new_database())
    finally:
        server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=400)
    parser.add_argument("--per-hour", type=int, default=100, help="MANCALA_MAIL_REPLIES_PER_HOUR")
    asyncio.run(main(parser.parse_args()))
