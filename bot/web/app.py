"""The web companion's HTTP server (aiohttp): a game's page, its live part, its event
stream, its record, and plays from a player's token link.

Routes (``N`` a game's id, ``T`` a player's token, ``bot.tokens``):

- ``GET /game/N`` the page, read only; ``?ply=K`` steps a finished game to ply K;
- ``GET /game/N/play/T`` the page of the player whose token T is, to play on;
  ``POST`` there plays: ``do`` = move (with ``move``), draw, accept, decline or resign, and
  ``ply``, the ply of the board the player saw (a move for an older board is refused, as a
  mail's is: each move counts once);
- ``GET /game/N/part`` and ``/game/N/play/T/part``: the live part alone, for the script;
- ``GET /game/N/events``: Server-Sent Events, a ``state`` each time the game changes
  (``bot.web.feeds``);
- ``GET /game/N/record.txt``: the game's record (``GameService.export``);
  ``GET /game/N/record/FORMAT``: a finished game's record in one of the community's formats
  its ruleset has (``engine.records``: playstrategy-pgn, kazakh-scoresheet, auale-ogn);
- ``GET /tournament/N``: a tournament's standings, crosstable and pairings by round;
- ``GET /leaderboard/FAMILY``: the best ratings of a family (``/leaderboard``: Kalah's);
- ``GET /player/P``: a player's ratings and recent games, ``P`` the number the database
  knows them by (``GameService.player_number``), never their address;
- ``GET /puzzle``: today's puzzle; ``GET /puzzle/ID`` one by its id; ``POST`` there
  answers it as practice (``move``), checked and recorded nowhere, as many a minute per
  address as plays;
- ``GET /unsubscribe/U``: the page of a mail's unsubscribe link (``U``: a signed token naming
  the address, ``bot.tokens``), with a button; ``POST`` there (RFC 8058's one-click, or the
  button) stops all mail to the address for good, as ``stop`` by mail does
  (docs/privacy.md); opening the page stops nothing, since link scanners open links;
- ``GET /health``: 200 while the database answers (for a container's health check);
- ``/static/``: the script and the style sheet.

Every response carries a Content-Security-Policy without inline script, ``Referrer-Policy:
no-referrer`` (a token link never leaks to another site) and ``X-Content-Type-Options``. The
access log writes paths with their token cut out (``RedactingAccessLogger``). An address that
names nothing gets the 404 page.
"""

from __future__ import annotations

import asyncio
import collections
import ipaddress
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger

from bot.i18n import Language, _, choose, speaking
from bot.service import GameService, GameView, NotFound, Player, ServiceError, Unavailable
from bot.service.errors import UnknownPuzzle
from bot.service.ratings import Family
from bot.service.tournaments import Format
from bot.tokens import TOKEN_LENGTH, Tokens
from bot.web.feeds import GameFeeds
from bot.web.links import game_url, player_path
from bot.web.lists import PlayedGame, leaderboard_page, player_page, tournament_page
from bot.web.pages import (
    GamePage,
    first_mover,
    game_page,
    live_part,
    message_page,
    not_found_page,
    unsubscribe_page,
)
from bot.web.puzzle_page import puzzle_page
from engine import SIDES, Ruleset, Side, from_perspective
from engine.records import OGN, PGN, SCORESHEET, convert, formats_for

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
GAME = r"{game:[0-9]{1,20}}"
PUZZLE = "/puzzle/{puzzle:[a-z0-9-]{1,60}}"
TOKEN = rf"{{token:[a-z2-7]{{{TOKEN_LENGTH}}}}}"
UNSUBSCRIBE = "/unsubscribe/{token:[A-Za-z0-9_.-]{1,800}}"
_TOKEN_IN_PATH = re.compile(r"/(play|unsubscribe)/[^/?#]*")
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
MAX_STREAMS_PER_ADDRESS = 32  # pages one address may keep open on live games
RECENT_GAMES = 30  # the games a player's page lists, the latest first
HISTORY_POINTS = 50  # the rated games a player's page draws per family, the latest
KEEP_ALIVE = 15.0  # seconds between comments on a quiet event stream (proxies drop idle ones)


