"""Correspondence on a human schedule by mail, end to end over real SMTP on loopback
(bot/mail/digest.py, bot/mail/schedule_mail.py): the mail surface listening on a port with the
game service on a SQLite file and a manual clock, players' mails sent to it, and every mail of
the bot caught by the players' mailbox. A player who reads the daily digest gets one mail a
day listing the games where it is their move, and moves in two games with one reply; days a
move in a challenge, vacations and conditional moves are set by replying to a game's mail."""

from __future__ import annotations

import re
from email.message import EmailMessage

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.mail.digest import read_line
from bot.mail.schedule_mail import read_setting
from bot.service import Player
from bot.service.vacations import when_words
from tests.mail.mail_support import Mailbox
from tests.mail.test_mail_tournaments import Post

ANN, BOB, CAT = "ann@example.org", "bob@example.org", "cat@example.org"
DIGEST_TAG = re.compile(r"\[mancala digest (\d+) [a-z2-7]{10}\]")
MONDAY = 1_767_596_400.0  # 2026-01-05 07:00 UTC
HOUR, DAY = 3600.0, 86400.0


@pytest.fixture
async def post(tmp_path):
    mailbox = await Mailbox().start()
    post = Post(tmp_path, mailbox)
    post.clock.set(MONDAY - 2 * HOUR)  # 05:00 UTC
    await post.open()
    yield post
    await post.close()
    await mailbox.stop()


def digests(post: Post, address: str) -> list[EmailMessage]:
    """The digests in the inbox (not the answers to replies to them)."""
    return [
        m
        for m in post.inbox(address)
        if DIGEST_TAG.match(m["Subject"] or "")  # an answer's subject begins "Re: "
    ]


async def tick(post: Post) -> None:
    assert post.service is not None
    await post.service.tick()
    await post.service.idle()


async def game_against(post: Post, challenger: str, rules: str = "wari") -> int:
    """``challenger`` challenges Ann at 3 days a move; she accepts; the game's number."""
    made = await post.send(challenger, f"challenge {ANN} {rules} 3 days")
    assert "Challenge sent" in post.text(made)
    card = post.inbox(ANN)[-1]
    accepted = await post.send(ANN, "accept", answering=card)
    assert "the game begins" in post.text(accepted)
    assert "Time control: 3 days a move." in post.text(accepted)
    return int(re.search(r"\[mancala game (\d+) ", accepted["Subject"]).group(1))


async def test_a_digest_player_gets_one_mail_a_day_and_moves_in_two_games_by_one_reply(post):
    first = await game_against(post, BOB)
    answer = await post.send(ANN, "digest on", answering=post.game_mail(ANN, first))
    assert "Your daily digest is on: one mail a day at 07:00 UTC" in post.text(answer)
    assert f"The first comes {when_words(MONDAY)}" in post.text(answer)
    second = await game_against(post, CAT)
    before = len(post.inbox(ANN))
    for opponent, game in ((BOB, first), (CAT, second)):  # South moves first: Ann's move then
        await post.send(opponent, "C", answering=post.game_mail(opponent, game))
    assert len(post.inbox(ANN)) == before, "an opponent's move is not mailed to a digest reader"

    await tick(post)  # 05:00: not yet
    assert digests(post, ANN) == []
    post.clock.set(MONDAY + 5 * 60)
    await tick(post)
    await tick(post)  # the same day again: nothing more
    (digest,) = digests(post, ANN)
    text = post.text(digest)
    assert "2 games wait for your move" in digest["Subject"]
    for game, opponent in ((first, "Bob"), (second, "Cat")):
        assert re.search(rf"-------- Game {game} \[mancala game {game} [a-z2-7]{{10}}\]", text)
        assert f"You play North against {opponent}; move 2 is yours." in text
    assert text.count("Rules: wari") == 2 and text.count("f  e  d  c  b  a") == 2
    assert "Move 2: reply '#" in text and "is due by 2026-01-08" in text
    assert digest["Reply-To"].startswith("mancala+d")

    reply = await post.send(ANN, f"#{first} C\ngame {second}: D\nsee you!", answering=digest)
    body = post.text(reply)
    assert f"Game {first}: you played C (move 2)." in body
    assert f"Game {second}: you played D (move 2)." in body
    assert DIGEST_TAG.search(reply["Subject"]) and reply["Reply-To"] == digest["Reply-To"]
    service = post.service
    assert service is not None
    assert (await service.get_game(first)).moves == ("C", "c")
    assert (await service.get_game(second)).moves == ("C", "d")
    assert "Ann played c." in post.text(post.game_mail(BOB, first))  # opponents still hear

    again = await post.send(ANN, f"#{first} B", answering=digest)  # that board is gone now
    assert "not done" in post.text(again) and "out of date" in post.text(again)

    post.clock.advance(HOUR)
    await post.send(BOB, "A", answering=post.game_mail(BOB, first))
    post.clock.set(MONDAY + DAY - HOUR)
    await tick(post)
    assert len(digests(post, ANN)) == 1  # Tuesday's comes at 07:00
    post.clock.set(MONDAY + DAY)
    await tick(post)
    assert len(digests(post, ANN)) == 2
    tuesday = post.text(digests(post, ANN)[-1])
    assert "1 game waits for your move" in digests(post, ANN)[-1]["Subject"]
    assert f"Game {first} " in tuesday and f"Game {second} " not in tuesday

    await post.send(BOB, "resign", answering=post.game_mail(BOB, first))  # the end still comes
    assert "Game over" in post.text(post.inbox(ANN)[-1])
    off = await post.send(ANN, "digest off", answering=post.game_mail(ANN, second))
    assert "Your daily digest is off" in post.text(off)
    await post.send(CAT, "A", answering=post.game_mail(CAT, second))
    assert "Cat played a." in post.text(post.inbox(ANN)[-1])  # one mail a move again


