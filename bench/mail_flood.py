"""The mail flood of issue 36, through the real ``mancala mail`` server on loopback: how many
replies does the bot send?

Each phase starts the real command in its own process (fresh database, fresh counts), points
its relay at a mailbox server in this process, and sends a burst of 60 mails over SMTP: 30
from one address and 30 from 30 addresses (help, a position mail, a challenge to a stranger
and garbage, in turn), then waits until no reply has arrived for a few seconds.

1. Forged: every mail carries the operator's MTA header saying SPF and DMARC failed
   (``Authentication-Results: mx.bot.test; spf=fail ...; dmarc=fail``). Goal: at most 3
   replies in all; 0 expected.
2. No header at all (an MTA that does not check): the reply limits bound the replies; and
   the same ten times over (600 mails), where the hour's limit in all binds.
3. The same unauthenticated flood while four genuine players play correspondence games
   against the AI by mail: their moves must all be answered.

    .venv/bin/python bench/mail_flood.py [--moves 8]

Prints figures; it asserts nothing about time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import tempfile
import time
from collections import Counter
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import aiosmtplib
from aiosmtpd.smtp import SMTP

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.mail import free_port, wait_for_port  # noqa: E402  (the mail bench's helpers)

BOT = "mancala@bot.test"
ONE = "victim@example.net"
POSITION = """Rules: wari
Level: first
Move: E

    f  e  d  c  b  a
    4  4  4  4  4  4
    4  4  4  4  4  4
    A  B  C  D  E  F
Captured: North 0, South 0.
"""
BODIES = ("help", POSITION, "challenge stranger@example.com wari", "zzz what is this")
FORGED = "Authentication-Results: mx.bot.test; spf=fail smtp.mailfrom={who}; dmarc=fail (p=reject) header.from={domain}\r\n"
_YOUR_MOVE = re.compile(r"Your move, move (\d+): .*?\(legal: ([A-F, ]+)\)", re.S)


def raw_mail(
    sender: str,
    body: str,
    n: int,
    extra: str = "",
    to: str = BOT,
    subject: str = "mancala",
) -> bytes:
    head = (
        f"From: {sender}\r\nTo: {to}\r\nSubject: {subject}\r\n"
        f"Message-ID: <{n}.{time.time_ns()}@{sender.partition('@')[2]}>\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n{extra}"
    )
    return (head + "\r\n" + body.replace("\n", "\r\n")).encode()


class Sink:
    """Everyone's mailbox: keeps what the bot sends."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.last_arrival = time.monotonic()
        self.arrived = asyncio.Condition()

    async def handle_DATA(self, server, session, envelope) -> str:
        message = BytesParser(policy=policy.default).parsebytes(envelope.content)
        async with self.arrived:
            self.messages.append(message)  # type: ignore[arg-type]
            self.last_arrival = time.monotonic()
            self.arrived.notify_all()
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]

    async def quiet(self, seconds: float = 3.0) -> None:
        """Wait until nothing has arrived for ``seconds``."""
        while time.monotonic() - self.last_arrival < seconds:
            await asyncio.sleep(0.2)


async def send(port: int, batch: list[tuple[str, bytes]]) -> None:
    async with aiosmtplib.SMTP(hostname="127.0.0.1", port=port, start_tls=False) as client:
        for sender, raw in batch:
            await client.sendmail(sender, [BOT], raw)


def flood(forged: bool, scale: int = 1) -> list[tuple[str, bytes]]:
    """The 60 mails: 30 from one address, 30 from 30 addresses (``scale`` times as many)."""
    senders = [ONE] * 30 * scale + [f"v{i}@example.org" for i in range(30 * scale)]
    mails = []
    for i, who in enumerate(senders):
        extra = FORGED.format(who=who, domain=who.partition("@")[2]) if forged else ""
        mails.append((who, raw_mail(who, BODIES[i % len(BODIES)], i, extra)))
    return mails


async def burst(port: int, mails: list[tuple[str, bytes]], connections: int = 10) -> float:
    start = time.perf_counter()
    await asyncio.gather(*(send(port, mails[i::connections]) for i in range(connections)))
    return time.perf_counter() - start


class Server:
    """The real ``mancala mail`` command in its own process, relaying to ``sink``."""

    def __init__(self, sink_port: int, tmp: str) -> None:
        self.port = free_port()
        self.env = dict(
            os.environ,
            MANCALA_MAIL_LISTEN=f"127.0.0.1:{self.port}",
            MANCALA_MAIL_RELAY=f"127.0.0.1:{sink_port}",
            MANCALA_MAIL_ADDRESS=f"Mancala <{BOT}>",
            MANCALA_MAIL_SECRET="bench-secret",
            MANCALA_MAIL_LEVEL="first",
            MANCALA_DB=os.path.join(tmp, "games.sqlite3"),
            PYTHONPATH=str(ROOT),
        )
        self.tmp = tmp
        self.process: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> Server:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.cli",
            "mail",
            "--env",
            os.devnull,
            env=self.env,
            cwd=self.tmp,
            stderr=asyncio.subprocess.DEVNULL,
        )
        await wait_for_port(self.port)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.process is not None
        self.process.terminate()
        await self.process.wait()


async def with_server(phase):
    loop = asyncio.get_running_loop()
    sink = Sink()
    sink_port = free_port()
    sink_server = await loop.create_server(lambda: SMTP(sink, loop=loop), "127.0.0.1", sink_port)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            async with Server(sink_port, tmp) as server:
                return await phase(server, sink)
    finally:
        sink_server.close()


