"""Correspondence games by mail on the real service (SQLite file) and a loopback mailbox:
challenge, accept, moves with move numbers, duplicates, stale mails, forged mail, resign."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.mail import runner
from bot.mail.mail_settings import MailSettings
from bot.service import BadRequest, GameService, Player
from tests.mail.mail_support import Mailbox, mail


class Player_:
    """A person with a mail client: sends text, replying to the bot's latest mail to them."""

    def __init__(self, table, address: str):
        self.surface, self.service, self.mailbox = table
        self.address = address
        self.sent = 0

    def inbox(self):
        return [m for m in self.mailbox.messages if m["To"] == self.address]

    def last(self):
        return self.inbox()[-1]

    async def send(
        self,
        body: str,
        reply_to_last: bool = True,
        subject: str | None = None,
        sender: str | None = None,
    ) -> None:
        """Send ``body``; as a reply (subject, In-Reply-To, To: the Reply-To) when asked."""
        self.sent += 1
        extra, to = "", "mancala@bot.test"
        if reply_to_last and subject is None:
            last = self.last()
            subject, to = "Re: " + last["Subject"], last["Reply-To"]
            extra = f"In-Reply-To: {last['Message-ID']}\r\nReferences: {last['Message-ID']}\r\n"
        raw = mail(
            body,
            subject=subject or "mancala",
            sender=sender or self.address,
            to=to,
            message_id=f"<{self.sent}.{self.address}>",
            extra=extra,
        )
        before = len(self.mailbox.messages)
        await self.surface.bot.process(raw, sender or self.address, [to])
        await self.service.idle()
        await self.mailbox.wait_for(before + 1)

    def text(self) -> str:
        return self.last().get_body(("plain",)).get_content()


async def start_game(table):
    ann, bob = Player_(table, "ann@example.org"), Player_(table, "bob@example.org")
    await ann.send("challenge bob@example.org wari", reply_to_last=False)
    assert "[mancala challenge 1 " in ann.last()["Subject"]
    assert "Ann challenges you" in bob.text()  # the name in her From
    assert "Reply 'accept'" in bob.text()
    await bob.send("accept")
    return ann, bob


async def test_a_game_by_mail_from_challenge_to_resignation(table):
    surface, service, mailbox = table
    ann, bob = await start_game(table)
    assert "the game begins" in ann.text() and "Your move, move 1" in ann.text()
    assert "Waiting for" in bob.text()
    game_subject = ann.last()["Subject"]
    assert re.search(r"\[mancala game 1 [a-z2-7]{10}\]", game_subject)

    await ann.send("E")  # a bare pit: the move number comes from the board she replied to
    assert "You played E (move 1)" in ann.text()
    assert "Ann played e." in bob.text()  # her E is his far row's e
    assert "Your move, move 2" in bob.text()
    game = await service.get_game(1)
    assert game.moves == ("E",) and game.ply == 1

    await bob.send("Move 2: C")  # North writes from his side: his C is the engine's c
    game = await service.get_game(1)
    assert game.moves == ("E", "c")
    assert "played C" in bob.text()  # shown back in his own notation
    assert "played c" in ann.text()

    await ann.send("resign")
    game = await service.get_game(1)
    assert game.is_over and game.outcome.winner == "north"
    assert "Game over" in bob.text() and "You resigned" in ann.text()
    # every mail of the game stays in its thread and is marked automatic
    for message in ann.inbox() + bob.inbox():
        assert message["Auto-Submitted"] == "auto-replied"


async def test_duplicate_and_stale_moves_are_refused(table):
    surface, service, mailbox = table
    ann, bob = await start_game(table)
    first_board = ann.last()
    await ann.send("Move 1: E")
    await ann.send("Move 1: E")  # the same mail sent twice
    assert "already played" in ann.text()
    assert (await service.get_game(1)).moves == ("E",)
    await bob.send("Move 2: A")
    # Ann answers an old board (move 1) with a different move: out of date
    ann_reply_to_old = Player_(table, ann.address)
    ann_reply_to_old.sent = 100
    ann_reply_to_old.last = lambda: first_board
    await ann_reply_to_old.send("D")
    assert "out of date" in ann.text()
    assert (await service.get_game(1)).moves == ("E", "a")


