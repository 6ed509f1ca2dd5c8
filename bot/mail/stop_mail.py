"""``stop`` and ``start`` by mail (docs/privacy.md): the words, and the answers.

A mail whose first line, or whose subject (as a mail client's unsubscribe button sends it,
``List-Unsubscribe: <mailto:BOT?subject=stop%20TOKEN>``), is ``stop`` (or ``unsubscribe``)
stops all mail to its From address for good, and the bot confirms once. When the mail also
proves it comes from the address's owner (the token of that mailto, or a reply to one of
their games' mails), the service ends what the player has under way
(``bot.service.mail_stops``); a From address alone, easy to forge, only stops the mail.
``start`` lifts it only with the same proof (a reply to one of these answers, whose subject
carries the token), so nobody can undo another's unsubscribing. ``start`` lifts it. Any other mail
from a stopped address is not acted on: it gets one short answer saying how to start again.
These answers are the only mail a stopped address gets (``MailStopGate``: they answer its
own mail), each within the reply limits.

>>> stop_word("stop", ""), stop_word("", "Re: UNSUBSCRIBE"), stop_word("Start!", "x")
('stop', 'stop', 'start')
>>> stop_word("", "stop YW5uQGV4YW1wbGUub3Jn.bo5vplnher")
'stop'
>>> stop_word("stop the clock please", "stop") is None, stop_word("C", "Re: game #3")
(False, None)
"""

from __future__ import annotations

import re
from email.message import EmailMessage
from typing import TYPE_CHECKING

from bot.i18n import _, ngettext
from bot.mail.mail_commands import first_line
from bot.mail.reading import IncomingMail
from bot.mail.replies import build_reply, reply_subject
from bot.mail.reply_limits import ReplyKind, ReplyLimiter, limited
from bot.mail.tokens import find_tags
from bot.mail.unsubscribe import MailStopGate
from bot.service import GameService, Player, ServiceError
from bot.tokens import normal_address
from engine import SIDES

if TYPE_CHECKING:
    from bot.service.mail_stops import Stopped

_WORDS = {"stop": "stop", "unsubscribe": "stop", "start": "start"}
_WORD = re.compile(r"^\s*([a-z]+)\s*[.!]?\s*$", re.I)
_WORD_AND_TOKEN = re.compile(r"^\s*([a-z]+)\s+([A-Za-z0-9_-]+\.[a-z2-7]+)\s*$", re.I)
_STOP_TAG = re.compile(r"\s*\[mancala stop [^\]]*\]")
_RE_PREFIX = re.compile(r"^\s*((re|aw|sv|antw|réf|ref|fwd?)\s*:\s*)+", re.I)


def stop_word(text: str, subject: str) -> str | None:
    """``stop`` or ``start`` when the mail's first line is that word alone, or else its
    subject (without 'Re:'; after the word, the unsubscribe token of ``List-Unsubscribe``'s
    mailto may follow); None otherwise."""
    for candidate in (first_line(text), _RE_PREFIX.sub("", subject)):
        match = _WORD.match(candidate) or _WORD_AND_TOKEN.match(candidate)
        if match and match.group(1).lower() in _WORDS:
            return _WORDS[match.group(1).lower()]
    return None


def _ended(stopped: Stopped) -> str:
    """What the stop ended, in a sentence or two (nothing when nothing was under way)."""
    parts = []
    games = stopped.resigned + stopped.ai_games
    if games:
        parts.append(
            ngettext(
                "{n} game of yours in progress is resigned.",
                "{n} games of yours in progress are resigned.",
                games,
            ).format(n=games)
        )
    if stopped.tournaments or stopped.challenges:
        parts.append(_("You have left your tournaments, and your open challenges are closed."))
    return " ".join(parts)


