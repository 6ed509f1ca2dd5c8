"""A loopback fake of Discord's REST API and gateway, and raw payloads, for the bot's tests.

The bot under test is the real ``discord.Client`` with its real HTTP client: only
``discord.http.Route.BASE`` points at this server on 127.0.0.1. Gateway events (a guild, an
interaction, a message) are fed to the client's real ``ConnectionState`` parsers, exactly as the
websocket would, so commands, autocomplete, buttons and persistent views run through
discord.py's own dispatch.

It also stands in for Discord's OAuth2 code exchange, as the web companion's Activity meets it
(``bot/web/activity.py``): ``POST /oauth2/token`` turns a code a test put in ``oauth_codes``
into an access token, and ``GET /users/@me`` with that token (``Authorization: Bearer``)
names its user, in the locale ``locales`` gives them.

Every request the bot makes is recorded in ``FakeDiscord.requests``; ``wait_for`` awaits the
next one that matches, so a test can follow a deferred reply to its follow-up.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import discord
from aiohttp import web

APP_ID = 900000000000000001
BOT_ID = APP_ID
GUILD_ID = 910000000000000001
CHANNEL_ID = 920000000000000001
ALICE_ID, BOB_ID, CAROL_ID = 930000000000000001, 930000000000000002, 930000000000000003
NAMES = {ALICE_ID: "alice", BOB_ID: "bob", CAROL_ID: "carol", BOT_ID: "mancala"}
TIMESTAMP = "2026-11-22T03:00:00.000000+00:00"

_snowflakes = itertools.count(950000000000000001)


def snowflake() -> str:
    return str(next(_snowflakes))


def user_payload(user_id: int) -> dict:
    return {
        "id": str(user_id),
        "username": NAMES.get(user_id, f"user{user_id}"),
        "discriminator": "0",
        "global_name": None,
        "avatar": None,
        "bot": user_id == BOT_ID,
    }


def member_payload(user_id: int) -> dict:
    return {
        "user": user_payload(user_id),
        "roles": [],
        "joined_at": TIMESTAMP,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": str(discord.Permissions.all().value),
    }


def channel_payload(
    channel_id: int = CHANNEL_ID, name: str = "games", kind: int = 0, parent_id: int | None = None
) -> dict:
    return {
        "id": str(channel_id),
        "type": kind,
        "guild_id": str(GUILD_ID),
        "name": name,
        "position": 0,
        "permission_overwrites": [],
        "nsfw": False,
        "parent_id": str(parent_id) if parent_id else None,
    }


def guild_payload() -> dict:
    return {
        "id": str(GUILD_ID),
        "name": "Mancala Club",
        "icon": None,
        "owner_id": str(ALICE_ID),
        "roles": [
            {
                "id": str(GUILD_ID),
                "name": "@everyone",
                "permissions": "0",
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        ],
        "emojis": [],
        "stickers": [],
        "features": [],
        "member_count": 4,
        "members": [member_payload(u) for u in NAMES],
        "channels": [channel_payload()],
        "threads": [],
        "unavailable": False,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "system_channel_flags": 0,
        "nsfw_level": 0,
        "large": False,
    }


def message_payload(
    channel_id: int, body: dict, author_id: int = BOT_ID, message_id: str | None = None
) -> dict:
    """A message as Discord returns it, built from what the bot sent."""
    return {
        "id": message_id or snowflake(),
        "channel_id": str(channel_id),
        "author": user_payload(author_id),
        "content": body.get("content") or "",
        "timestamp": TIMESTAMP,
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": body.get("embeds") or [],
        "pinned": False,
        "type": 0,
        "components": body.get("components") or [],
        "flags": body.get("flags") or 0,
    }


@dataclass
class Request:
    method: str
    path: str  # below /api/v10
    body: Any
    message: dict | None = None  # the message the fake made of it, as Discord returns it
    files: dict[str, bytes] = field(default_factory=dict)  # attachments, by file name
    bearer: str = ""  # an OAuth2 access token the request carried

    @property
    def content(self) -> str:
        """The text the bot sent: a message's content, or an interaction reply's."""
        data = self.body.get("data", self.body) if isinstance(self.body, dict) else {}
        return (data or {}).get("content") or ""

    @property
    def data(self) -> dict:
        """The message (or choices) part of the body: ``data`` of an interaction callback."""
        return (self.body.get("data") if "type" in self.body else self.body) or {}

    @property
    def ephemeral(self) -> bool:
        return bool(self.data.get("flags", 0) & 64)

    def buttons(self) -> list[dict]:
        """Every button in the message's component rows."""
        return [
            c
            for row in self.data.get("components", [])
            for c in row["components"]
            if c["type"] == 2
        ]

    def selects(self) -> list[dict]:
        return [
            c
            for row in self.data.get("components", [])
            for c in row["components"]
            if c["type"] == 3
        ]


