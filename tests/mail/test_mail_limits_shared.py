"""The mail reply limits hold across processes and restarts: two mail surfaces, each on its
own service, on one database (a SQLite file, or PostgreSQL, as two ``mancala mail``
processes would be), each restarted now and then (as ``mancala mail --pipe`` starts one
process per mail), count the same replies: mail spread over them gets no more replies than
one process would send."""

from __future__ import annotations

import asyncio

import pytest

from bot.mail import runner
from bot.mail.mail_settings import MailSettings
from bot.mail.reply_limits import Refusal, ReplyKind, ReplyLimiter, ReplyLimits
from bot.service import Channel, GameService, ManualClock, NotAllowed, Player
from tests.mail.mail_support import Mailbox, mail

START = 1_700_000_000.0 - 1_700_000_000.0 % 86_400 + 3_600  # 01:00 UTC on some day


class Processes:
    """Two mail surfaces on one database, restarted on demand; ``answer`` hands a mail to
    one of them."""

    def __init__(
        self, database: str, clock: ManualClock, limits: ReplyLimits, relay_port: int = 25
    ) -> None:
        self.settings = MailSettings(
            relay=("127.0.0.1", relay_port),
            bot_address="mancala@bot.test",
            secret=b"test-secret",
            database=database,
        )
        self.clock, self.limits = clock, limits
        self.running: list[tuple[runner.MailSurface, GameService] | None] = [None, None]
        self.starts = 0

    async def start(self, which: int) -> tuple[runner.MailSurface, GameService]:
        service = await GameService.open(self.settings.database, clock=self.clock, tick_every=None)
        limiter = ReplyLimiter(self.limits, self.clock, service)  # as open_surface's default
        surface = await runner.open_surface(self.settings, service=service, limiter=limiter)
        self.starts += 1
        return surface, service

    async def restart(self, which: int) -> None:
        await self.stop(which)
        self.running[which] = await self.start(which)

    async def stop(self, which: int) -> None:
        running = self.running[which]
        if running is not None:
            surface, service = running
            await surface.close()
            await service.close()
            self.running[which] = None

    async def service(self, which: int) -> GameService:
        if self.running[which] is None:
            self.running[which] = await self.start(which)
        running = self.running[which]
        assert running is not None
        return running[1]

    async def answer(self, which: int, sender: str, i: int) -> int:
        """How many replies process ``which`` sends to a help mail from ``sender``."""
        if self.running[which] is None:
            self.running[which] = await self.start(which)
        running = self.running[which]
        assert running is not None
        raw = mail("help", sender=sender, message_id=f"<{i}.{sender}>")
        return len(await running[0].bot.answer(raw, sender))


async def test_unauthenticated_mail_spread_over_two_restarted_processes_gets_the_hours_cap(
    database,
):
    """The issue's flood, smaller: mail from many addresses, no Authentication-Results, sent
    to two processes in turn, both restarted halfway: replies stop at the hour's limit."""
    processes = Processes(database, ManualClock(START), ReplyLimits(replies_per_hour=7))
    try:
        replies = 0
        for i in range(24):
            if i in (8, 16):  # both restarted: a process's memory would start from zero
                await processes.restart(0)
                await processes.restart(1)
            replies += await processes.answer(i % 2, f"s{i}@example.org", i)
        assert replies == 7
        assert processes.starts == 6
        processes.clock.advance(3600)  # the next hour has room again, in either process
        assert await processes.answer(1, "late@example.org", 99) == 1
    finally:
        await processes.stop(0)
        await processes.stop(1)


async def test_mail_answered_at_once_by_two_processes_shares_the_hours_cap_exactly(database):
    """The same with the mails answered concurrently, half by each process (as two servers
    taking SMTP sessions at once), both restarted halfway: the hour's cap, exactly, since a
    check and its count are one statement."""
    processes = Processes(database, ManualClock(START), ReplyLimits(replies_per_hour=30))
    try:
        replies = []
        for half in (range(0, 20), range(20, 40)):
            await processes.restart(0)
            await processes.restart(1)
            replies.append(
                sum(
                    await asyncio.gather(
                        *(processes.answer(i % 2, f"s{i}@example.org", i) for i in half)
                    )
                )
            )
        assert replies == [20, 10]  # all of the first half; the second, up to the cap
        processes.clock.advance(3600)
        assert await processes.answer(0, "late@example.org", 99) == 1
    finally:
        await processes.stop(0)
        await processes.stop(1)