class StopMail:
    """Answers ``stop``, ``start`` and any mail from a stopped address."""

    def __init__(
        self,
        service: GameService,
        gate: MailStopGate,
        limiter: ReplyLimiter,
        bot_address: str,
    ) -> None:
        self.service = service
        self.gate = gate
        self.limiter = limiter
        self.bot_address = bot_address

    async def answer(self, mail: IncomingMail) -> list[EmailMessage] | None:
        """The answer to ``mail`` when it says stop or start or comes from a stopped
        address; None when it is for the rest of the bot."""
        address = mail.from_address
        if not address:
            return None
        word = stop_word(mail.text, mail.subject)
        key = self.gate.key(address)
        if word == "stop":
            try:
                player = self.service.email_player(address)
            except ServiceError:  # no address the bot could mail anyway
                return None
            proven = await self._proven(mail, player)
            stopped = await self.service.stop_mail(player, key, end_games=proven)
            ended = (
                _ended(stopped)
                if proven
                else _(
                    "Your games in progress go on: a mail that only names your address cannot "
                    "resign them, as anyone can write a From line. To resign them all, reply "
                    "'stop' to a mail of one of your games, or use the unsubscribe link of "
                    "any mail of mine."
                )
            )
            text = " ".join(
                filter(
                    None,
                    [
                        _("Done: I will send no more mail to {address}.").format(address=address),
                        ended,
                        _("If you change your mind, reply 'start' to this mail."),
                    ],
                )
            )
        elif word == "start":
            if not await self.service.mail_stopped(key):
                text = _("{address} was not stopped: I mail it as usual.")
            elif await self._proven(mail, Player("email", normal_address(address))):
                await self.service.start_mail(key)
                text = _(
                    "Welcome back: I will mail {address} again. Write 'help' for the commands."
                )
            else:  # a forged start would undo someone's unsubscribing
                text = _(
                    "To get mail from me again at {address}, reply 'start' to this mail: a "
                    "mail that only names your address cannot, as anyone can write a From line."
                )
            text = text.format(address=address)
        elif await self.service.mail_stopped(key):
            text = _(
                "I did not act on your mail: {address} asked me to stop mailing it, so I "
                "send it nothing. To play again, reply 'start' to this mail."
            ).format(address=address)
        else:
            return None

        async def reply() -> list[EmailMessage]:
            return [self._build(mail, text)]

        return await limited(
            self.limiter,
            address,
            ReplyKind.AUTOMATIC,
            reply,
            lambda notice: self._build(mail, notice),
        )

    async def _proven(self, mail: IncomingMail, player: Player) -> bool:
        """Whether ``mail`` shows it comes from ``player``'s owner: it carries a token the
        bot mailed only to them (the unsubscribe token of ``List-Unsubscribe``'s mailto, or
        their seat's token in a reply to a game's mail). A From address alone proves
        nothing: it is as easy to forge as in any mail."""
        tokens = self.gate.tokens
        words = (word.strip("[]()<>,;") for word in mail.subject.split())
        if any(tokens.unsubscribe_address(word) == player.id for word in words):
            return True
        for kind, ident, token in find_tags(mail.subject, list(mail.recipients)):
            if kind != "game":
                continue
            try:
                game = await self.service.get_game(ident)
            except ServiceError:
                continue
            if any(
                game.player(side) == player and tokens.check("game", ident, side, token)
                for side in SIDES
            ):
                return True
        return False

    def _build(self, mail: IncomingMail, text: str) -> EmailMessage:
        """A reply to ``mail``'s From address. Its subject carries the address's token
        (``[mancala stop TOKEN]``): a ``start`` written in reply to it is proven the owner's,
        so a stopped address can always start again by answering what it got."""
        token = self.gate.tokens.unsubscribe_token(mail.from_address)
        subject = _STOP_TAG.sub("", reply_subject(mail.subject)).rstrip()
        return build_reply(
            mail,
            text,
            self.bot_address,
            to=mail.from_address,
            subject=f"{subject} [mancala stop {token}]",
        )
