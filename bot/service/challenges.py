"""Challenges and starting games: challenge, accept, decline, cancel, expiry, and
``start_game`` (no challenge: the terminal). A challenge to the AI is accepted at once."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.service import errors
from bot.service.announcer import Announcer
from bot.service.deadlines import clock_fields
from bot.service.events import ChallengeAnswered, ChallengeReceived
from bot.service.games import Games, known_id, parse_rules
from bot.service.live import board_json, options_from_json, options_json
from bot.service.players import Players
from bot.service.surface_defaults import defaults_for
from bot.service.tasks import Tasks
from bot.service.types import SIDES, Challenge, Channel, GameOptions, GameView, Player
from engine import Game, Ruleset, excerpt
from storage import ChannelTaken, Storage


@dataclass(eq=False)
class Challenges:
    """Challenging, answering challenges, and starting games."""

    _store: Storage
    _clock: Callable[[], float]
    _tasks: Tasks
    _players: Players
    _games: Games
    _announcer: Announcer

    def _resolve_options(
        self, options: GameOptions | None, players: tuple[Player, ...]
    ) -> GameOptions:
        """Fill unset times from the human players' surfaces (the slower surface's default
        wins, so nobody is hurried by the other's medium); 0 means off. A clock given without
        a reminder reminds the player at a third of it."""
        options = options or GameOptions()
        if options.side not in (*SIDES, "random"):
            raise errors.BadRequest(
                f"side must be south, north or random, not '{excerpt(options.side)}'"
            )
        if options.first not in (*SIDES, None):
            raise errors.BadRequest(
                "first must be south or north (or unset: the ruleset's "
                f"rule), not '{excerpt(options.first)}'"
            )
        humans = [p for p in players if not p.is_ai] or list(players)

        def pick(value, attr):
            if value is not None:
                if not isinstance(value, (int, float)) or value < 0:
                    raise errors.BadRequest(f"{attr} must be a number of seconds (0 for never)")
                return float(value) or None
            found = [getattr(defaults_for(p.surface), attr) for p in humans]
            return None if None in found else max(found)

        clock = options.forfeit_after
        if options.reminder_after is None and isinstance(clock, (int, float)) and clock > 0:
            options = replace(options, reminder_after=clock / 3)
        return replace(
            options,
            reminder_after=pick(options.reminder_after, "reminder_after"),
            forfeit_after=pick(options.forfeit_after, "forfeit_after"),
            expires_after=pick(options.expires_after, "challenge_expires_after"),
        )

    async def _challenge_view(self, row: dict) -> Challenge:
        return Challenge(
            id=row["id"],
            challenger=await self._players.player(row["challenger_id"]),
            opponent=await self._players.player(row["opponent_id"]),
            rules=row["rules"],
            channel=Channel(row["channel_surface"], row["channel_id"]),
            options=options_from_json(row["options"]),
            status=row["status"],
            created_at=row["created_at"],
            expires_at=row["expires_at"],
            game_id=row["game_id"],
        )

    async def challenge(
        self,
        challenger: Player,
        opponent: Player,
        rules: str,
        channel: Channel,
        options: GameOptions | None = None,
    ) -> Challenge:
        """Challenge ``opponent`` to a game of ``rules`` (a ruleset string with options, like
        "wari:captures=2-4") in ``channel``. Against the AI (``Player.ai(level)``) the game
        starts at once: the returned challenge is "accepted" with ``game_id`` set. Otherwise
        the opponent gets ChallengeReceived and the challenge is "open" until answered or
        expired (``options.expires_after``, else the slower of the two surfaces' defaults;
        unset clock times are filled the same way, see ``bot.service.surface_defaults``).

        Raises BadRules (bad ruleset), BadRequest (unknown AI level, bad option, challenging
        yourself), ChannelBusy (the channel already has an active game)."""
        self._tasks.check_open()
        self._players.check(challenger)
        self._players.check(opponent)
        ruleset = parse_rules(rules)
        if challenger == opponent:
            raise errors.BadRequest(
                "you cannot challenge yourself; challenge another player or the AI"
            )
        if challenger.is_ai:
            raise errors.BadRequest("the AI does not send challenges")
        options = self._resolve_options(options, (challenger, opponent))
        await self._check_channel_free(channel)
        now = self._clock()
        row = dict(
            challenger_id=await self._players.pid(challenger),
            opponent_id=await self._players.pid(opponent),
            rules=str(ruleset),
            channel_surface=channel.surface,
            channel_id=channel.id,
            options=options_json(options),
            created_at=now,
            expires_at=now + options.expires_after if options.expires_after else None,
        )
        challenge_id = await self._store.create_challenge(row)
        if opponent.is_ai:
            await self.accept(challenge_id, opponent)
            return await self.get_challenge(challenge_id)
        view = await self.get_challenge(challenge_id)
        self._announcer.notify([opponent], lambda who: ChallengeReceived(who, view))
        return view

    async def _check_channel_free(self, channel: Channel) -> None:
        if not isinstance(channel, Channel):
            raise errors.BadRequest(f"not a channel: {excerpt(repr(channel))}")
        if await self._store.active_game_in(channel.surface, channel.id):
            raise errors.ChannelBusy(
                "this channel already has a game going; finish it first or play in another channel"
            )

    async def _open_challenge(self, challenge_id: int, by: Player, role: str) -> dict:
        row = await self._store.challenge(known_id(challenge_id, "challenge"))
        if row is None:
            raise errors.NotFound(f"there is no challenge #{challenge_id}")
        allowed = row["opponent_id"] if role == "opponent" else row["challenger_id"]
        if self._players.known(by) != allowed and await self._players.pid(by) != allowed:
            who = "the challenged player" if role == "opponent" else "the challenger"
            raise errors.NotAllowed(f"only {who} can do that with challenge #{challenge_id}")
        if (
            row["status"] == "open"
            and row["expires_at"] is not None
            and row["expires_at"] <= self._clock()
        ):
            await self.expire(row)
            row["status"] = "expired"
        if row["status"] != "open":
            raise errors.ChallengeClosed(f"challenge #{challenge_id} is {row['status']} already")
        return row

    async def accept(self, challenge_id: int, by: Player) -> GameView:
        """The challenged player accepts: the game starts in the challenge's channel. Raises
        NotFound, NotAllowed (not the challenged player), ChallengeClosed (already answered or
        expired), ChannelBusy (a game started there meanwhile)."""
        self._tasks.check_open()
        row = await self._open_challenge(challenge_id, by, "opponent")
        options = options_from_json(row["options"])
        side = options.side if options.side != "random" else random.choice(SIDES)
        south_id, north_id = (
            (row["challenger_id"], row["opponent_id"])
            if side == "south"
            else (row["opponent_id"], row["challenger_id"])
        )
        game_row = await self._new_game_row(
            row["rules"],
            south_id,
            north_id,
            Channel(row["channel_surface"], row["channel_id"]),
            options,
        )
        try:
            game_id = await self._store.accept_challenge(challenge_id, game_row, self._clock())
        except ChannelTaken:
            raise errors.ChannelBusy(
                "a game started in this channel meanwhile; accept again "
                "once it is over, or play elsewhere"
            ) from None
        if game_id is None:
            raise errors.ChallengeClosed(f"challenge #{challenge_id} was answered meanwhile")
        view = await self._games.get(game_id)
        challenge = await self.get_challenge(challenge_id)
        if not by.is_ai:  # a challenge to the AI is answered by the method's return value
            self._announcer.notify(
                [challenge.challenger],
                lambda who: ChallengeAnswered(who, challenge, view),
                actor=by,
            )
        self._announcer.after_change(view)
        return view

    async def expire(self, row: dict) -> None:
        """Close an open challenge whose time is up, telling both players."""
        if await self._store.close_challenge(row["id"], "expired", self._clock()):
            challenge = await self.get_challenge(row["id"])
            self._announcer.notify(
                [challenge.challenger, challenge.opponent],
                lambda who: ChallengeAnswered(who, challenge),
            )

    async def _close_challenge(
        self, challenge_id: int, by: Player, role: str, status: str
    ) -> Challenge:
        self._tasks.check_open()
        await self._open_challenge(challenge_id, by, role)
        if not await self._store.close_challenge(challenge_id, status, self._clock()):
            raise errors.ChallengeClosed(f"challenge #{challenge_id} was answered meanwhile")
        challenge = await self.get_challenge(challenge_id)
        self._announcer.notify(
            [challenge.challenger, challenge.opponent],
            lambda who: ChallengeAnswered(who, challenge),
            actor=by,
        )
        return challenge

    async def decline(self, challenge_id: int, by: Player) -> Challenge:
        """The challenged player declines. Raises NotFound, NotAllowed, ChallengeClosed."""
        return await self._close_challenge(challenge_id, by, "opponent", "declined")

    async def cancel(self, challenge_id: int, by: Player) -> Challenge:
        """The challenger withdraws. Raises NotFound, NotAllowed, ChallengeClosed."""
        return await self._close_challenge(challenge_id, by, "challenger", "cancelled")

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """A challenge by id. Raises NotFound."""
        row = await self._store.challenge(known_id(challenge_id, "challenge"))
        if row is None:
            raise errors.NotFound(f"there is no challenge #{challenge_id}")
        return await self._challenge_view(row)

    async def open_challenges(self, player: Player) -> list[Challenge]:
        """Open challenges the player made or received, newest first."""
        now = self._clock()
        rows = await self._store.open_challenges(await self._players.pid(player))
        return [
            await self._challenge_view(r)
            for r in rows
            if r["expires_at"] is None or r["expires_at"] > now
        ]

    async def rematch(self, game_id: int, by: Player) -> Challenge:
        """A player of a finished game asks for the same match with the sides swapped: the
        same rules, channel and clock, each player on the other side (so, where a side moves
        first, the other player does). Against the AI it starts at once; otherwise the
        opponent gets the challenge. Raises NotFound, NotAllowed (not a player of it), BadRequest (the game is
        still going on, or one person played both sides), ChannelBusy."""
        self._tasks.check_open()
        game = await self._games.get(game_id)
        side = game.side_of(by)
        if side is None:
            raise errors.NotAllowed(f"you did not play game #{game.id}")
        if not game.is_over:
            raise errors.BadRequest(f"game #{game.id} is still going on; a rematch comes after")
        opponent = game.north if side == "south" else game.south
        if opponent == by:
            raise errors.BadRequest("you played both sides; start a new game instead")
        options = replace(game.options, side="north" if side == "south" else "south")
        return await self.challenge(by, opponent, game.rules, game.channel, options)

    async def start_game(
        self,
        south: Player,
        north: Player,
        rules: str,
        channel: Channel,
        options: GameOptions | None = None,
    ) -> GameView:
        """Start a game at once, without a challenge: for the terminal (a human against the AI,
        or two humans at one keyboard, where ``south == north``). Raises BadRules, BadRequest,
        ChannelBusy."""
        self._tasks.check_open()
        ruleset = parse_rules(rules)
        options = self._resolve_options(options, (south, north))
        await self._check_channel_free(channel)
        row = await self._new_game_row(
            str(ruleset),
            await self._players.pid(south),
            await self._players.pid(north),
            channel,
            options,
        )
        try:
            game_id = await self._store.create_game(row)
        except ChannelTaken:
            raise errors.ChannelBusy("this channel already has a game going") from None
        view = await self._games.get(game_id)
        self._announcer.after_change(view)
        return view

    async def _new_game_row(
        self, rules: str, south_id: int, north_id: int, channel: Channel, options: GameOptions
    ) -> dict:
        ruleset = Ruleset.parse(rules)
        first = options.first or ruleset.first  # a choice in the challenge beats the ruleset
        start = Game(ruleset, first=random.choice(SIDES) if first == "random" else first).position
        south, north = await self._players.player(south_id), await self._players.player(north_id)
        if south == north or south.is_ai or north.is_ai:
            # The AI is never ranked among people, nor is one person against themselves.
            options = replace(options, rated=False)
        now = self._clock()
        row = dict(
            rules=str(ruleset),
            south_id=south_id,
            north_id=north_id,
            channel_surface=channel.surface,
            channel_id=channel.id,
            first=start.to_move,
            board=board_json(start.board),
            mover=start.mover,
            options=options_json(options),
            rated=int(options.rated),
            created_at=now,
            last_move_at=now,
        )
        mover_id = south_id if start.mover == 0 else north_id
        row.update(clock_fields(options, await self._players.player(mover_id), now))
        return row