@dataclass(frozen=True)
class FakeAttachment:
    """A file attached to a command option, as an interaction's ``resolved.attachments``
    describes it; its bytes are served at ``url`` by the fake."""

    id: str
    filename: str
    content_type: str
    size: int
    url: str

    def payload(self) -> dict:
        return {
            "id": self.id,
            "filename": self.filename,
            "content_type": self.content_type,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
        }


@dataclass
class FakeDiscord:
    """The REST half of Discord, enough for a bot that answers interactions and posts."""

    requests: list[Request] = field(default_factory=list)
    _arrived: asyncio.Condition = field(default_factory=asyncio.Condition)
    _taken: set = field(default_factory=set)  # indices of requests wait_for returned
    messages: dict[str, dict] = field(default_factory=dict)  # message id -> payload
    threads: dict[str, dict] = field(default_factory=dict)  # thread id -> payload
    # the channel of each interaction sent, by its id and by its token: replies land there
    channel_of: dict[str, int] = field(default_factory=dict)

    def expect(self, interaction: dict) -> None:
        """Note an interaction about to be sent, so its replies get its channel."""
        channel = int(interaction["channel_id"])
        self.channel_of[interaction["id"]] = self.channel_of[interaction["token"]] = channel

    # the gateway: one websocket session at a time
    socket: web.WebSocketResponse | None = None
    identify: dict | None = None  # the client's IDENTIFY payload
    identified: asyncio.Event = field(default_factory=asyncio.Event)
    refused_tokens: set = field(default_factory=set)  # tokens answered with 401
    activities: bool = True  # whether the application has Activities turned on
    # OAuth2: codes a test hands out (code -> user id), the access tokens made of them
    oauth_codes: dict[str, int] = field(default_factory=dict)
    access_tokens: dict[str, int] = field(default_factory=dict)
    locales: dict[int, str] = field(default_factory=dict)  # user id -> their locale
    # files users attached to a command, served on the fake's own port as Discord's CDN
    # serves them: attachment id -> bytes
    attached: dict[str, bytes] = field(default_factory=dict)
    port: int = 0  # set once it listens: attachments' URLs need it
    _sequence: int = 0

    def attach(
        self, filename: str, content: bytes, content_type: str = "text/plain", size: int = 0
    ) -> FakeAttachment:
        """A file a user attaches to a command option (pass it to ``slash``); ``size``, when
        given, is what Discord says the file's size is (a big file need not be made)."""
        ident = str(snowflake())
        self.attached[ident] = content
        return FakeAttachment(
            ident,
            filename,
            content_type,
            size or len(content),
            f"http://127.0.0.1:{self.port}/attachments/{ident}/{filename}",
        )

    async def _attachment(self, request: web.Request) -> web.Response:
        content = self.attached.get(request.match_info["ident"])
        if content is None:
            return web.Response(status=404)
        return web.Response(body=content)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/attachments/{ident}/{name}", self._attachment)
        app.router.add_route("*", "/api/v10/{path:.*}", self._handle)
        return app

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        """HELLO, then READY and the guild once the client identifies; heartbeats acked."""
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self.socket = socket
        await socket.send_json({"op": 10, "d": {"heartbeat_interval": 45000}})
        async for frame in socket:
            payload = json.loads(frame.data)
            if payload["op"] == 1:
                await socket.send_json({"op": 11})
            elif payload["op"] == 2:
                self.identify = payload["d"]
                url = f"ws://{request.host}/gateway"
                await self.dispatch(
                    "READY",
                    {
                        "v": 10,
                        "user": user_payload(BOT_ID),
                        "session_id": "fake-session",
                        "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                        "resume_gateway_url": url,
                        "shard": [0, 1],
                        "application": {"id": str(APP_ID), "flags": 0},
                    },
                )
                await self.dispatch("GUILD_CREATE", guild_payload())
                self.identified.set()
        return socket

    async def dispatch(self, event: str, data: dict) -> None:
        """Send a gateway event to the connected client."""
        self._sequence += 1
        await self.socket.send_json({"op": 0, "t": event, "s": self._sequence, "d": data})

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        token = request.headers.get("Authorization", "").removeprefix("Bot ")
        if token in self.refused_tokens:
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        files: dict[str, bytes] = {}
        if request.content_type.startswith("multipart"):
            # A message with files: its JSON is the payload_json part, then the files.
            body = None
            async for part in await request.multipart():
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files[part.filename or part.name] = await part.read()
        elif request.content_type == "application/x-www-form-urlencoded":
            body = dict(await request.post())  # OAuth2's token endpoint takes a form
        else:
            body = await request.json() if request.can_read_body else None
        bearer = request.headers.get("Authorization", "").partition("Bearer ")[2]
        record = Request(request.method, path, body, files=files, bearer=bearer)
        response = self._answer(record)
        self.requests.append(record)
        async with self._arrived:
            self._arrived.notify_all()
        return response

    def _answer(self, req: Request) -> web.StreamResponse:
        parts = req.path.strip("/").split("/")
        if req.path == "/oauth2/token" and req.method == "POST":
            return self._token(req.body or {})
        if req.path == "/users/@me" and req.bearer:
            user_id = self.access_tokens.get(req.bearer)
            if user_id is None:
                return _json({"message": "401: Unauthorized", "code": 0}, status=401)
            return _json(dict(user_payload(user_id), locale=self.locales.get(user_id, "en-US")))
        if req.path == "/users/@me":
            return _json(user_payload(BOT_ID))
        if req.path == "/users/@me/channels" and req.method == "POST":  # open a DM
            recipient = int(req.body["recipient_id"])
            dm = {
                "id": snowflake(),
                "type": 1,
                "recipients": [user_payload(recipient)],
                "last_message_id": None,
            }
            req.message = dm
            return _json(dm)
        if req.path == "/oauth2/applications/@me":
            return _json(
                {
                    "id": str(APP_ID),
                    "name": "mancala",
                    "description": "",
                    "icon": None,
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": user_payload(ALICE_ID),
                    "verify_key": "0" * 64,
                    "flags": 0,
                }
            )
        if parts[0] == "applications" and parts[-1] == "commands" and req.method == "PUT":
            return _json(
                [
                    dict(cmd, id=snowflake(), application_id=str(APP_ID), version=snowflake())
                    for cmd in req.body
                ]
            )
        if parts[0] == "interactions" and parts[-1] == "callback":
            return self._callback(parts[1], req)
        if parts[0] == "webhooks":
            return self._webhook(parts, req)
        if parts[0] == "channels" and parts[2:3] == ["messages"]:
            return self._channel_message(int(parts[1]), parts[3:], req)
        if parts[0] == "channels" and parts[-1] == "threads":
            thread = channel_payload(
                int(snowflake()), req.body.get("name", "thread"), 11, parent_id=int(parts[1])
            )
            thread.update(
                owner_id=str(BOT_ID),
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "locked": False,
                    "archive_timestamp": TIMESTAMP,
                },
                message_count=0,
                member_count=1,
                rate_limit_per_user=0,
            )
            req.message = thread  # what Discord made of the request: here a channel
            self.threads[thread["id"]] = thread
            return _json(thread)
        if parts[0] == "channels" and len(parts) == 2 and parts[1] in self.threads:
            thread = self.threads[parts[1]]
            if req.method == "PATCH":  # archive, lock, rename
                thread["thread_metadata"].update(
                    {k: v for k, v in (req.body or {}).items() if k in ("archived", "locked")}
                )
                thread["name"] = (req.body or {}).get("name", thread["name"])
            req.message = thread
            return _json(thread)
        return _json(
            {"message": f"fake Discord has no {req.method} {req.path}", "code": 0}, status=404
        )

    def _token(self, form: dict) -> web.Response:
        """The authorization-code exchange: a code a test gave out, for this application."""
        user_id = self.oauth_codes.get(form.get("code", ""))
        if (
            form.get("grant_type") != "authorization_code"
            or form.get("client_id") != str(APP_ID)
            or not form.get("client_secret")
            or user_id is None
        ):
            return _json({"error": "invalid_grant"}, status=400)
        token = f"access-{snowflake()}"
        self.access_tokens[token] = user_id
        return _json(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": f"refresh-{snowflake()}",
                "scope": "identify",
            }
        )

    def _callback(self, interaction_id: str, req: Request) -> web.Response:
        kind = req.body["type"]
        data = req.body.get("data") or {}
        answer: dict = {
            "interaction": {
                "id": interaction_id,
                "type": 2,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(data.get("flags", 0) & 64),
            }
        }
        if kind == 12 and not self.activities:  # LAUNCH_ACTIVITY without Activities
            return _json({"message": "Cannot launch an activity", "code": 50035}, status=400)
        if kind == 12:  # the Activity launched: Discord names the instance
            answer["interaction"]["activity_instance_id"] = f"i-{snowflake()}"
            answer["resource"] = {"type": 12, "activity_instance": {"id": f"i-{snowflake()}"}}
            return _json(answer)
        if kind in (4, 7):  # a message reply, or an update of the clicked message
            message = message_payload(self.channel_of.get(interaction_id, CHANNEL_ID), data)
            self.messages[message["id"]] = req.message = message
            answer["interaction"]["response_message_id"] = message["id"]
            answer["resource"] = {"type": kind, "message": message}
        else:
            answer["resource"] = {"type": kind}
        return _json(answer)

    def _webhook(self, parts: list[str], req: Request) -> web.Response:
        # /webhooks/{app}/{token}[/messages/{id}]: follow-ups and edits of the original reply
        message_id = parts[4] if len(parts) > 4 else None
        message = message_payload(
            self.channel_of.get(parts[2], CHANNEL_ID),
            req.body or {},
            message_id=None if message_id in (None, "@original") else message_id,
        )
        self.messages[message["id"]] = req.message = message
        return _json(message)

    def _channel_message(self, channel_id: int, rest: list[str], req: Request) -> web.Response:
        if req.method == "POST" and not rest:
            message = message_payload(channel_id, req.body)
        elif req.method == "PATCH":
            message = message_payload(channel_id, req.body, message_id=rest[0])
        elif req.method == "GET" and rest:
            message = self.messages.get(rest[0]) or message_payload(
                channel_id, {}, message_id=rest[0]
            )
        else:
            return web.Response(status=204)
        self.messages[message["id"]] = req.message = message
        return _json(message)

    async def wait_for(self, method: str, path_start: str, timeout: float = 5.0) -> Request:
        """The first request not yet returned whose method and path start match (waiting
        for it if need be)."""

        async def found() -> Request:
            async with self._arrived:
                while True:
                    for index, req in enumerate(self.requests):
                        if (
                            index not in self._taken
                            and req.method == method
                            and req.path.startswith(path_start)
                        ):
                            self._taken.add(index)
                            return req
                    await self._arrived.wait()

        try:
            return await asyncio.wait_for(found(), timeout)
        except TimeoutError:
            seen = "\n".join(
                f"  {r.method} {r.path}"
                for i, r in enumerate(self.requests)
                if i not in self._taken
            )
            raise AssertionError(
                f"no {method} {path_start}... within {timeout}s; "
                f"unconsumed requests:\n{seen or '  none'}"
            ) from None

    async def reply_to(self, interaction_id: str, timeout: float = 5.0) -> Request:
        return await self.wait_for("POST", f"/interactions/{interaction_id}/", timeout)


