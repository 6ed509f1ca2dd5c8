"""The values the service hands out: players, channels, games, challenges, options, ratings.

All are frozen dataclasses: a surface reads them and never changes them.

>>> from bot.service.types import Player, Channel
>>> Player("discord", "1234"), Player.parse("email:a@example.org")
(Player(surface='discord', id='1234'), Player(surface='email', id='a@example.org'))
>>> str(Player.ai("first")), Player.ai("first").is_ai
('ai:first', True)
>>> Channel("terminal", "local")
Channel(surface='terminal', id='local')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from babel.numbers import format_decimal

from bot.i18n import _, current_language, ngettext
from bot.service.offer_words import offer_asks, offer_noun
from engine import SIDES, Outcome, Position, Side, excerpt, render
from storage.records import ChallengeStatus, GameStatus, OfferKind

SURFACES = ("terminal", "discord", "email", "ai")


def number_words(value: float, signed: bool = False) -> str:
    """A number as the current language writes it, to four decimals at most: ``2.5`` in
    English, ``2,5`` in French; ``signed`` puts a ``+`` before a positive one.

    >>> number_words(2.5), number_words(1.25, signed=True), number_words(3.0)
    ('2.5', '+1.25', '3')
    """
    pattern = "+0.####;-0.####" if signed else "0.####"
    return str(format_decimal(value, format=pattern, locale=current_language().value))


def side_name(side: Side | str) -> str:
    """A side as prose names it, in the current language: "South" or "North".

    >>> side_name("north")
    'North'
    """
    return _("South") if side == Side.SOUTH else _("North")


__all__ = [
    "Away",
    "SIDES",
    "number_words",
    "side_name",
    "SURFACES",
    "Challenge",
    "ChallengeStatus",
    "Channel",
    "GameOptions",
    "GameStatus",
    "GameView",
    "Hint",
    "Offer",
    "OfferKind",
    "Player",
    "Rating",
    "Side",
]


@dataclass(frozen=True, order=True)
class Player:
    """Who plays: the surface they play on and their id there.

    ("discord", user id), ("email", address), ("terminal", "local"), ("ai", level).
    """

    surface: str
    id: str

    @classmethod
    def ai(cls, level: str | None = None) -> Player:
        """The AI at ``level``, or at the service's default level when none is named."""
        if not level:
            from bot.ai_runtime.pool import default_level

            level = default_level()
        return cls("ai", level)

    @classmethod
    def parse(cls, text: str) -> Player:
        """Read ``surface:id`` (``discord:1234``, ``email:a@example.org``, ``ai:hard``)."""
        surface, sep, ident = str(text).partition(":")
        if not sep or not ident:
            from bot.service.errors import BadRequest

            raise BadRequest(
                _("a player is written surface:id (like discord:1234), not '{text}'").format(
                    text=excerpt(text)
                )
            )
        return cls(surface.strip().lower(), ident.strip())

    @property
    def is_ai(self) -> bool:
        return self.surface == "ai"

    def __str__(self) -> str:
        return f"{self.surface}:{self.id}"


@dataclass(frozen=True, order=True)
class Channel:
    """Where a game is played: a Discord channel or thread, an email thread, a terminal session.

    A channel holds at most one active game; a player may play in many channels at once.
    """

    surface: str
    id: str

    def __str__(self) -> str:
        return f"{self.surface}:{self.id}"


@dataclass(frozen=True)
class GameOptions:
    """Per-challenge settings; ``None`` means the default for the players' surfaces.

    ``side`` is the challenger's side: "south", "north" or "random". ``first`` is who moves
    first, "south" or "north", over the ruleset's own rule (even a coin flip); None leaves it
    to the ruleset. Times are in seconds: ``reminder_after`` of silence sends the player to
    move a reminder, ``forfeit_after`` of silence loses the game; 0 turns either off.
    ``expires_after`` is how long an unanswered challenge stays open. ``rated`` games change
    ratings; a game with the AI, or with one person on both sides, is never rated. ``days``
    (1 to 14) is a correspondence time control, days per move: it sets the clock (each move
    has that long, a reminder when a day is left; docs/correspondence.md).
    """

    side: str = "south"
    first: str | None = None
    reminder_after: float | None = None
    forfeit_after: float | None = None
    expires_after: float | None = None
    rated: bool = True
    days: int | None = None