def redact(path: str) -> str:
    """A path as the log may keep it: no token.

    >>> redact("/game/12/play/abcdefghij/part?ply=3"), redact("/unsubscribe/YW5u.abcdefghij")
    ('/game/12/play/…/part', '/unsubscribe/…')
    """
    return _TOKEN_IN_PATH.sub(r"/\1/…", path.partition("?")[0])


class RedactingAccessLogger(AbstractAccessLogger):
    """aiohttp's access log, without tokens or query strings."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info(
            '%s "%s %s" %s %.3fs',
            client_address(request),
            request.method,
            redact(request.path),
            response.status,
            time,
        )


Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK: tuple[Network, ...] = (
    ipaddress.ip_network("127.0.0.0/8"),
    ipaddress.ip_network("::1/128"),
)


def client_address(request: web.BaseRequest) -> str:
    """Who asked: the peer, or, when the peer is a reverse proxy of ours (on this machine,
    or in ``MANCALA_WEB_TRUSTED_PROXIES``), the address it says it forwarded for (the last
    one: the only one it vouches for)."""
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For", "")
    if not forwarded:
        return peer
    app = getattr(request, "app", None)
    proxies = app.get(PROXIES, LOOPBACK) if app is not None else LOOPBACK
    try:
        trusted = any(ipaddress.ip_address(peer) in network for network in proxies)
    except ValueError:  # not an IP address (a Unix socket)
        trusted = False
    if trusted:
        return forwarded.rsplit(",", 1)[-1].strip()[:64] or peer
    return peer


class PlayLimits:
    """At most ``per_minute`` plays from one address in any minute."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic):
        self.per_minute = per_minute
        self._clock = clock
        self._seen: dict[str, collections.deque[float]] = {}

    def allow(self, address: str) -> bool:
        now = self._clock()
        if len(self._seen) > 10_000:  # forget the addresses that went quiet
            for key in [k for k, q in self._seen.items() if not q or q[-1] < now - 60]:
                del self._seen[key]
        times = self._seen.setdefault(address, collections.deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(times) >= self.per_minute:
            return False
        times.append(now)
        return True


SERVICE = web.AppKey("service", GameService)
TOKENS = web.AppKey("tokens", Tokens)
FEEDS = web.AppKey("feeds", GameFeeds)
LIMITS = web.AppKey("limits", PlayLimits)
STREAMS = web.AppKey("streams", collections.Counter[str])
PROXIES = web.AppKey("proxies", tuple[Network, ...])


def request_language(request: web.BaseRequest) -> Language:
    """The language of Accept-Language most wanted that the bot speaks, else English."""
    weighted = []
    for index, item in enumerate(request.headers.get("Accept-Language", "").split(",")[:20]):
        tag, _sep, rest = item.strip().partition(";")
        quality = 1.0
        match = re.fullmatch(r"\s*q=([01](?:\.[0-9]{0,3})?)\s*", rest)
        if match:
            quality = float(match.group(1))
        if tag and quality > 0:
            weighted.append((-quality, index, tag.strip()))
    return choose(None, *(tag for _q, _i, tag in sorted(weighted)))


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def pages_in_language(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Each request answered in its language; an address that names nothing gets the 404
    page, a failure the 500 page (logged without the token), never a traceback."""
    with speaking(request_language(request)):
        try:
            return await handler(request)
        except web.HTTPNotFound:
            return html(not_found_page(), status=404)
        except web.HTTPException:
            raise
        except Unavailable as err:  # the database, a moment: nothing is lost
            return html(message_page(_("Something went wrong"), str(err)), status=503)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s %s failed", request.method, redact(request.path))
            return html(
                message_page(_("Something went wrong"), _("Please try again in a moment.")),
                status=500,
            )


async def secure_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    if request.path.startswith("/static/"):
        response.headers["Cache-Control"] = "max-age=3600"
    else:  # live pages, and token links: never kept by a shared cache
        response.headers["Cache-Control"] = "no-store"


def html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


def masked_address(address: str) -> str:
    """An email address with most of its local part hidden: a public page is no place to
    publish someone's address, and its owner still knows it.

    >>> masked_address("ann@example.org"), masked_address("bo@example.org")
    ('an…@example.org', 'b…@example.org')
    """
    local, at, domain = address.rpartition("@")
    if not at:
        return address[:2] + "…"
    return f"{local[: 2 if len(local) > 2 else 1]}…@{domain}"


async def public_name(service: GameService, player: Player, name: str | None = None) -> str:
    """How a page names a player: their display name, an email player without one by a
    masked address."""
    name = name or await service.display_name(player)
    if player.surface == "email" and name.strip().lower() == player.id.lower():
        return masked_address(player.id)
    return name


async def player_link(service: GameService, player: Player) -> str:
    """The page of a player the bot has met (a game's, a tournament's, a leaderboard's)."""
    return player_path(await service.player_number(player))


async def _game(request: web.Request) -> GameView:
    try:
        return await request.app[SERVICE].get_game(int(request.match_info["game"]))
    except NotFound:  # or an id past the database's range
        raise web.HTTPNotFound() from None


def _seat(request: web.Request, view: GameView) -> tuple[Side, Player]:
    """The side and player whose token the address carries (only a mail player has one). A
    game's token is keyed by the seat, as in the player's mails (``GameMailer.game_token``),
    so the link in a mail is the one that plays."""
    token = request.match_info["token"]
    for side in SIDES:
        player = view.player(side)
        if player.surface == "email" and request.app[TOKENS].check("game", view.id, side, token):
            return side, player
    raise web.HTTPNotFound()


async def _page(
    request: web.Request, view: GameView, seat: Side | None, said: str = "", refused: bool = False
) -> GamePage:
    service = request.app[SERVICE]
    names: dict[str, str] = {s: await public_name(service, view.player(s)) for s in SIDES}
    at: int | None = None
    first: Side | None = None
    if view.is_over:
        text = request.query.get("ply", "")
        if re.fullmatch(r"[0-9]{1,6}", text) and int(text) < len(view.moves):
            at = int(text)
            first = first_mover(await service.export(view.id))
    links: dict[str, str] = {s: await player_link(service, view.player(s)) for s in SIDES}
    review = await service.kept_review(view.id) if view.is_over else None
    reviewed = review.review if review is not None else None
    return GamePage(view, names, seat, at, first, said, refused, links, reviewed)


def _urls(view: GameView, token: str | None) -> tuple[str, str, str, str]:
    """Where plays go, the record, the event stream and the live part, for this page."""
    page = game_url("", view.id, token)
    plain = game_url("", view.id)
    return page, f"{plain}/record.txt", f"{plain}/events", f"{page}/part"


async def _language_of(request: web.Request, player: Player) -> Language:
    """A player's own language setting first, then the browser's."""
    return await request.app[SERVICE].language_for(player, request_language(request))


async def show_game(request: web.Request) -> web.StreamResponse:
    view = await _game(request)
    page = await _page(request, view, None)
    action, record, events, part = _urls(view, None)
    return html(game_page(page, action, record, events, part))


async def show_part(request: web.Request) -> web.StreamResponse:
    view = await _game(request)
    seat: Side | None = None
    token: str | None = None
    if "token" in request.match_info:
        seat, player = _seat(request, view)
        token = request.match_info["token"]
        with speaking(await _language_of(request, player)):
            return await _part(request, view, seat, token)
    return await _part(request, view, seat, token)


async def _part(
    request: web.Request, view: GameView, seat: Side | None, token: str | None
) -> web.StreamResponse:
    page = await _page(request, view, seat)
    action, record, _events, _part_url = _urls(view, token)
    return html(live_part(page, action, record))


async def show_seat(request: web.Request) -> web.StreamResponse:
    view = await _game(request)
    seat, player = _seat(request, view)
    with speaking(await _language_of(request, player)):
        page = await _page(request, view, seat)
        action, record, events, part = _urls(view, request.match_info["token"])
        return html(game_page(page, action, record, events, part))


async def play(request: web.Request) -> web.StreamResponse:
    view = await _game(request)
    seat, player = _seat(request, view)
    service = request.app[SERVICE]
    wants_json = "application/json" in request.headers.get("Accept", "")
    with speaking(await _language_of(request, player)):
        if not request.app[LIMITS].allow(client_address(request)):
            said = _("Too many plays from your address; wait a minute.")
            if wants_json:
                return web.json_response({"ok": False, "said": said}, status=429)
            return html(message_page(_("Too many plays"), said), status=429)
        form = await request.post()
        do = str(form.get("do") or ("move" if form.get("move") else ""))
        ply = str(form.get("ply") or "")
        said, refused = "", False
        try:
            if do == "move":
                move = from_perspective(str(form.get("move") or ""), seat)
                view = await service.move(view.id, player, move, expected_ply=ply or None)
            elif do == "draw":
                view = await service.offer_draw(view.id, player)
            elif do == "accept":
                view = await service.accept_offer(view.id, player)
            elif do == "decline":
                view = await service.decline_offer(view.id, player)
            elif do == "resign":
                view = await service.resign(view.id, player)
            else:
                raise web.HTTPBadRequest()
        except ServiceError as err:
            said, refused = str(err), True
            view = await service.get_game(view.id)
        request.app[FEEDS].kick(view.id)
        if wants_json:
            return web.json_response({"ok": not refused, "said": said, "ply": view.ply})
        if not refused:  # to the page by GET, so that reloading it sends nothing again
            raise web.HTTPSeeOther(request.path)
        page = await _page(request, view, seat, said, refused)
        action, record, events, part = _urls(view, request.match_info["token"])
        return html(game_page(page, action, record, events, part), status=409)


def state_of(view: GameView) -> str:
    return GamePage(view, {}).state()


async def events(request: web.Request) -> web.StreamResponse:
    view = await _game(request)
    address = client_address(request)
    streams = request.app[STREAMS]
    if streams[address] >= MAX_STREAMS_PER_ADDRESS:
        raise web.HTTPTooManyRequests()
    streams[address] += 1
    try:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "X-Accel-Buffering": "no",  # nginx: pass each event on at once
            }
        )
        await response.prepare(request)
        await response.write(b"retry: 1000\n\n")
        async with request.app[FEEDS].subscribe(view.id) as queue:
            # after subscribing: a change made while the stream opened is not missed
            view = await request.app[SERVICE].get_game(view.id)
            await response.write(f"event: state\ndata: {state_of(view)}\n\n".encode())
            while True:
                try:
                    news = await asyncio.wait_for(queue.get(), KEEP_ALIVE)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                if news is None:  # the server is closing
                    break
                view = news
                await response.write(f"event: state\ndata: {state_of(view)}\n\n".encode())
    except (ConnectionResetError, ServiceError):
        pass  # the page went away, or the database did: the page reconnects
    finally:
        streams[address] -= 1
        if not streams[address]:
            del streams[address]
    return response


async def record(request: web.Request) -> web.StreamResponse:
    view = await _game(request)
    text = await request.app[SERVICE].export(view.id)
    return web.Response(
        text=text,
        content_type="text/plain",
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="mancala-game-{view.id}.txt"'},
    )


# what a downloaded record in each community format is called after the game's number
_RECORD_SUFFIXES = {PGN: ".pgn", SCORESHEET: "-scoresheet.txt", OGN: ".ogn"}


async def record_in_format(request: web.Request) -> web.StreamResponse:
    """A finished game's record in a community format (``engine.records.convert`` of the
    export); a game still going on, or a format its ruleset has not, is the 404 page."""
    view = await _game(request)
    wanted = request.match_info["format"]
    if not view.is_over or wanted not in formats_for(Ruleset.parse(view.rules)):
        raise web.HTTPNotFound()
    text = convert(await request.app[SERVICE].export(view.id), wanted)
    name = f"mancala-game-{view.id}{_RECORD_SUFFIXES[wanted]}"
    return web.Response(
        text=text,
        content_type="text/plain",
        charset="utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def app_runner(app: web.Application) -> web.AppRunner:
    """The runner that serves ``app``, with the access log that leaves tokens out."""
    return web.AppRunner(app, access_log_class=RedactingAccessLogger)


async def show_tournament(request: web.Request) -> web.StreamResponse:
    service = request.app[SERVICE]
    try:
        view = await service.tournament(int(request.match_info["tournament"]))
        standings = await service.tournament_standings(view.id)
        if view.format is Format.ARENA:
            rounds = [(0, await service.tournament_pairings(view.id))]
        else:
            rounds = [
                (n, await service.tournament_pairings(view.id, n))
                for n in range(1, view.current_round + 1)
            ]
    except NotFound:
        raise web.HTTPNotFound() from None
    players = {*view.players, *view.withdrawn, *(s.player for s in standings)}
    for _round, pairings in rounds:
        players.update(p for pairing in pairings for p in (pairing.south, pairing.north) if p)
    names = {player: await public_name(service, player) for player in players}
    links = {player: await player_link(service, player) for player in players}
    return html(tournament_page(view, standings, rounds, names, links))


async def show_leaderboard(request: web.Request) -> web.StreamResponse:
    family = request.match_info.get("family", Family.KALAH.value)
    if family not in Family.__members__.values():
        raise web.HTTPNotFound()
    service = request.app[SERVICE]
    ratings = await service.leaderboard(family, limit=50)
    shown = [
        replace(r, display_name=await public_name(service, r.player, r.display_name))
        for r in ratings
    ]
    links = {r.player: await player_link(service, r.player) for r in ratings}
    return html(leaderboard_page(family, [f.value for f in Family], shown, links))


async def show_player(request: web.Request) -> web.StreamResponse:
    """A player's page: only what playing made public (their games, which have pages of
    their own, and the ratings those games gave them), named as the games name them; a
    number that names nobody, or somebody who has played no game, gets the 404 page."""
    service = request.app[SERVICE]
    try:
        player = await service.numbered_player(int(request.match_info["player"]))
        player = await service.account_owner(player)  # a linked account's number: its player
    except NotFound:  # or a number past the database's range
        raise web.HTTPNotFound() from None
    games = await service.list_games(player, include_finished=True, limit=RECENT_GAMES)
    if not games:
        raise web.HTTPNotFound()
    played = []
    for view in sorted(games, key=lambda g: (-g.last_move_at, -g.id)):
        side = Side(view.side_of(player) or Side.SOUTH)
        opponent = view.player(side.other)
        played.append(
            PlayedGame(
                view,
                side,
                await public_name(service, opponent),
                await player_link(service, opponent),
            )
        )
    ratings = [await service.rating(player, family.value) for family in Family]
    histories = {
        r.rules: await service.rating_history(player, r.rules, HISTORY_POINTS)
        for r in ratings
        if r.games
    }
    return html(player_page(await public_name(service, player), ratings, played, histories))


async def show_puzzle(request: web.Request) -> web.StreamResponse:
    """Today's puzzle (``/puzzle``) or one by its id, to answer as practice: by POST, checked
    by the service and recorded nowhere (a page's visitor is nobody the service knows)."""
    service = request.app[SERVICE]
    daily = "puzzle" not in request.match_info
    try:
        if daily:
            puzzle = await service.daily_puzzle()
        else:
            puzzle = service.puzzle(request.match_info["puzzle"])
    except UnknownPuzzle:
        raise web.HTTPNotFound() from None
    action = f"/puzzle/{puzzle.id}"
    if request.method != "POST":
        return html(puzzle_page(puzzle, action, daily))
    if not request.app[LIMITS].allow(client_address(request)):
        said = _("Too many answers from your address; wait a minute.")
        return html(message_page(_("Too many answers"), said), status=429)
    form = await request.post()
    move = from_perspective(str(form.get("move") or "")[:8], puzzle.side)
    try:
        answer = service.practise_puzzle(puzzle.id, move)
    except ServiceError as err:
        return html(puzzle_page(puzzle, action, daily, refused=str(err)), status=409)
    return html(puzzle_page(puzzle, action, daily, answer))


async def unsubscribe(request: web.Request) -> web.StreamResponse:
    """A mail's unsubscribe link: GET shows the button, POST stops the mail (idempotent: a
    second POST answers the same). A forged or cut token gets the 400 page."""
    service, tokens = request.app[SERVICE], request.app[TOKENS]
    address = tokens.unsubscribe_address(request.match_info["token"])
    if address is None:
        said = _(
            "This unsubscribe link is not valid: it may have been cut or changed. Open the "
            "whole link from the mail, or write 'stop' to the bot by mail."
        )
        return html(message_page(_("Link not valid"), said), status=400)
    shown = masked_address(address)
    if request.method != "POST":
        if await service.mail_stopped(tokens.address_key(address)):
            said = _("The bot sends no mail to {address}.").format(address=shown)
            return html(unsubscribe_page(shown, request.path, said))
        return html(unsubscribe_page(shown, request.path))
    if not request.app[LIMITS].allow(client_address(request)):
        said = _("Too many requests from your address; wait a minute.")
        return html(message_page(_("Too many requests"), said), status=429)
    try:
        await service.stop_mail(service.email_player(address), tokens.address_key(address))
    except ServiceError as err:
        return html(message_page(_("Link not valid"), str(err)), status=400)
    said = _(
        "Done: the bot will send no more mail to {address}, and your games in progress are "
        "resigned. To get mail again, write 'start' to the bot by mail."
    ).format(address=shown)
    return html(unsubscribe_page(shown, request.path, said))


async def health(request: web.Request) -> web.StreamResponse:
    """For a container's HEALTHCHECK or a proxy: 200 while the database answers."""
    try:
        await request.app[SERVICE].open_game_count()
    except ServiceError:
        return web.Response(text="database unavailable\n", status=503)
    return web.Response(text="ok\n")


async def no_icon(request: web.Request) -> web.StreamResponse:
    """Browsers ask for an icon: there is none, which is no error worth a 404 in the log."""
    return web.Response(status=204)


def make_app(
    service: GameService,
    tokens: Tokens,
    plays_per_minute: int = 60,
    feed_interval: float = 0.2,
    proxies: tuple[Network, ...] = (),
) -> web.Application:
    """The web application on ``service``; ``tokens`` check the players' links; a request
    from a proxy on this machine or in ``proxies`` is counted as from the address it
    forwarded for."""
    app = web.Application(middlewares=[pages_in_language], client_max_size=16 * 1024)
    app[SERVICE] = service
    app[TOKENS] = tokens
    app[FEEDS] = GameFeeds(service, feed_interval)
    app[LIMITS] = PlayLimits(plays_per_minute)
    app[STREAMS] = collections.Counter()
    app[PROXIES] = LOOPBACK + tuple(proxies)
    app.on_response_prepare.append(secure_headers)

    async def close_feeds(app: web.Application) -> None:
        await app[FEEDS].close()

    app.on_shutdown.append(close_feeds)
    app.add_routes(
        [
            web.get(f"/game/{GAME}", show_game),
            web.get(f"/game/{GAME}/part", show_part),
            web.get(f"/game/{GAME}/events", events),
            web.get(f"/game/{GAME}/record.txt", record),
            web.get(f"/game/{GAME}/record/{{format:[a-z-]{{1,20}}}}", record_in_format),
            web.get(f"/game/{GAME}/play/{TOKEN}", show_seat),
            web.post(f"/game/{GAME}/play/{TOKEN}", play),
            web.get(f"/game/{GAME}/play/{TOKEN}/part", show_part),
            web.get("/tournament/{tournament:[0-9]{1,20}}", show_tournament),
            web.get("/leaderboard", show_leaderboard),
            web.get("/leaderboard/{family:[a-z-]{1,20}}", show_leaderboard),
            web.get("/player/{player:[0-9]{1,12}}", show_player),
            web.get("/puzzle", show_puzzle),
            web.get(PUZZLE, show_puzzle),
            web.post(PUZZLE, show_puzzle),
            web.get(UNSUBSCRIBE, unsubscribe),
            web.post(UNSUBSCRIBE, unsubscribe),
            web.get("/health", health),
            web.get("/favicon.ico", no_icon),
            web.static("/static", STATIC, append_version=False),
        ]
    )
    return app
