"""Tournaments by mail end to end over real SMTP on loopback (bot/mail/tournament_mail.py): the
mail surface listening on a port with the game service on a SQLite file, players' mails sent
to it and every mail of the bot caught by a second SMTP server, the players' mailbox. A
6-player double round robin is created, joined and started by mail, each game played by
replying to its game mail, with the surface and the service restarted between rounds."""

from __future__ import annotations

import re
from collections import Counter
from email.message import EmailMessage

import pytest

from bot.mail import runner
from bot.mail.mail_settings import MailSettings
from bot.mail.tournament_mail import read_request
from bot.service import GameService, ManualClock, Player
from bot.service.tournaments import PairingKind, TournamentStatus
from tests.mail.mail_support import Mailbox, free_port, mail, send_raw

BOT = "mancala@bot.test"
PLAYERS = [f"p{n}@example.org" for n in range(1, 7)]
ORGANISER = "org@example.org"
GAME_TAG = re.compile(r"\[mancala game (\d+) [a-z2-7]+\]")


class Post:
    """The mail surface listening on loopback, its service, and everyone's mailbox; ``restart``
    closes both and opens them again on the same file."""

    def __init__(self, tmp_path, mailbox: Mailbox):
        self.mailbox = mailbox
        self.clock = ManualClock()
        self.settings = MailSettings(
            listen=("127.0.0.1", free_port()),
            relay=("127.0.0.1", mailbox.port),
            bot_address=BOT,
            secret=b"test-secret",
            database=str(tmp_path / "games.sqlite3"),
        )
        self.service: GameService | None = None
        self.running: runner.RunningMail | None = None
        self.sent = 0

    async def open(self) -> None:
        self.service = await GameService.open(
            self.settings.database, clock=self.clock, tick_every=None
        )
        self.running = await runner.start_mail_surface(self.service, self.settings)

    async def close(self) -> None:
        if self.running is not None:
            await self.running.close()
        if self.service is not None:
            await self.service.close()
        self.running = self.service = None

    async def restart(self) -> None:
        await self.close()
        await self.open()

    def inbox(self, address: str) -> list[EmailMessage]:
        return [m for m in self.mailbox.messages if m["To"] == address]

    async def send(
        self, sender: str, body: str, answering: EmailMessage | None = None
    ) -> EmailMessage:
        """Send ``body`` from ``sender`` over SMTP (a reply to ``answering``, to its Reply-To,
        keeping its subject); the bot's reply to them."""
        assert self.service is not None
        self.sent += 1
        subject, to, extra = "mancala", BOT, ""
        if answering is not None:
            subject, to = "Re: " + answering["Subject"], answering["Reply-To"] or BOT
            extra = (
                f"In-Reply-To: {answering['Message-ID']}\r\n"
                f"References: {answering['Message-ID']}\r\n"
            )
        before = len(self.inbox(sender))
        raw = mail(
            body,
            subject=subject,
            sender=sender,
            to=to,
            message_id=f"<{self.sent}.{sender}>",
            extra=extra,
        )
        await send_raw(self.settings.listen[1], raw, sender, [to])
        await self.service.idle()  # the other players' news, sent in the background
        mine = self.inbox(sender)
        assert len(mine) > before, f"no reply to {sender}'s {body!r}"
        return mine[before]

    def text(self, message: EmailMessage) -> str:
        return message.get_body(("plain",)).get_content()

    def game_mail(self, address: str, game_id: int) -> EmailMessage:
        """The latest mail of game ``game_id`` to ``address``."""
        found = [
            m
            for m in self.inbox(address)
            if (tag := GAME_TAG.search(m["Subject"] or "")) and int(tag.group(1)) == game_id
        ]
        assert found, f"{address} has no mail of game {game_id}"
        return found[-1]


@pytest.fixture
async def post(tmp_path):
    mailbox = await Mailbox().start()
    post = Post(tmp_path, mailbox)
    await post.open()
    yield post
    await post.close()
    await mailbox.stop()


def test_tournament_commands_are_read_from_the_first_line():
    request = read_request("tournament create double-round-robin kalah 2 days Spring Double")
    assert (request.verb, request.format, request.rules, request.days, request.name) == (
        "create",
        "double-round-robin",
        "kalah",
        2,
        "Spring Double",
    )
    assert read_request("tournament pairings 3 2").round == 2
    assert read_request("tournament help").verb == "commands"
    assert read_request("tournament frobnicate").verb == "help"


async def test_a_six_player_double_round_robin_by_mail_with_restarts(post):
    made = await post.send(
        ORGANISER, "tournament create double-round-robin kalah 2 days Spring Double"
    )
    assert "Tournament 1: Spring Double" in post.text(made)
    assert "2 days a move" in post.text(made)
    for address in PLAYERS:
        joined = await post.send(address, "tournament join 1")
        assert "You are in" in post.text(joined)
    refused = await post.send(PLAYERS[0], "tournament start 1")
    assert "organisers" in post.text(refused)
    started = await post.send(ORGANISER, "tournament start 1")
    assert "Started" in post.text(started)
    for round_no in range(1, 11):
        service = post.service
        assert service is not None
        pairings = await service.tournament_pairings(1)
        assert [p.round for p in pairings] == [round_no] * 3
        for n, p in enumerate(pairings):
            south, north = p.south.id, p.north.id
            game_mail = post.game_mail(south, p.game_id)
            assert f"round {round_no}: your game begins" in post.text(game_mail)
            assert "Spring Double" in post.text(post.game_mail(north, p.game_id))
            if n == 0:  # South plays a move by replying to the game mail, then North resigns
                legal = re.search(r"legal: ([A-F])", post.text(game_mail)).group(1)
                await post.send(south, legal, answering=game_mail)
                await post.send(north, "resign", answering=post.game_mail(north, p.game_id))
            elif n == 1:  # a draw offered and accepted in the game's thread
                await post.send(south, "draw", answering=game_mail)
                await post.send(north, "accept", answering=post.game_mail(north, p.game_id))
            else:
                await post.send(south, "resign", answering=game_mail)
        await post.restart()  # between rounds: everything is in the file
    service = post.service
    assert service is not None
    assert (await service.tournament(1)).status is TournamentStatus.FINISHED
    history = [p for r in range(1, 11) for p in await service.tournament_pairings(1, r)]
    assert all(p.kind is PairingKind.GAME for p in history)
    games = Counter((p.south, p.north) for p in history)
    assert set(games.values()) == {1} and all((n, s) in games for s, n in games)
    for address in PLAYERS:
        final = post.inbox(address)[-1]
        assert "is over. The final standings" in post.text(final)
        assert post.text(final).count("Buchholz") == 6
    standings = await service.tournament_standings(1)
    assert sum(s.points for s in standings) == 30
    answer = await post.send(PLAYERS[2], "tournament standings 1")
    assert "1. " in post.text(answer) and "Sonneborn-Berger" in post.text(answer)
    rating = await service.rating(Player("email", PLAYERS[0]), "kalah")
    assert rating.games == 10  # rated as usual: both players are people
