"""How many automatic replies the bot sends, so it can never be turned into a spam cannon.

Like Mailman's limit on autoresponses per day: an address gets at most so many automatic
replies a day, and the bot sends at most so many in all, a day and an hour. Replies fall in
three kinds (``ReplyKind``):

- ``GAME``: mail in a correspondence game or challenge from the seat's own player (it carries
  the seat's secret token), and the service's news to players of their games. Never limited:
  play always gets what it needs.
- ``PLAY``: the answer to a position mail, the AI's move on the sender's board, and puzzles by
  mail (``bot.mail.puzzle_mail``). Play too, but anyone can send one, so it has a per-address
  budget of its own, large enough for several games a day.
- ``AUTOMATIC``: everything else: help, the games list, errors and refusals, a position mail
  that could not be read, a new challenge's confirmation.

``PLAY`` and ``AUTOMATIC`` replies count against the limits in all. When an address reaches
its limit, it gets one short notice (that day: at most one) saying so and when it resets, then
silence; when the bot's limit in all is reached, silence (a notice would be one more mail).
Days and hours are UTC, counted from the epoch: everything resets at 00:00 UTC.

A challenge to an address that has never written to the bot is limited per sender per day
(``ReplyLimiter.take_stranger_challenge``), and per stranger per day by the same number, so
many senders together cannot flood one stranger either; it counts in the limits in all.

Where the counts live is the ``counter``: a mail surface with games counts in the database,
through its service (``GameService.count_hits``, ``storage.stores.limits``), so every process
on the database shares the limits, a restart forgets nothing, and ``mancala mail --pipe`` (one
process per message) keeps them too; each check is one statement. Without games (no
database) they live in this process's memory (``MemoryCounter``). Which addresses wrote to
the bot (``note_writer``) is this process's memory either way: an address that wrote to
another process counts as a stranger here, the safe side.

>>> import asyncio
>>> from bot.service import ManualClock
>>> clock = ManualClock(0.0)
>>> limiter = ReplyLimiter(ReplyLimits(replies_per_address=2), clock)
>>> def admitted(kind): return asyncio.run(limiter.admit("ann@example.org", kind)).allowed
>>> [admitted(ReplyKind.AUTOMATIC) for _ in range(3)]
[True, True, False]
>>> admitted(ReplyKind.GAME)
True
>>> clock.advance(86400); admitted(ReplyKind.AUTOMATIC)
True
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from enum import Enum
from typing import Protocol

from bot import metrics
from bot.i18n import ngettext
from bot.service import Hit

log = logging.getLogger(__name__)

DAY = 86_400.0
HOUR = 3_600.0
MAX_WRITERS = 100_000  # addresses remembered as having written (the oldest forgotten first)


class ReplyKind(Enum):
    GAME = "game"  # a player's own game or challenge: never limited
    PLAY = "play"  # a position mail's answer
    AUTOMATIC = "automatic"  # help, errors, refusals, new challenges


class Refusal(Enum):
    """Why a mail got no reply (or a challenge was not sent): the refusal counter's label."""

    ADDRESS_LIMIT = "address_limit"  # this address had its automatic replies today
    PLAY_LIMIT = "play_limit"  # this address had its position-mail answers today
    DAILY_LIMIT = "daily_limit"  # the bot sent its automatic replies in all today
    HOURLY_LIMIT = "hourly_limit"  # ... this hour
    STRANGER_CHALLENGES = "stranger_challenges"  # a sender's challenges to strangers today
    STRANGER_LIMIT = "stranger_limit"  # the stranger had as many challenges as allowed today


@dataclass(frozen=True)
class ReplyLimits:
    """The limits, each a count (0: none at all). The defaults, and their settings:

    ===================  =====  ======================================  ====================
    field                value  what                                    setting
    ===================  =====  ======================================  ====================
    replies_per_address  10     automatic replies to one address a day  MANCALA_MAIL_REPLIES_PER_ADDRESS
    plays_per_address    100    position-mail answers to one address    MANCALA_MAIL_PLAYS_PER_ADDRESS
    replies_per_day      500    limited replies in all, a day           MANCALA_MAIL_REPLIES_PER_DAY
    replies_per_hour     100    limited replies in all, an hour         MANCALA_MAIL_REPLIES_PER_HOUR
    stranger_challenges  3      challenges by one sender a day to       MANCALA_MAIL_STRANGER_CHALLENGES
                                addresses that never wrote to the bot,
                                and to one such address a day
    ===================  =====  ======================================  ====================

    10 is Mailman's autoresponse limit. A game of wari by position mail takes 20 to 60 of the
    sender's mails, so 100 answers are two or more games a day. The hour's limit keeps one
    burst from spending the whole day's.
    """

    replies_per_address: int = 10
    plays_per_address: int = 100
    replies_per_day: int = 500
    replies_per_hour: int = 100
    stranger_challenges: int = 3


