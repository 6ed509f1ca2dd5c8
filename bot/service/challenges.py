"""Challenges and starting games: challenge, accept, decline, cancel, expiry, and
``start_game`` (no challenge: the terminal). A challenge to the AI is accepted at once."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from bot.i18n import N_, _
from bot.service import errors
from bot.service.ai_limits import AIFairness
from bot.service.announcer import Announcer
from bot.service.clock import DAYS_PER_MOVE, days_per_move_clock, turn_clock
from bot.service.events import ChallengeAnswered, ChallengeReceived
from bot.service.games import Games, known_id, parse_rules
from bot.service.live import board_json, options_from_json, options_json
from bot.service.players import Players
from bot.service.surface_defaults import defaults_for
from bot.service.tasks import Tasks
from bot.service.types import SIDES, Challenge, Channel, GameOptions, GameView, Player
from engine import Game, Ruleset, Side, excerpt
from storage import ChannelTaken
from storage.records import ChallengeRecord, ChallengeStatus, NewChallenge, NewGame
from storage.stores.challenges import ChallengeStore
from storage.stores.games import GameStore

Role = Literal["opponent", "challenger"]
_ONLY = {  # who alone may answer a challenge, by role
    "opponent": N_("only the challenged player can do that with challenge #{id}"),
    "challenger": N_("only the challenger can do that with challenge #{id}"),
}
_CLOSED = {  # a challenge answered already, by its status
    ChallengeStatus.ACCEPTED: N_("challenge #{id} is accepted already"),
    ChallengeStatus.DECLINED: N_("challenge #{id} is declined already"),
    ChallengeStatus.CANCELLED: N_("challenge #{id} is cancelled already"),
    ChallengeStatus.EXPIRED: N_("challenge #{id} is expired already"),
}


@dataclass(eq=False, kw_only=True)
class Challenges:
    """Challenging, answering challenges, and starting games."""

    challenge_store: ChallengeStore
    game_store: GameStore
    clock: Callable[[], float]
    tasks: Tasks
    players: Players
    games: Games
    announcer: Announcer
    fairness: AIFairness

    def _resolve_options(
        self, options: GameOptions | None, players: tuple[Player, ...]
    ) -> GameOptions:
        """Fill unset times from the human players' surfaces (the slower surface's default
        wins, so nobody is hurried by the other's medium); 0 means off. A clock given without
        a reminder reminds the player at a third of it; ``days`` a move set the clock, with
        the reminder a day before the move is due."""
        options = options or GameOptions()
        if options.side not in (*SIDES, "random"):
            raise errors.BadRequest(
                # TRANSLATORS: south, north and random are the option's values: keep them.
                _("side must be south, north or random, not '{side}'").format(
                    side=excerpt(options.side)
                )
            )
        if options.first not in (*SIDES, None):
            raise errors.BadRequest(
                # TRANSLATORS: south and north are the option's values: keep them.
                _(
                    "first must be south or north (or unset: the ruleset's rule), not '{first}'"
                ).format(first=excerpt(options.first))
            )
        humans = [p for p in players if not p.is_ai] or list(players)

        def pick(value: float | None, attr: str) -> float | None:
            if value is not None:
                if not isinstance(value, (int, float)) or value < 0:
                    raise errors.BadRequest(
                        # TRANSLATORS: {option} is an option's name (reminder_after): keep it.
                        _("{option} must be a number of seconds (0 for never)").format(option=attr)
                    )
                return float(value) or None
            found = [getattr(defaults_for(p.surface), attr) for p in humans]
            return None if None in found else max(found)

        if options.days is not None:  # days a move: the clock it sets
            low, high = DAYS_PER_MOVE
            days = options.days
            if isinstance(days, bool) or not isinstance(days, int) or not low <= days <= high:
                raise errors.BadRequest(
                    _("days a move are a whole number from {low} to {high}, not '{days}'").format(
                        low=low, high=high, days=excerpt(str(days))
                    )
                )
            remind, forfeit = days_per_move_clock(days)
            options = replace(
                options,
                forfeit_after=forfeit,
                reminder_after=remind if options.reminder_after is None else options.reminder_after,
            )
        clock = options.forfeit_after
        if options.reminder_after is None and isinstance(clock, (int, float)) and clock > 0:
            options = replace(options, reminder_after=clock / 3)
        return replace(
            options,
            reminder_after=pick(options.reminder_after, "reminder_after"),
            forfeit_after=pick(options.forfeit_after, "forfeit_after"),
            expires_after=pick(options.expires_after, "challenge_expires_after"),
        )

    async def _challenge_view(self, record: ChallengeRecord) -> Challenge:
        return Challenge(
            id=record.id,
            challenger=await self.players.player(record.challenger_id),
            opponent=await self.players.player(record.opponent_id),
            rules=record.rules,
            channel=Channel(record.channel_surface, record.channel_id),
            options=options_from_json(record.options),
            status=record.status,
            created_at=record.created_at,
            expires_at=record.expires_at,
            game_id=record.game_id,
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
        yourself), ChannelBusy (the channel already has an active game), TooMuchAIWork (as
        many games against the AI in progress as one player may have), NotAllowed (the
        opponent's surface will not deliver it: a mail address that never wrote to the bot
        has had as many challenges as it may get)."""
        self.tasks.check_open()
        self.players.check(challenger)
        self.players.check(opponent)
        ruleset = parse_rules(rules)
        if challenger == opponent:
            raise errors.BadRequest(
                _("you cannot challenge yourself; challenge another player or the AI")
            )
        if challenger.is_ai:
            raise errors.BadRequest(_("the AI does not send challenges"))
        options = self._resolve_options(options, (challenger, opponent))
        await self._check_channel_free(channel)
        if opponent.is_ai:
            await self.fairness.check_new_game(challenger)
        refusal = await self.announcer.refuses_challenge(challenger, opponent)
        if refusal is not None:  # asked last: the surface counts what it agrees to deliver
            raise errors.NotAllowed(refusal)
        now = self.clock()
        new: NewChallenge = {
            "challenger_id": await self.players.pid(challenger),
            "opponent_id": await self.players.pid(opponent),
            "rules": str(ruleset),
            "channel_surface": channel.surface,
            "channel_id": channel.id,
            "options": options_json(options),
            "created_at": now,
            "expires_at": now + options.expires_after if options.expires_after else None,
        }
        challenge_id = await self.challenge_store.create(new)
        if opponent.is_ai:
            await self.accept(challenge_id, opponent)
            return await self.get_challenge(challenge_id)
        view = await self.get_challenge(challenge_id)
        self.announcer.notify([opponent], lambda who: ChallengeReceived(who, view))
        return view

    async def _check_channel_free(self, channel: Channel) -> None:
        if not isinstance(channel, Channel):
            raise errors.BadRequest(_("not a channel: {what}").format(what=excerpt(repr(channel))))
        if await self.game_store.active_in(channel.surface, channel.id):
            raise errors.ChannelBusy(
                _(
                    "this channel already has a game going; finish it first or play in another "
                    "channel"
                )
            )

    async def _open_challenge(self, challenge_id: int, by: Player, role: Role) -> ChallengeRecord:
        record = await self.challenge_store.get(known_id(challenge_id, "challenge"))
        if record is None:
            raise errors.NotFound(_("there is no challenge #{id}").format(id=challenge_id))
        allowed = record.opponent_id if role == "opponent" else record.challenger_id
        if self.players.known(by) != allowed and await self.players.pid(by) != allowed:
            raise errors.NotAllowed(_(_ONLY[role]).format(id=challenge_id))
        status = record.status
        if (
            status is ChallengeStatus.OPEN
            and record.expires_at is not None
            and record.expires_at <= self.clock()
        ):
            await self.expire(record)
            status = ChallengeStatus.EXPIRED
        if status is not ChallengeStatus.OPEN:
            raise errors.ChallengeClosed(_(_CLOSED[status]).format(id=challenge_id))
        return record

    async def accept(self, challenge_id: int, by: Player) -> GameView:
        """The challenged player accepts: the game starts in the challenge's channel. Raises
        NotFound, NotAllowed (not the challenged player), ChallengeClosed (already answered or
        expired), ChannelBusy (a game started there meanwhile)."""
        self.tasks.check_open()
        record = await self._open_challenge(challenge_id, by, "opponent")
        options = options_from_json(record.options)
        side = options.side if options.side != "random" else random.choice(SIDES)
        south_id, north_id = (
            (record.challenger_id, record.opponent_id)
            if side == Side.SOUTH
            else (record.opponent_id, record.challenger_id)
        )
        new_game = await self._new_game(
            record.rules,
            south_id,
            north_id,
            Channel(record.channel_surface, record.channel_id),
            options,
        )
        try:
            game_id = await self.challenge_store.accept(challenge_id, new_game, self.clock())
        except ChannelTaken:
            raise errors.ChannelBusy(
                _(
                    "a game started in this channel meanwhile; accept again "
                    "once it is over, or play elsewhere"
                )
            ) from None
        if game_id is None:
            raise errors.ChallengeClosed(
                _("challenge #{id} was answered meanwhile").format(id=challenge_id)
            )
        view = await self.games.get(game_id)
        challenge = await self.get_challenge(challenge_id)
        if not by.is_ai:  # a challenge to the AI is answered by the method's return value
            self.announcer.notify(
                [challenge.challenger],
                lambda who: ChallengeAnswered(who, challenge, view),
                actor=by,
            )
        self.announcer.after_change(view)
        return view

    async def expire(self, record: ChallengeRecord) -> None:
        """Close an open challenge whose time is up, telling both players."""
        if await self.challenge_store.close(record.id, ChallengeStatus.EXPIRED, self.clock()):
            challenge = await self.get_challenge(record.id)
            self.announcer.notify(
                [challenge.challenger, challenge.opponent],
                lambda who: ChallengeAnswered(who, challenge),
            )

    async def _close_challenge(
        self, challenge_id: int, by: Player, role: Role, status: ChallengeStatus
    ) -> Challenge:
        self.tasks.check_open()
        await self._open_challenge(challenge_id, by, role)
        if not await self.challenge_store.close(challenge_id, status, self.clock()):
            raise errors.ChallengeClosed(
                _("challenge #{id} was answered meanwhile").format(id=challenge_id)
            )
        challenge = await self.get_challenge(challenge_id)
        self.announcer.notify(
            [challenge.challenger, challenge.opponent],
            lambda who: ChallengeAnswered(who, challenge),
            actor=by,
        )
        return challenge

    async def decline(self, challenge_id: int, by: Player) -> Challenge:
        """The challenged player declines. Raises NotFound, NotAllowed, ChallengeClosed."""
        return await self._close_challenge(challenge_id, by, "opponent", ChallengeStatus.DECLINED)

    async def cancel(self, challenge_id: int, by: Player) -> Challenge:
        """The challenger withdraws. Raises NotFound, NotAllowed, ChallengeClosed."""
        return await self._close_challenge(
            challenge_id, by, "challenger", ChallengeStatus.CANCELLED
        )

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """A challenge by id. Raises NotFound."""
        record = await self.challenge_store.get(known_id(challenge_id, "challenge"))
        if record is None:
            raise errors.NotFound(_("there is no challenge #{id}").format(id=challenge_id))
        return await self._challenge_view(record)

    async def open_challenges(self, player: Player) -> list[Challenge]:
        """Open challenges the player made or received, newest first."""
        now = self.clock()
        records = await self.challenge_store.open_for(await self.players.pid(player))
        return [
            await self._challenge_view(r)
            for r in records
            if r.expires_at is None or r.expires_at > now
        ]

    async def rematch(self, game_id: int, by: Player) -> Challenge:
        """A player of a finished game asks for the same match with the sides swapped: the
        same rules, channel and clock, each player on the other side (so, where a side moves
        first, the other player does). Against the AI it starts at once; otherwise the
        opponent gets the challenge. Raises NotFound, NotAllowed (not a player of it), BadRequest (the game is
        still going on, or one person played both sides), ChannelBusy."""
        self.tasks.check_open()
        game = await self.games.get(game_id)
        side = game.side_of(by)
        if side is None:
            raise errors.NotAllowed(_("you did not play game #{id}").format(id=game.id))
        if not game.is_over:
            raise errors.BadRequest(
                _("game #{id} is still going on; a rematch comes after").format(id=game.id)
            )
        opponent = game.player(side.other)
        if opponent == by:
            raise errors.BadRequest(_("you played both sides; start a new game instead"))
        options = replace(game.options, side=side.other)
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
        ChannelBusy, TooMuchAIWork."""
        self.tasks.check_open()
        ruleset = parse_rules(rules)
        options = self._resolve_options(options, (south, north))
        await self._check_channel_free(channel)
        for person, other in ((south, north), (north, south)):
            if other.is_ai and not person.is_ai:
                await self.fairness.check_new_game(person)
        new_game = await self._new_game(
            str(ruleset),
            await self.players.pid(south),
            await self.players.pid(north),
            channel,
            options,
        )
        try:
            game_id = await self.game_store.create(new_game)
        except ChannelTaken:
            raise errors.ChannelBusy(_("this channel already has a game going")) from None
        view = await self.games.get(game_id)
        self.announcer.after_change(view)
        return view

    async def game_row(
        self, rules: str, south: Player, north: Player, channel: Channel, options: GameOptions
    ) -> NewGame:
        """A new game's row, its options resolved as a challenge's are, for a part that
        creates the game in a transaction of its own (a tournament's pairing)."""
        options = self._resolve_options(options, (south, north))
        south_id, north_id = await self.players.pid(south), await self.players.pid(north)
        return await self._new_game(rules, south_id, north_id, channel, options)

    async def _new_game(
        self, rules: str, south_id: int, north_id: int, channel: Channel, options: GameOptions
    ) -> NewGame:
        ruleset = Ruleset.parse(rules)
        first = options.first or ruleset.first  # a choice in the challenge beats the ruleset
        start = Game(ruleset, first=random.choice(SIDES) if first == "random" else first).position
        south, north = await self.players.player(south_id), await self.players.player(north_id)
        if south == north or south.is_ai or north.is_ai:
            # The AI is never ranked among people, nor is one person against themselves.
            options = replace(options, rated=False)
        now = self.clock()
        mover = await self.players.player(south_id if start.mover == 0 else north_id)
        clock = turn_clock(options, mover, now)
        return {
            "rules": str(ruleset),
            "south_id": south_id,
            "north_id": north_id,
            "channel_surface": channel.surface,
            "channel_id": channel.id,
            "first": Side(start.to_move),
            "board": board_json(start.board),
            "mover": start.mover,
            "options": options_json(options),
            "rated": options.rated,
            "created_at": now,
            "last_move_at": now,
            "remind_at": clock.get("remind_at"),
            "forfeit_at": clock.get("forfeit_at"),
        }
