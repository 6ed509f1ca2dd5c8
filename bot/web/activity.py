"""The Discord Activity: the channel's game in Discord's own frame, on the web companion.

Discord loads the Activity's page in an iframe on ``<application id>.discordsays.com``,
whose proxy hands every path on to this server (deploy/discord.md). The page's script
(``static/activity.js``, built from ``activity/`` with npm) signs the user in with the
Embedded App SDK; the server does the part that needs the application's secret:

- ``GET /activity``: the page (Discord's launch opens ``/``, sent on here with its query);
- ``POST /activity/token``: ``{"code": ...}`` from the SDK's ``authorize``, exchanged at
  Discord's OAuth2 token endpoint with ``MANCALA_DISCORD_CLIENT_ID`` and
  ``MANCALA_DISCORD_CLIENT_SECRET``; ``/users/@me`` with the access token names the user.
  The answer: ``{"access_token", "session"}``, the session our own signed token
  (``Tokens.session``) naming the Discord user and their locale for a few hours;
- ``GET /activity/part?channel=C``: the channel's game (``GameService.active_game``) on the
  game page's board and live part, seen by the signed-in user (their own seat, their
  language); or, in a channel without one, the offers to start one against the AI or to
  accept an open challenge made to them there;
- ``POST /activity/play``: a move (with the ``ply`` of the board seen: exactly once, as the
  buttons), an offer, a resignation, a game against the AI, a challenge accepted: each the
  service's verb for ``Player("discord", id)``; JSON back, with the service's message when
  it refuses.

Every call but the page carries the session (``Authorization: Bearer``). The live news is
the game's own event stream (``/game/N/events``). The Activity's pages alone may be framed,
and only by Discord (``frame-ancestors``); the others keep the companion's policy.

``MANCALA_ACTIVITY_MOCK`` (tests only) makes the page use the SDK's ``DiscordSDKMock``
instead of Discord: a server setting, never something a visitor could ask for. Even then
the mock only hands the page a code; the server still has Discord exchange it, so no
setting lets a page sign in as someone Discord did not vouch for.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from bot.i18n import Language, _, speaking
from bot.service import Channel, GameView, NotFound, Player, ServiceError
from bot.service.servers import ServerSettings
from bot.web.activity_page import activity_page, empty_part, game_part
from bot.web.app import (
    FEEDS,
    LIMITS,
    SERVICE,
    TOKENS,
    Handler,
    _page,
    client_address,
    html,
    message_page,
    public_name,
    request_language,
)
from engine import from_perspective

log = logging.getLogger(__name__)

_YES = {"1", "yes", "true", "on", "y"}
DISCORD_API = "https://discord.com/api/v10"
SESSION_SECONDS = 4 * 3600  # a sign-in lasts an evening; the page signs in again after
SESSION_KIND = "activity"
# The Activity runs in Discord's frame (the client on discord.com, the page itself on the
# application's discordsays.com host): only those may frame it.
FRAMED_BY = (
    "https://discord.com https://*.discord.com https://discordapp.com "
    "https://*.discordapp.com https://*.discordsays.com"
)
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    f"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors {FRAMED_BY}"
)
_SNOWFLAKE = re.compile(r"[0-9]{1,20}")


@dataclass(frozen=True)
class ActivitySettings:
    """The Activity's settings, from the environment.

    >>> s = ActivitySettings.from_environ({"MANCALA_DISCORD_CLIENT_ID": "42",
    ...                                    "MANCALA_DISCORD_CLIENT_SECRET": "s3cret"})
    >>> s.ready, s.api, s.mock
    (True, 'https://discord.com/api/v10', False)
    >>> ActivitySettings.from_environ({}).ready
    False
    """

    client_id: str = ""  # MANCALA_DISCORD_CLIENT_ID: the application's id
    client_secret: str = ""  # MANCALA_DISCORD_CLIENT_SECRET: its OAuth2 secret
    api: str = DISCORD_API  # MANCALA_DISCORD_API: where Discord's API is (tests: a fake)
    mock: bool = False  # MANCALA_ACTIVITY_MOCK: the SDK's mock instead of Discord (tests)

    @property
    def ready(self) -> bool:
        return bool(self.client_id and self.client_secret)

    @classmethod
    def from_environ(cls, env: Mapping[str, str]) -> ActivitySettings:
        def get(name: str) -> str:
            return env.get(name, "").strip()

        return cls(
            client_id=get("MANCALA_DISCORD_CLIENT_ID"),
            client_secret=get("MANCALA_DISCORD_CLIENT_SECRET"),
            api=(get("MANCALA_DISCORD_API") or DISCORD_API).rstrip("/"),
            mock=get("MANCALA_ACTIVITY_MOCK").lower() in _YES,
        )


ACTIVITY = web.AppKey("activity", ActivitySettings)


class DiscordRefused(Exception):
    """Discord did not confirm the code, or did not say who its user is."""


async def discord_user(settings: ActivitySettings, code: str) -> tuple[str, dict]:
    """The access token for ``code`` (Discord's OAuth2 code exchange, with the application's
    secret) and the user it belongs to (``/users/@me``)."""
    form = {
        "client_id": settings.client_id,
        "client_secret": settings.client_secret,
        "grant_type": "authorization_code",
        "code": code,
    }
    timeout = aiohttp.ClientTimeout(total=10)
    try:
        async with aiohttp.ClientSession(timeout=timeout) as session:
            async with session.post(f"{settings.api}/oauth2/token", data=form) as answer:
                if answer.status != 200:
                    raise DiscordRefused(f"token exchange: {answer.status}")
                granted = await answer.json(content_type=None)
            token = str(granted.get("access_token") or "")
            if not token:
                raise DiscordRefused("token exchange: no access token")
            headers = {"Authorization": f"Bearer {token}"}
            async with session.get(f"{settings.api}/users/@me", headers=headers) as answer:
                if answer.status != 200:
                    raise DiscordRefused(f"/users/@me: {answer.status}")
                user = await answer.json(content_type=None)
    except (aiohttp.ClientError, TimeoutError, ValueError) as err:
        raise DiscordRefused(f"Discord unreachable: {type(err).__name__}") from None
    if not isinstance(user, dict) or not _SNOWFLAKE.fullmatch(str(user.get("id", ""))):
        raise DiscordRefused("/users/@me: no user id")
    return token, user


def _refusal(said: str, status: int, **more: object) -> web.Response:
    return web.json_response({"ok": False, "said": said, **more}, status=status)


def _signed_in(request: web.Request) -> tuple[Player, str]:
    """The Discord user the request's session names, and their Discord locale."""
    session = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    subject = request.app[TOKENS].session_subject(SESSION_KIND, session, request.app[SERVICE].now())
    if subject is None:
        raise web.HTTPUnauthorized(
            text='{"ok": false, "signin": true}', content_type="application/json"
        )
    user_id, _sep, locale = subject.partition(" ")
    return Player("discord", user_id), locale


