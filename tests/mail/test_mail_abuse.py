"""The mail bot is no spam cannon: forged senders get no reply, automatic replies are limited
per address and in all (one notice, then silence; a new UTC day resets), a player's game mail
is never limited, and mailed challenges to strangers are limited per sender. Real service on
a SQLite file, a loopback mailbox, a ManualClock; the flood end to end over real SMTP."""

from __future__ import annotations

import asyncio

import pytest

from bot import metrics
from bot.ai_runtime.pool import AIPool
from bot.mail import runner
from bot.mail.bot import MailBot
from bot.mail.mail_settings import MailSettings, MailSettingsError
from bot.mail.reply_limits import ReplyLimiter, ReplyLimits
from bot.service import ManualClock
from engine import to_perspective
from tests.mail.mail_support import Mailbox, free_port, mail, send_raw
from tests.mail.test_mail_correspondence import Player_

START = 1_700_000_000.0 - 1_700_000_000.0 % 86_400 + 3_600  # 01:00 UTC on some day
FORGED = "Authentication-Results: mx.bot.test; spf=fail smtp.mailfrom={who}; dmarc=fail\r\n"
OPENING = """Rules: wari
Level: first
Move: E

    f  e  d  c  b  a
    4  4  4  4  4  4
    4  4  4  4  4  4
    A  B  C  D  E  F
Captured: North 0, South 0.
"""


def refused(reason: str) -> float:
    return metrics.REGISTRY.get_sample_value("mancala_mail_refused_total", {"reason": reason}) or 0


def notices() -> float:
    return metrics.REGISTRY.get_sample_value("mancala_mail_limit_notices_total") or 0


def settings_for(**limits: int) -> MailSettings:
    return MailSettings(
        bot_address="Mancala <mancala@bot.test>",
        secret=b"test-secret",
        level="first",
        trusted_authserv=("mx.isp.example",),
        limits=ReplyLimits(**limits),
    )


@pytest.fixture
def clock():
    return ManualClock(START)


@pytest.fixture
async def positions(clock):
    """A MailBot without games: position mails, help and errors, on a ManualClock."""
    ai = AIPool(workers=0)

    def make(**limits: int) -> MailBot:
        config = settings_for(**limits)
        return MailBot(config, ai, limiter=ReplyLimiter(config.limits, clock))

    yield make
    ai.close()


def numbered(body: str, i: int, sender: str = "ann@example.org", extra: str = "") -> bytes:
    return mail(body, sender=sender, message_id=f"<{i}.{sender}>", extra=extra)


# -- forged senders ----------------------------------------------------------------------------


async def test_forged_mail_gets_no_reply_and_is_counted(positions):
    bot = positions()
    spf, dmarc = refused("spf_fail"), refused("dmarc_fail")
    only_spf = "Authentication-Results: mx.bot.test; spf=fail; dmarc=none\r\n"
    assert await bot.answer(numbered(OPENING, 1, extra=only_spf), "ann@example.org") == []
    forged = FORGED.format(who="ann@example.org")
    assert await bot.answer(numbered("help", 2, extra=forged), "ann@example.org") == []
    assert (refused("spf_fail"), refused("dmarc_fail")) == (spf + 1, dmarc + 1)
    # the same mails without the header, or with a softfail, are answered
    softfail = "Authentication-Results: bot.test; spf=softfail; dmarc=none\r\n"
    assert len(await bot.answer(numbered(OPENING, 3, extra=softfail), "ann@example.org")) == 1
    assert len(await bot.answer(numbered("help", 4), "ann@example.org")) == 1