async def test_mail_without_the_token_is_refused_whatever_its_from(table):
    surface, service, mailbox = table
    ann, bob = await start_game(table)
    tag = re.search(r"\[mancala game 1 ([a-z2-7]+)\]", ann.last()["Subject"])
    forged = Player_(table, "mallory@example.org")
    # From: Ann, but the subject names the game without its token
    await forged.send("E", subject="Re: [mancala game 1] wari", sender="ann@example.org")
    assert "does not carry the secret token of game 1" in ann.text()
    # From: Ann, with a made-up token
    await forged.send("E", subject="Re: [mancala game 1 aaaaaaaaaa] wari", sender="ann@example.org")
    assert "does not carry the secret token" in ann.text()
    assert (await service.get_game(1)).moves == ()
    # Bob's token cannot move Ann's pits: it speaks for North, and it is South's turn
    bob_token = re.search(r"\[mancala game 1 ([a-z2-7]+)\]", bob.last()["Subject"]).group(1)
    assert bob_token != tag.group(1)
    await bob.send("Move 1: E")
    assert "not your turn" in bob.text()
    assert (await service.get_game(1)).moves == ()


async def test_a_move_without_a_number_or_a_reply_is_asked_for_its_number(table):
    surface, service, mailbox = table
    ann, bob = await start_game(table)
    subject = ann.last()["Subject"]
    await ann.send("E", subject="Re: " + subject)  # a new mail, not a reply: no In-Reply-To
    assert "Which move is E for?" in ann.text()
    assert (await service.get_game(1)).moves == ()


async def test_against_the_ai_and_my_games(table):
    surface, service, mailbox = table
    ann = Player_(table, "ann@example.org")
    await ann.send("challenge ai kalah", reply_to_last=False)
    assert "The AI accepted" in ann.text()
    await ann.send("C")  # kalah: C ends in the store, Ann moves again
    await ann.send("Move 2: F")
    game = await service.get_game(1)
    assert game.moves[:2] == ("C", "F") and len(game.moves) > 2  # the AI answered
    assert game.to_move == Player("email", "ann@example.org")
    await ann.send("games", reply_to_last=False)
    assert f"move {game.ply + 1}, your move" in ann.text()


async def test_a_challenge_to_the_bots_own_address_is_refused_by_the_service(table):
    """The rule lives in the service: a mailed challenge and a Discord one get the same
    answer, and the bot never mails itself."""
    surface, service, mailbox = table
    ann = Player_(table, "ann@example.org")
    await ann.send("challenge Mancala+g1-abc@Bot.test wari", reply_to_last=False)
    assert "my own address" in ann.text()
    assert await service.open_challenges(Player("email", "ann@example.org")) == []
    with pytest.raises(BadRequest, match="own address"):
        service.email_player("<MANCALA@bot.test>")


async def test_draw_offers_by_mail_meet_in_the_service(table):
    """Offering what the other side offered is agreeing: the service decides, mail words it."""
    surface, service, mailbox = table
    ann, bob = await start_game(table)
    await ann.send("draw")
    assert (await service.get_game(1)).offer is not None
    await bob.send("draw")
    assert "You accepted the draw" in bob.text()
    game = await service.get_game(1)
    assert game.is_over and game.offer is None


async def test_a_discord_player_challenges_an_email_address(table):
    surface, service, mailbox = table
    from bot.service import Channel

    carol = Player("discord", "42")
    await service.challenge(
        carol, Player("email", "bob@example.org"), "oware", Channel("discord", "7")
    )
    await service.idle()
    bob = Player_(table, "bob@example.org")
    await mailbox.wait_for(1)
    assert "challenge" in bob.last()["Subject"]
    await bob.send("accept")
    game = await service.get_game(1)
    assert game.north == Player("email", "bob@example.org")
    await service.move(1, carol, "A")
    await service.idle()
    await mailbox.wait_for(3)
    assert "played a" in bob.text()  # Carol's A is Bob's a: the far row from his side
    await bob.send("B")
    assert (await service.get_game(1)).moves == ("A", "b")


