"""What the bot answers to one message: nothing (bounces, auto-replies), a correspondence
game's answer, or a position-and-move game's answer.

Before anything is read, mail a trusted ``Authentication-Results`` header calls forged (SPF
or DMARC failed, ``bot.mail.authentication``) is dropped: logged and counted, never answered.

Every answer is written inside ``speaking(language)``, set here once for each mail: the
writer's own setting (``language fr``), else the mail's Content-Language, else the language
its client quoted the bot in ("Le 3 mars 2026, Mancala a écrit :"), else English
(``Correspondence.language_of``). Each reply says so in its Content-Language header.

Routing: a mail whose subject or address carries a game or challenge tag, or whose first
word is a correspondence command (challenge, games, help...), goes to ``Correspondence``;
everything else is read as a position-and-move mail. Replies other than a player's game mail
are limited (``bot.mail.reply_limits``), and checked before the work: a mail past its limit
costs no AI search.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from email.message import EmailMessage
from typing import TYPE_CHECKING

from bot import metrics
from bot.ai_runtime.pool import AIPool, default_level, known_levels
from bot.i18n import Language, _, choose, speaking
from bot.mail.authentication import check_message
from bot.mail.mail_language import mark_language
from bot.mail.mail_settings import MailSettings
from bot.mail.position_mail import (
    MailFormatError,
    PositionMail,
    apply_sender_moves,
    parse_position_mail,
    played_move,
    reply_text,
)
from bot.mail.reading import MAX_CONTAINERS, IncomingMail, read_mail
from bot.mail.replies import build_reply
from bot.mail.reply_limits import ReplyKind, ReplyLimiter, limited
from bot.mail.transport import PermanentMailError, Relay
from bot.service.addresses import is_own_address
from bot.service.types import Player
from engine import Position

if TYPE_CHECKING:  # imported when games are on: it brings the game service
    from bot.mail.correspondence import Correspondence
    from bot.mail.stop_mail import StopMail

log = logging.getLogger(__name__)

_MAX_BOT_PLIES = 200  # replays always end (each drops a seed in a store); this is a backstop


class _Answered:
    """Whose mail ``MailBot.answer`` read (its From address), for ``process`` to send by."""

    address: str | None = None


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
        limiter: ReplyLimiter | None = None,
        stops: StopMail | None = None,
    ) -> None:
        self.settings = settings
        self.stops = stops  # stop and start (with games: a stop is kept in their database)
        self.trust = settings.authserv_trust()
        # shared with ``correspondence``: one budget per address, whichever part answers
        self.limiter = limiter or (
            correspondence.limiter if correspondence else ReplyLimiter(settings.limits)
        )
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
        answered = _Answered()
        for reply in await self.answer(raw, envelope_sender, recipients, answered):
            if self.relay is None:
                raise RuntimeError("a MailBot without a relay can answer mail but not send it")
            try:
                # the writer hears back even when they said stop: this answers their mail
                if await self.relay.send(reply, answering=answered.address):
                    metrics.MAIL.labels(direction="out").inc()
            except PermanentMailError as err:  # the sender's address is dead: nobody to tell
                log.warning("reply to %s refused for good: %s", reply["To"], err)

    async def answer(
        self,
        raw: bytes,
        envelope_sender: str | None = None,
        recipients: Sequence[str] = (),
        answered: _Answered | None = None,
    ) -> list[EmailMessage]:
        """The replies to one raw message (none for bounces and auto-replies); ``answered``
        learns whose mail it was.

        Raises MailTooLarge for a message over the limit: the transport refuses it.
        """
        mail = read_mail(raw, envelope_sender, recipients, self.settings.max_bytes)
        if answered is not None:
            answered.address = mail.from_address or None
        if mail.automatic:
            log.info("not answering %s: %s", mail.from_address or "(no From)", mail.automatic)
            return []
        failure = check_message(mail.message, self.trust)
        if failure is not None:
            log.warning(
                "not answering %s: %s says %s=%s",
                mail.from_address or "(no From)",
                failure.authserv_id,
                failure.method,
                failure.result,
            )
            metrics.MAIL_REFUSED.labels(reason=failure.reason).inc()
            return []
        if is_own_address(mail.from_address, self.settings.bot_address):
            log.info("not answering mail from my own address (a forwarding loop?)")
            return []
        self.limiter.note_writer(mail.from_address)
        with speaking(await self.language_of(mail)):
            replies = await self._answer(mail)
            for reply in replies:
                mark_language(reply)
        return replies

    async def language_of(self, mail: IncomingMail) -> Language:
        """The language to answer ``mail`` in (see the module's docstring)."""
        if self.correspondence is not None:
            return await self.correspondence.language_of(mail)
        return choose(None, mail.content_language, mail.attribution_language)

    async def _answer(self, mail: IncomingMail) -> list[EmailMessage]:
        """The replies to a mail that is to be answered, in the current language."""
        if self.stops is not None:  # stop, start, or a stopped address: nothing else is read
            answer = await self.stops.answer(mail)
            if answer is not None:
                return answer
        if mail.refusal:
            text = _(
                "Sorry, your mail has {count} nested parts, and at most {most} are read; "
                "please send the move as plain text."
            ).format(count=mail.nested_parts, most=MAX_CONTAINERS)
            return await self._limited(mail, ReplyKind.AUTOMATIC, self._reply(mail, text))
        if self.correspondence is not None and await self.correspondence.wants(mail):
            return await self.correspondence.handle(mail)
        try:  # a mail that cannot be played is answered as an error; one that can, as play
            request = parse_position_mail(mail.text, self.levels, self.default_level)
            position, sender_moves = apply_sender_moves(request)
        except MailFormatError as err:
            text = err.explain(self.levels)
            return await self._limited(mail, ReplyKind.AUTOMATIC, self._reply(mail, text))

        async def play() -> list[EmailMessage]:
            text = await self.play_position(
                request, position, sender_moves, owner=Player("email", mail.from_address)
            )
            return [self._build(mail, text)]

        return await self._limited(mail, ReplyKind.PLAY, play)

    def _build(self, mail: IncomingMail, text: str) -> EmailMessage:
        """A reply to ``mail`` in the current language."""
        return build_reply(mail, text, self.settings.bot_address)

    def _reply(self, mail: IncomingMail, text: str) -> Callable[[], Awaitable[list[EmailMessage]]]:
        async def reply() -> list[EmailMessage]:
            return [self._build(mail, text)]

        return reply

    async def _limited(
        self,
        mail: IncomingMail,
        kind: ReplyKind,
        produce: Callable[[], Awaitable[list[EmailMessage]]],
    ) -> list[EmailMessage]:
        """``produce``'s replies to the mail's sender, within the limits."""
        return await limited(
            self.limiter, mail.sender, kind, produce, lambda text: self._build(mail, text)
        )

    async def play_position(
        self,
        request: PositionMail,
        position: Position,
        sender_moves: list[str],
        owner: Player | None = None,
    ) -> str:
        """The reply text to a position mail whose own moves are played: the AI's moves,
        searched in ``owner``'s turn (the sender: the AI pool serves players in turn)."""
        bot_moves: list[str] = []
        while (
            not position.is_over()
            and position.to_move == request.bot_side
            and len(bot_moves) < _MAX_BOT_PLIES
        ):
            # seed 0: the same mail gets the same answer
            choice = await self.ai.choose(position, request.level, seed=0, owner=owner)
            position = position.play(choice.move)
            bot_moves.append(played_move(position))
        return reply_text(request, position, sender_moves, bot_moves)