def _json(payload: Any, status: int = 200) -> web.Response:
    # discord.py decodes a body only when Content-Type is exactly application/json
    return web.Response(
        body=json.dumps(payload).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )


# -- gateway payloads ------------------------------------------------------------------------


def interaction_payload(
    kind: int,
    user_id: int,
    data: dict,
    channel_id: int = CHANNEL_ID,
    message: dict | None = None,
    permissions: int | None = None,
) -> dict:
    """``permissions``: the member's in the channel (default: all)."""
    payload = {
        "id": snowflake(),
        "application_id": str(APP_ID),
        "type": kind,
        "token": f"token-{snowflake()}",
        "version": 1,
        "guild_id": str(GUILD_ID),
        "channel_id": str(channel_id),
        "channel": channel_payload(channel_id),
        "member": member_payload(user_id),
        "data": data,
        "locale": "en-US",
        "guild_locale": "en-US",
        "app_permissions": str(discord.Permissions.all().value),
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(GUILD_ID)},
        "context": 0,
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if message is not None:
        payload["message"] = message
    if permissions is not None:
        payload["member"]["permissions"] = str(permissions)
    return payload


def in_dm(payload: dict, dm_channel_id: int) -> dict:
    """``payload`` as sent from the user's DM with the bot: no server, no member, a DM
    channel."""
    user = payload.pop("member")["user"]
    for key in ("guild_id", "guild_locale"):
        payload.pop(key, None)
    payload.update(
        user=user,
        channel_id=str(dm_channel_id),
        context=1,
        authorizing_integration_owners={"1": user["id"]},
        channel={
            "id": str(dm_channel_id),
            "type": 1,
            "recipients": [user],
            "last_message_id": None,
        },
    )
    return payload


