"""The bridge: PlayStrategy's games played through the game service, as on every surface.

Each PlayStrategy game is a service game in the channel ``playstrategy:<their game id>``
between ``Player("playstrategy", <their user id>)`` and ``Player.ai(<the variant's level>)``,
unrated, with the service's own reminders and forfeits off (PlayStrategy's clock rules). So
the AI pool's fair queue and caps apply; the opponent's moves go in through ``service.move``
with the ply they were played at (exactly once: a move the service already has is not played
again); the AI's replies come back through this class, the notifier of the surface
``playstrategy``, and go out to the server once per ply.

Every ply is checked: the server's move must be legal in our engine and its last pit must be
where our sowing ends (``notation.from_uci``), the moves both sides already have must be the
same, and a game the server says ended by the rules must have ended in our engine too. On a
disagreement the bot says so in the chat, resigns, and counts it (``disagreements``, the
metric ``mancala_playstrategy_disagreements_total``) rather than play on a wrong board.

Offers: draws are declined (the AI refuses draws on every surface; a won or lost game is
played out). Lichess's Bot API, and so PlayStrategy's, has no takeback verb for bots, so
takebacks are never granted. With ``PLAYSTRATEGY_CHALLENGE_BOTS=yes``, every
``challenge_every`` seconds, while a game's place is free and no challenge of ours waits for
an answer, the bot challenges the next of the bots online (by name, in turn) to the next of
the accepted variants (``challenge_a_bot``). Streams that drop are opened again with exponential backoff
(1 s doubling to 60 s); the ``gameFull`` that opens a game's stream again says what was played.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bot import metrics
from bot.i18n import _
from bot.playstrategy.api import ApiError, BotApi
from bot.playstrategy.notation import VARIANTS, NotationError, from_uci, to_uci
from bot.playstrategy.settings import PlaystrategySettings
from bot.service import GameService, errors
from bot.service.events import MoveMade, Notifier
from bot.service.types import Channel, GameOptions, GameView, Player
from engine.game import Game
from engine.side import Side

log = logging.getLogger(__name__)

SURFACE = "playstrategy"
FIRST_BACKOFF = 1.0
MAX_BACKOFF = 60.0
PLAYING = ("created", "started")  # the API's statuses of a game still going on
# Statuses of a game the rules ended, which our engine must have ended too (the bot never
# agrees to a draw, so a draw is the rules' as well).
RULE_ENDS = ("variantEnd", "draw", "stalemate", "mate")
Sleep = Callable[[float], Awaitable[None]]


@dataclass
class GameLink:
    """One PlayStrategy game and the service game that mirrors it."""

    ps_id: str
    game_id: int
    rules: str
    human: Player
    ai: Player
    ai_side: Side
    server_plies: int = 0  # how many moves the server's last state had
    sent: set[int] = field(default_factory=set)  # plies whose AI move went to the server
    draws_declined: set[int] = field(default_factory=set)
    finished: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class PlaystrategyBot(Notifier):
    """Streams the account's events, answers challenges, plays each game through ``service``."""

    def __init__(
        self,
        service: GameService,
        api: BotApi,
        settings: PlaystrategySettings,
        *,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.service = service
        self.api = api
        self.settings = settings
        self._sleep = sleep
        self.me = ""  # the bot account's id, lowercase
        self.links: dict[str, GameLink] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.disagreements = 0
        self.reconnects = 0
        self.state = "connecting"  # for the heartbeat: connected, or disconnected meanwhile
        self.awaiting: dict[str, int] = {}  # our challenges unanswered: turns waited
        self.challenged: list[tuple[str, str]] = []  # (bot, variant) challenged, in order
        service.add_notifier(SURFACE, self)

    # -- the account's event stream ----------------------------------------------------------

    async def run(self) -> None:
        """Play until cancelled: the event stream, opened again whenever it drops."""
        account = await self.api.account()
        self.me = str(account.get("id") or account.get("username", "")).lower()
        backoff = FIRST_BACKOFF
        challenger = (
            asyncio.create_task(self._challenge_bots()) if self.settings.challenge_bots else None
        )
        try:
            while True:
                try:
                    async for event in self.api.events():
                        backoff = FIRST_BACKOFF
                        self.state = "connected"
                        await self._on_event(event)
                except (TimeoutError, aiohttp.ClientError, ApiError) as err:
                    log.warning("PlayStrategy event stream dropped: %s", err)
                self.state = "disconnected"
                self.reconnects += 1
                await self._sleep(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF)
        finally:
            if challenger is not None:
                challenger.cancel()
            for task in self.tasks.values():
                task.cancel()

    async def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            await self._on_challenge(event.get("challenge") or {})
        elif kind == "gameStart":
            game = event.get("game") or {}
            ps_id = str(game.get("gameId") or game.get("id") or "")
            self.awaiting.pop(ps_id, None)  # a challenge's game has the challenge's id
            self.start_playing(ps_id)
        elif kind in ("challengeDeclined", "challengeCanceled"):
            self.awaiting.pop(str((event.get("challenge") or {}).get("id", "")), None)

    def start_playing(self, ps_id: str) -> None:
        """Stream game ``ps_id`` in a task of its own, unless it is streamed already."""
        if ps_id and (ps_id not in self.tasks or self.tasks[ps_id].done()):
            self.tasks[ps_id] = asyncio.create_task(self._stream_game(ps_id))

    def playing(self) -> int:
        return sum(not task.done() for task in self.tasks.values())

    async def _challenge_bots(self) -> None:
        turn = 0
        while True:
            await self._sleep(self.settings.challenge_every)
            try:
                if await self.challenge_a_bot(turn) is not None:
                    turn += 1
            except (TimeoutError, aiohttp.ClientError, ApiError) as err:
                log.warning("challenging a bot on PlayStrategy failed: %s", err)

    async def challenge_a_bot(self, turn: int) -> str | None:
        """Challenge the ``turn``-th of the bots online (by name, in turn) to the ``turn``-th
        accepted variant, if a game's place is free and no challenge of ours waits (one
        unanswered for 3 turns is given up); the bot challenged, or None."""
        for waiting in list(self.awaiting):
            self.awaiting[waiting] += 1
            if self.awaiting[waiting] > 3:
                del self.awaiting[waiting]
        if self.awaiting or self.playing() >= self.settings.max_games:
            return None
        names = sorted(
            {
                str(u.get("id") or u.get("username", "")).lower()
                for u in await self.api.online_bots()
            }
            - {self.me, ""}
        )
        if not names:
            return None
        opponent = names[turn % len(names)]
        variant = self.settings.variants[turn % len(self.settings.variants)]
        challenge_id = await self.api.challenge(opponent, variant, self.settings.challenge_clock)
        if challenge_id:
            self.awaiting[challenge_id] = 0
        self.challenged.append((opponent, variant))
        return opponent

    def decline_reason(self, challenge: dict[str, Any]) -> str | None:
        """The API's reason key for declining ``challenge``, or None to accept it."""
        variant = (challenge.get("variant") or {}).get("key", "")
        if variant not in VARIANTS or variant not in self.settings.variants:
            return "variant"
        control = challenge.get("timeControl") or {}
        kind = control.get("type", "unlimited")
        if kind not in self.settings.time_controls:
            return "timeControl"
        if kind == "clock" and int(control.get("limit") or 0) < self.settings.min_seconds:
            return "tooFast"
        if self.playing() >= self.settings.max_games:
            return "later"
        return None

    async def _on_challenge(self, challenge: dict[str, Any]) -> None:
        challenge_id = str(challenge.get("id", ""))
        challenger = str((challenge.get("challenger") or {}).get("id", "")).lower()
        if not challenge_id or challenger == self.me:
            return  # our own challenge, seen going out
        reason = self.decline_reason(challenge)
        try:
            if reason is None:
                await self.api.accept_challenge(challenge_id)
            else:
                await self.api.decline_challenge(challenge_id, reason)
        except ApiError as err:  # withdrawn meanwhile, most often
            log.info("challenge %s: %s", challenge_id, err)

    # -- one game's stream -------------------------------------------------------------------

    async def _stream_game(self, ps_id: str) -> None:
        backoff = FIRST_BACKOFF
        while True:
            try:
                async for message in self.api.game(ps_id):
                    backoff = FIRST_BACKOFF
                    done = await self._on_game_message(ps_id, message)
                    if done:
                        return
            except ApiError as err:
                if err.status in (400, 404):
                    log.warning("PlayStrategy game %s: %s", ps_id, err)
                    return
                log.warning("PlayStrategy game %s stream failed: %s", ps_id, err)
            except (TimeoutError, aiohttp.ClientError) as err:
                log.warning("PlayStrategy game %s stream dropped: %s", ps_id, err)
            link = self.links.get(ps_id)
            if link is not None and link.finished:
                return
            self.reconnects += 1
            await self._sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF)

    async def _on_game_message(self, ps_id: str, message: dict[str, Any]) -> bool:
        """Handle one line of a game's stream; True once the game is over for us."""
        kind = message.get("type")
        if not message:  # a keep-alive line: an AI move played meanwhile goes out now
            link = self.links.get(ps_id)
            if link is not None:
                async with link.lock:
                    await self._send_pending(link)
            return False
        if kind == "gameFull":
            link = await self._link(ps_id, message)
            if link is None:
                return True
            return await self._on_state(link, message.get("state") or {})
        if kind == "gameState":
            link = self.links.get(ps_id)
            return link is None or await self._on_state(link, message)
        if kind == "chatLine":
            log.debug("chat in %s from %s", ps_id, message.get("username"))
        return False

    async def _link(self, ps_id: str, full: dict[str, Any]) -> GameLink | None:
        """The service game for ``ps_id``: found again after a reconnect or a restart, or
        started now. None (and the game aborted) when we cannot play it."""
        if ps_id in self.links:
            return self.links[ps_id]
        channel = Channel(SURFACE, ps_id)
        variant = VARIANTS.get((full.get("variant") or {}).get("key", ""))
        south_json = full.get("p1") or full.get("white") or {}
        north_json = full.get("p2") or full.get("black") or {}
        ai_side = Side.SOUTH if str(south_json.get("id", "")).lower() == self.me else Side.NORTH
        them = north_json if ai_side is Side.SOUTH else south_json
        start = str(full.get("initialFen") or "startpos")
        if variant is None or start not in ("startpos", variant.start_fen):
            # A variant we do not map, or a set-up position: never played on a board we
            # have not checked.
            log.warning("PlayStrategy game %s: not ours to play; aborting", ps_id)
            await self._give_up(ps_id, abort=True)
            return None
        # An anonymous visitor has no id: each such game is a player of its own, so that the
        # AI's per-player caps do not lump every anonymous visitor together.
        human = Player(SURFACE, str(them.get("id") or f"anonymous-{ps_id}").lower())
        ai = Player.ai(self.settings.level_for(variant.key))
        view = await self.service.active_game(channel)
        if view is None and (full.get("state") or {}).get("status", "started") not in PLAYING:
            return None  # over there, and not going on here: nothing to start
        if view is None:
            south, north = (ai, human) if ai_side is Side.SOUTH else (human, ai)
            options = GameOptions(rated=False, reminder_after=0, forfeit_after=0)
            try:
                view = await self.service.start_game(south, north, variant.rules, channel, options)
            except errors.ServiceError as err:  # the AI's caps, most often
                log.warning("PlayStrategy game %s: %s; aborting", ps_id, err)
                await self._give_up(ps_id, abort=True)
                return None
        # The players as stored: after a restart the game found holds the level it began with.
        ai, human = (view.south, view.north) if ai_side is Side.SOUTH else (view.north, view.south)
        link = GameLink(ps_id, view.id, variant.rules, human, ai, ai_side)
        self.links[ps_id] = link
        return link

    async def _on_state(self, link: GameLink, state: dict[str, Any]) -> bool:
        async with link.lock:
            if link.finished:
                return True
            moves = str(state.get("moves") or "").split()
            status = str(state.get("status") or "started")
            if not await self._sync(link, moves, status):
                return True
            if status not in PLAYING:
                await self._ended(link, status, state.get("winner"))
                return True
            theirs = "bdraw" if link.ai_side is Side.SOUTH else "wdraw"
            if state.get(theirs) and len(moves) not in link.draws_declined:
                link.draws_declined.add(len(moves))
                await self._call(self.api.answer_draw(link.ps_id, False))
            await self._send_pending(link)
        return False

    async def _sync(self, link: GameLink, moves: list[str], status: str) -> bool:
        """Bring the service game up to the server's ``moves``, checking each ply; False
        after a disagreement (the game is given up)."""
        view = await self.service.get_game(link.game_id)
        game = Game(link.rules)
        for ply, uci in enumerate(moves):
            try:
                move = from_uci(game.position, uci)
            except NotationError as err:
                return await self._disagree(link, ply, str(err))
            if ply < len(view.moves):
                if view.moves[ply] != move:
                    return await self._disagree(
                        link, ply, f"{uci} is {move}, ours {view.moves[ply]}"
                    )
            elif game.position.mover == link.ai_side.row:
                return await self._disagree(link, ply, f"{uci} is the AI's move, not sent by us")
            else:
                try:
                    view = await self._enter(link, move, ply)
                except errors.ServiceError as err:
                    return await self._disagree(link, ply, str(err))
            game.play(move)
        link.server_plies = len(moves)
        if len(view.moves) > len(moves) + 1:
            return await self._disagree(link, len(moves), "the server is missing our moves")
        if view.is_over and len(view.moves) == len(moves) and status in PLAYING:
            # Our engine ended the game on the server's last move and the server plays on
            # (a repetition only one of them sees, say): nobody would ever move again.
            return await self._disagree(link, len(moves), "our game ended, the server's goes on")
        return True

    async def _enter(self, link: GameLink, move: str, ply: int) -> GameView:
        """The opponent's ``move`` at ``ply`` into the service, exactly once. When this
        player already has as many requests waiting for the AI as the fair queue allows, the
        move waits its turn like anyone's: it is played on PlayStrategy already."""
        while True:
            try:
                return await self.service.move(link.game_id, link.human, move, ply)
            except errors.DuplicateMove:  # entered already, before a reconnect
                return await self.service.get_game(link.game_id)
            except errors.TooMuchAIWork:
                await self._sleep(FIRST_BACKOFF)

    async def _send_pending(self, link: GameLink) -> None:
        """Send the AI's move at the server's ply, if the service has one and it was not
        sent; the caller holds the link's lock."""
        view = await self.service.get_game(link.game_id)
        ply = link.server_plies
        if len(view.moves) <= ply or ply in link.sent or link.finished:
            return
        before = Game.from_moves(link.rules, " ".join(view.moves[:ply]))
        if before.position.mover != link.ai_side.row:
            return
        uci = to_uci(before.position, view.moves[ply])
        link.sent.add(ply)
        try:
            await self.api.move(link.ps_id, uci)
        except ApiError as err:
            if err.status == 400:  # the server finds our legal move illegal
                await self._disagree(link, ply, f"the server refused {uci}: {err}")
            else:
                link.sent.discard(ply)  # not played: the next state or reconnect retries
                log.warning("PlayStrategy game %s: move %s: %s", link.ps_id, uci, err)

    async def on_move(self, event: MoveMade) -> None:
        """The AI replied in one of our games: send its move to the server."""
        channel = event.game.channel
        if channel.surface != SURFACE or not event.by.is_ai:
            return
        link = self.links.get(channel.id)
        if link is None:
            return  # not linked yet: the game's next state sends it
        async with link.lock:
            await self._send_pending(link)

    async def _ended(self, link: GameLink, status: str, winner: Any) -> None:
        """The server says the game is over: end ours the same way where it is not over."""
        link.finished = True
        view = await self.service.get_game(link.game_id)
        if view.is_over:
            return
        if status in RULE_ENDS:
            await self._disagree(link, link.server_plies, "the server ended the game, ours goes on")
            return
        # Resignation, time, abort: the loser resigns here too (an abort, which the service
        # has no verb for, is recorded as the PlayStrategy player's resignation; unrated).
        ai_colours = ("p1", "white") if link.ai_side is Side.SOUTH else ("p2", "black")
        ai_won = winner in ai_colours
        loser = link.human if ai_won or winner is None else link.ai
        with contextlib.suppress(errors.GameFinished):
            await self.service.resign(link.game_id, loser)

    async def _disagree(self, link: GameLink, ply: int, why: str) -> bool:
        """Our engine and the server disagree at ``ply``: log it, count it, say so in the
        chat, resign there and here. Always False."""
        log.error("PlayStrategy game %s disagrees at ply %s: %s", link.ps_id, ply, why)
        self.disagreements += 1
        metrics.PLAYSTRATEGY_DISAGREEMENTS.inc()
        link.finished = True
        await self._call(
            self.api.chat(
                link.ps_id,
                _(
                    "Our rules and the server's disagree at move {ply}; I resign rather than "
                    "play on a wrong board."
                ).format(ply=ply + 1),
            )
        )
        await self._give_up(link.ps_id, abort=ply < 2)
        with contextlib.suppress(errors.GameFinished):
            await self.service.resign(link.game_id, link.ai)
        return False

    async def _give_up(self, ps_id: str, *, abort: bool) -> None:
        if abort:
            try:
                await self.api.abort(ps_id)
                return
            except ApiError:
                pass  # too late to abort: resign
        await self._call(self.api.resign(ps_id))

    async def _call(self, request: Awaitable[None]) -> None:
        try:
            await request
        except ApiError as err:
            log.warning("PlayStrategy refused a request: %s", err)