def report_flood(title: str, sink: EmailMessage | Sink, seconds: float) -> None:
    assert isinstance(sink, Sink)
    to_one = len(sink.to(ONE))
    others = Counter(m["To"] for m in sink.messages if re.fullmatch(r"v\d+@example\.org", m["To"]))
    print(f"{title}")
    print(f"  60 mails sent in {seconds:.2f} s")
    print(f"  replies sent: {len(sink.messages)} in all")
    print(f"    to the one address (30 mails): {to_one}")
    print(f"    to the 30 addresses (1 mail each): {sum(others.values())}")


async def phase_forged(server: Server, sink: Sink) -> None:
    seconds = await burst(server.port, flood(forged=True))
    await sink.quiet()
    report_flood(
        "1. Forged flood, trusted Authentication-Results: spf=fail, dmarc=fail", sink, seconds
    )
    print("     goal: at most 3 replies in all")


async def phase_unchecked(server: Server, sink: Sink) -> None:
    seconds = await burst(server.port, flood(forged=False))
    await sink.quiet()
    report_flood(
        "2. The same flood without Authentication-Results (MTA not checking)", sink, seconds
    )
    print_notices(sink)


def print_notices(sink: Sink) -> None:
    notices = sum("only notice" in m.get_body(("plain",)).get_content() for m in sink.messages)
    strangers = len(sink.to("stranger@example.com"))
    print(f"    of which limit notices: {notices}; challenges mailed to the stranger: {strangers}")


async def phase_large(server: Server, sink: Sink) -> None:
    scale = 10
    seconds = await burst(server.port, flood(forged=False, scale=scale))
    await sink.quiet()
    print(f"2b. Ten times the flood without Authentication-Results: {60 * scale} mails")
    print(f"  sent in {seconds:.2f} s; replies sent: {len(sink.messages)} in all")
    print(f"    to the one address ({30 * scale} mails): {len(sink.to(ONE))}")
    print("    bound: 100 an hour in all (MANCALA_MAIL_REPLIES_PER_HOUR)")
    print_notices(sink)


class Person:
    """A genuine player: challenges the AI, then answers each board with a legal move."""

    def __init__(self, address: str, sink: Sink, port: int) -> None:
        self.address, self.sink, self.port = address, sink, port
        self.sent = 0
        self.answered = 0

    def latest(self) -> EmailMessage | None:
        mine = self.sink.to(self.address)
        return mine[-1] if mine else None

    async def wait_for_turn(
        self, after: int, timeout: float = 120.0
    ) -> tuple[EmailMessage, int, str]:
        """The newest mail saying it is our move with a number past ``after``."""
        async with self.sink.arrived:
            found: list[tuple[EmailMessage, int, str]] = []

            def ready() -> bool:
                for message in reversed(self.sink.to(self.address)):
                    text = message.get_body(("plain",)).get_content()
                    turn = _YOUR_MOVE.search(text)
                    if turn and int(turn.group(1)) > after:
                        found.append(
                            (message, int(turn.group(1)), turn.group(2).split(",")[0].strip())
                        )
                        return True
                    if "game is over" in text.lower():
                        return True
                return False

            await asyncio.wait_for(self.sink.arrived.wait_for(ready), timeout)
            if not found:
                raise EOFError("the game is over")
            return found[0]

    async def mail(self, body: str, reply_to: EmailMessage | None = None) -> None:
        self.sent += 1
        to, subject, extra = BOT, "mancala", ""
        if reply_to is not None:
            to, subject = reply_to["Reply-To"], "Re: " + reply_to["Subject"]
            extra = f"In-Reply-To: {reply_to['Message-ID']}\r\n"
        raw = raw_mail(self.address, body, self.sent, extra, to=to, subject=subject)
        async with aiosmtplib.SMTP(hostname="127.0.0.1", port=self.port, start_tls=False) as c:
            await c.sendmail(self.address, [to], raw)

    async def play(self, moves: int) -> None:
        number = 0
        for _ in range(moves):
            try:
                board, number, pit = await self.wait_for_turn(number)
            except EOFError:
                return
            await self.mail(f"Move {number}: {pit}", board)
            async with self.sink.arrived:
                await asyncio.wait_for(
                    self.sink.arrived.wait_for(
                        lambda n=number: any(
                            f"(move {n})" in m.get_body(("plain",)).get_content()
                            for m in self.sink.to(self.address)
                        )
                    ),
                    120,
                )
            self.answered += 1


async def phase_players(server: Server, sink: Sink, moves: int) -> None:
    people = [Person(f"player{i}@players.example", sink, server.port) for i in range(4)]
    for person in people:
        await person.mail("challenge ai:first wari")
    start = time.perf_counter()
    flood_task = asyncio.create_task(burst(server.port, flood(forged=False)))
    await asyncio.gather(*(p.play(moves) for p in people))
    seconds = await flood_task
    played = time.perf_counter() - start
    await sink.quiet()
    players = {p.address for p in people}
    flood_replies = [m for m in sink.messages if m["To"] not in players]
    print("3. Genuine players' game mail during the unauthenticated flood")
    print(f"  60 flood mails sent in {seconds:.2f} s; replies to the flood: {len(flood_replies)}")
    print(
        f"  game moves mailed by {len(people)} players: {sum(p.sent - 1 for p in people)}, "
        f"answered: {sum(p.answered for p in people)} (all {moves} moves each, in {played:.1f} s)"
    )


async def main(moves: int) -> None:
    await with_server(phase_forged)
    await with_server(phase_unchecked)
    await with_server(phase_large)
    await with_server(lambda server, sink: phase_players(server, sink, moves))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=8, help="moves per genuine player")
    asyncio.run(main(parser.parse_args().moves))
