"""The Discord Activity in a real browser (Chromium, driven by Playwright), with the
Embedded App SDK's own ``DiscordSDKMock`` standing in for Discord's client (the server's
``mock`` setting) and the loopback fake of Discord's API (tests/discord/discord_fake.py)
answering the OAuth2 code exchange: sign-in, a move by click and by key, a second
participant seeing it live, a refused move, a game begun against the AI and a challenge
accepted from a channel without a game, the page in French, and axe-core's checks in every
language the bot speaks.

Each page is opened as Discord would open it, with the channel in the address; the mock
hands out the authorization code the address names (``mock_code``), which the fake knows
as one user's.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from aiohttp import web

from bot.i18n import Language
from bot.service import Channel, GameService, ManualClock, Player
from bot.tokens import Tokens
from bot.web.activity import ActivitySettings, add_activity
from bot.web.app import app_runner, make_app
from tests.discord.discord_fake import (
    ALICE_ID,
    APP_ID,
    BOB_ID,
    CAROL_ID,
    CHANNEL_ID,
    GUILD_ID,
    start_fake_discord,
)
from tests.web.test_web_browser import WAIT, expect

ALICE = Player("discord", str(ALICE_ID))
BOB = Player("discord", str(BOB_ID))
HERE = Channel("discord", str(CHANNEL_ID))


@pytest.fixture
async def activity(tmp_path):
    """The web companion with the Activity in mock mode, on a free port, its Discord API the
    fake: (service, fake Discord, base address)."""
    fake, fake_runner, port = await start_fake_discord()
    service = await GameService.open(
        str(tmp_path / "games.sqlite3"), clock=ManualClock(), tick_every=None, ai_workers=1
    )
    app = make_app(service, Tokens(b"activity-test-secret"), feed_interval=0.05)
    settings = ActivitySettings(
        client_id=str(APP_ID),
        client_secret="client-secret",
        api=f"http://127.0.0.1:{port}/api/v10",
        mock=True,
    )
    add_activity(app, settings)
    runner = app_runner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    yield service, fake, f"http://127.0.0.1:{runner.addresses[0][1]}"
    await runner.cleanup()
    await service.close()
    await fake_runner.cleanup()


async def open_as(
    browser, fake, base: str, user_id: int, channel: int = CHANNEL_ID, script: str = ""
):
    """A page of the Activity as Discord opens it in ``channel``, for ``user_id``, with
    ``script`` run in it first (axe-core: an init script, which the page's policy allows)."""
    code = f"code-{user_id}"
    fake.oauth_codes[code] = user_id
    page = await browser.new_page()
    if script:
        await page.add_init_script(script)
    await page.goto(f"{base}/activity?channel_id={channel}&guild_id={GUILD_ID}&mock_code={code}")
    return page


async def game_in_channel(service: GameService) -> int:
    """Alice (South) against Bob in the channel, Alice to move."""
    challenge = await service.challenge(ALICE, BOB, "kalah", HERE)
    return (await service.accept(challenge.id, BOB)).id


async def shows_ply(page, ply: int) -> None:
    await expect(page.locator("#live .state")).to_have_attribute("data-ply", str(ply), timeout=WAIT)


async def test_a_signed_in_player_moves_and_another_participant_sees_it_live(
    browser, activity, capsys
):
    service, fake, base = activity
    game_id = await game_in_channel(service)
    alice = await open_as(browser, fake, base, ALICE_ID)
    bob = await open_as(browser, fake, base, BOB_ID)
    # signed in: the server exchanged each mock code at the fake, and names the user
    await expect(alice.locator("h1")).to_contain_text(f"Game #{game_id}: alice", timeout=WAIT)
    await expect(bob.locator("h1")).to_contain_text(f"Game #{game_id}: alice", timeout=WAIT)
    assert [r.path for r in fake.requests].count("/oauth2/token") == 2
    assert await service.display_name(BOB) == "bob"  # named as on Discord
    await expect(alice.locator(".prompt")).to_contain_text("Your move", timeout=WAIT)
    await expect(bob.locator(".prompt")).to_contain_text("Waiting", timeout=WAIT)
    started = time.monotonic()
    await alice.click('svg [data-pit="D"]')
    await shows_ply(bob, 1)
    seen_after = time.monotonic() - started
    assert (await service.get_game(game_id)).moves == ("D",)
    await shows_ply(alice, 1)
    # Bob's pits are lettered A.. on his side (the board turned to him): "b" is his B
    await bob.keyboard.press("b")
    await shows_ply(alice, 2)
    assert (await service.get_game(game_id)).moves == ("D", "b")
    # a move made elsewhere (the buttons on Discord: the same service) arrives as well
    view = await service.get_game(game_id)
    started = time.monotonic()
    await service.move(game_id, ALICE, view.position.legal_moves()[0], expected_ply=2)
    await shows_ply(bob, 3)
    from_elsewhere = time.monotonic() - started
    with capsys.disabled():  # the delays, for the record; never asserted
        print(
            f"\nActivity: a click seen by the other participant after {seen_after:.3f} s, "
            f"a move from another surface after {from_elsewhere:.3f} s"
        )


async def test_a_move_out_of_turn_is_refused_with_the_services_reason(browser, activity):
    service, fake, base = activity
    game_id = await game_in_channel(service)
    bob = await open_as(browser, fake, base, BOB_ID)
    await shows_ply(bob, 0)
    await bob.click('svg [data-pit="C"]')  # his own pit, but Alice is to move
    said = bob.locator("#said .refused")
    await expect(said).to_contain_text("it is not your turn", timeout=WAIT)
    carol = await open_as(browser, fake, base, CAROL_ID)  # watching: plays nothing
    await shows_ply(carol, 0)
    assert await carol.locator("#play").count() == 0
    await carol.keyboard.press("c")
    await expect(carol.locator("#said .refused")).to_be_visible(timeout=WAIT)
    assert (await service.get_game(game_id)).moves == ()


async def test_a_channel_without_a_game_offers_the_ai_and_its_open_challenges(browser, activity):
    service, fake, base = activity
    alice = await open_as(browser, fake, base, ALICE_ID)
    await expect(alice.locator(".activity-empty")).to_be_visible(timeout=WAIT)
    await alice.click('button[value="ai"]')
    await expect(alice.locator(".activity-game")).to_be_visible(timeout=WAIT)
    game = await service.active_game(HERE)
    assert game is not None and ALICE in (game.south, game.north)
    assert game.south.is_ai or game.north.is_ai
    # elsewhere, in another channel, Bob's challenge to Carol waits for her
    other = Channel("discord", str(CHANNEL_ID + 1))
    await service.set_display_name(BOB, "bob")  # as /mancala challenge names him
    challenge = await service.challenge(BOB, Player("discord", str(CAROL_ID)), "oware", other)
    carol = await open_as(browser, fake, base, CAROL_ID, channel=CHANNEL_ID + 1)
    await expect(carol.locator(".challenges")).to_contain_text("bob challenges you", timeout=WAIT)
    await carol.click(f'button[value="take:{challenge.id}"]')
    await expect(carol.locator("h1")).to_contain_text("bob against carol", timeout=WAIT)
    assert (await service.active_game(other)) is not None


async def test_the_page_speaks_the_users_discord_language(browser, activity):
    service, fake, base = activity
    await game_in_channel(service)
    fake.locales[ALICE_ID] = "fr"
    alice = await open_as(browser, fake, base, ALICE_ID)
    await expect(alice.locator("html")).to_have_attribute("lang", "fr", timeout=WAIT)
    await expect(alice.locator(".prompt")).to_contain_text("À vous de jouer", timeout=WAIT)
    elsewhere = await open_as(browser, fake, base, ALICE_ID, channel=CHANNEL_ID + 1)
    await expect(elsewhere.locator(".activity-empty")).to_contain_text(
        "Aucune partie n’est en cours", timeout=WAIT
    )
    await expect(elsewhere.locator('button[value="ai"]')).to_have_text("Jouer contre l’IA")


async def test_axe_core_finds_no_serious_violation_in_any_language(browser, activity):
    from axe_playwright_python.async_playwright import Axe

    service, fake, base = activity
    await game_in_channel(service)
    axe = Axe()
    locales = {Language.PT: "pt-BR", Language.ES: "es-ES"}

    async def check(index: int, language: Language) -> list[str]:
        user_id = 940000000000000001 + index
        fake.locales[user_id] = locales.get(language, language.value)
        failed = []
        for channel, kind in ((CHANNEL_ID, ".activity-game"), (CHANNEL_ID + 9, ".activity-empty")):
            page = await open_as(browser, fake, base, user_id, channel, axe.axe_script)
            await expect(page.locator(kind)).to_be_visible(timeout=WAIT)
            if await page.get_attribute("html", "lang") != language.value:
                failed.append(f"{language.value} {kind}: lang")
            found = await page.evaluate("() => axe.run(document)")
            serious = [v for v in found["violations"] if v["impact"] in ("serious", "critical")]
            if serious:
                failed.append(f"{language.value} {kind}: {serious}")
            await page.close()
        return failed

    found = await asyncio.gather(*(check(i, lang) for i, lang in enumerate(Language)))
    assert not [failure for failures in found for failure in failures], found