async def test_only_a_trusted_authserv_id_silences_the_bot(positions):
    bot = positions()
    for i, ident in enumerate(("bot.test", "MX2.bot.test", "mx.isp.example")):
        header = f"Authentication-Results: {ident}; dmarc=fail header.from=example.org\r\n"
        assert await bot.answer(numbered("help", i, extra=header), "ann@example.org") == []
    # the sender's own headers, and foreign servers', are ignored: the mail is answered
    for i, ident in enumerate(
        ("evil.example", "notbot.test", "bot.test.evil.example", "isp.example")
    ):
        header = f"Authentication-Results: {ident}; spf=fail; dmarc=fail\r\n"
        [reply] = await bot.answer(numbered("help", 10 + i, extra=header), "ann@example.org")
        assert reply["To"] == "ann@example.org"
    # a forged "pass" below the MTA's "fail" changes nothing
    both = FORGED.format(who="x") + "Authentication-Results: mx.bot.test; spf=pass; dmarc=pass\r\n"
    assert await bot.answer(numbered("help", 20, extra=both), "ann@example.org") == []


async def test_garbage_authentication_results_never_break_a_reply(positions):
    bot = positions()
    for i, value in enumerate(
        ("", ";;;", "(((", "mx.bot.test; spf", '"\\', "\u00e9\u00e9; spf=fail")
    ):
        header = f"Authentication-Results: {value}\r\n"
        raw = numbered("help", i, extra=header)
        assert len(await bot.answer(raw, "ann@example.org")) == 1


# -- limits on automatic replies ---------------------------------------------------------------


async def test_an_address_gets_its_limit_then_one_notice_then_silence_until_midnight(
    positions, clock
):
    bot = positions(replies_per_address=3)
    before_refused, before_notices = refused("address_limit"), notices()
    replies = [await bot.answer(numbered("help", i), "ann@example.org") for i in range(8)]
    assert [len(r) for r in replies] == [1, 1, 1, 1, 0, 0, 0, 0]
    assert "could not read your mail" in body(replies[2][0])  # the third: still the answer
    assert "only notice" in body(replies[3][0])  # the fourth is the notice
    assert refused("address_limit") == before_refused + 5 and notices() == before_notices + 1
    clock.advance(22 * 3600)  # 23:00 UTC: still the same day
    assert await bot.answer(numbered("help", 20), "ann@example.org") == []
    # another address has its own budget
    assert len(await bot.answer(numbered("help", 21, sender="bob@example.org"), "b")) == 1
    clock.advance(3600)  # 00:00 UTC: a new day
    [reply] = await bot.answer(numbered("help", 22), "ann@example.org")
    assert "could not read your mail" in body(reply)


async def test_the_notice_says_what_happened_and_when_it_resets(positions):
    bot = positions(replies_per_address=1)
    await bot.answer(numbered("help", 1), "ann@example.org")
    [notice] = await bot.answer(numbered("help", 2), "ann@example.org")
    text = notice.get_body(("plain",)).get_content()
    assert notice["To"] == "ann@example.org" and notice["Auto-Submitted"] == "auto-replied"
    assert "1 automatic reply today" in text and "00:00 UTC (in about 23 hours)" in text
    assert "only notice" in text and len(text) < 400


async def test_replies_go_where_the_limit_counts_the_reply_to_address(positions):
    """A forged Reply-To aims the replies at a victim: the victim's budget is what counts."""
    bot = positions(replies_per_address=2)
    got = 0
    for i in range(10):
        raw = numbered(
            "help", i, sender=f"s{i}@example.org", extra="Reply-To: victim@example.net\r\n"
        )
        got += len(await bot.answer(raw, f"s{i}@example.org"))
    assert got == 3  # two replies and the one notice


async def test_position_mails_have_a_budget_of_their_own(positions):
    bot = positions(replies_per_address=1, plays_per_address=4)
    before = refused("play_limit")
    plays = [len(await bot.answer(numbered(OPENING, i), "ann@example.org")) for i in range(7)]
    assert plays == [1, 1, 1, 1, 1, 0, 0]  # four answers, the notice, silence
    assert refused("play_limit") == before + 3
    # her automatic-reply budget is untouched by play, but she had her notice for today
    assert len(await bot.answer(numbered("help", 10), "ann@example.org")) == 1
    assert await bot.answer(numbered("help", 11), "ann@example.org") == []