async def _language(request: web.Request, player: Player, locale: str) -> Language:
    """The player's own setting, then their Discord locale, then the browser's."""
    return await request.app[SERVICE].language_for(player, locale, request_language(request))


def _channel(request: web.Request, fields: Mapping[str, object]) -> Channel:
    text = str(fields.get("channel") or "")
    if not _SNOWFLAKE.fullmatch(text):
        raise web.HTTPBadRequest()
    return Channel("discord", text)


async def show_activity(request: web.Request) -> web.StreamResponse:
    settings = request.app[ACTIVITY]
    if not settings.ready and not settings.mock:
        return html(
            message_page(
                _("The Discord Activity is not set up"),
                _("This server has no Discord application to sign in with."),
            ),
            status=404,
        )
    return html(activity_page(settings.client_id or "0", settings.mock))


async def sign_in(request: web.Request) -> web.StreamResponse:
    settings = request.app[ACTIVITY]
    if not request.app[LIMITS].allow(f"sign-in {client_address(request)}"):
        return _refusal(_("Too many sign-ins from your address; wait a minute."), 429)
    try:
        body = await request.json()
    except ValueError:
        raise web.HTTPBadRequest() from None
    code = str(body.get("code") or "")[:200] if isinstance(body, dict) else ""
    if not code or not (settings.ready or settings.mock):
        raise web.HTTPBadRequest()
    try:
        access_token, user = await discord_user(settings, code)
    except DiscordRefused as err:
        log.warning("an Activity sign-in failed: %s", err)
        return _refusal(_("Discord did not confirm who you are; please try again."), 401)
    player = Player("discord", str(user["id"]))
    name = str(user.get("global_name") or user.get("username") or "")[:100]
    service = request.app[SERVICE]
    if name:
        await service.set_display_name(player, name)
    locale = re.sub(r"[^A-Za-z-]", "", str(user.get("locale") or ""))[:16]
    session = request.app[TOKENS].session(
        SESSION_KIND, f"{player.id} {locale}", service.now() + SESSION_SECONDS
    )
    return web.json_response({"access_token": access_token, "session": session})


