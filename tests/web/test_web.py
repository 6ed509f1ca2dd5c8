"""The web companion's routes through aiohttp's test client: the game page and its parts,
404s, the security headers, plays from a token link with the service's exactly-once rules,
refusals, escaping, the limit on plays, the event stream (a move made in this process or by
another process on the same database), the access log without tokens, a finished game's
kept review (or how to ask for one), and the puzzle answered as practice.

The browser's side (clicks, keys, live pages, axe-core) is tests/test_web_browser.py.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import socket
import sys

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.service import Channel, GameService, ManualClock, Player, Unavailable
from bot.service.tournaments import TimeControl
from bot.tokens import Tokens
from bot.web import game_url
from bot.web.app import PROXIES, app_runner, make_app, masked_address
from bot.web.server import CACHE_TTL
from tests.mail.mail_support import Mailbox

SECRET = b"web-test-secret"
ANN = Player("email", "ann@example.org")
BOB = Player("email", "bob@example.org")
HOSTILE = "<script>alert('x')</script> & \"Ann\""


async def new_game(service: GameService, rules: str = "kalah") -> int:
    place = Channel("email", f"web-test-{await service.open_game_count()}")  # one game each
    challenge = await service.challenge(ANN, BOB, rules, place)
    game = await service.accept(challenge.id, BOB)
    return game.id


@pytest.fixture
async def service(tmp_path):
    service = await GameService.open(
        str(tmp_path / "games.sqlite3"), clock=ManualClock(), tick_every=None, ai_workers=1
    )
    await service.set_display_name(ANN, HOSTILE)
    await service.set_display_name(BOB, "Bob")
    yield service
    await service.close()


@pytest.fixture
async def client(service):
    app = make_app(service, Tokens(SECRET), plays_per_minute=5, feed_interval=0.05)
    async with TestClient(TestServer(app)) as client:
        yield client


def token(game_id: int, player: Player) -> str:
    """The player's token in their mails, keyed by their seat: Ann, the challenger, plays
    South in every game here (``new_game``)."""
    return Tokens(SECRET).token("game", game_id, "south" if player == ANN else "north")


def seat_url(game_id: int, player: Player) -> str:
    return game_url("", game_id, token(game_id, player))


def ply_of(page: str) -> int:
    found = re.search(r'class="state"[^>]*data-ply="(\d+)"', page)
    assert found, page[:500]
    return int(found.group(1))


async def test_a_game_page_shows_board_picture_text_board_moves_and_players(service, client):
    game_id = await new_game(service)
    await service.move(game_id, ANN, "C", expected_ply=0)
    response = await client.get(f"/game/{game_id}")
    assert response.status == 200
    page = await response.text()
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page and 'role="img"' in page
    label = re.search(r'<svg[^>]*aria-label="([^"]*)"', page).group(1)
    assert "South, pits A to F: 4, 4, 0, 5, 5, 5." in label  # the pictures' alt text
    board = await service.board(game_id)  # the text board every surface shows
    pre = re.search(r'<pre class="text-board"[^>]*>(.*?)</pre>', page, re.S).group(1)
    assert pre == board.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert re.search(r'<ol class="moves"[^>]*><li>C</li></ol>', page)
    assert "Bob" in page and "Deadline:" in page
    assert 'id="play"' not in page  # no token: read only
    assert ply_of(page) == 1


async def test_every_name_is_escaped(service, client):
    game_id = await new_game(service)
    for path in (f"/game/{game_id}", seat_url(game_id, ANN), f"/game/{game_id}/part"):
        page = await (await client.get(path)).text()
        assert HOSTILE not in page and "<script>alert" not in page
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;Ann&quot;" in page


async def test_every_page_carries_the_security_headers_and_no_inline_script(service, client):
    game_id = await new_game(service)
    for path in (f"/game/{game_id}", seat_url(game_id, ANN), "/game/abc", "/static/game.js"):
        response = await client.get(path)
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert "default-src 'none'" in policy
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        if response.content_type == "text/html":
            page = await response.text()
            assert not re.search(r"<script(?![^>]*\bsrc=)", page)  # every script a file
            assert " style=" not in page and "<style" not in page
            assert " on" not in re.sub(r'"[^"]*"', '""', page).replace(" one", "")  # no onclick=
    response = await client.get(seat_url(game_id, ANN))
    assert response.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize(
    "path",
    [
        "/game/abc",
        "/game/99999999999",
        "/game/99999999999999999999",  # past the database's ids
        "/game/123456789012345678901234",  # not even a route
        "/game/-1",
        "/game/1/play/aaaaaaaaaa",  # a token of the right shape, but nobody's
        "/game/1/play/NOT-A-TOKEN",
        "/game/1/record.txt/x",
        "/nothing/here",
    ],
)
async def test_an_address_that_names_nothing_gets_the_404_page(service, client, path):
    await new_game(service)
    response = await client.get(path)
    assert response.status == 404
    assert response.content_type == "text/html"
    page = await response.text()
    assert "Not found" in page and "Traceback" not in page


async def test_a_token_plays_for_its_owner_only_and_each_move_once(service, client):
    game_id = await new_game(service)
    page = await (await client.get(seat_url(game_id, ANN))).text()
    assert 'id="play"' in page and 'value="C"' in page and "(you)" in page
    response = await client.post(seat_url(game_id, ANN), data={"move": "C", "ply": "0"})
    assert [r.status for r in response.history] == [303]  # reloading it sends nothing again
    assert response.status == 200 and response.url.path == seat_url(game_id, ANN)
    assert (await service.get_game(game_id)).moves == ("C",)
    # the same move sent again for the same board (a second click, a resent form)
    again = await client.post(seat_url(game_id, ANN), data={"move": "C", "ply": "0"})
    assert again.status == 409
    assert "already played; it is not played twice" in await again.text()
    assert (await service.get_game(game_id)).moves == ("C",)
    # another move for a board that is out of date: refused, and the page says so
    stale = await client.post(seat_url(game_id, ANN), data={"move": "D", "ply": "0"})
    assert stale.status == 409
    text = await stale.text()
    assert "that board is out of date" in text and 'class="said refused"' in text
    # Bob's token is Bob's: not his turn
    bob = await client.post(
        seat_url(game_id, BOB),
        data={"move": "A", "ply": "1"},
        headers={"Accept": "application/json"},
    )
    answer = await bob.json()
    assert answer["ok"] is False and "not your turn" in answer["said"]
    # another game's token does not open this game
    other = await new_game(service)
    assert (await client.get(game_url("", game_id, token(other, ANN)))).status == 404


async def test_north_plays_the_board_as_it_sees_it(service, client):
    """North's page shows the board turned round, its own pits lettered A, B, ... (as its
    mails do); the letter it plays is converted to the engine's notation."""
    game_id = await new_game(service)
    await service.move(game_id, ANN, "C", expected_ply=0)
    await service.move(game_id, ANN, "D", expected_ply=1)
    page = await (await client.get(seat_url(game_id, BOB))).text()
    pre = re.search(r'<pre class="text-board"[^>]*>(.*?)</pre>', page, re.S).group(1)
    assert pre == await service.board(game_id, BOB)
    response = await client.post(
        seat_url(game_id, BOB),
        data={"move": "b", "ply": "2"},
        headers={"Accept": "application/json"},
    )
    assert (await response.json())["ok"] is True
    assert (await service.get_game(game_id)).moves[-1] == "b"


