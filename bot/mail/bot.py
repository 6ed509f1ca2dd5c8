"""What the bot answers to one message: nothing (bounces, auto-replies), a correspondence
game's answer, or a position-and-move game's answer.

Routing: a mail whose subject or address carries a game or challenge tag, or whose first
word is a correspondence command (challenge, games, help...), goes to ``Correspondence``;
everything else is read as a position-and-move mail.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from email.message import EmailMessage
from typing import TYPE_CHECKING

from bot import metrics
from bot.ai_runtime.pool import AIPool, default_level, known_levels
from bot.mail.mail_settings import MailSettings
from bot.mail.position_mail import (
    MailFormatError,
    apply_sender_moves,
    parse_position_mail,
    played_move,
    reply_text,
)
from bot.mail.reading import IncomingMail, read_mail
from bot.mail.replies import build_reply
from bot.mail.transport import PermanentMailError, Relay
from bot.service.addresses import is_own_address

if TYPE_CHECKING:  # imported when games are on: it brings the game service
    from bot.mail.correspondence import Correspondence

log = logging.getLogger(__name__)

_MAX_BOT_PLIES = 200  # replays always end (each drops a seed in a store); this is a backstop


class MailBot:
    """Answers mail. ``correspondence`` (a ``Correspondence``) handles stored games; without
    it only position-and-move mails are played."""

    def __init__(
        self,
        settings: MailSettings,
        ai: AIPool,
        relay: Relay | None = None,
        correspondence: Correspondence | None = None,
        levels: tuple[str, ...] | None = None,
    ) -> None:
        self.settings = settings
        self.ai = ai  # the service's AIPool: one pool for every surface
        self.relay = relay
        self.correspondence = correspondence
        self.levels = tuple(levels or known_levels())
        self.default_level = settings.level or (
            default_level() if default_level() in self.levels else self.levels[0]
        )

    async def process(self, raw: bytes, envelope_sender: str | None, recipients: list[str]) -> None:
        """Answer one message and send the replies (the SMTP server's and --pipe's entry)."""
        metrics.MAIL.labels(direction="in").inc()
        for reply in await self.answer(raw, envelope_sender, recipients):
            if self.relay is None:
                raise RuntimeError("a MailBot without a relay can answer mail but not send it")
            try:
                await self.relay.send(reply)
                metrics.MAIL.labels(direction="out").inc()
            except PermanentMailError as err:  # the sender's address is dead: nobody to tell
                log.warning("reply to %s refused for good: %s", reply["To"], err)

    async def answer(
        self, raw: bytes, envelope_sender: str | None = None, recipients: Sequence[str] = ()
    ) -> list[EmailMessage]:
        """The replies to one raw message (none for bounces and auto-replies).

        Raises MailTooLarge for a message over the limit: the transport refuses it.
        """
        mail = read_mail(raw, envelope_sender, recipients, self.settings.max_bytes)
        if mail.automatic:
            log.info("not answering %s: %s", mail.from_address or "(no From)", mail.automatic)
            return []
        if is_own_address(mail.from_address, self.settings.bot_address):
            log.info("not answering mail from my own address (a forwarding loop?)")
            return []
        if mail.refusal:
            return [build_reply(mail, f"Sorry, {mail.refusal}.", self.settings.bot_address)]
        if self.correspondence is not None and await self.correspondence.wants(mail):
            return await self.correspondence.handle(mail)
        return [build_reply(mail, await self.position_game(mail), self.settings.bot_address)]

    async def position_game(self, mail: IncomingMail) -> str:
        """Play a position-and-move mail: the sender's moves, then the AI's; the reply text."""
        try:
            request = parse_position_mail(mail.text, self.levels, self.default_level)
            position, sender_moves = apply_sender_moves(request)
        except MailFormatError as err:
            return err.explain(self.levels)
        bot_moves: list[str] = []
        while (
            not position.is_over()
            and position.to_move == request.bot_side
            and len(bot_moves) < _MAX_BOT_PLIES
        ):
            # seed 0: the same mail gets the same answer
            choice = await self.ai.choose(position, request.level, seed=0)
            position = position.play(choice.move)
            bot_moves.append(played_move(position))
        return reply_text(request, position, sender_moves, bot_moves)