async def _shown_game(request: web.Request, channel: Channel) -> GameView | None:
    """The channel's game: the one going on, else the one the page showed (``game``) if it
    was played here: its result stays on the screen until another begins."""
    service = request.app[SERVICE]
    view = await service.active_game(channel)
    hint = request.query.get("game", "")
    if view is None and _SNOWFLAKE.fullmatch(hint):
        try:
            view = await service.get_game(int(hint))
        except NotFound:
            return None
        if view.channel != channel:
            return None
    return view


async def show_part(request: web.Request) -> web.StreamResponse:
    player, locale = _signed_in(request)
    channel = _channel(request, request.query)
    service = request.app[SERVICE]
    with speaking(await _language(request, player, locale)):
        view = await _shown_game(request, channel)
        challenges = []
        if view is None or view.is_over:
            challenges = [
                (c, await public_name(service, c.challenger))
                for c in await service.open_challenges(player)
                if c.channel == channel and c.opponent == player
            ]
        if view is None:
            return html(empty_part(challenges))
        page = await _page(request, view, view.side_of(player))
        return html(game_part(page, challenges))


async def play(request: web.Request) -> web.StreamResponse:
    player, locale = _signed_in(request)
    with speaking(await _language(request, player, locale)):
        # by user, not by address: every participant comes through Discord's proxy
        if not request.app[LIMITS].allow(str(player)):
            return _refusal(_("Too many plays; wait a minute."), 429)
        form = await request.post()
        channel = _channel(request, form)
        do = str(form.get("do") or ("move" if form.get("move") else ""))
        game = str(form.get("game") or "")
        game_id = int(game) if _SNOWFLAKE.fullmatch(game) else None
        try:
            view = await _act(request, player, channel, do, game_id, form)
        except ServiceError as err:
            return web.json_response({"ok": False, "said": str(err)}, status=409)
        request.app[FEEDS].kick(view.id)
        return web.json_response({"ok": True, "said": "", "game": view.id, "ply": view.ply})


async def _act(
    request: web.Request,
    player: Player,
    channel: Channel,
    do: str,
    game_id: int | None,
    form: Mapping[str, object],
) -> GameView:
    """One play of the Activity, as the service's verb for ``player``."""
    service = request.app[SERVICE]
    if do == "ai":  # a game against the AI here, on the server's ruleset and level
        guild = str(form.get("guild") or "")
        settings = (
            await service.server_settings("discord", guild)
            if _SNOWFLAKE.fullmatch(guild)
            else ServerSettings()  # a DM: the defaults
        )
        challenge = await service.challenge(
            player, Player.ai(settings.level), settings.ruleset, channel
        )
        if challenge.game_id is None:  # the AI accepts at once: never left open
            raise web.HTTPInternalServerError()
        return await service.get_game(challenge.game_id)
    if do.startswith("take:") and _SNOWFLAKE.fullmatch(do[5:]):
        return await service.accept(int(do[5:]), player)
    if game_id is None:
        raise web.HTTPBadRequest()
    if do == "move":
        view = await service.get_game(game_id)
        move = from_perspective(str(form.get("move") or "")[:8], view.side_of(player) or "south")
        ply = str(form.get("ply") or "")
        return await service.move(game_id, player, move, expected_ply=ply or None)
    verbs = {
        "draw": service.offer_draw,
        "accept": service.accept_offer,
        "decline": service.decline_offer,
        "resign": service.resign,
    }
    if do not in verbs:
        raise web.HTTPBadRequest()
    return await verbs[do](game_id, player)


async def framed_by_discord(request: web.Request, response: web.StreamResponse) -> None:
    """The Activity's pages may be framed by Discord; after the companion's own headers."""
    if request.path == "/activity" or request.path.startswith("/activity/"):
        response.headers["Content-Security-Policy"] = CSP


@web.middleware
async def launched_at_root(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Discord opens an Activity at its root mapping's ``/``, with the launch in the query
    (``frame_id``, ``instance_id``, ``channel_id``...), which the SDK reads: on to the page."""
    if request.path == "/" and request.method == "GET" and "frame_id" in request.query:
        raise web.HTTPFound("/activity?" + urlencode(list(request.query.items())))
    return await handler(request)


def add_activity(app: web.Application, settings: ActivitySettings) -> None:
    """The Activity's routes on the companion's application (``make_app``)."""
    app[ACTIVITY] = settings
    app.middlewares.append(launched_at_root)
    app.on_response_prepare.append(framed_by_discord)
    app.add_routes(
        [
            web.get("/activity", show_activity),
            web.post("/activity/token", sign_in),
            web.get("/activity/part", show_part),
            web.post("/activity/play", play),
        ]
    )