async def test_sample_mails_forged_duplicate_and_stale(table):
    """tests/data/ holds real-looking mails for game 1 under the test secret."""
    from pathlib import Path

    surface, service, mailbox = table
    ann, bob = await start_game(table)
    data = Path(__file__).parent / "data"

    async def deliver(name: str) -> str:
        before = len(mailbox.messages)
        await surface.bot.process(
            (data / name).read_bytes(), "ann@example.org", ["mancala@bot.test"]
        )
        await service.idle()
        await mailbox.wait_for(before + 1)
        return ann.text()

    assert "does not carry the secret token" in await deliver("forged_from.eml")
    assert (await service.get_game(1)).moves == ()
    assert "You played E (move 1)" in await deliver("move_south_1.eml")
    assert "already played" in await deliver("move_south_1.eml")  # delivered twice
    assert "out of date" in await deliver("stale_move_south_1.eml")
    assert (await service.get_game(1)).moves == ("E",)


async def test_one_process_for_discord_and_email_tells_both_ways(tmp_path):
    """start_mail_surface on a service that another surface (here a recording "discord"
    notifier) also uses: mail over real SMTP moves the game, and each side hears of it."""
    from bot.mail.runner import start_mail_surface
    from bot.service import Channel, MoveMade, Recorder
    from tests.mail.mail_support import free_port, send_raw

    mailbox = await Mailbox().start()
    settings = MailSettings(
        listen=("127.0.0.1", free_port()),
        relay=("127.0.0.1", mailbox.port),
        bot_address="mancala@bot.test",
        secret=b"test-secret",
        database=str(tmp_path / "games.sqlite3"),
    )
    service = await GameService.open(settings.database, tick_every=None)
    discord = Recorder()
    service.add_notifier("discord", discord)
    running = await start_mail_surface(service, settings)
    try:
        carol = Player("discord", "42")
        await service.challenge(
            carol, Player("email", "bob@example.org"), "wari", Channel("discord", "7")
        )
        await service.idle()
        [invitation] = await mailbox.wait_for(1)

        async def reply(to_message, body: str, n: int) -> None:
            raw = mail(
                body,
                subject="Re: " + to_message["Subject"],
                sender="bob@example.org",
                to=to_message["Reply-To"],
                message_id=f"<{n}@example.org>",
                extra=f"In-Reply-To: {to_message['Message-ID']}\r\n",
            )
            await send_raw(settings.listen[1], raw, "bob@example.org", [to_message["Reply-To"]])
            await service.idle()

        await reply(invitation, "accept", 1)
        [_, started] = await mailbox.wait_for(2)
        await service.move(1, carol, "A")
        await service.idle()
        [_, _, carol_moved] = await mailbox.wait_for(3)
        assert "played a" in carol_moved.get_body(("plain",)).get_content()
        await reply(carol_moved, "B", 2)
        moves = [e for e in discord.of_type(MoveMade) if e.recipient == carol]
        assert [e.move for e in moves] == ["b"]
    finally:
        await running.close()
        await service.close()
        await mailbox.stop()


async def test_reminders_and_forfeits_from_the_service_arrive_by_mail(tmp_path):
    from bot.service import ManualClock
    from bot.service.surface_defaults import DAY

    mailbox = await Mailbox().start()
    settings = MailSettings(
        relay=("127.0.0.1", mailbox.port),
        bot_address="mancala@bot.test",
        secret=b"test-secret",
        database=str(tmp_path / "games.sqlite3"),
    )
    clock = ManualClock()
    service = await GameService.open(settings.database, clock=clock, tick_every=None)
    surface = await runner.open_surface(settings, service=service)
    try:
        ann, bob = await start_game((surface, service, mailbox))
        before = len(mailbox.messages)
        clock.advance(2.5 * DAY)  # email: reminded after two days
        await service.tick()
        await service.idle()
        await mailbox.wait_for(before + 1)
        assert "Reminder: it has been your move" in ann.text()
        clock.advance(7 * DAY)  # and forfeited after a week
        await service.tick()
        await service.idle()
        await mailbox.wait_for(before + 3)
        assert "did not move in time" in ann.text() and "did not move in time" in bob.text()
        assert (await service.get_game(1)).outcome.winner == "north"
    finally:
        await surface.close()
        await service.close()
        await mailbox.stop()