async def test_draw_offered_and_accepted_by_token_then_the_finished_game_steps(service, client):
    game_id = await new_game(service)
    for ply, move in enumerate("CD"):
        await client.post(seat_url(game_id, ANN), data={"move": move, "ply": str(ply)})
    await client.post(seat_url(game_id, ANN), data={"do": "draw", "ply": "2"})
    page = await (await client.get(seat_url(game_id, BOB))).text()
    assert 'value="accept"' in page and "offers a draw" in page
    await client.post(seat_url(game_id, BOB), data={"do": "accept", "ply": "2"})
    view = await service.get_game(game_id)
    assert view.is_over and view.outcome.winner == "draw"
    page = await (await client.get(f"/game/{game_id}")).text()
    assert "Move 2 of 2" in page and 'id="play"' not in page and "data-events" not in page
    stepped = await (await client.get(f"/game/{game_id}/part?ply=1")).text()
    assert "Move 1 of 2" in stepped
    assert "South, pits A to F: 4, 4, 0, 5, 5, 5." in stepped  # the board after ply 1
    assert 'href="?ply=0"' in stepped and 'href="?ply=2"' in stepped
    start = await (await client.get(f"/game/{game_id}?ply=0")).text()
    assert "Move 0 of 2" in start and "4, 4, 4, 4, 4, 4." in start
    record = await client.get(f"/game/{game_id}/record.txt")
    assert record.headers["Content-Disposition"] == (
        f'attachment; filename="mancala-game-{game_id}.txt"'
    )
    assert await record.text() == await service.export(game_id)


