"""Mail in and out: an SMTP server (aiosmtpd) that hands each message to the bot, and a relay
client (aiosmtplib) that sends replies, reusing a few open connections.

A message is accepted (250) only after it was handled and its replies were handed to the
relay; when the relay is down the server answers 451, so the sending mail server keeps the
message and tries again later: nothing is lost, and correspondence moves carry a move number,
so a retried message is never applied twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from email.message import EmailMessage
from email.utils import parseaddr
from typing import Protocol

import aiosmtplib
from aiosmtpd.smtp import SMTP, Envelope, Session

from bot.mail.reading import MailTooLarge

log = logging.getLogger(__name__)

# (raw message, envelope sender, envelope recipients) -> handled; raises MailTooLarge or
# TransientMailError, the two failures the sending server must hear about.
Processor = Callable[[bytes, str, list[str]], Awaitable[None]]


class TransientMailError(RuntimeError):
    """Sending failed in a way that may pass (relay down, 4xx): try again later."""


class PermanentMailError(RuntimeError):
    """The relay refused the message for good (5xx, e.g. an unknown recipient)."""


class Gate(Protocol):
    """What the relay asks before sending each mail (``bot.mail.unsubscribe.MailStopGate``):
    whether it goes, after marking it (its unsubscribe headers)."""

    async def admit(self, message: EmailMessage, answering: str | None = None) -> bool: ...

    async def stopped(self, address: str) -> bool:
        """Whether ``address`` said stop: nothing is mailed to it."""
        ...


class Relay:
    """Send mail through one SMTP relay, keeping up to ``connections`` connections open.
    Every mail the bot sends goes through ``send``: where a ``gate`` is set, it is asked
    first."""

    gate: Gate | None = None

    def __init__(
        self,
        host: str,
        port: int,
        *,
        user: str | None = None,
        password: str | None = None,
        tls: str = "none",
        connections: int = 4,
        timeout: float = 30.0,
    ) -> None:
        self.host, self.port = host, port
        self._user, self._password = user, password
        self._tls, self._timeout = tls, timeout
        self._idle: list[aiosmtplib.SMTP] = []
        self._slots = asyncio.Semaphore(connections)

    async def send(self, message: EmailMessage, answering: str | None = None) -> bool:
        """Deliver one message to the relay: True once delivered, False when the gate
        dropped it (its address said stop); raise TransientMailError or PermanentMailError.
        ``answering``: the address whose mail this answers (the gate lets a stopped address
        hear back once when it writes)."""
        if self.gate is not None and not await self.gate.admit(message, answering):
            return False
        sender = parseaddr(str(message.get("From", "")))[1] or None
        async with self._slots:
            client = self._idle.pop() if self._idle else None
            for attempt in (1, 2):  # an idle connection may have been closed by the relay
                try:
                    if client is None or not client.is_connected:
                        client = self._client()
                        await client.connect()
                    await client.send_message(message, sender=sender)
                    self._idle.append(client)
                    return True
                except aiosmtplib.SMTPResponseException as err:
                    await _close(client)
                    if 500 <= err.code < 600:
                        raise PermanentMailError(f"the relay refused the mail: {err}") from err
                    raise TransientMailError(f"the relay said: {err}") from err
                except aiosmtplib.SMTPRecipientsRefused as err:
                    # every recipient refused, each with its own code: permanent only when
                    # all are (a 300-character address stays refused however often we try)
                    await _close(client)
                    if all(500 <= r.code < 600 for r in err.recipients):
                        raise PermanentMailError(
                            f"the relay refused the recipient: {err.recipients[0]}"
                        ) from err
                    raise TransientMailError(f"the relay said: {err.recipients[0]}") from err
                except (aiosmtplib.SMTPNotSupported, ValueError, UnicodeError) as err:
                    # an address this relay cannot take (no SMTPUTF8 for a non-ASCII one,
                    # a character SMTP forbids): trying again cannot help
                    await _close(client)
                    raise PermanentMailError(f"the relay cannot take this mail: {err}") from err
                except aiosmtplib.SMTPServerDisconnected as err:
                    await _close(client)
                    client = None
                    if attempt == 2:
                        raise TransientMailError(f"the relay disconnected: {err}") from err
                except (TimeoutError, aiosmtplib.SMTPException, OSError) as err:
                    await _close(client)
                    raise TransientMailError(
                        f"cannot reach the relay {self.host}:{self.port}: {err}"
                    ) from err
        raise AssertionError("unreachable: the second attempt returns or raises")

    def _client(self) -> aiosmtplib.SMTP:
        return aiosmtplib.SMTP(
            hostname=self.host,
            port=self.port,
            username=self._user,
            password=self._password,
            use_tls=self._tls == "tls",
            start_tls=self._tls == "starttls",
            timeout=self._timeout,
        )

    async def close(self) -> None:
        while self._idle:
            client = self._idle.pop()
            try:
                await client.quit()
            except (aiosmtplib.SMTPException, OSError):
                client.close()


async def _close(client: aiosmtplib.SMTP | None) -> None:
    if client is not None and client.is_connected:
        client.close()


class _Handler:
    """aiosmtpd's handler: each DATA goes to the processor; its failures become SMTP codes."""

    def __init__(self, process: Processor) -> None:
        self.process = process

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content = envelope.original_content or envelope.content or b""
        # bytes, as the server does not decode_data; a str would be the decoded form
        raw = content if isinstance(content, bytes) else content.encode("utf-8", "surrogateescape")
        try:
            await self.process(raw, envelope.mail_from or "", list(envelope.rcpt_tos))
        except MailTooLarge as err:
            return f"552 5.3.4 {err}"
        except TransientMailError as err:
            log.warning("deferring a message: %s", err)
            return "451 4.3.0 cannot answer right now, please try again later"
        except Exception:  # noqa: BLE001 - a bug must not lose the message: let it retry
            log.exception("failed to handle a message; the sender will retry")
            return "451 4.3.0 internal error, please try again later"
        return "250 2.0.0 OK"


async def start_server(
    process: Processor, host: str, port: int, max_bytes: int, hostname: str | None = None
) -> asyncio.base_events.Server:
    """Listen for SMTP on host:port in the running event loop; close() the result to stop."""
    handler = _Handler(process)
    loop = asyncio.get_running_loop()

    def protocol() -> SMTP:
        return SMTP(
            handler,
            data_size_limit=max_bytes,
            enable_SMTPUTF8=True,
            hostname=hostname,
            ident="mancala mail",
            loop=loop,
        )

    return await loop.create_server(protocol, host, port)
