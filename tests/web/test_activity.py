"""The Discord Activity's server side, without a browser: the sign-in's code exchange at the
fake Discord (tests/discord/discord_fake.py), what a session lets through, who may frame the
page, and Discord's launch at ``/`` handed on to the page. The browser's side is in
test_activity_browser.py."""

from __future__ import annotations

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import Channel, GameService, ManualClock, Player
from bot.tokens import Tokens
from bot.web.activity import SESSION_KIND, ActivitySettings, add_activity
from bot.web.app import make_app
from tests.discord.discord_fake import ALICE_ID, APP_ID, BOB_ID, CHANNEL_ID, start_fake_discord

SECRET = b"activity-test-secret"


@pytest.fixture
async def client(tmp_path):
    fake, fake_runner, port = await start_fake_discord()
    clock = ManualClock()
    service = await GameService.open(
        str(tmp_path / "games.sqlite3"), clock=clock, tick_every=None, ai_workers=1
    )
    app = make_app(service, Tokens(SECRET))
    api = f"http://127.0.0.1:{port}/api/v10"
    add_activity(app, ActivitySettings(str(APP_ID), "client-secret", api))
    async with TestClient(TestServer(app)) as client:
        yield client, service, fake, clock
    await service.close()
    await fake_runner.cleanup()


async def sign_in(client, fake, user_id: int) -> dict:
    fake.oauth_codes[f"code-{user_id}"] = user_id
    response = await client.post("/activity/token", json={"code": f"code-{user_id}"})
    assert response.status == 200
    return await response.json()


async def test_a_code_is_exchanged_with_the_secret_for_a_session_naming_the_user(client):
    client, service, fake, clock = client
    answer = await sign_in(client, fake, ALICE_ID)
    exchange = next(r for r in fake.requests if r.path == "/oauth2/token")
    assert exchange.body["client_secret"] == "client-secret"
    assert exchange.body["code"] == f"code-{ALICE_ID}"
    assert fake.access_tokens[answer["access_token"]] == ALICE_ID
    subject = Tokens(SECRET).session_subject(SESSION_KIND, answer["session"], service.now())
    assert subject == f"{ALICE_ID} en-US"
    # a code Discord does not know signs nobody in
    refused = await client.post("/activity/token", json={"code": "made-up"})
    assert refused.status == 401 and "did not confirm" in (await refused.json())["said"]


async def test_every_call_needs_a_session_that_is_ours_and_current(client):
    client, service, fake, clock = client
    part = f"/activity/part?channel={CHANNEL_ID}"
    assert (await client.get(part)).status == 401
    forged = Tokens(b"someone-else").session(SESSION_KIND, f"{ALICE_ID} en", service.now() + 60)
    headers = {"Authorization": f"Bearer {forged}"}
    assert (await client.get(part, headers=headers)).status == 401
    session = (await sign_in(client, fake, ALICE_ID))["session"]
    headers = {"Authorization": f"Bearer {session}"}
    assert (await client.get(part, headers=headers)).status == 200
    assert (await client.get("/activity/part?channel=abc", headers=headers)).status == 400
    clock.advance(5 * 3600)  # a session lasts a few hours
    assert (await client.get(part, headers=headers)).status == 401


async def test_a_play_is_the_services_verb_once_for_the_ply_seen(client):
    client, service, fake, clock = client
    alice, bob = Player("discord", str(ALICE_ID)), Player("discord", str(BOB_ID))
    here = Channel("discord", str(CHANNEL_ID))
    game = await service.accept((await service.challenge(alice, bob, "kalah", here)).id, bob)
    session = (await sign_in(client, fake, ALICE_ID))["session"]
    headers = {"Authorization": f"Bearer {session}"}
    form = {"channel": str(CHANNEL_ID), "game": str(game.id), "do": "move", "move": "D", "ply": "0"}
    first = await client.post("/activity/play", data=form, headers=headers)
    assert first.status == 200 and (await first.json())["ply"] == 1
    again = await client.post("/activity/play", data=form, headers=headers)  # a second click
    assert again.status == 409 and (await again.json())["said"]
    assert (await service.get_game(game.id)).moves == ("D",)


async def test_only_the_activity_may_be_framed_and_only_by_discord(client):
    client, _service, _fake, _clock = client
    activity = await client.get("/activity")
    assert activity.status == 200
    policy = activity.headers["Content-Security-Policy"]
    assert "frame-ancestors https://discord.com" in policy and "*.discordsays.com" in policy
    assert "script-src 'self';" in policy  # still no inline script
    other = await client.get("/puzzle")
    assert "frame-ancestors 'none'" in other.headers["Content-Security-Policy"]


async def test_discords_launch_at_the_root_reaches_the_page_with_its_query(client):
    client, _service, _fake, _clock = client
    launch = await client.get("/?frame_id=f1&instance_id=i1&channel_id=7", allow_redirects=False)
    assert launch.status == 302
    assert launch.headers["Location"] == "/activity?frame_id=f1&instance_id=i1&channel_id=7"
    assert (await client.get("/", allow_redirects=False)).status == 404


async def test_without_an_application_the_page_says_it_is_not_set_up(tmp_path):
    service = await GameService.open(str(tmp_path / "g.sqlite3"), tick_every=None, ai_workers=1)
    app = make_app(service, Tokens(SECRET))
    add_activity(app, ActivitySettings())
    async with TestClient(TestServer(app)) as client:
        page = await client.get("/activity")
        assert page.status == 404 and "not set up" in await page.text()
        assert (await client.post("/activity/token", json={"code": "x"})).status == 400
    await service.close()