async def test_resigning_by_token_ends_the_game(service, client):
    game_id = await new_game(service)
    response = await client.post(seat_url(game_id, BOB), data={"do": "resign", "ply": "0"})
    assert response.status == 200
    view = await service.get_game(game_id)
    assert view.is_over and view.outcome.winner == "south"


async def test_plays_from_one_address_are_limited(service, client):
    game_id = await new_game(service)
    statuses = []
    for _ in range(7):  # the client allows 5 a minute
        response = await client.post(seat_url(game_id, BOB), data={"move": "a", "ply": "0"})
        statuses.append(response.status)
    assert statuses[:5] == [409] * 5  # refused by the service: not Bob's turn
    assert statuses[5:] == [429, 429]


async def test_the_page_speaks_the_browsers_language(service, client):
    game_id = await new_game(service)
    response = await client.get(
        f"/game/{game_id}", headers={"Accept-Language": "it;q=0.9, de-CH;q=0.8, en;q=0.1"}
    )
    page = await response.text()
    assert '<html lang="de">' in page and "Züge" not in page  # no moves yet
    assert "ist am Zug." in page and "Partie #" in page
    missing = await client.get("/game/abc", headers={"Accept-Language": "fr"})
    assert "Introuvable" in await missing.text()


async def read_state(stream) -> str:
    """The next ``state`` event of an event stream."""
    event = None
    while True:
        line = (await stream.content.readline()).decode().rstrip("\n")
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "state":
            return line[6:]


async def test_the_event_stream_tells_of_moves_from_this_process_and_from_another(database):
    """A move made through the same service, then one by another process on the same
    database (``mancala bot`` beside ``mancala web``): on PostgreSQL the database says so
    (the web's copy is kept an hour here, so nothing else could tell it); on SQLite the
    copy is checked against the file as often as ``mancala web`` does."""
    on_postgres = database.startswith("postgresql")
    service = await GameService.open(
        database,
        clock=ManualClock(),
        tick_every=None,
        ai_workers=1,
        cache_ttl=3600.0 if on_postgres else CACHE_TTL,
    )
    other = None
    try:
        game_id = await new_game(service)
        app = make_app(service, Tokens(SECRET), feed_interval=0.05)
        async with TestClient(TestServer(app)) as client:
            async with client.get(f"/game/{game_id}/events") as stream:
                assert stream.headers["Content-Type"] == "text/event-stream"
                first = await asyncio.wait_for(read_state(stream), 10)
                assert first.startswith("0.active")
                await service.move(game_id, ANN, "C", expected_ply=0)  # as any surface would
                assert (await asyncio.wait_for(read_state(stream), 10)).startswith("1.active")
                other = await GameService.open(
                    database, clock=ManualClock(), tick_every=None, ai_workers=1
                )
                await other.move(game_id, ANN, "D", expected_ply=1)
                assert (await asyncio.wait_for(read_state(stream), 10)).startswith("2.active")
            missing = await client.get("/game/999999/events")
            assert missing.status == 404
    finally:
        if other is not None:
            await other.close()
        await service.close()