@dataclass(frozen=True)
class Away:
    """A player of a game who is on vacation until ``until`` (a clock time; sooner if they
    come back): their clocks stand still and they are not reminded (bot.service.vacations).
    """

    player: Player
    until: float


@dataclass(frozen=True)
class Offer:
    """A pending offer in a game, made by ``by`` at ply ``ply``.

    >>> Offer(OfferKind.UNDO, Player("email", "a@example.org"), 4).asks
    'asks to take back their last move'
    """

    kind: OfferKind
    by: Player
    ply: int

    @property
    def asks(self) -> str:
        """What the offer asks, after its maker's name (in the current language; the words
        are ``bot.service.offer_words``')."""
        return offer_asks(self.kind)

    @property
    def noun(self) -> str:
        """The offer as a noun: "a draw", "an agreed end", "a take-back" (in the current
        language)."""
        return offer_noun(self.kind)


@dataclass(frozen=True)
class Challenge:
    """A challenge. ``status``: "open", "accepted", "declined", "cancelled", "expired".

    ``game_id`` is set once accepted (at once when the opponent is the AI).
    """

    id: int
    challenger: Player
    opponent: Player
    rules: str  # canonical ruleset string
    channel: Channel
    options: GameOptions
    status: str
    created_at: float
    expires_at: float | None
    game_id: int | None = None


class Seats:
    """Who sits where in a game with ``south`` and ``north`` players (GameView, LiveGame)."""

    __slots__ = ()
    south: Player
    north: Player

    def player(self, side: Side | str) -> Player:
        """Who sits on ``side``."""
        return self.south if side == Side.SOUTH else self.north

    def side_of(self, player: Player) -> Side | None:
        """The side of a player of this game (South if they play both), else None."""
        if player == self.south:
            return Side.SOUTH
        if player == self.north:
            return Side.NORTH
        return None


@dataclass(frozen=True)
class GameView(Seats):
    """A game as stored after the last change. ``position`` is the engine's Position (with the
    ruleset); ``moves`` the moves so far in the engine's notation (South's pits uppercase).

    ``status`` is "active" or "over"; ``outcome`` (reason, (south, north) score, winner) is
    set once over, including for resignations, agreed draws and forfeits.
    """

    id: int
    rules: str
    south: Player
    north: Player
    channel: Channel
    position: Position
    ply: int
    status: str
    moves: tuple[str, ...]
    outcome: Outcome | None
    offer: Offer | None
    options: GameOptions
    created_at: float
    last_move_at: float
    deadline: float | None = None  # when the player to move forfeits unless they move
    away: tuple[Away, ...] = ()  # its players on vacation (their clocks stand still)

    @property
    def is_over(self) -> bool:
        return self.status == "over"

    @property
    def to_move(self) -> Player | None:
        """The player whose turn it is, or None once the game is over."""
        if self.is_over:
            return None
        return self.south if self.position.to_move == "south" else self.north

    def away_until(self, player: Player | None) -> float | None:
        """When ``player``'s vacation ends, if they are away; None otherwise."""
        return next((a.until for a in self.away if a.player == player), None)

    def opponent_of(self, player: Player) -> Player | None:
        side = self.side_of(player)
        if side is None:
            return None
        return self.north if side == "south" else self.south

    def board(self, perspective: str = "south") -> str:
        """The board picture (engine.render); a game ended by resignation, agreement or
        forfeit gets the result line the engine cannot know about."""
        return render(self.position, perspective, outcome=self.outcome)


