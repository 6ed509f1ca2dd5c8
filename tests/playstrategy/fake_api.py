"""A loopback fake of PlayStrategy's Bot API (Lichess's Bot API), written from its
documentation: the NDJSON event stream (``/api/stream/event``), each game's stream
(``/api/bot/game/stream/{id}``: ``gameFull``, then a ``gameState`` after every move, with the
moves so far as PlayStrategy writes them, ``p1``/``p2`` for the players as PlayStrategy names
them), challenges accepted and declined with a reason key, moves, chat, draw answers,
resign, abort, and a 429 when asked for one.

The fake's opponent plays legal moves chosen by a seeded ``random.Random`` from our engine's
legal moves, so a game is the same every run. Everything the bot asked is recorded for the
tests to check (``posted_moves``, ``refused_moves``, ``chat``, ``declined``...).
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from bot.playstrategy.notation import VARIANTS, to_uci
from engine.game import Game

TOKEN = "test-token"
BOT_ID = "mancalabot"


@dataclass
class FakeGame:
    id: str
    variant: str
    bot_is_p1: bool
    opponent: str
    seed: int
    game: Game = field(init=False)
    moves: list[str] = field(default_factory=list)  # as PlayStrategy writes them
    status: str = "started"
    winner: str | None = None
    opponent_offers_draw_at: int | None = None  # a ply at which the opponent offers a draw
    listeners: list[asyncio.Queue[dict[str, Any] | None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.game = Game(VARIANTS[self.variant].rules)
        self.rng = random.Random(self.seed)

    def bot_to_move(self) -> bool:
        return (self.game.position.mover == 0) == self.bot_is_p1

    def state(self) -> dict[str, Any]:
        offering = self.opponent_offers_draw_at == len(self.moves)
        state: dict[str, Any] = {
            "type": "gameState",
            "moves": " ".join(self.moves),
            "wtime": 600_000,
            "btime": 600_000,
            "winc": 0,
            "binc": 0,
            "wdraw": offering and not self.bot_is_p1,
            "bdraw": offering and self.bot_is_p1,
            "status": self.status,
        }
        if self.winner:
            state["winner"] = self.winner
        return state

    def full(self) -> dict[str, Any]:
        bot = {"id": BOT_ID, "name": "MancalaBot", "title": "BOT"}
        them = {"id": self.opponent.lower(), "name": self.opponent}
        return {
            "type": "gameFull",
            "id": self.id,
            "variant": {"key": self.variant, "name": self.variant.title()},
            "speed": "correspondence",
            "rated": False,
            "p1": bot if self.bot_is_p1 else them,
            "p2": them if self.bot_is_p1 else bot,
            "initialFen": "startpos",
            "state": self.state(),
        }

    def play(self, letter: str) -> None:
        self.moves.append(to_uci(self.game.position, letter))
        self.game.play(letter)
        outcome = self.game.outcome()
        if outcome is not None:
            self.status = "variantEnd"
            if outcome.winner in ("south", "north"):
                self.winner = "p1" if outcome.winner == "south" else "p2"

    def opponent_moves(self) -> None:
        while self.status == "started" and not self.bot_to_move():
            self.play(self.rng.choice(self.game.position.legal_moves()))

    def broadcast(self) -> None:
        for queue in self.listeners:
            queue.put_nowait(self.state())


class FakeBotApi:
    """The fake server; ``app`` is its aiohttp application."""

    def __init__(self) -> None:
        self.app = web.Application()
        self.events: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.games: dict[str, FakeGame] = {}
        self.challenges: dict[str, dict[str, Any]] = {}
        self.accepted: list[str] = []
        self.declined: dict[str, str] = {}
        self.posted_moves: list[tuple[str, str]] = []
        self.refused_moves: list[tuple[str, str]] = []
        self.chat: list[tuple[str, str, str]] = []
        self.draw_answers: list[tuple[str, str]] = []
        self.resigned: list[str] = []
        self.aborted: list[str] = []
        self.rate_limit_once: set[str] = set()  # request kinds answered 429 once
        self.drop_after_bot_move: set[tuple[str, int]] = set()  # (game, ply): cut its streams
        self.event_connections = 0
        self.game_connections: dict[str, int] = {}
        self.lie_about: dict[tuple[str, int], str] = {}  # (game, ply): a move sent instead
        self.keep_alive_every: float | None = None  # seconds between a game stream's blank lines
        self.online_bots: list[str] = []  # the bots /api/bot/online lists
        self.accepting_bots: set[str] = set()  # those that accept the bot's challenges at once
        self.outgoing: list[tuple[str, dict[str, str]]] = []  # the bot's challenges: to, form
        route = self.app.router
        route.add_get("/api/account", self.account)
        route.add_get("/api/stream/event", self.event_stream)
        route.add_get("/api/bot/online", self.bots_online)
        route.add_post("/api/challenge/{username}", self.challenge_out)
        route.add_post("/api/challenge/{id}/accept", self.accept)
        route.add_post("/api/challenge/{id}/decline", self.decline)
        route.add_get("/api/bot/game/stream/{id}", self.game_stream)
        route.add_post("/api/bot/game/{id}/move/{move}", self.move)
        route.add_post("/api/bot/game/{id}/chat", self.post_chat)
        route.add_post("/api/bot/game/{id}/draw/{answer}", self.draw)
        route.add_post("/api/bot/game/{id}/resign", self.resign)
        route.add_post("/api/bot/game/{id}/abort", self.abort)

    # -- what a test does as the rest of the world --------------------------------------------

    def challenge(
        self,
        challenge_id: str,
        variant: str,
        *,
        challenger: str = "Aigerim",
        control: dict[str, Any] | None = None,
        bot_is_p1: bool = False,
        seed: int = 0,
        draw_offer_at: int | None = None,
    ) -> None:
        challenge = {
            "id": challenge_id,
            "status": "created",
            "challenger": {"id": challenger.lower(), "name": challenger},
            "destUser": {"id": BOT_ID, "name": "MancalaBot", "title": "BOT"},
            "variant": {"key": variant, "name": variant.title()},
            "rated": False,
            "speed": "correspondence",
            "timeControl": control or {"type": "correspondence", "daysPerTurn": 3},
            "color": "p2" if bot_is_p1 else "p1",
            "_bot_is_p1": bot_is_p1,
            "_seed": seed,
            "_draw_offer_at": draw_offer_at,
        }
        self.challenges[challenge_id] = challenge
        self.events.put_nowait({"type": "challenge", "challenge": challenge})

    def drop_event_stream(self) -> None:
        """End the event stream's connection, as a server restart or a network fault does."""
        self.events.put_nowait(None)

    # -- the endpoints --------------------------------------------------------------------------

    def _authorised(self, request: web.Request) -> None:
        if request.headers.get("Authorization") != f"Bearer {TOKEN}":
            raise web.HTTPUnauthorized(text='{"error":"No such token"}')

    def _limited(self, kind: str) -> bool:
        if kind in self.rate_limit_once:
            self.rate_limit_once.discard(kind)
            return True
        return False

    async def account(self, request: web.Request) -> web.Response:
        self._authorised(request)
        return web.json_response({"id": BOT_ID, "username": "MancalaBot", "title": "BOT"})

    async def _ndjson(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        await response.prepare(request)
        return response

    async def event_stream(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        if self._limited("events"):
            return web.Response(status=429)
        self.event_connections += 1
        response = await self._ndjson(request)
        await response.write(b"\n")  # the keep-alive line the server sends
        # As the documentation says: on connecting, the games going on are sent first.
        for game in self.games.values():
            if game.status == "started":
                start = {"type": "gameStart", "game": {"gameId": game.id, "id": game.id}}
                await response.write(json.dumps(start).encode() + b"\n")
        while True:
            event = await self.events.get()
            if event is None:  # cut: the connection ends
                return response
            try:
                await response.write(json.dumps(event).encode() + b"\n")
            except ConnectionError:  # the bot went away: the next connection gets it
                self.events.put_nowait(event)
                return response

    async def bots_online(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        response = await self._ndjson(request)
        bots = [*self.online_bots, BOT_ID]  # the list names the asking bot too
        for name in bots[: int(request.query.get("nb", "50"))]:
            user = {"id": name.lower(), "username": name, "title": "BOT"}
            await response.write(json.dumps(user).encode() + b"\n")
        return response

    async def challenge_out(self, request: web.Request) -> web.Response:
        """The bot challenges ``username``; a bot of ``accepting_bots`` accepts at once,
        taking the second player's side, and the game starts."""
        self._authorised(request)
        username = request.match_info["username"]
        form = {k: str(v) for k, v in (await request.post()).items()}
        self.outgoing.append((username, form))
        challenge_id = f"out{len(self.outgoing)}"
        if username in self.accepting_bots:
            game = FakeGame(challenge_id, form["variant"], True, username, len(self.outgoing))
            self.games[game.id] = game
            self.events.put_nowait(
                {"type": "gameStart", "game": {"gameId": game.id, "id": game.id}}
            )
        else:
            declined = {"id": challenge_id, "status": "declined"}
            self.events.put_nowait({"type": "challengeDeclined", "challenge": declined})
        return web.json_response({"challenge": {"id": challenge_id, "status": "created"}})

    async def accept(self, request: web.Request) -> web.Response:
        self._authorised(request)
        if self._limited("accept"):
            return web.Response(status=429)
        challenge = self.challenges[request.match_info["id"]]
        game = FakeGame(
            challenge["id"],
            challenge["variant"]["key"],
            challenge["_bot_is_p1"],
            challenge["challenger"]["name"],
            challenge["_seed"],
        )
        game.opponent_offers_draw_at = challenge["_draw_offer_at"]
        game.opponent_moves()
        self.games[game.id] = game
        self.accepted.append(game.id)
        self.events.put_nowait({"type": "gameStart", "game": {"gameId": game.id, "id": game.id}})
        return web.json_response({"ok": True})

    async def decline(self, request: web.Request) -> web.Response:
        self._authorised(request)
        form = await request.post()
        self.declined[request.match_info["id"]] = str(form.get("reason", "generic"))
        return web.json_response({"ok": True})

    async def game_stream(self, request: web.Request) -> web.StreamResponse:
        self._authorised(request)
        game = self.games.get(request.match_info["id"])
        if game is None:
            return web.json_response({"error": "Not found"}, status=404)
        self.game_connections[game.id] = self.game_connections.get(game.id, 0) + 1
        queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        game.listeners.append(queue)
        try:
            response = await self._ndjson(request)
            await response.write(json.dumps(game.full()).encode() + b"\n")
            if game.status != "started":
                return response
            while True:
                try:
                    state = await asyncio.wait_for(queue.get(), self.keep_alive_every)
                except TimeoutError:
                    await response.write(b"\n")  # the server's keep-alive line
                    continue
                if state is None:  # cut: the connection ends mid-game
                    return response
                await response.write(json.dumps(state).encode() + b"\n")
                if state["status"] != "started":
                    return response
        finally:
            game.listeners.remove(queue)

    async def move(self, request: web.Request) -> web.Response:
        self._authorised(request)
        game = self.games[request.match_info["id"]]
        uci = request.match_info["move"]
        self.posted_moves.append((game.id, uci))
        legal = {to_uci(game.game.position, m): m for m in game.game.position.legal_moves()}
        if game.status != "started" or not game.bot_to_move() or uci not in legal:
            self.refused_moves.append((game.id, uci))
            return web.json_response({"error": "Not your turn, or not a legal move"}, status=400)
        ply = len(game.moves)
        game.play(legal[uci])
        if (game.id, ply) in self.drop_after_bot_move:
            for queue in game.listeners:
                queue.put_nowait(None)  # the streams drop before they tell of this move
            game.opponent_moves()
            return web.json_response({"ok": True})
        game.broadcast()
        game.opponent_moves()
        lie = self.lie_about.get((game.id, len(game.moves) - 1))
        if lie is not None:
            game.moves[-1] = lie
        game.broadcast()
        return web.json_response({"ok": True})

    async def post_chat(self, request: web.Request) -> web.Response:
        self._authorised(request)
        form = await request.post()
        self.chat.append((request.match_info["id"], str(form["room"]), str(form["text"])))
        return web.json_response({"ok": True})

    async def draw(self, request: web.Request) -> web.Response:
        self._authorised(request)
        self.draw_answers.append((request.match_info["id"], request.match_info["answer"]))
        return web.json_response({"ok": True})

    async def resign(self, request: web.Request) -> web.Response:
        self._authorised(request)
        game = self.games[request.match_info["id"]]
        self.resigned.append(game.id)
        self._end(game, "resign", "p2" if game.bot_is_p1 else "p1")
        return web.json_response({"ok": True})

    async def abort(self, request: web.Request) -> web.Response:
        self._authorised(request)
        game = self.games[request.match_info["id"]]
        if len(game.moves) >= 2:
            return web.json_response({"error": "This game cannot be aborted"}, status=400)
        self.aborted.append(game.id)
        self._end(game, "aborted", None)
        return web.json_response({"ok": True})

    def _end(self, game: FakeGame, status: str, winner: str | None) -> None:
        game.status = status
        game.winner = winner
        game.broadcast()