async def test_the_limits_in_all_bound_a_flood_from_many_addresses(positions, clock):
    bot = positions(replies_per_day=20, replies_per_hour=8)
    before = refused("hourly_limit"), refused("daily_limit")

    async def burst(first: int) -> int:
        sent = 0
        for i in range(first, first + 12):
            sent += len(await bot.answer(numbered("help", i, sender=f"p{i}@example.org"), "x"))
        return sent

    assert await burst(0) == 8  # the hour's limit
    clock.advance(3600)
    assert await burst(100) == 8
    clock.advance(3600)
    assert await burst(200) == 4  # the day's limit: 20 in all
    assert (refused("hourly_limit"), refused("daily_limit")) == (before[0] + 8, before[1] + 8)
    clock.advance(22 * 3600)  # the next day
    assert await burst(300) == 8


# -- correspondence: game mail is never limited; challenges to strangers are -----------------


@pytest.fixture
def table_options():
    """Tight limits, for ``table``."""
    return {"limits": ReplyLimits(replies_per_address=6, stranger_challenges=3)}


@pytest.fixture
def table_clock(clock):
    """``table`` on the ManualClock, its service and its reply limits."""
    return clock


async def test_a_player_in_a_game_is_never_limited(table):
    """Each player moves 30 times in one day, far past the automatic-reply limit of 6: every
    move is played and answered."""
    surface, service, mailbox = table
    ann, bob = Player_(table, "ann@example.org"), Player_(table, "bob@example.org")
    await ann.send("challenge bob@example.org wari", reply_to_last=False)
    await bob.send("accept")
    people = {"ann@example.org": ann, "bob@example.org": bob}
    played = {"ann@example.org": 0, "bob@example.org": 0}
    while min(played.values()) < 30:
        game = await service.get_game(1)
        assert not game.is_over, game.moves
        mover = people[game.to_move.id]
        side = game.side_of(game.to_move)
        pit = to_perspective(game.position.legal_moves()[-1], side)
        await mover.send(f"Move {game.ply + 1}: {pit}")
        assert f"You played {pit} (move {game.ply + 1})" in mover.text()
        played[mover.address] += 1
    assert (await service.get_game(1)).ply == sum(played.values())
    # and she is still limited where it is not her game: her challenge's confirmation and 5
    # more replies, a notice, silence
    answers = []
    for _ in range(7):
        before = len(mailbox.messages)
        await surface.bot.process(mail("help", message_id=f"<h{_}@x>"), ann.address, ["x"])
        answers.append(len(mailbox.messages) - before)
    assert answers == [1, 1, 1, 1, 1, 1, 0]


async def test_challenges_to_strangers_are_limited_per_sender_per_day(table, clock):
    surface, service, mailbox = table
    ann = Player_(table, "ann@example.org")
    before = refused("stranger_challenges")
    for i in range(3):
        await ann.send(f"challenge stranger{i}@example.net", reply_to_last=False)
        assert "Challenge sent to stranger" in ann.text()
    assert len([m for m in mailbox.messages if m["To"].startswith("stranger")]) == 3
    await ann.send("challenge stranger3@example.net", reply_to_last=False)
    text = ann.text()
    assert "I did not send your challenge" in text and "never written to me" in text
    assert "3 such addresses today" in text and "00:00 UTC" in text
    assert refused("stranger_challenges") == before + 1
    assert not [m for m in mailbox.messages if m["To"] == "stranger3@example.net"]
    assert len(await service.open_challenges(ann_player())) == 3  # nothing was made
    # an address that has written to the bot is no stranger: no limit
    carol = Player_(table, "carol@example.org")
    await carol.send("games", reply_to_last=False)
    clock.advance(60)
    await surface.bot.process(mail("challenge carol@example.org"), ann.address, ["x"])
    await service.idle()
    assert any(
        m["To"] == "carol@example.org" and "challenges you" in body(m) for m in mailbox.messages
    )
    # the next day she may challenge strangers again
    clock.advance(86_400)
    await surface.bot.process(
        mail("challenge stranger3@example.net", message_id="<s3@x>"), ann.address, ["x"]
    )
    await service.idle()
    assert [m for m in mailbox.messages if m["To"] == "stranger3@example.net"]


