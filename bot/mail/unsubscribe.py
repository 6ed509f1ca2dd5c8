"""Stopping mail, as every mail the bot sends offers it (docs/privacy.md): the headers of RFC
2369 and RFC 8058, and the gate that drops mail to an address that said ``stop``.

Every mail goes through ``Relay.send``, which asks its ``MailStopGate`` (set by
``bot.mail.runner`` where games are on, since a stop is kept in the games database) first:

- a mail to an address that said stop is dropped, counted in ``mancala_mail_dropped`` and
  logged without the address; the one exception is the answer to a mail the address has
  just sent (``answering``): its stop confirmed, or how to start again;
- every other mail gets ``List-Unsubscribe``: the bot's address with the subject ``stop``
  and the address's token (a mail client's "unsubscribe" button sends that mail), and, where the web companion is
  (``MANCALA_WEB_URL``), the one-click page ``/unsubscribe/TOKEN`` (``bot.tokens``: a
  signed token naming the address) with ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``,
  which RFC 8058 allows only beside an https address.

>>> from email.message import EmailMessage
>>> from bot.tokens import Tokens
>>> message = EmailMessage()
>>> message["To"] = "Ann <ann@example.org>"
>>> mark(message, "Mancala <mancala@bot.example>", "https://m.example", Tokens(b"secret"))
>>> print(message["List-Unsubscribe"])
<mailto:mancala@bot.example?subject=stop%20YW5uQGV4YW1wbGUub3Jn.bo5vplnher>, <https://m.example/unsubscribe/YW5uQGV4YW1wbGUub3Jn.bo5vplnher>
>>> message["List-Unsubscribe-Post"]
'List-Unsubscribe=One-Click'
"""

from __future__ import annotations

import logging
from email.message import EmailMessage
from email.policy import Policy
from email.utils import getaddresses, parseaddr
from typing import TYPE_CHECKING
from urllib.parse import quote

from bot import metrics
from bot.tokens import Tokens, normal_address

if TYPE_CHECKING:  # the gate is built where games are on, with their service
    from bot.service import GameService

log = logging.getLogger(__name__)

STOP_WORD = "stop"  # the subject of the mailto: address, and the command that stops mail
ONE_CLICK = "List-Unsubscribe=One-Click"  # RFC 8058's body of the POST, and its header


class _OneLine(str):
    """A header value written on one line as it is. The SMTP policy refolds a line over 78
    characters and, finding no space to fold at in a long URL, writes it as encoded words,
    which no mail client reads back as an address; RFC 5322 allows 998."""

    name: str

    def __new__(cls, name: str, value: str) -> _OneLine:
        line = super().__new__(cls, value)
        line.name = name
        return line

    def fold(self, *, policy: Policy) -> str:
        return f"{self.name}: {self}{policy.linesep}"


def unsubscribe_url(web_url: str, tokens: Tokens, address: str) -> str:
    """The one-click page that stops mail to ``address``."""
    return f"{web_url.rstrip('/')}/unsubscribe/{tokens.unsubscribe_token(address)}"


def recipient(message: EmailMessage) -> str:
    """The one address a mail of the bot's goes to (each has one), lowercased."""
    found = [address for _name, address in getaddresses(message.get_all("To", [])) if address]
    return normal_address(found[0]) if found else ""


def mark(message: EmailMessage, bot_address: str, web_url: str | None, tokens: Tokens) -> None:
    """Add the unsubscribe headers to ``message`` (replacing any it has)."""
    mailbox = parseaddr(bot_address)[1] or bot_address
    address = recipient(message)
    # the subject carries the address's token: the stop it sends is proven to come from
    # someone who got this mail, and ends their games (a bare "stop" only stops the mail)
    subject = f"{STOP_WORD}%20{tokens.unsubscribe_token(address)}" if address else STOP_WORD
    uris = [f"<mailto:{quote(mailbox, safe='@')}?subject={subject}>"]
    if web_url and address:
        uris.append(f"<{unsubscribe_url(web_url, tokens, address)}>")
    for name in ("List-Unsubscribe", "List-Unsubscribe-Post"):
        del message[name]
    message.set_raw("List-Unsubscribe", _OneLine("List-Unsubscribe", ", ".join(uris)))
    if len(uris) > 1:  # RFC 8058: one-click only with an https address to post to
        message.set_raw("List-Unsubscribe-Post", ONE_CLICK)


class MailStopGate:
    """What ``Relay.send`` asks before each mail: is it to go, and with which headers.

    One indexed read per mail (``GameService.mail_stopped``), on purpose not cached: a stop
    said to another process on the database holds at once, here too."""

    def __init__(
        self, service: GameService, tokens: Tokens, bot_address: str, web_url: str | None
    ) -> None:
        self.service = service
        self.tokens = tokens
        self.bot_address = bot_address
        self.web_url = web_url

    def key(self, address: str) -> str:
        """What the stop of ``address`` is kept by (``bot.tokens.address_key``)."""
        return self.tokens.address_key(address)

    async def stopped(self, address: str) -> bool:
        """Whether ``address`` said stop: one indexed read."""
        return await self.service.mail_stopped(self.key(address))

    async def admit(self, message: EmailMessage, answering: str | None = None) -> bool:
        """Whether ``message`` goes (marked with the unsubscribe headers): not when its
        address said stop, unless it answers a mail from that address (``answering``)."""
        address = recipient(message)
        answer = answering is not None and normal_address(answering) == address
        if address and not answer and await self.stopped(address):
            metrics.MAIL_DROPPED.labels(kind="reply" if answering else "news").inc()
            log.info("not sending a mail: its address said stop")  # never which address
            return False
        mark(message, self.bot_address, self.web_url, self.tokens)
        return True