async def test_days_a_move_a_vacation_and_conditional_moves_by_mail(post):
    game = await game_against(post, BOB)
    service = post.service
    assert service is not None
    view = await service.get_game(game)
    assert view.options.days == 3 and view.deadline == post.clock() + 3 * DAY

    away = await post.send(ANN, "vacation on 5 days", answering=post.game_mail(ANN, game))
    until = when_words(post.clock() + 5 * DAY)
    assert f"You are on vacation until {until}" in post.text(away)
    moved = await post.send(BOB, "C", answering=post.game_mail(BOB, game))
    assert f"Ann is on vacation until {until}: their clock stands still" in post.text(moved)
    assert "is due by" not in post.text(moved)  # Ann's clock stands still

    post.clock.advance(4 * DAY)
    await tick(post)
    assert not [m for m in post.inbox(ANN) if "Reminder" in post.text(m)]
    status = await post.send(ANN, "vacation status", answering=post.game_mail(ANN, game))
    assert "You are on vacation until" in post.text(status)
    # Ann moves (which ends her vacation) and leaves two conditional moves for Bob's reply
    reply = await post.send(
        ANN, "Move 2: C\nif e then B; if d then A", answering=post.game_mail(ANN, game)
    )
    text = post.text(reply)
    assert "You played C (move 2)." in text
    assert "Your conditional moves (only you see them): if d then A; if e then B." in text
    assert "Bob is" not in text and "You are on vacation" not in text
    assert not (await service.vacation(Player("email", ANN))).away
    assert "conditional" not in post.text(post.game_mail(BOB, game))  # private to Ann

    await post.send(BOB, "D", answering=post.game_mail(BOB, game))
    assert (await service.get_game(game)).moves == ("C", "c", "D", "a")
    mine = post.game_mail(ANN, game)
    assert "Your conditional move A was played, answering d." in post.text(mine)
    theirs = post.game_mail(BOB, game)
    assert "Ann played a (a conditional move set in answer to D)." in post.text(theirs)

    listed = await post.send(ANN, "premoves", answering=post.game_mail(ANN, game))
    assert "You have no conditional moves in this game." in post.text(listed)
    refused = await post.send(BOB, "if a then B", answering=post.game_mail(BOB, game))
    assert "Conditional moves not set: it is your move: play it first" in post.text(refused)


async def test_settings_need_a_token_and_a_challenge_names_its_days(post):
    bare = await post.send(ANN, "vacation on")
    assert "carries your secret token" in post.text(bare)
    assert post.service is not None
    assert not (await post.service.vacation(Player("email", ANN))).away
    refused = await post.send(BOB, f"challenge {ANN} wari 15 days")
    assert "days a move are a whole number from 1 to 14" in post.text(refused)


@given(st.text(max_size=300))
def test_any_text_reads_as_a_setting_a_digest_line_or_nothing(text):
    setting = read_setting(text)
    assert setting is None or setting.action in ("on", "off", "status")
    line = read_line(text)
    assert line is None or line[0] >= 0