async def test_an_address_gets_its_limit_and_one_notice_across_processes(database):
    processes = Processes(database, ManualClock(START), ReplyLimits(replies_per_address=3))
    try:
        got = []
        for i in range(8):
            got.append(await processes.answer(i % 2, "ann@example.org", i))
            await processes.restart(i % 2)  # as --pipe: a process per mail
        assert got == [1, 1, 1, 1, 0, 0, 0, 0]  # three replies, the one notice, silence
        processes.clock.advance(23 * 3600)  # 00:00 UTC: a new day, in every process
        assert await processes.answer(0, "ann@example.org", 20) == 1
    finally:
        await processes.stop(0)
        await processes.stop(1)


async def test_challenges_to_strangers_from_discord_count_across_processes(database):
    """A Discord player's challenges to addresses that never wrote are mailed by whichever
    process runs the service they reach: the day's limit (3) holds over both."""
    mailbox = await Mailbox().start()
    processes = Processes(
        database, ManualClock(START), ReplyLimits(stranger_challenges=3), mailbox.port
    )
    dan = Player("discord", "4242")
    try:
        made = 0
        for i in range(6):
            service = await processes.service(i % 2)
            stranger = service.email_player(f"far{i}@example.net")
            try:
                await service.challenge(dan, stranger, "kalah", Channel("discord", f"c{i}"))
                made += 1
            except NotAllowed:
                pass
            await service.idle()
            if i == 2:
                await processes.restart(0)
        assert made == 3
        assert len({m["To"] for m in mailbox.messages}) == 3
    finally:
        await processes.stop(0)
        await processes.stop(1)
        await mailbox.stop()


@pytest.mark.parametrize("with_games", [True, False])
async def test_a_surface_counts_in_the_database_when_it_has_one(tmp_path, with_games):
    settings = MailSettings(
        bot_address="mancala@bot.test",
        secret=b"test-secret",
        database=str(tmp_path / "games.sqlite3"),
    )
    surface = await runner.open_surface(settings, with_games=with_games, ai_workers=0)
    try:
        counter = surface.bot.limiter.counter
        assert (counter is surface.service) is with_games  # else this process's memory
        if with_games:
            assert surface.bot.correspondence is not None
            assert surface.bot.correspondence.limiter is surface.bot.limiter
    finally:
        await surface.close()


async def test_a_limit_of_zero_refuses_with_its_own_reason_in_memory_and_in_the_database(
    database,
):
    service = await GameService.open(database, clock=ManualClock(START), tick_every=None)
    try:
        for counter in (None, service):

            def limiter(counter=counter, **limits: int) -> ReplyLimiter:
                return ReplyLimiter(ReplyLimits(**limits), ManualClock(START), counter)

            no_hour = await limiter(replies_per_hour=0).admit("ann@x.org", ReplyKind.AUTOMATIC)
            assert (no_hour.allowed, no_hour.refusal, no_hour.notice) == (
                False,
                Refusal.HOURLY_LIMIT,
                None,
            )
            none = await limiter(replies_per_address=0).admit("ann@x.org", ReplyKind.AUTOMATIC)
            assert (none.refusal, none.notice) == (Refusal.ADDRESS_LIMIT, None)
            strangers = limiter(stranger_challenges=0)
            assert await strangers.take_stranger_challenge("ann@x.org", "eve@y.org") is (
                Refusal.STRANGER_CHALLENGES
            )
            # nothing a refusal counted stays counted: the day's limit in all is untouched
            one = limiter(replies_per_day=1)
            assert (await one.admit("bob@x.org", ReplyKind.AUTOMATIC)).allowed
    finally:
        await service.close()