@dataclass(frozen=True)
class Admission:
    """The answer to "may I reply?": ``allowed``, else why not and the notice to send
    instead (None: silence)."""

    allowed: bool
    refusal: Refusal | None = None
    notice: str | None = None


class HitCounter(Protocol):
    """Where the counts live: the game service (``GameService.count_hits``: in the database,
    shared by every process on it) or ``MemoryCounter`` (this process only)."""

    async def count_hits(self, hits: Sequence[Hit], now: float) -> list[bool]: ...

    async def give_back_hits(self, hits: Sequence[Hit], now: float) -> None: ...


class MemoryCounter:
    """``HitCounter`` in this process's memory, as the database counts: for a mail surface
    without games (no database), and tests. Ended windows are forgotten as the day turns."""

    def __init__(self) -> None:
        self._hits: dict[tuple[str, int], int] = {}
        self._day = -1

    async def count_hits(self, hits: Sequence[Hit], now: float) -> list[bool]:
        if int(now // DAY) != self._day:  # forget the windows that ended (none is over a day)
            self._day = int(now // DAY)
            self._hits = {k: n for k, n in self._hits.items() if k[1] + DAY > now}
        counted = []
        for hit in hits:
            key = (hit.name, int(now // hit.window) * hit.window)
            used = self._hits.get(key, 0)
            counted.append(used < hit.limit)  # a limit of 0 allows none
            if used < hit.limit:
                self._hits[key] = used + 1
        return counted

    async def give_back_hits(self, hits: Sequence[Hit], now: float) -> None:
        for hit in hits:
            key = (hit.name, int(now // hit.window) * hit.window)
            if self._hits.get(key, 0) > 0:
                self._hits[key] -= 1


class ReplyLimiter:
    """The limits on replies, counted by ``counter`` (default: in this process's memory; a
    mail surface with games counts in the database through its service) and read through
    ``clock`` (seconds since the epoch; tests pass a ``ManualClock``). A check and its count
    are one statement (``count_hits``), so two mails at once, in one process or two, cannot
    both take the last reply; what a refused reply counted in the other limits is given
    back."""

    def __init__(
        self,
        limits: ReplyLimits | None = None,
        clock: Callable[[], float] = time.time,
        counter: HitCounter | None = None,
    ) -> None:
        self.limits = limits or ReplyLimits()
        self.clock = clock
        self.counter: HitCounter = counter or MemoryCounter()
        self._writers: dict[str, None] = {}  # insertion-ordered: the oldest first

    # -- time ---------------------------------------------------------------------------------

    def resets_in(self) -> float:
        """Seconds until the day's counts reset (00:00 UTC)."""
        now = self.clock()
        return (int(now // DAY) + 1) * DAY - now

    def _in_all(self) -> list[Hit]:
        """The limits in all: this hour's replies, and today's."""
        return [
            Hit("mail:all:hour", int(HOUR), self.limits.replies_per_hour),
            Hit("mail:all:day", int(DAY), self.limits.replies_per_day),
        ]

    async def _count(self, hits: list[Hit], now: float) -> list[bool]:
        """Count ``hits``; if any was refused, give back the others (nothing was sent)."""
        counted = await self.counter.count_hits(hits, now)
        if not all(counted):
            taken = [hit for hit, one in zip(hits, counted, strict=True) if one]
            if taken:
                await self.counter.give_back_hits(taken, now)
        return counted

    # -- replies ------------------------------------------------------------------------------

    async def admit(self, address: str, kind: ReplyKind, notice: bool = True) -> Admission:
        """May the bot send a reply of ``kind`` to ``address`` now? When it may, the reply is
        counted. When it may not, ``notice`` (the default) asks for the day's one notice to
        the address, which counts in the limits in all too."""
        if kind is ReplyKind.GAME:
            return Admission(True)
        now = self.clock()
        address = address.lower()
        limit = (
            self.limits.plays_per_address
            if kind is ReplyKind.PLAY
            else self.limits.replies_per_address
        )
        mine = Hit(f"mail:{kind.value}:{address}", int(DAY), limit)
        counted = await self._count([mine, *self._in_all()], now)
        if all(counted):
            return Admission(True)
        if not counted[0]:
            refusal = Refusal.PLAY_LIMIT if kind is ReplyKind.PLAY else Refusal.ADDRESS_LIMIT
            text = None
            once = Hit(f"mail:notice:{address}", int(DAY), 1)
            # a limit of 0 never let the address have a reply, so it never hears of a limit
            if notice and limit > 0 and all(await self._count([once, *self._in_all()], now)):
                text = self._notice(kind, limit)
            return Admission(False, refusal, text)
        return Admission(False, Refusal.HOURLY_LIMIT if not counted[1] else Refusal.DAILY_LIMIT)

    def _notice(self, kind: ReplyKind, limit: int) -> str:
        """The day's one notice to an address past its limit, in the current language."""
        hours = max(1, round(self.resets_in() / HOUR))
        if kind is ReplyKind.PLAY:
            sent = ngettext(
                "I have sent this address {n} answer to position mails and puzzles today",
                "I have sent this address {n} answers to position mails and puzzles today",
                limit,
            )
        else:
            sent = ngettext(
                "I have sent this address {n} automatic reply today",
                "I have sent this address {n} automatic replies today",
                limit,
            )
        # TRANSLATORS: {sent} is one of the two sentences above, "I have sent this address
        # 10 automatic replies today"
        return ngettext(
            "{sent}, as many as I send to one address in a day, so I will not answer more "
            "such mail from it until 00:00 UTC (in about {n} hour). This is the only notice. "
            "Moves in your correspondence games (replies to a game's mail) are still answered.",
            "{sent}, as many as I send to one address in a day, so I will not answer more "
            "such mail from it until 00:00 UTC (in about {n} hours). This is the only notice. "
            "Moves in your correspondence games (replies to a game's mail) are still answered.",
            hours,
        ).format(sent=sent.format(n=limit), n=hours)

    # -- challenges to addresses that never wrote ------------------------------------------

    def note_writer(self, address: str) -> None:
        """``address`` wrote to the bot (a mail it would answer)."""
        address = address.lower()
        if not address:
            return
        self._writers.pop(address, None)
        self._writers[address] = None
        if len(self._writers) > MAX_WRITERS:
            del self._writers[next(iter(self._writers))]

    def has_written(self, address: str) -> bool:
        """Whether ``address`` wrote to the bot since this process started."""
        return address.lower() in self._writers

    def _stranger_hits(self, sender: str, stranger: str) -> list[Hit]:
        limit = self.limits.stranger_challenges
        return [
            Hit(f"mail:strangers-challenged:{sender.lower()}", int(DAY), limit),
            Hit(f"mail:challenged-as-stranger:{stranger.lower()}", int(DAY), limit),
            *self._in_all(),
        ]

    async def take_stranger_challenge(self, sender: str, stranger: str) -> Refusal | None:
        """Count a challenge from ``sender`` to ``stranger`` (an address that never wrote to
        the bot), or say why it may not be sent: the sender's challenges to strangers today,
        the stranger's challenges received today (the same limit: many senders together
        cannot flood one stranger), or the limits in all (the challenge is a mail).
        ``give_back_stranger_challenge`` undoes it when the challenge is not made after all."""
        counted = await self._count(self._stranger_hits(sender, stranger), self.clock())
        refusals = (
            Refusal.STRANGER_CHALLENGES,
            Refusal.STRANGER_LIMIT,
            Refusal.HOURLY_LIMIT,
            Refusal.DAILY_LIMIT,
        )
        return next((why for why, one in zip(refusals, counted, strict=True) if not one), None)

    async def give_back_stranger_challenge(self, sender: str, stranger: str) -> None:
        """Undo ``take_stranger_challenge`` (the service refused the challenge)."""
        await self.counter.give_back_hits(self._stranger_hits(sender, stranger), self.clock())


def count_refusal(refusal: Refusal, address: str, notice: bool = False) -> None:
    """Log and count a refusal (and the notice sent for it, if any)."""
    metrics.MAIL_REFUSED.labels(reason=refusal.value).inc()
    if notice:
        metrics.MAIL_LIMIT_NOTICES.inc()
        log.info("%s: limit reached, notice sent (%s)", address, refusal.value)
    else:
        log.info("not answering %s: %s", address, refusal.value)


async def limited(
    limiter: ReplyLimiter,
    to: str,
    kind: ReplyKind,
    produce: Callable[[], Awaitable[list[EmailMessage]]],
    notice_mail: Callable[[str], EmailMessage],
) -> list[EmailMessage]:
    """The replies ``produce`` makes, if ``limiter`` admits a reply of ``kind`` to ``to``;
    else the notice (built by ``notice_mail`` from its text) or nothing. ``produce`` runs
    only when admitted, so a refused mail costs no AI search and changes no game."""
    admission = await limiter.admit(to, kind)
    if admission.allowed:
        return await produce()
    assert admission.refusal is not None
    count_refusal(admission.refusal, to, notice=admission.notice is not None)
    return [notice_mail(admission.notice)] if admission.notice else []