def slash(
    user_id: int,
    subcommand: str,
    channel_id: int = CHANNEL_ID,
    focused: str | None = None,
    permissions: int | None = None,
    **options: Any,
) -> dict:
    """``/mancala subcommand option=value``; users are given as ``discord.Object``.

    With ``focused`` naming an option, it is an autocomplete request for that option.
    """
    resolved_users = {}
    resolved_attachments = {}
    opts = []
    for name, value in options.items():
        if isinstance(value, FakeAttachment):
            resolved_attachments[value.id] = value.payload()
            opts.append({"name": name, "type": 11, "value": value.id})
        elif isinstance(value, discord.Object):
            resolved_users[str(value.id)] = user_payload(value.id)
            opts.append({"name": name, "type": 6, "value": str(value.id)})
        elif isinstance(value, bool):
            opts.append({"name": name, "type": 5, "value": value})
        elif isinstance(value, int):
            opts.append({"name": name, "type": 4, "value": value})
        else:
            opts.append({"name": name, "type": 3, "value": value})
        if name == focused:
            opts[-1]["focused"] = True
    data = {
        "id": snowflake(),
        "name": "mancala",
        "type": 1,
        "options": [{"name": subcommand, "type": 1, "options": opts}],
    }
    if resolved_users:
        data["resolved"] = {"users": resolved_users}
    if resolved_attachments:
        data.setdefault("resolved", {})["attachments"] = resolved_attachments
    return interaction_payload(
        4 if focused else 2, user_id, data, channel_id, permissions=permissions
    )


def click(
    user_id: int,
    custom_id: str,
    message: dict,
    channel_id: int = CHANNEL_ID,
    values: list[str] | None = None,
) -> dict:
    """A click on a button (or a choice in a select menu) of ``message``."""
    data: dict = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
    if values is not None:
        data["values"] = values
    return interaction_payload(3, user_id, data, channel_id, message=message)


def typed_message(user_id: int, content: str, channel_id: int = CHANNEL_ID) -> dict:
    payload = message_payload(channel_id, {"content": content}, author_id=user_id)
    payload["guild_id"] = str(GUILD_ID)
    payload["member"] = {k: v for k, v in member_payload(user_id).items() if k != "user"}
    return payload


async def start_fake_discord() -> tuple[FakeDiscord, web.AppRunner, int]:
    """Serve a FakeDiscord on a free loopback port: (fake, runner to clean up, port)."""
    fake = FakeDiscord()
    runner = web.AppRunner(fake.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    fake.port = site._server.sockets[0].getsockname()[1]
    return fake, runner, fake.port