async def test_the_access_log_never_holds_a_token(service, caplog):
    """As ``mancala web`` serves (``app_runner``): every request is logged, no token."""
    game_id = await new_game(service)
    secret = token(game_id, ANN)
    runner = app_runner(make_app(service, Tokens(SECRET)))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    base = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        with caplog.at_level(logging.INFO, logger="aiohttp.access"):
            async with aiohttp.ClientSession() as session:
                async with session.get(base + seat_url(game_id, ANN) + "/part?ply=0") as r:
                    assert r.status == 200
                data = {"move": "C", "ply": "0"}
                async with session.post(base + seat_url(game_id, ANN), data=data) as r:
                    assert r.status == 200
    finally:
        await runner.cleanup()
    lines = [r.getMessage() for r in caplog.records if r.name == "aiohttp.access"]
    assert len(lines) == 3  # the page's part, the play, and the page it sends back to
    assert all(f"/game/{game_id}/play/…" in line for line in lines)
    assert not any(secret in line for line in lines)


def test_mail_and_web_share_one_token_maker():
    from bot.mail import tokens as mail_tokens

    assert mail_tokens.Tokens is Tokens
    assert len(Tokens(SECRET).token("game", 1, "a@b.c")) == mail_tokens.TOKEN_LENGTH


async def test_the_health_address_says_whether_the_database_answers(service, client):
    response = await client.get("/health")
    assert response.status == 200 and await response.text() == "ok\n"