async def test_many_senders_cannot_flood_one_stranger(table):
    """Each sender is within their own limit; the stranger's own limit (3) stops the rest."""
    surface, service, mailbox = table
    before = refused("stranger_limit")
    for i in range(8):
        sender = Player_(table, f"s{i}@example.org")
        await sender.send("challenge victim@example.net", reply_to_last=False)
    assert len([m for m in mailbox.messages if m["To"] == "victim@example.net"]) == 3
    assert refused("stranger_limit") == before + 5
    text = Player_(table, "s7@example.org").text()
    assert "victim@example.net has never written to me and has had 3 challenges" in text


async def test_a_discord_player_cannot_make_the_bot_mail_strangers_either(table):
    """A challenge from Discord to an email address is mailed by the same notifier, within
    the same limit on strangers: the fourth is refused by the service, and nothing mailed."""
    surface, service, mailbox = table
    from bot.service import Channel, NotAllowed, Player

    dan = Player("discord", "4242")
    for i in range(3):
        await service.challenge(
            dan, service.email_player(f"far{i}@example.net"), "kalah", Channel("discord", f"c{i}")
        )
    await service.idle()
    with pytest.raises(NotAllowed, match="never written to me") as refused_:
        await service.challenge(
            dan, service.email_player("far3@example.net"), "kalah", Channel("discord", "c3")
        )
    assert len(str(refused_.value)) <= 2000  # shown as it is on Discord
    await service.idle()
    mailed = {m["To"] for m in mailbox.messages}
    assert {f"far{i}@example.net" for i in range(3)} <= mailed
    assert "far3@example.net" not in mailed
    assert len(await service.open_challenges(dan)) == 3  # the refused one was not made


async def test_a_player_with_finished_games_is_no_stranger_after_a_restart(table):
    surface, service, mailbox = table
    ann, bob = Player_(table, "ann@example.org"), Player_(table, "bob@example.org")
    await ann.send("challenge bob@example.org wari", reply_to_last=False)
    await bob.send("accept")
    await bob.send("resign")
    limiter = surface.bot.limiter
    restarted = ReplyLimiter(limiter.limits, limiter.clock, limiter.counter)
    surface.bot.limiter = surface.bot.correspondence.limiter = restarted  # who wrote: forgotten
    for i in range(5):  # bob played here: challenging him is not limited
        await surface.bot.process(
            mail("challenge bob@example.org wari", message_id=f"<r{i}@x>"), ann.address, ["x"]
        )
    await service.idle()
    assert len(await service.open_challenges(ann_player())) == 5


def ann_player():
    from bot.service import Player

    return Player("email", "ann@example.org")


def body(message) -> str:
    return message.get_body(("plain",)).get_content()


# -- settings ----------------------------------------------------------------------------------


def test_the_limits_and_trusted_ids_come_from_the_environment():
    config = MailSettings.from_environ(
        {
            "MANCALA_MAIL_ADDRESS": "Mancala <mancala@games.example.org>",
            "MANCALA_MAIL_TRUSTED_AUTHSERV": " mx1.isp.net ,MX2.ISP.NET.",
            "MANCALA_MAIL_REPLIES_PER_ADDRESS": "20",
            "MANCALA_MAIL_PLAYS_PER_ADDRESS": "0",
            "MANCALA_MAIL_REPLIES_PER_DAY": "1000",
            "MANCALA_MAIL_REPLIES_PER_HOUR": "50",
            "MANCALA_MAIL_STRANGER_CHALLENGES": "1",
        }
    )
    assert config.trusted_authserv == ("mx1.isp.net", "mx2.isp.net")
    assert config.limits == ReplyLimits(20, 0, 1000, 50, 1)
    trust = config.authserv_trust()
    assert trust.trusts("mx.games.example.org") and trust.trusts("mx2.isp.net")
    assert not trust.trusts("isp.net")
    assert MailSettings.from_environ({}).limits == ReplyLimits(10, 100, 500, 100, 3)