@dataclass(frozen=True)
class Hint:
    """The AI's suggestion for the player to move at ply ``ply``: ``move`` in the engine's
    notation, ``value`` (seed margin for the player to move, None when the search gives
    none), ``exact`` when the endgame solver proved it, else the search's ``depth`` in plies;
    ``nodes`` and ``seconds`` say how hard it looked.

    >>> Hint("E", 3.0, True, 9, 20_000, 0.1, 4).summary()
    'a win by 3 seeds with best play, proven'
    >>> Hint("E", 0.0, True, 9, 20_000, 0.1, 4).summary()
    'a draw with best play, proven'
    >>> Hint("E", 1.25, False, 9, 20_000, 0.1, 4).summary()
    'worth +1.25 seeds to you, estimate, 9 plies deep'
    >>> Hint("E", 2.0, False, 0, 10, 0.1, 4, result="win").summary()
    'a win with best play, proven'
    >>> Hint("E", 1.0, False, 6, 900, 1.0, 4, reduced=True, plain=True).summary()[-59:]
    'played by the plain search (no compiled search to wait for)'
    >>> Hint("b", None, False, 0, 0, 0.0, 0).summary()
    'the only move'
    """

    move: str
    value: float | None
    exact: bool
    depth: int
    nodes: int
    seconds: float
    ply: int
    reduced: bool = False  # the quick search's estimate: the full one is still compiling
    timed_out: bool = False  # the clock, not the budget, ended the search
    result: str | None = None  # a result an endgame table proves, where the margin is open
    plain: bool = False  # rules the compiled search does not know: always the plain search

    def summary(self) -> str:
        """What the hint is worth and how sure it is, in words any surface can show (in the
        current language)."""
        if self.value is None:
            if self.depth == 0:
                return _("the only move")
            return ngettext("searched {n} ply", "searched {n} plies", self.depth).format(
                n=self.depth
            )
        if self.result == "draw":
            return _("a draw with best play, proven")
        if self.result == "win":  # proven by a table's bounds, which leave the margin open
            return _("a win with best play, proven")
        if self.result is not None:
            return _("a loss with best play, proven")
        if self.exact:  # the result itself, not just a margin: a margin of 0 is a draw
            if self.value == 0:
                return _("a draw with best play, proven")
            margin = abs(self.value)
            count = int(margin) if margin == int(margin) else 2  # 2: a fraction reads plural
            if self.value > 0:
                message = ngettext(
                    "a win by {n} seed with best play, proven",
                    "a win by {n} seeds with best play, proven",
                    count,
                )
            else:
                message = ngettext(
                    "a loss by {n} seed with best play, proven",
                    "a loss by {n} seeds with best play, proven",
                    count,
                )
            return message.format(n=number_words(margin))
        how = ngettext("estimate, {n} ply deep", "estimate, {n} plies deep", self.depth).format(
            n=self.depth
        )
        if self.reduced and self.plain:  # nothing is compiling for these rules
            how += _("; this game is played by the plain search (no compiled search to wait for)")
        elif self.reduced:
            how += _(
                "; the full search is still being compiled, so this is a quick search's "
                "estimate and may change"
            )
        elif self.timed_out:
            how += _("; the machine was busy and the clock cut the search short")
        # TRANSLATORS: {value} is a signed number of seeds (+1.25); {how} says how sure it is.
        return _("worth {value} seeds to you, {how}").format(
            value=number_words(self.value, signed=True), how=how
        )


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating in one family of rulesets (``rules``: kalah, wari, oware,
    al-manqala or applet; bot.service.ratings), as of now, with their record there.
    ``provisional`` while the deviation is too wide to rank: ``shown`` ends in ``?`` then."""

    player: Player
    rules: str
    rating: float
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    display_name: str | None = field(default=None, compare=False)
    deviation: float = 350.0
    volatility: float = 0.06
    provisional: bool = True

    @property
    def shown(self) -> str:
        """The rating rounded, with ``?`` while provisional: ``1516?``, ``1651``."""
        return f"{self.rating:.0f}{'?' if self.provisional else ''}"


@dataclass(frozen=True)
class RatingStep:
    """A player's rating in a family as the end of rated game ``game_id`` set it, at ``at``
    (seconds since 1970): one point of their history."""

    game_id: int
    rating: float
    deviation: float
    at: float
