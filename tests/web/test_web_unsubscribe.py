"""A mail's unsubscribe link on the web companion (``/unsubscribe/TOKEN``, RFC 8058) through
aiohttp's test client: opening it stops nothing (link scanners open links), the one-click
POST stops the mail and resigns the games, again and again with the same answer, without a
cookie; a forged or cut token gets a 400 page, and no string is an address's token unless
signed; the log keeps no address."""

from __future__ import annotations

import logging

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import given
from hypothesis import strategies as st

from bot.service import Channel, GameService, ManualClock, Player
from bot.tokens import Tokens
from bot.web.app import app_runner, make_app

SECRET = b"web-test-secret"
ANN = Player("email", "ann@example.org")
BOB = Player("email", "bob@example.org")
LINK = "/unsubscribe/" + Tokens(SECRET).unsubscribe_token(ANN.id)


@pytest.fixture
async def service(tmp_path):
    service = await GameService.open(
        str(tmp_path / "games.sqlite3"), clock=ManualClock(), tick_every=None, ai_workers=0
    )
    yield service
    await service.close()


@pytest.fixture
async def client(service):
    app = make_app(service, Tokens(SECRET), plays_per_minute=5)
    async with TestClient(TestServer(app)) as client:
        yield client


async def stopped(service: GameService) -> bool:
    return await service.mail_stopped(Tokens(SECRET).address_key(ANN.id))


async def test_opening_the_link_shows_a_button_and_stops_nothing(service, client):
    response = await client.get(LINK)
    page = await response.text()
    assert response.status == 200
    assert f'<form method="post" action="{LINK}">' in page and "<button>" in page
    assert "an…@example.org" in page and "ann@example.org" not in page
    assert not await stopped(service)


async def test_the_one_click_post_stops_mail_and_resigns_idempotently(service, client):
    challenge = await service.challenge(BOB, ANN, "kalah", Channel("email", "t"))
    game = await service.accept(challenge.id, ANN)
    for _attempt in range(2):  # a second click answers the same
        response = await client.post(
            LINK,
            data="List-Unsubscribe=One-Click",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert response.status == 200
        assert "no more mail to an…@example.org" in await response.text()
        assert "Set-Cookie" not in response.headers
    assert await stopped(service)
    assert (await service.get_game(game.id)).is_over
    again = await (await client.get(LINK)).text()
    assert "The bot sends no mail to an…@example.org" in again and "<button>" not in again


@pytest.mark.parametrize(
    "token",
    [
        Tokens(b"another-secret").unsubscribe_token(ANN.id),  # forged
        Tokens(SECRET).unsubscribe_token(ANN.id)[:-1],  # cut
        Tokens(SECRET).unsubscribe_token(ANN.id).replace("YW5u", "Ym9i"),  # someone else
        "bm90IGFuIGFkZHJlc3M",  # no signature
        "%%%",
    ],
)
async def test_a_forged_or_broken_token_is_refused(service, client, token):
    for method in (client.get, client.post):
        response = await method(f"/unsubscribe/{token}")
        assert response.status in (400, 404)
        if response.status == 400:
            assert "link is not valid" in await response.text()
    assert not await stopped(service)


async def test_the_access_log_keeps_no_address(service, caplog):
    """As ``mancala web`` serves (``app_runner``): the token names an address, so it is cut."""
    runner = app_runner(make_app(service, Tokens(SECRET)))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        with caplog.at_level(logging.INFO, logger="aiohttp.access"):
            async with aiohttp.ClientSession() as session, session.get(base + LINK) as response:
                assert response.status == 200
    finally:
        await runner.cleanup()
    lines = [r.getMessage() for r in caplog.records if r.name == "aiohttp.access"]
    assert len(lines) == 1 and "/unsubscribe/…" in lines[0]
    assert LINK.rsplit("/", 1)[1] not in lines[0]


@given(st.text(max_size=300))
def test_any_token_names_an_address_only_when_signed(token):
    """Hostile tokens: never an exception, never an address without its signature."""
    assert Tokens(SECRET).unsubscribe_address(token) is None


@given(st.emails())
def test_every_address_comes_back_from_its_token(address):
    assert Tokens(SECRET).unsubscribe_address(Tokens(SECRET).unsubscribe_token(address)) == (
        address.strip().lower()
    )
