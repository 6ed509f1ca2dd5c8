"""The web pages in a real browser (Chromium, driven by Playwright): a move played by a
click and by a key from a token link, seen arriving on a second page; a finished game
stepped through with the arrows, its review's graph marking the ply shown; the puzzle
answered by a click and by a key; and axe-core's accessibility checks on every kind of page
in every language the bot speaks.

Playwright's own browser download cannot be reached from here, so the tests drive Debian's
Chromium (``apt-get install chromium``; .ci/run installs it). Without it they skip, except
under ``CI``, where a skip would hide a gap: there they fail.
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest

try:  # in the test extra; without it the tests skip (fail under CI), as without Chromium
    from playwright.async_api import async_playwright, expect
except ImportError:
    async_playwright = expect = None

from aiohttp import web

from bot.i18n import Language
from bot.service import Channel, GameService, ManualClock, Player
from bot.service.tournaments import TimeControl
from bot.tokens import Tokens
from bot.web import game_url
from bot.web.app import app_runner, make_app

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SECRET = b"browser-test-secret"
ANN = Player("email", "ann@example.org")
BOB = Player("email", "bob@example.org")
WAIT = 10_000  # ms: how long a condition may take before the test fails (never a sleep)


def _unavailable(reason: str) -> None:
    """Skip locally; fail under CI, where a skipped browser test would hide a gap."""
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests: {reason}")
    pytest.skip(reason)


@pytest.fixture
async def browser():
    if async_playwright is None:
        _unavailable("Playwright is not installed (pip install -e '.[test]')")
    if not CHROMIUM.exists():
        _unavailable("Chromium is not installed (apt-get install chromium)")
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        await browser.close()


@pytest.fixture
async def site(tmp_path):
    """The service and the web application on a free port: (service, base address)."""
    service = await GameService.open(
        str(tmp_path / "games.sqlite3"), clock=ManualClock(), tick_every=None, ai_workers=1
    )
    await service.set_display_name(ANN, "Ann")
    await service.set_display_name(BOB, "Bob")
    runner = app_runner(make_app(service, Tokens(SECRET), feed_interval=0.05))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    yield service, f"http://127.0.0.1:{runner.addresses[0][1]}"
    await runner.cleanup()
    await service.close()


async def new_game(service: GameService, moves: str = "", rules: str = "kalah") -> int:
    place = Channel("email", f"browser-{await service.open_game_count()}")
    challenge = await service.challenge(ANN, BOB, rules, place)
    game = await service.accept(challenge.id, BOB)
    for move in moves.split():
        game = await service.move(game.id, game.to_move, move, expected_ply=game.ply)
    return game.id


def seat(base: str, game_id: int, player: Player) -> str:
    side = "south" if player == ANN else "north"  # the challenger, Ann, plays South here
    return base + game_url("", game_id, Tokens(SECRET).token("game", game_id, side))


async def shows_ply(page, ply: int) -> None:
    await expect(page.locator("#live .state")).to_have_attribute("data-ply", str(ply), timeout=WAIT)


async def test_a_click_on_the_opponents_pit_plays_nothing(browser, site):
    service, base = site
    game_id = await new_game(service)
    ann = await browser.new_page()
    await ann.goto(seat(base, game_id, ANN))
    await ann.click('svg [data-pit="c"]')  # Bob's pit c, across from her C: no move of hers
    await ann.click('svg [data-pit="D"]')
    await shows_ply(ann, 1)
    assert (await service.get_game(game_id)).moves == ("D",)


async def test_moves_by_click_and_by_key_arrive_on_another_open_page(browser, site):
    service, base = site
    game_id = await new_game(service)
    ann = await browser.new_page()
    watcher = await browser.new_page()
    await ann.goto(seat(base, game_id, ANN))
    await watcher.goto(f"{base}/game/{game_id}")
    assert await watcher.locator("#play").count() == 0  # no token: read only
    await ann.click('svg [data-pit="C"]')  # Kalah: C ends in the store, Ann moves again
    await shows_ply(ann, 1)
    await shows_ply(watcher, 1)
    await ann.keyboard.press("d")  # her own pit, in either case
    await shows_ply(ann, 2)
    await shows_ply(watcher, 2)
    assert (await service.get_game(game_id)).moves == ("C", "D")
    bob = await browser.new_page()
    await bob.goto(seat(base, game_id, BOB))
    assert "Your move" in await bob.locator(".prompt").inner_text()
    await bob.keyboard.press("B")  # North's own pits are lettered A, B, ... on its page
    await shows_ply(watcher, 3)
    await shows_ply(ann, 3)
    assert (await service.get_game(game_id)).moves[-1] == "b"
    # a move made on another surface (here the service itself) arrives too
    view = await service.get_game(game_id)
    await service.move(game_id, view.to_move, view.position.legal_moves()[0], expected_ply=3)
    await shows_ply(watcher, 4)
    # and a screen reader is told, in the words of the page's status line
    status = await watcher.locator("#live .status").inner_text()
    await expect(watcher.locator("#news")).to_have_text(status, timeout=WAIT)
    text = await watcher.locator("pre.text-board").inner_text()
    assert text == await service.board(game_id)


async def test_a_play_for_a_board_that_moved_on_is_refused_and_the_page_says_so(browser, site):
    service, base = site
    game_id = await new_game(service)
    ann = await browser.new_page()
    await ann.route("**/events", lambda route: route.abort())  # her page hears no news
    await ann.goto(seat(base, game_id, ANN))
    await service.move(game_id, ANN, "C", expected_ply=0)  # played by mail meanwhile
    await ann.click('svg [data-pit="D"]')  # for the board she still sees
    said = ann.locator("#said .refused")
    await expect(said).to_contain_text("that board is out of date", timeout=WAIT)
    await shows_ply(ann, 1)  # and the page shows the game as it is now
    assert (await service.get_game(game_id)).moves == ("C",)


async def test_a_finished_game_steps_with_the_arrows_and_offers_its_record(browser, site):
    service, base = site
    game_id = await new_game(service, "C D b")
    await service.resign(game_id, BOB)
    page = await browser.new_page()
    await page.goto(f"{base}/game/{game_id}")
    where = page.locator(".steps .where")
    assert await where.inner_text() == "Move 3 of 3"
    await page.keyboard.press("ArrowLeft")
    await expect(where).to_have_text("Move 2 of 3", timeout=WAIT)
    assert page.url.endswith("?ply=2")
    board = await page.locator("pre.text-board").inner_text()
    assert "North to move; last move D." in board
    await page.click('a.step[data-key="ArrowLeft"]')
    await expect(where).to_have_text("Move 1 of 3", timeout=WAIT)
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowRight")
    await expect(where).to_have_text("Move 3 of 3", timeout=WAIT)
    async with page.expect_download() as download_info:
        await page.click("p.record a")
    download = await download_info.value
    assert download.suggested_filename == f"mancala-game-{game_id}.txt"
    assert Path(await download.path()).read_text() == await service.export(game_id)


async def reviewed_game(service: GameService) -> int:
    """A short finished game on a small board, reviewed (as a player asks on any surface)."""
    game_id = await new_game(service, "B A", rules="kalah:pits=3,seeds=2")
    await service.resign(game_id, BOB)
    await service.review(game_id, ANN)
    return game_id


async def test_a_reviewed_game_marks_the_ply_shown_on_its_graph(browser, site):
    service, base = site
    game_id = await reviewed_game(service)
    page = await browser.new_page()
    await page.goto(f"{base}/game/{game_id}")
    graph = page.locator("svg.graph")
    assert (await graph.get_attribute("aria-label") or "").startswith("Evaluation graph")
    assert await page.locator(".moves .class").count() == 2
    end = await graph.locator(".at").get_attribute("x1")
    await page.keyboard.press("ArrowLeft")
    await expect(page.locator(".steps .where")).to_have_text("Move 1 of 2", timeout=WAIT)
    before = await page.locator("svg.graph .at").get_attribute("x1")
    assert float(before or 0) < float(end or 0)


async def test_the_puzzle_is_answered_by_a_click_and_by_a_key(browser, site):
    from engine import to_perspective

    service, _base = site
    _service, base = site
    puzzle = await service.daily_puzzle()
    right = to_perspective(puzzle.solution, puzzle.side)
    wrong = next(
        to_perspective(m, puzzle.side)
        for m in puzzle.position.legal_moves()
        if m != puzzle.solution
    )
    page = await browser.new_page()
    await page.goto(f"{base}/puzzle")
    await page.click(f'svg.board g[data-pit="{right}"]')
    await expect(page.locator("#said .right")).to_be_visible(timeout=WAIT)
    await page.keyboard.press(wrong.lower())
    await expect(page.locator("#said .wrong")).to_be_visible(timeout=WAIT)
    await expect(page.locator("#said .solution")).to_contain_text(right, timeout=WAIT)


async def test_axe_core_finds_no_accessibility_violation(browser, site):
    from axe_playwright_python.async_playwright import Axe

    service, base = site
    going = await new_game(service, "C")
    await service.offer_draw(going, ANN)
    over = await new_game(service, "C D b")
    await service.resign(over, BOB)
    players = [Player("email", f"p{i}@example.org") for i in range(3)]
    cup = await service.create_tournament(
        players[0], "Cup", "round-robin", "kalah", TimeControl.live(5)
    )
    for who in players:
        await service.join_tournament(cup.id, who)
    await service.start_tournament(cup.id, players[0])
    reviewed = await reviewed_game(service)
    axe = Axe()
    page = await browser.new_page()
    every_kind = (
        seat(base, going, ANN),
        f"{base}/game/{going}",
        f"{base}/game/{over}?ply=1",  # not reviewed: says how to ask
        f"{base}/game/{reviewed}?ply=1",  # the graph and the moves' classes
        f"{base}/game/999999",
        f"{base}/tournament/{cup.id}",
        f"{base}/leaderboard/oware",
        f"{base}/player/{await service.player_number(ANN)}",  # ratings and games
        f"{base}/unsubscribe/{Tokens(SECRET).unsubscribe_token(ANN.id)}",  # opening stops nothing
        f"{base}/puzzle",  # last: the tab then answers it
    )
    in_english_too = (
        seat(base, going, BOB),
        f"{base}/player/{await service.player_number(players[1])}",  # no rated game yet
    )

    async def violations(tab, english: bool) -> list[dict]:
        """axe-core's violations on the tab's page: every one in English; in the other
        languages (the same pages, other words) the serious and critical ones of the WCAG
        rules, which is what their words can change."""
        options = {"resultTypes": ["violations"]}
        if not english:
            options["runOnly"] = {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa"]}
        found = await tab.evaluate("options => axe.run(document, options)", options)
        return [v for v in found["violations"] if english or v["impact"] in ("serious", "critical")]

    async def check(language: Language) -> list[str]:
        """Every kind of page in ``language``: its lang attribute and axe-core's checks."""
        tab = await browser.new_page(extra_http_headers={"Accept-Language": language.value})
        await tab.add_init_script(axe.axe_script)  # in every page the tab loads, once
        english = language is Language.EN
        failed = []
        for address in (in_english_too if english else ()) + every_kind:
            await tab.goto(address)
            if await tab.get_attribute("html", "lang") != language.value:
                failed.append(f"{language.value} {address}: lang")
            if found := await violations(tab, english):
                failed.append(f"{language.value} {address}: {found}")
        # an answered puzzle: its verdict and the solution shown
        await tab.click("button.move >> nth=0")
        await expect(tab.locator("#said p").first).to_be_visible(timeout=WAIT)
        if found := await violations(tab, english):
            failed.append(f"{language.value} the answered puzzle: {found}")
        await tab.close()
        return failed

    # one browser, a tab for each language, side by side: the checks stay quick
    found = await asyncio.gather(*(check(language) for language in Language))
    assert not [failure for failures in found for failure in failures], found
    # the rating history's table, unfolded, checked too (axe leaves folded content alone)
    await page.goto(f"{base}/player/{await service.player_number(ANN)}")
    await expect(page.locator("svg.history").first).to_be_visible(timeout=WAIT)
    await page.click("details summary >> nth=0")
    await expect(page.locator("details table").first).to_be_visible(timeout=WAIT)
    assert (await axe.run(page)).violations_count == 0
    await page.goto(f"{base}/game/999999")
    assert re.search(r"kalah", await page.title()) is None  # the 404 page names no game
    await page.set_content('<html><body><img src="/nothing.png"></body></html>')
    assert (await axe.run(page)).violations_count > 0  # it can fail: no lang, no alt
    await page.add_init_script(axe.axe_script)
    await page.goto(f"{base}/static/style.css")  # a page without lang or title
    assert {v["id"] for v in await violations(page, False)} >= {"html-has-lang"}