async def test_a_notification_is_retried_while_the_relay_is_down(tmp_path):
    """The opponent's mail waits for a relay that comes back, rather than being dropped."""
    from bot.mail.correspondence import EmailNotifier, attach_email
    from bot.mail.transport import Relay
    from bot.service import Channel
    from tests.mail.mail_support import free_port

    port = free_port()
    settings = MailSettings(
        relay=("127.0.0.1", port), bot_address="mancala@bot.test", secret=b"test-secret"
    )
    service = await GameService.open(str(tmp_path / "games.sqlite3"), tick_every=None)
    relay = Relay("127.0.0.1", port)
    notifier = attach_email(service, settings, relay)
    assert isinstance(notifier, EmailNotifier)
    notifier.retry_delays = (0.3, 0.3)
    await service.challenge(
        Player("discord", "42"), Player("email", "bob@example.org"), "wari", Channel("discord", "7")
    )
    await asyncio.sleep(0.1)  # the first attempt fails: nothing listens yet
    mailbox = await Mailbox().start(port)
    try:
        await service.idle()
        [invitation] = await mailbox.wait_for(1)
        assert invitation["To"] == "bob@example.org"
    finally:
        await relay.close()
        await service.close()
        await mailbox.stop()


async def test_a_reply_to_the_challenge_thread_after_the_start_gets_the_game(table):
    surface, service, mailbox = table
    ann, bob = await start_game(table)
    challenge_mail = next(m for m in ann.inbox() if "[mancala challenge 1 " in m["Subject"])
    ann.last = lambda: challenge_mail  # she answers the old challenge mail
    await ann.send("E")
    del ann.last  # back to her latest mail
    assert "This challenge became game 1" in ann.text()
    assert "[mancala game 1 " in ann.inbox()[-1]["Subject"]
    assert (await service.get_game(1)).moves == ()  # nothing is played from the old thread


async def test_a_draw_offered_and_accepted_by_mail(table):
    surface, service, mailbox = table
    ann, bob = await start_game(table)
    await ann.send("draw")
    assert "You offered: draw." in ann.text() and "You offer a draw." in ann.text()
    assert "Ann offers a draw." in bob.text() and "reply 'accept' or 'decline'" in bob.text()
    await bob.send("accept")
    game = await service.get_game(1)
    assert game.is_over and game.outcome.winner == "draw"
    assert "The game is over." in bob.text()


async def test_a_take_back_asked_and_declined_by_mail_in_the_shared_words(table):
    """The offer's words are the service's (bot.service.offer_words), as on every surface."""
    surface, service, mailbox = table
    ann, bob = await start_game(table)
    await ann.send("E")
    await ann.send("undo")
    assert "You offered: undo." in ann.text() and "You offer a take-back." in ann.text()
    assert "Ann asks to take back their last move." in bob.text()
    assert "Your opponent asks to take back their last move; reply 'accept'" in bob.text()
    await bob.send("decline")
    assert "You declined the offer." in bob.text()
    assert "Bob declined your undo offer." in ann.text()


async def test_a_move_without_its_games_tag_lists_the_senders_games(table):
    """'Move 5: D' as a new mail: no token, so no move; the sender is told to reply to their
    game's latest mail, and which games they have (with their tags)."""
    surface, service, mailbox = table
    ann, bob = await start_game(table)
    await ann.send("Move 1: C", reply_to_last=False, subject="my move")
    text = ann.text()
    assert "I did not play C" in text and "Reply to my latest mail" in text
    assert "[mancala game 1 " in text and "wari against" in text
    assert (await service.get_game(1)).moves == ()  # nothing was played
    carol = Player_(table, "carol@example.org")  # no games: a move is a position mail's
    await carol.send("Move 1: C", reply_to_last=False, subject="hello")
    assert "Rules:" in carol.text() and "I did not play" not in carol.text()


WEB = "https://mancala.example"
PAGE = re.compile(r"https://mancala\.example/game/(\d+)/play/([a-z2-7]{10})")


