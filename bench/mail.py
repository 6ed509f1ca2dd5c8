"""Replies delivered per second through the real ``mancala mail`` SMTP server.

Each run starts the server as its own process (the real command, with a fresh game
database), points its relay at a mailbox server in this process, sends position-and-move mails
over several SMTP connections, and times until every reply has arrived in the mailbox.
The baseline, measured in the same run the same way, is a bare forwarder: an aiosmtpd server
that parses each message and relays it on, with no game at all: the cost of SMTP itself.
The mails ask for the applet's First strategy ("Level: first"), which does not search, so
the figure is the mail surface's; a search level adds its own time per reply (medium: up to
a second in the worker) and is measured by the AI's benchmarks.

    .venv/bin/python bench/mail.py [--messages 2000] [--connections 8] [--runs 3]

Every mail comes from its own address, and none carries a game's token, so each answer is
a limited reply (docs/limits.md): the bot's limits in all (100 an hour, 500 a day) would stop
the run at the 100th reply. The bench raises them for its server (``RAISED_LIMITS``, through
the environment, as an operator would), so it measures the surface, not the limit; the check
itself still runs, one statement per reply.

Prints the median replies/s of the bot and of the baseline, and their ratio. The bar is
200 replies/s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from email import policy
from email.parser import BytesParser
from pathlib import Path

import aiosmtplib
from aiosmtpd.smtp import SMTP

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OPENING = """Rules: wari
Level: first
Move: {move}

    f  e  d  c  b  a
    4  4  4  4  4  4
    4  4  4  4  4  4
    A  B  C  D  E  F
Captured: North 0, South 0.
"""


# the limits in all, raised past any run's replies (warm-up included): the settings an
# operator would change (bot.mail.mail_settings)
RAISED_LIMITS = {
    "MANCALA_MAIL_REPLIES_PER_HOUR": "1000000",
    "MANCALA_MAIL_REPLIES_PER_DAY": "1000000",
}


def message(i: int) -> bytes:
    body = OPENING.format(move="ABCDEF"[i % 6]).replace("\n", "\r\n")
    return (
        f"From: Player {i} <p{i}@example.org>\r\nTo: mancala@bot.test\r\n"
        f"Subject: wari {i}\r\nMessage-ID: <{i}.{time.time_ns()}@example.org>\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    ).encode()


class Sink:
    """The players' mailbox: counts what arrives."""

    def __init__(self):
        self.count = 0
        self.wanted = 0
        self.done = asyncio.Event()

    async def handle_DATA(self, server, session, envelope) -> str:
        self.count += 1
        if self.count >= self.wanted:
            self.done.set()
        return "250 OK"


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def wait_for_port(port: int) -> None:
    for _ in range(300):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            await asyncio.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


async def push(port: int, messages: list[bytes], connections: int) -> None:
    async def one_connection(batch: list[bytes]) -> None:
        async with aiosmtplib.SMTP(hostname="127.0.0.1", port=port, start_tls=False) as client:
            for raw in batch:
                await client.sendmail("player@example.org", ["mancala@bot.test"], raw)

    await asyncio.gather(*(one_connection(messages[i::connections]) for i in range(connections)))


async def measure(kind: str, count: int, connections: int) -> float:
    """Replies per second for one server (``bot`` or ``forwarder``)."""
    loop = asyncio.get_running_loop()
    sink = Sink()
    sink_port, port = free_port(), free_port()
    sink_server = await loop.create_server(lambda: SMTP(sink, loop=loop), "127.0.0.1", sink_port)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(
            os.environ,
            MANCALA_MAIL_LISTEN=f"127.0.0.1:{port}",
            MANCALA_MAIL_RELAY=f"127.0.0.1:{sink_port}",
            MANCALA_MAIL_ADDRESS="mancala@bot.test",
            MANCALA_MAIL_SECRET="bench-secret",
            MANCALA_DB=os.path.join(tmp, "games.sqlite3"),
            PYTHONPATH=str(ROOT),
            **RAISED_LIMITS,
        )
        command = (
            [sys.executable, "-m", "bot.cli", "mail", "--env", os.devnull]
            if kind == "bot"
            else [sys.executable, __file__, "--forwarder", str(port), str(sink_port)]
        )
        process = await asyncio.create_subprocess_exec(
            *command, env=env, cwd=tmp, stderr=asyncio.subprocess.DEVNULL
        )
        try:
            await wait_for_port(port)
            sink.wanted = 50  # warm-up: imports, the AI worker, connections
            await push(port, [message(i) for i in range(50)], connections)
            await asyncio.wait_for(sink.done.wait(), 60)
            sink.count, sink.wanted, sink.done = 0, count, asyncio.Event()
            batch = [message(i) for i in range(count)]
            start = time.perf_counter()
            await push(port, batch, connections)
            await asyncio.wait_for(sink.done.wait(), 300)
            elapsed = time.perf_counter() - start
        finally:
            process.terminate()
            await process.wait()
            sink_server.close()
    return count / elapsed


def forwarder(port: int, sink_port: int) -> None:
    """The baseline server: parse each message and relay it on, no game."""
    from bot.mail.transport import Relay, start_server

    async def main() -> None:
        relay = Relay("127.0.0.1", sink_port)

        async def process(raw: bytes, sender: str, recipients: list[str]) -> None:
            parsed = BytesParser(policy=policy.default).parsebytes(raw)
            del parsed["To"]
            parsed["To"] = "player@example.org"
            await relay.send(parsed)

        await start_server(process, "127.0.0.1", port, 1 << 20)
        await asyncio.Event().wait()

    asyncio.run(main())


async def main(args) -> None:
    bot_rates, base_rates = [], []
    for run in range(args.runs):
        base_rates.append(await measure("forwarder", args.messages, args.connections))
        bot_rates.append(await measure("bot", args.messages, args.connections))
        print(
            f"run {run + 1}: bot {bot_rates[-1]:.0f} replies/s, "
            f"forwarder {base_rates[-1]:.0f} messages/s",
            flush=True,
        )
    bot, base = statistics.median(bot_rates), statistics.median(base_rates)
    print(
        f"median over {args.runs} runs of {args.messages} messages on {args.connections} "
        f"connections: bot {bot:.0f} replies/s, forwarder baseline {base:.0f}/s, "
        f"ratio {bot / base:.2f}; bar 200/s: {'met' if bot >= 200 else 'NOT met'}"
    )


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--forwarder":
        forwarder(int(sys.argv[2]), int(sys.argv[3]))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    asyncio.run(main(parser.parse_args()))
