"""A client of PlayStrategy's Bot API, which is Lichess's Bot API: NDJSON streams of the
account's events and of each game, and the verbs a bot may use.

Every request carries the token (``Authorization: Bearer``). A 429 (too many requests)
waits a full minute, as the API asks, on the ``sleep`` given (tests pass one that only
counts), then tries once more. Streams yield one JSON object per line, and ``{}`` for each
empty line the server sends to keep a connection open.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp

log = logging.getLogger(__name__)

RATE_LIMIT_WAIT = 60.0  # seconds, after a 429: the API's documented pause
Sleep = Callable[[float], Awaitable[None]]


class ApiError(Exception):
    """The server refused a request (its status and the start of its answer)."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(f"HTTP {status}: {text[:200]}")
        self.status = status


class BotApi:
    """The Bot API at ``url`` for the account whose token is ``token``."""

    def __init__(
        self, url: str, token: str, *, sleep: Sleep = asyncio.sleep, user_agent: str = ""
    ) -> None:
        self.url = url.rstrip("/")
        self._token = token
        self._sleep = sleep
        self._user_agent = user_agent or "mancala-bot"
        self._session: aiohttp.ClientSession | None = None
        self.rate_limited = 0  # 429s met, for logs and tests

    async def __aenter__(self) -> BotApi:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                headers={
                    "Authorization": f"Bearer {self._token}",
                    "User-Agent": self._user_agent,
                },
                # A stream stays open for hours: no total timeout, but a dead socket is noticed.
                timeout=aiohttp.ClientTimeout(total=None, sock_connect=30, sock_read=120),
            )
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    # -- plain requests ----------------------------------------------------------------------

    async def _request(self, method: str, path: str, data: dict[str, str] | None = None) -> Any:
        for attempt in range(2):
            async with self.session().request(method, self.url + path, data=data) as response:
                if response.status == 429 and attempt == 0:
                    await self._rate_limited()
                    continue
                text = await response.text()
                if response.status >= 400:
                    raise ApiError(response.status, text)
                return json.loads(text) if text.strip() else None
        raise AssertionError("unreachable")  # pragma: no cover

    async def _rate_limited(self) -> None:
        self.rate_limited += 1
        log.warning("PlayStrategy answered 429: waiting %s s", RATE_LIMIT_WAIT)
        await self._sleep(RATE_LIMIT_WAIT)

    async def account(self) -> dict[str, Any]:
        result: dict[str, Any] = await self._request("GET", "/api/account")
        return result

    async def accept_challenge(self, challenge_id: str) -> None:
        await self._request("POST", f"/api/challenge/{challenge_id}/accept")

    async def decline_challenge(self, challenge_id: str, reason: str) -> None:
        """``reason`` is one of the API's keys: generic, later, tooFast, tooSlow,
        timeControl, rated, casual, standard, variant, noBot, onlyBot."""
        await self._request(
            "POST", f"/api/challenge/{challenge_id}/decline", data={"reason": reason}
        )

    async def online_bots(self, most: int = 50) -> list[dict[str, Any]]:
        """The bots online now (``/api/bot/online``: NDJSON, one user a line)."""
        lines: list[dict[str, Any]] = []
        async for user in self._stream(f"/api/bot/online?nb={most}"):
            if user:
                lines.append(user)
        return lines

    async def challenge(self, username: str, variant: str, clock: tuple[int, int]) -> str:
        """Challenge ``username`` to an unrated game of ``variant`` at ``clock`` (initial
        seconds, increment); the challenge's id."""
        answer = await self._request(
            "POST",
            f"/api/challenge/{username}",
            {
                "variant": variant,
                "rated": "false",
                "clock.limit": str(clock[0]),
                "clock.increment": str(clock[1]),
            },
        )
        found = (answer or {}).get("challenge", answer) or {}
        return str(found.get("id", ""))

    async def move(self, game_id: str, move: str) -> None:
        await self._request("POST", f"/api/bot/game/{game_id}/move/{move}")

    async def chat(self, game_id: str, text: str, room: str = "player") -> None:
        await self._request("POST", f"/api/bot/game/{game_id}/chat", {"room": room, "text": text})

    async def resign(self, game_id: str) -> None:
        await self._request("POST", f"/api/bot/game/{game_id}/resign")

    async def abort(self, game_id: str) -> None:
        await self._request("POST", f"/api/bot/game/{game_id}/abort")

    async def answer_draw(self, game_id: str, accept: bool) -> None:
        await self._request("POST", f"/api/bot/game/{game_id}/draw/{'yes' if accept else 'no'}")

    # -- streams -----------------------------------------------------------------------------

    def events(self) -> AsyncIterator[dict[str, Any]]:
        """The account's events: challenge, challengeCanceled, challengeDeclined, gameStart,
        gameFinish; and an empty dict for each keep-alive line (the connection is alive)."""
        return self._stream("/api/stream/event")

    def game(self, game_id: str) -> AsyncIterator[dict[str, Any]]:
        """One game's stream: gameFull first, then gameState, chatLine, opponentGone; and an
        empty dict for each keep-alive line, so that the caller can look at its own state
        meanwhile (an AI move another process played)."""
        return self._stream(f"/api/bot/game/stream/{game_id}")

    async def _stream(self, path: str) -> AsyncIterator[dict[str, Any]]:
        for attempt in range(2):
            async with self.session().get(self.url + path) as response:
                if response.status == 429 and attempt == 0:
                    await self._rate_limited()
                    continue
                if response.status >= 400:
                    raise ApiError(response.status, await response.text())
                async for line in response.content:
                    yield json.loads(line) if line.strip() else {}
                return
