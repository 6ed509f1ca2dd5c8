"""Loopback SMTP helpers for the mail tests (no tests here): a mailbox server that keeps what
it receives, and a client that sends raw messages. Real aiosmtpd and aiosmtplib, no mocks."""

from __future__ import annotations

import asyncio
import socket
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

import aiosmtplib
from aiosmtpd.smtp import SMTP


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Mailbox:
    """A player's mail server on loopback: every message it accepts lands in ``messages``."""

    def __init__(self):
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self._arrived = asyncio.Condition()
        self.server = None
        self.port = None

    async def handle_DATA(self, server, session, envelope) -> str:
        message = BytesParser(policy=policy.default).parsebytes(
            envelope.original_content or envelope.content
        )
        async with self._arrived:
            self.messages.append(message)
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
            self._arrived.notify_all()
        return "250 OK"

    async def start(self, port: int | None = None) -> Mailbox:
        loop = asyncio.get_running_loop()
        self.port = port or free_port()
        self.server = await loop.create_server(
            lambda: SMTP(self, loop=loop), "127.0.0.1", self.port
        )
        return self

    async def wait_for(self, count: int, timeout: float = 10.0) -> list[EmailMessage]:
        """Wait until ``count`` messages have arrived in all; return them all."""
        async with self._arrived:
            await asyncio.wait_for(
                self._arrived.wait_for(lambda: len(self.messages) >= count), timeout
            )
        return self.messages

    async def stop(self) -> None:
        self.server.close()
        await self.server.wait_closed()


async def send_raw(port: int, raw: bytes, sender: str, recipients: list[str]) -> None:
    """Deliver a raw message to the server on ``port`` as a mail server would."""
    async with aiosmtplib.SMTP(hostname="127.0.0.1", port=port, start_tls=False) as client:
        await client.sendmail(sender, recipients, raw)


def mail(
    body: str,
    subject: str = "wari",
    sender: str = "ann@example.org",
    to: str = "mancala@bot.test",
    message_id: str = "<m1@example.org>",
    extra: str = "",
) -> bytes:
    """A plain-text mail as bytes, CRLF line ends, the way clients send it; the sender's
    name is their address's local part ("Ann" for ann@example.org)."""
    name = sender.partition("@")[0].title()
    head = (
        f"From: {name} <{sender}>\r\nTo: {to}\r\nSubject: {subject}\r\n"
        f"Message-ID: {message_id}\r\nMIME-Version: 1.0\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n{extra}"
    )
    return (head + "\r\n" + body.replace("\n", "\r\n")).encode()