@pytest.mark.parametrize("table_options", [{"web_url": WEB}])
async def test_with_a_web_companion_the_games_list_links_each_game_with_its_readers_token(
    table,
):
    """As the game mails do: each game under its tag, its page with the reader's own token
    (the one in the game's subject tag), a link in the HTML too; the link alone plays."""
    from aiohttp.test_utils import TestClient, TestServer

    from bot.tokens import Tokens
    from bot.web.app import make_app

    surface, service, mailbox = table
    ann, bob = await start_game(table)
    await ann.send("challenge bob@example.org kalah", reply_to_last=False)
    await bob.send("accept")
    tags = {}  # (reader, game) -> the token of the game's tag in the reader's mails
    for person in (ann, bob):
        for message in person.inbox():
            if found := re.search(r"\[mancala game (\d+) ([a-z2-7]{10})\]", message["Subject"]):
                tags[person.address, int(found.group(1))] = found.group(2)
    assert {game for _reader, game in tags} == {1, 2}

    for person in (ann, bob):
        await person.send("games", reply_to_last=False)
        text = person.text()
        links = PAGE.findall(text)
        assert sorted((int(game), token) for game, token in links) == [
            (game, tags[person.address, game]) for game in (1, 2)
        ]
        lines = text.splitlines()
        for game, token in links:  # each link on the line under its game's tag
            at = lines.index(f"    {WEB}/game/{game}/play/{token}")
            assert lines[at - 1].startswith(f"  [mancala game {game} {token}]")
        markup = person.last().get_body(("html",)).get_content()
        for game, token in links:
            url = f"{WEB}/game/{game}/play/{token}"
            assert f'<a href="{url}">{url}</a>' in markup
    assert set(PAGE.findall(ann.text())).isdisjoint(PAGE.findall(bob.text()))

    await ann.send("Move 1: C", reply_to_last=False, subject="my move")  # no tag: the list
    assert "I did not play C" in ann.text() and len(PAGE.findall(ann.text())) == 2

    game, token = next((g, t) for g, t in PAGE.findall(bob.text()) if g == "1")
    async with TestClient(TestServer(make_app(service, Tokens(b"test-secret")))) as client:
        page = await (await client.get(f"/game/{game}/play/{token}")).text()
    assert 'id="play"' in page  # Bob's link: his seat, to play on


async def test_without_a_web_companion_the_games_list_has_no_links(table):
    ann, bob = await start_game(table)
    await ann.send("games", reply_to_last=False)
    assert "[mancala game 1 " in ann.text() and "/game/" not in ann.text()
    assert "<a " not in ann.last().get_body(("html",)).get_content()


async def test_words_after_a_move_are_read_and_the_reply_says_so(table):
    surface, service, mailbox = table
    ann, bob = await start_game(table)
    await ann.send("Move 1: C (did this go through?)")
    assert "I read your move as C (your line: 'Move 1: C (did this go through?)')" in ann.text()
    assert (await service.get_game(1)).moves == ("C",)
    await bob.send("Move 2: d or maybe e")
    assert "which move?" in bob.text() and (await service.get_game(1)).moves == ("C",)


async def test_review_by_mail_once_the_game_is_over(table):
    from tests.service.test_ai_fairness import NeverCompiled

    surface, service, mailbox = table
    service.ai.kernel = NeverCompiled()  # a small board: the plain-Python solver proves it
    ann, bob = Player_(table, "ann@example.org"), Player_(table, "bob@example.org")
    await ann.send("challenge bob@example.org kalah:seeds=1", reply_to_last=False)
    await bob.send("accept")
    await ann.send("review")
    assert "Not done: game #1 is still going on" in ann.text()
    await ann.send("A")
    await bob.send("resign")
    assert "Reply 'review' for the solver's review" in ann.text()
    await ann.send("review")
    text = ann.text()
    assert re.search(r"Game 1, reviewed by the solver: 1 of 1 moves? proven\.", text)
    assert "South (Ann): accuracy 0%" in text and "1 blunder" in text
    assert "- Move 1, South played A: blunder, +2 -> 0 (proven). Better: F." in text
    before = text.split("The board before it:")[1].split("The final board:")[0].splitlines()
    assert [line.strip() for line in before[3:6]] == [  # the board A was played on
        "0                   0",
        "1  1  1  1  1  1",
        "A  B  C  D  E  F",
    ]