async def test_a_proxy_on_this_machine_is_believed_about_who_asked_and_nobody_else(service):
    """The limit on plays counts the address a trusted proxy forwarded for; a client that
    writes X-Forwarded-For itself is counted as itself."""
    game_id = await new_game(service)
    app = make_app(service, Tokens(SECRET), plays_per_minute=1)
    async with TestClient(TestServer(app)) as client:  # its peer is 127.0.0.1: a proxy
        url = seat_url(game_id, BOB)
        for address in ("203.0.113.1", "203.0.113.2"):
            headers = {"X-Forwarded-For": f"198.51.100.9, {address}"}
            first = await client.post(url, data={"do": "draw", "ply": "0"}, headers=headers)
            assert first.status != 429
        again = await client.post(url, data={"do": "draw"}, headers=headers)
        assert again.status == 429
    app = make_app(service, Tokens(SECRET), plays_per_minute=1)
    app[PROXIES] = ()  # nobody is trusted: every request is the peer's
    async with TestClient(TestServer(app)) as client:
        for address, status in (("203.0.113.1", 200), ("203.0.113.2", 429)):
            headers = {"X-Forwarded-For": address}
            answer = await client.post(url, data={"do": "resign"}, headers=headers)
            assert (answer.status == 429) == (status == 429)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_mancala_web_serves_the_database_until_told_to_stop(tmp_path):
    """The command as an operator runs it: a page of a game another process made, a move
    played there mailed to the email opponent (the mail surface is set up), then a clean
    exit on SIGTERM; a bad setting is one line and status 78."""
    mailbox = await Mailbox().start()
    database = str(tmp_path / "games.sqlite3")
    async with await GameService.open(database, tick_every=None, ai_workers=1) as other:
        game_id = await new_game(other)
    port = free_port()
    env = {
        **os.environ,
        "MANCALA_DB": database,
        "MANCALA_WEB_LISTEN": f"127.0.0.1:{port}",
        "MANCALA_MAIL_SECRET": SECRET.decode(),
        "MANCALA_AI_WORKERS": "1",
        "MANCALA_MAIL_ADDRESS": "Mancala <mancala@bot.test>",
        "MANCALA_MAIL_RELAY": f"127.0.0.1:{mailbox.port}",
    }
    command = [sys.executable, "-m", "bot.cli", "web", "--env", str(tmp_path / "none.env")]
    process = await asyncio.create_subprocess_exec(
        *command, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(300):  # until it listens: at most a minute
                try:
                    async with session.get(f"http://127.0.0.1:{port}/health") as health:
                        assert health.status == 200
                        break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.2)
            async with session.get(f"http://127.0.0.1:{port}/game/{game_id}") as page:
                text = await page.text()  # nobody named: their addresses are not published
                assert "bo…@example.org" in text and "bob@example.org" not in text
            async with session.get(f"http://127.0.0.1:{port}{seat_url(game_id, ANN)}") as page:
                assert 'id="play"' in await page.text()  # the same secret as the mail's
            move = {"move": "C", "ply": "0"}
            async with session.post(f"http://127.0.0.1:{port}{seat_url(game_id, ANN)}", data=move):
                pass
        [told] = await mailbox.wait_for(1)
        assert told["To"].addresses[0].addr_spec == BOB.id
    finally:
        process.terminate()
        status = await asyncio.wait_for(process.wait(), 30)
        await mailbox.stop()
    assert status == 0
    bad = await asyncio.create_subprocess_exec(
        *command,
        env={**env, "MANCALA_WEB_LISTEN": "nowhere"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _out, err = await asyncio.wait_for(bad.communicate(), 60)
    assert bad.returncode == 78
    assert err.decode().strip().splitlines() == [
        "mancala: MANCALA_WEB_LISTEN is host:port (like 127.0.0.1:8080), not 'nowhere'"
    ]


async def test_a_tournament_page_shows_standings_crosstable_and_rounds_linking_games(
    service, client
):
    players = [Player("email", f"p{i}@example.org") for i in range(4)]
    await service.set_display_name(players[0], "<i>Zed</i>")
    live = TimeControl.live(5)
    t = await service.create_tournament(players[0], "Spring & co", "round-robin", "kalah", live)
    for who in players:
        await service.join_tournament(t.id, who)
    await service.start_tournament(t.id, players[0])
    [first, second] = await service.tournament_pairings(t.id)
    await service.resign(first.game_id, first.north)  # South wins board 1
    await service.offer_draw(second.game_id, second.south)
    await service.accept_offer(second.game_id, second.north)
    await service.idle()
    page = await (await client.get(f"/tournament/{t.id}")).text()
    assert "Tournament #1: Spring &amp; co" in page and "<i>Zed" not in page
    assert "&lt;i&gt;Zed&lt;/i&gt;" in page and "p1@example.org" not in page  # masked
    assert "<caption>Standings</caption>" in page and "<caption>Crosstable</caption>" in page
    assert "<h2>Round 1</h2>" in page and "<h2>Round 2</h2>" in page
    assert f'<a href="/game/{first.game_id}">' in page and "1–0" in page and "½–½" in page
    rows = re.findall(r"<tr>(.*?)</tr>", page.split("<caption>Crosstable</caption>")[1])
    shown = (
        "&lt;i&gt;Zed&lt;/i&gt;" if first.south == players[0] else masked_address(first.south.id)
    )
    [winner] = [row for row in rows if f">{shown}</a></td>" in row]  # linked to their page
    assert "<td>1</td>" in winner  # the crosstable shows the won game
    number = await service.player_number(first.south)
    assert f'<a href="/player/{number}">{shown}</a>' in page
    german = await client.get(f"/tournament/{t.id}", headers={"Accept-Language": "de"})
    text = await german.text()
    assert "Turnier #1" in text and "Kreuztabelle" in text and "Runde 2" in text
    assert (await client.get("/tournament/999")).status == 404


async def test_the_leaderboards_show_established_ratings_only(service, client):
    page = await (await client.get("/leaderboard")).text()
    assert "Leaderboard: kalah" in page and "No established ratings yet." in page
    assert 'href="/leaderboard/oware"' in page
    assert (await client.get("/leaderboard/chess")).status == 404


async def test_a_database_out_of_reach_gets_a_try_again_page_not_a_404(service, client):
    game_id = await new_game(service)

    async def away(game_id: int) -> None:
        raise Unavailable("the game database cannot be reached just now")

    service.get_game = away  # as the service says while PostgreSQL restarts
    response = await client.get(f"/game/{game_id}")
    assert response.status == 503
    assert "cannot be reached just now" in await response.text()


async def test_a_resigned_game_marks_nobody_to_move(service, client):
    game_id = await new_game(service)
    going = await (await client.get(f"/game/{game_id}")).text()
    assert 'fill="#78dc78"' in going  # the bar along the row of the side to move
    await service.resign(game_id, BOB)
    over = await (await client.get(f"/game/{game_id}")).text()
    assert 'fill="#78dc78"' not in over and "North resigned" in over


@pytest.mark.parametrize(
    "form",
    [
        {"move": "C", "ply": "abc"},
        {"move": "C", "ply": "9" * 40},
        {"move": "C", "ply": "-1"},
        {"move": "\x00" * 500, "ply": "0"},
        {"move": "ＣＣ", "ply": "0"},
        {"do": "teleport", "ply": "0"},
        {"do": "move", "ply": "0"},
    ],
)
async def test_a_hostile_play_is_refused_in_words_never_a_crash(service, client, form):
    game_id = await new_game(service)
    response = await client.post(
        seat_url(game_id, ANN), data=form, headers={"Accept": "application/json"}
    )
    assert response.status in (400, 409, 200)
    if response.status != 400:
        answer = await response.json()
        assert answer["ok"] is False and answer["said"]
    assert (await service.get_game(game_id)).ply == 0
    big = await client.post(seat_url(game_id, ANN), data={"move": "C" * 100_000, "ply": "0"})
    assert big.status == 413  # past the form's size


async def test_a_players_page_shows_their_ratings_and_recent_games(service, client):
    rated = await new_game(service)
    await service.resign(rated, BOB)  # Ann wins a rated game
    playing = await new_game(service)
    page = await (await client.get(f"/game/{playing}")).text()
    ann, bob = await service.player_number(ANN), await service.player_number(BOB)
    # the game's page links each name to the player's page: a number, never the address
    assert f'<a href="/player/{ann}">' in page and f'<a href="/player/{bob}">Bob</a>' in page
    response = await client.get(f"/player/{bob}")
    assert response.status == 200
    mine = await response.text()
    assert "<h1>Bob</h1>" in mine and "bob@example.org" not in mine
    rating = await service.rating(BOB, "kalah")
    ratings = mine.split("<caption>Ratings</caption>")[1].split("</table>")[0]
    assert '<a href="/leaderboard/kalah">kalah</a>' in ratings
    assert f"<td>{rating.shown}</td><td>1</td><td>0</td><td>0</td><td>1</td>" in ratings
    # the history: one rated game so far, its line labelled in words, its table folded
    line = re.search(r'<svg[^>]*class="history"[^>]*aria-label="([^"]*)"', ratings).group(1)
    assert line == f"Rating in kalah after one rated game: {rating.rating:.0f}."
    history = mine.split("<caption>Rating history: kalah</caption>")[1].split("</table>")[0]
    assert (
        f'<a href="/game/{rated}">#{rated}</a>' in history
        and f"<td>{rating.rating:.0f}</td>" in history
    )
    games = mine.split("<caption>Recent games</caption>")[1].split("</tbody>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", games.split("<tbody>")[1])
    assert [re.search(r'href="/game/(\d+)"', row).group(1) for row in rows] == [
        str(playing),
        str(rated),
    ]  # the latest first
    assert "In play" in rows[0] and "Lost" in rows[1]
    assert f'<a href="/player/{ann}">' in rows[1]  # the opponent, by their page
    annes = await (await client.get(f"/player/{ann}")).text()
    assert "ann@example.org" not in annes and "&lt;script&gt;" in annes  # escaped, masked
    assert "Won" in annes.split("<caption>Recent games</caption>")[1]
    german = await (await client.get(f"/player/{bob}", headers={"Accept-Language": "de"})).text()
    assert "Letzte Partien" in german and "Verloren" in german


async def test_each_rated_game_adds_a_point_to_the_players_rating_history(service, client):
    games = [await new_game(service) for _ in range(3)]
    for loser, game_id in zip((BOB, ANN, BOB), games, strict=True):
        await service.resign(game_id, loser)
    steps = await service.rating_history(ANN, "kalah")
    assert [step.game_id for step in steps] == games  # one point per rated game, in order
    assert steps[0].rating > 1500 > steps[1].rating < steps[2].rating  # won, lost, won
    assert round(steps[-1].rating) == round((await service.rating(ANN, "kalah")).rating)
    assert [s.game_id for s in await service.rating_history(ANN, "kalah", limit=2)] == games[1:]
    assert await service.rating_history(ANN, "wari") == []  # no rated game there

    page = await (await client.get(f"/player/{await service.player_number(ANN)}")).text()
    svg = re.search(r'<svg[^>]*class="history".*?</svg>', page, re.S).group(0)
    label = re.search(r'aria-label="([^"]*)"', svg).group(1)
    shown = [round(s.rating) for s in steps]
    first, low, high, last = shown[0], min(shown), max(shown), shown[-1]
    assert label == (
        f"Rating in kalah, game by game: from {first} to {last} (lowest {low}, highest "
        f"{high}); rated games shown: 3."
    )
    points = re.search(r'points="([^"]*)"', svg).group(1).split()
    heights = [float(point.split(",")[1]) for point in points]
    assert len(points) == 3
    assert sorted(range(3), key=heights.__getitem__) == sorted(range(3), key=lambda i: -shown[i])
    history = page.split("<caption>Rating history: kalah</caption>")[1].split("</tbody>")[0]
    linked = re.findall(r'href="/game/(\d+)"', history)
    assert linked == [str(g) for g in reversed(games)]  # the newest first, each its game
    german = await client.get(
        f"/player/{await service.player_number(ANN)}", headers={"Accept-Language": "de"}
    )
    assert "Rating in kalah" not in await german.text()  # the words in the reader's language


async def test_a_player_page_shows_only_what_playing_made_public(service, client):
    await service.set_display_name(Player("email", "nobody@example.org"), "Nobody")
    stranger = await service.player_number(Player("email", "nobody@example.org"))
    assert (await client.get(f"/player/{stranger}")).status == 404  # no game: nothing public
    for path in ("/player/999999", "/player/99999999999", "/player/abc", "/player/-1"):
        assert (await client.get(path)).status == 404
    assert (await client.get("/player/ann@example.org")).status == 404  # never by address


async def test_a_finished_game_shows_its_kept_review_and_marks_the_ply_shown(service, client):
    game_id = await new_game(service, "kalah:pits=3,seeds=2")
    await service.move(game_id, ANN, "B", expected_ply=0)
    await service.move(game_id, ANN, "A", expected_ply=1)
    await service.resign(game_id, BOB)
    page = await (await client.get(f"/game/{game_id}")).text()
    assert "has not been reviewed yet" in page and f"/mancala review {game_id}" in page
    assert 'class="graph"' not in page and 'class="class ' not in page

    reviewed = await service.review(game_id, ANN)  # a player asks, on any surface
    classes = [p.move_class.value for p in reviewed.review.plies]
    page = await (await client.get(f"/game/{game_id}")).text()
    assert "not been reviewed" not in page
    svg = re.search(r'<svg[^>]*class="graph".*?</svg>', page, re.S).group(0)
    label = re.search(r'aria-label="([^"]*)"', svg).group(1)
    assert label.startswith("Evaluation graph of 2 moves")
    shown = re.findall(r'<span class="class (\w+)[^"]*">([^<]*)</span>', page)
    assert [kind for kind, _word in shown] == classes
    end = re.search(r'class="at" x1="([0-9.]+)"', svg).group(1)
    start_page = await (await client.get(f"/game/{game_id}?ply=0")).text()
    start = re.search(r'class="graph".*?class="at" x1="([0-9.]+)"', start_page, re.S).group(1)
    assert float(start) < float(end)  # the mark moves with the ply shown

    german = await client.get(f"/game/{game_id}", headers={"Accept-Language": "de"})
    words = re.findall(r'<span class="class \w+[^"]*">([^<]*)</span>', await german.text())
    english = [word for _kind, word in shown]
    assert len(words) == len(english) and words != english  # the classes in German


async def test_a_review_asked_for_in_another_process_shows_on_the_page(database):
    """``mancala bot`` makes the review a player asked for on Discord or by mail; a separate
    ``mancala web`` on the same database shows it, made nowhere but there."""
    from tests.service.test_ai_fairness import NeverCompiled

    bot = await GameService.open(database, clock=ManualClock(), tick_every=None, ai_workers=1)
    web_side = await GameService.open(database, clock=ManualClock(), tick_every=None, ai_workers=1)
    try:
        bot.ai.kernel = NeverCompiled()  # the plain-Python solver: the board is small
        game_id = await new_game(bot, "kalah:pits=3,seeds=2")
        await bot.move(game_id, ANN, "B", expected_ply=0)
        await bot.move(game_id, ANN, "A", expected_ply=1)
        await bot.resign(game_id, BOB)
        app = make_app(web_side, Tokens(SECRET), feed_interval=0.05)
        async with TestClient(TestServer(app)) as client:
            page = await (await client.get(f"/game/{game_id}")).text()
            assert "has not been reviewed yet" in page
            reviewed = await bot.review(game_id, BOB)
            page = await (await client.get(f"/game/{game_id}")).text()
        assert "not been reviewed" not in page and 'class="graph"' in page
        shown = re.findall(r'<span class="class (\w+)[^"]*">', page)
        assert shown == [p.move_class.value for p in reviewed.review.plies]
    finally:
        await web_side.close()
        await bot.close()


async def test_the_puzzle_page_shows_today_s_puzzle_and_checks_answers_as_practice(service, client):
    from engine import to_perspective

    daily = await service.daily_puzzle()
    page = await (await client.get("/puzzle")).text()
    assert f'action="/puzzle/{daily.id}"' in page and daily.id in page
    assert "to move: one move keeps" in page and 'class="board"' in page
    legal = daily.position.legal_moves()
    shown = re.findall(r'<button class="move" name="move" value="([A-Z])">', page)
    assert shown == [to_perspective(m, daily.side) for m in legal]  # the mover's letters

    right = to_perspective(daily.solution, daily.side)
    answered = await (await client.post(f"/puzzle/{daily.id}", data={"move": right})).text()
    assert 'class="said right"' in answered and "Right:" in answered
    wrong = next(m for m in legal if m != daily.solution)
    response = await client.post(
        f"/puzzle/{daily.id}", data={"move": to_perspective(wrong, daily.side)}
    )
    answered = await response.text()
    assert 'class="said wrong"' in answered and f"The solution: {right}." in answered
    assert (await service.puzzle_streak(ANN)).answered == 0  # recorded nowhere

    refused = await client.post(f"/puzzle/{daily.id}", data={"move": "Z"})
    assert refused.status == 409 and 'class="said refused"' in await refused.text()
    assert (await client.get("/puzzle/no-such-puzzle")).status == 404
    for _more in range(5):  # the limit of plays per address: 5 a minute here
        await client.post(f"/puzzle/{daily.id}", data={"move": right})
    assert (await client.post(f"/puzzle/{daily.id}", data={"move": right})).status == 429


async def test_every_page_links_to_the_puzzle(service, client):
    game_id = await new_game(service)
    for path in (f"/game/{game_id}", "/leaderboard", "/game/abc", "/puzzle"):
        page = await (await client.get(path)).text()
        assert "<footer><nav" in page and 'href="/puzzle"' in page


async def test_a_finished_game_offers_the_community_formats_its_ruleset_has(service, client):
    game_id = await new_game(service, "oware")
    going = await (await client.get(f"/game/{game_id}")).text()
    assert "record/auale-ogn" not in going
    assert (await client.get(f"/game/{game_id}/record/auale-ogn")).status == 404
    for ply, move in enumerate("Cf"):
        seat = ANN if ply % 2 == 0 else BOB
        await client.post(seat_url(game_id, seat), data={"move": move, "ply": str(ply)})
    await client.post(seat_url(game_id, BOB), data={"do": "resign", "ply": "2"})
    page = await (await client.get(f"/game/{game_id}")).text()
    assert f'href="/game/{game_id}/record/playstrategy-pgn"' in page
    assert f'href="/game/{game_id}/record/auale-ogn"' in page and "scoresheet" not in page
    ogn = await client.get(f"/game/{game_id}/record/auale-ogn")
    assert (
        ogn.headers["Content-Disposition"] == f'attachment; filename="mancala-game-{game_id}.ogn"'
    )
    text = await ogn.text()
    assert '[North "Bob"]' in text and "1. C f 1-0" in text
    pgn = await (await client.get(f"/game/{game_id}/record/playstrategy-pgn")).text()
    assert "1. c1f2 a2d1 1-0" in pgn
    assert (await client.get(f"/game/{game_id}/record/kazakh-scoresheet")).status == 404