@pytest.mark.parametrize(
    "name, value",
    [
        ("MANCALA_MAIL_REPLIES_PER_ADDRESS", "ten"),
        ("MANCALA_MAIL_REPLIES_PER_DAY", "-1"),
        ("MANCALA_MAIL_REPLIES_PER_HOUR", "\u00b9"),
        ("MANCALA_MAIL_STRANGER_CHALLENGES", "9" * 20),
        ("MANCALA_MAIL_TRUSTED_AUTHSERV", "mx.example.org; spf=pass"),
        ("MANCALA_MAIL_TRUSTED_AUTHSERV", "mx.example.org,-bad"),
    ],
)
def test_a_bad_limit_or_authserv_id_is_one_clear_error(name, value):
    with pytest.raises(MailSettingsError) as err:
        MailSettings.from_environ({name: value})
    message = str(err.value)
    assert message.startswith(name) and "\n" not in message and len(message) < 200


# -- end to end: the forged flood through the real SMTP server --------------------------------


async def test_a_forged_flood_over_smtp_gets_no_reply(tmp_path):
    """60 mails with our MTA's verdict that SPF and DMARC failed, 30 from one address and 30
    from 30 addresses, through ``runner.serve`` on loopback: nothing is sent; then a genuine
    mail is answered."""
    mailbox = await Mailbox().start()
    config = MailSettings(
        listen=("127.0.0.1", free_port()),
        relay=("127.0.0.1", mailbox.port),
        bot_address="Mancala <mancala@bot.test>",
        secret=b"test-secret",
        database=str(tmp_path / "games.sqlite3"),
        level="first",
    )
    stop, ready = asyncio.Event(), asyncio.Event()
    task = asyncio.create_task(runner.serve(config, stop, ready, with_games=True))
    await asyncio.wait_for(ready.wait(), 20)
    before = refused("dmarc_fail")
    try:
        port = config.listen[1]
        senders = ["victim@example.net"] * 30 + [f"v{i}@example.net" for i in range(30)]
        bodies = ["help", OPENING, "challenge someone@example.net", "garbage"]
        await asyncio.gather(
            *(
                send_raw(
                    port,
                    numbered(bodies[i % 4], i, sender=who, extra=FORGED.format(who=who)),
                    who,
                    ["mancala@bot.test"],
                )
                for i, who in enumerate(senders)
            )
        )
        await send_raw(port, numbered("help", 99), "ann@example.org", ["mancala@bot.test"])
        [reply] = await mailbox.wait_for(1)
        await asyncio.sleep(0.3)  # time for a wrongly sent reply to arrive
        assert len(mailbox.messages) == 1 and reply["To"] == "ann@example.org"
        assert refused("dmarc_fail") == before + 60
    finally:
        stop.set()
        await task
        await mailbox.stop()


async def test_a_challenge_the_service_refuses_does_not_count(table):
    surface, service, mailbox = table
    ann = Player_(table, "ann@example.org")
    for i in range(3):  # no such rules: refused by the service, nothing mailed to the stranger
        await ann.send(f"challenge stranger{i}@example.net nosuchgame", reply_to_last=False)
        assert "I did not send your challenge" not in ann.text()
    for i in range(3):
        await ann.send(f"challenge stranger{i}@example.net wari", reply_to_last=False)
        assert "Challenge sent to stranger" in ann.text()
