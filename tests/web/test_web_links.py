"""Messages link to the game's page when MANCALA_WEB_URL is set, and are as before when not:
a game mail (its text and its HTML) and a digest carry the page's address with the player's
own token, and that link alone plays on the page; Discord's settings and mail's read the
setting (the Discord board's link is tested with the loopback fake in
tests/discord/test_discord_web.py)."""

from __future__ import annotations

import re
from email.message import EmailMessage

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.discord.discord_settings import Settings
from bot.mail.digest import digest_mail
from bot.mail.game_mail import GameMailer
from bot.mail.mail_settings import MailSettings, MailSettingsError
from bot.service import Channel, GameService, ManualClock, Player
from bot.service.events import DigestDue
from bot.tokens import Tokens
from bot.web.app import make_app
from engine import Side

SECRET = b"links-test-secret"
BASE = "https://mancala.example"
ANN = Player("email", "ann@example.org")
BOB = Player("email", "bob@example.org")
LINK = re.compile(r"https://mancala\.example/game/(\d+)/play/([a-z2-7]{10})")


@pytest.fixture
async def service(tmp_path):
    service = await GameService.open(
        str(tmp_path / "games.sqlite3"), clock=ManualClock(), tick_every=None, ai_workers=1
    )
    yield service
    await service.close()


async def new_game(service: GameService) -> int:
    place = Channel("email", f"links-{await service.open_game_count()}")  # one game each
    challenge = await service.challenge(ANN, BOB, "kalah", place)
    return (await service.accept(challenge.id, BOB)).id


def mailer(service: GameService, web_url: str | None) -> GameMailer:
    return GameMailer(Tokens(SECRET), "Mancala <mancala@bot.test>", service.display_name, web_url)


def parts(message: EmailMessage) -> tuple[str, str]:
    plain = message.get_body(("plain",)).get_content()
    return plain, message.get_body(("html",)).get_content()


async def test_a_game_mail_links_to_the_page_with_the_players_own_token(service):
    game_id = await new_game(service)
    game = await service.get_game(game_id)
    linked = mailer(service, BASE)
    for player, side in ((ANN, Side.SOUTH), (BOB, Side.NORTH)):
        plain, markup = parts(await linked.game_mail(game, player, "Your move."))
        [(number, token)] = LINK.findall(plain)
        assert int(number) == game_id and token == linked.game_token(game_id, side)
        url = f"{BASE}/game/{game_id}/play/{token}"
        assert f'<a href="{url}">{url}</a>' in markup  # a link in the HTML, not just text
        assert token in (await linked.game_mail(game, player, "x"))["Subject"]  # the mails'


async def test_without_the_setting_a_game_mail_is_as_before(service):
    game_id = await new_game(service)
    game = await service.get_game(game_id)
    plain, markup = parts(await mailer(service, None).game_mail(game, ANN, "Your move."))
    linked_plain, _markup = parts(await mailer(service, BASE).game_mail(game, ANN, "Your move."))
    assert "/game/" not in plain and "<a " not in markup
    # the link's line and the blank one before it are all that the setting adds
    assert [line for line in linked_plain.splitlines() if line not in plain.splitlines()] == [
        line for line in linked_plain.splitlines() if "mancala.example" in line
    ]
    assert len(linked_plain.splitlines()) == len(plain.splitlines()) + 2


async def test_a_digest_links_each_game_with_the_readers_token(service):
    first, second = await new_game(service), await new_game(service)
    games = tuple([await service.get_game(first), await service.get_game(second)])
    linked = mailer(service, BASE)
    plain, markup = parts(await digest_mail(linked, DigestDue(recipient=ANN, games=games, day=1)))
    assert LINK.findall(plain) == [
        (str(first), linked.game_token(first, Side.SOUTH)),
        (str(second), linked.game_token(second, Side.SOUTH)),
    ]
    assert markup.count('<a href="https://mancala.example/game/') == 2
    bare = await digest_mail(mailer(service, None), DigestDue(recipient=ANN, games=games, day=1))
    assert "/game/" not in parts(bare)[0] and "<a " not in parts(bare)[1]


async def test_the_link_in_a_mail_plays_on_the_page(service):
    game_id = await new_game(service)
    game = await service.get_game(game_id)
    plain, _markup = parts(await mailer(service, BASE).game_mail(game, ANN, "Your move."))
    [(_number, token)] = LINK.findall(plain)
    async with TestClient(TestServer(make_app(service, Tokens(SECRET)))) as client:
        path = f"/game/{game_id}/play/{token}"
        assert 'id="play"' in await (await client.get(path)).text()
        await client.post(path, data={"move": "C", "ply": "0"})
    assert (await service.get_game(game_id)).moves == ("C",)


def test_the_surfaces_read_the_web_address_from_the_environment():
    env = {"MANCALA_WEB_URL": "https://mancala.example/"}
    assert Settings.from_environ(env).web_url == BASE
    assert MailSettings.from_environ(env).web_url == BASE
    assert Settings.from_environ({}).web_url is None
    assert MailSettings.from_environ({}).web_url is None
    with pytest.raises(MailSettingsError, match="MANCALA_WEB_URL"):
        MailSettings.from_environ({"MANCALA_WEB_URL": "javascript:alert(1)"})
    with pytest.raises(ValueError, match="MANCALA_WEB_URL"):
        Settings.from_environ({"MANCALA_WEB_URL": "ftp://x"})
