"""What storage hands back: one frozen dataclass per kind of row, with enums for the columns
that hold a word from a fixed list. Both backends build these from their rows with
``from_row``, so the service reads ``game.ply`` and ``game.status is GameStatus.OVER``, never
``row["ply"]``.

The enums are ``StrEnum``s: each equals the word the database keeps, so SQL parameters and
JSON take them as they are.

>>> GameStatus("over") is GameStatus.OVER, OfferKind.DRAW == "draw"
(True, True)
>>> game = GameRecord.from_row({**{name: None for name in GAME_COLUMNS}, "id": 7, "ply": 3,
...     "status": "active", "first": "south", "offer_kind": "undo", "rated": 1})
>>> game.ply, game.status, game.first, game.offer_kind, game.rated
(3, <GameStatus.ACTIVE: 'active'>, <Side.SOUTH: 'south'>, <OfferKind.UNDO: 'undo'>, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any, TypedDict

from engine import Side


class GameStatus(StrEnum):
    """A game is ``active`` until it ends, then ``over`` for good."""

    ACTIVE = "active"
    OVER = "over"


class OfferKind(StrEnum):
    """What a player may offer their opponent in a game: a draw, an agreed end (scored like a
    cycle: each side keeps what it has) or taking back the last move."""

    DRAW = "draw"
    END = "end"
    UNDO = "undo"


class ChallengeStatus(StrEnum):
    """A challenge is ``open`` until answered, withdrawn or out of time."""

    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class PingMode(StrEnum):
    """How a player wants to hear it is their move."""

    MENTION = "mention"
    DM = "dm"
    OFF = "off"


def _side(value: Any) -> Side | None:
    return None if value is None else Side(value)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A row of ``games`` (see ``storage.migrations`` for what each column means)."""

    id: int
    rules: str
    south_id: int
    north_id: int
    channel_surface: str
    channel_id: str
    first: Side
    status: GameStatus
    ply: int
    board: str  # JSON list: pits, then the two stores
    mover: int
    options: str  # JSON of the service's GameOptions
    rated: bool
    offer_kind: OfferKind | None
    offer_by: int | None
    offer_ply: int | None
    result_reason: str | None
    result_winner: str | None  # "south", "north" or "draw"
    score_south: int | None
    score_north: int | None
    created_at: float
    last_move_at: float
    remind_at: float | None
    forfeit_at: float | None
    reminded_at: float | None
    ended_at: float | None
    result_termination: str | None  # engine.Termination's value
    result_by: Side | None
    result_ply: int | None
    premoves: int  # 1 while a player has conditional moves waiting (bot.service.premoves)

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> GameRecord:
        values = {name: row[name] for name in GAME_COLUMNS}
        values["first"] = _side(values["first"])
        values["status"] = GameStatus(values["status"])
        values["offer_kind"] = OfferKind(values["offer_kind"]) if values["offer_kind"] else None
        values["rated"] = bool(values["rated"])
        values["result_by"] = _side(values["result_by"])
        return cls(**values)

    @property
    def is_active(self) -> bool:
        return self.status is GameStatus.ACTIVE

    def changed(self, changes: GameChanges) -> GameRecord:
        """This game with ``changes`` applied, as storage has just written them."""
        return replace(self, **changes)


GAME_COLUMNS: tuple[str, ...] = tuple(field.name for field in fields(GameRecord))
"""The columns of ``games``, in the order of the dataclass."""


class GameChanges(TypedDict, total=False):
    """The columns of a game that a change may set (the rest are fixed when it is created)."""

    status: GameStatus
    ply: int
    board: str
    mover: int
    offer_kind: OfferKind | None
    offer_by: int | None
    offer_ply: int | None
    result_reason: str | None
    result_termination: str | None
    result_by: Side | None
    result_ply: int | None
    result_winner: str | None
    score_south: int | None
    score_north: int | None
    last_move_at: float
    remind_at: float | None
    forfeit_at: float | None
    reminded_at: float | None
    ended_at: float | None
    premoves: int


CHANGEABLE_COLUMNS = frozenset(GameChanges.__optional_keys__)


class NewGame(TypedDict):
    """What a new game is created with; it starts ``active`` at ply 0."""

    rules: str
    south_id: int
    north_id: int
    channel_surface: str
    channel_id: str
    first: Side
    board: str
    mover: int
    options: str
    rated: bool
    created_at: float
    last_move_at: float
    remind_at: float | None
    forfeit_at: float | None


class NewMove(TypedDict):
    """A move to append to a game's log (its ply is the game's ply plus one)."""

    move: str
    player_id: int
    played_at: float
    board: str
    mover: int


class NewChallenge(TypedDict):
    """What a new challenge is created with; it starts ``open``."""

    challenger_id: int
    opponent_id: int
    rules: str
    channel_surface: str
    channel_id: str
    options: str
    created_at: float
    expires_at: float | None


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """A row of ``moves``: move number ``ply`` (1 for the first) of a game."""

    game_id: int
    ply: int
    move: str
    player_id: int
    played_at: float
    board: str
    mover: int

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> MoveRecord:
        return cls(**{field.name: row[field.name] for field in fields(cls)})


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A row of ``players``."""

    id: int
    surface: str
    external_id: str
    display_name: str | None
    created_at: float
    ping: PingMode
    language: str | None  # a bot.i18n.Language code, or None until the player chooses
    language_seen: str | None  # the language a surface last saw them use, or None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> PlayerRecord:
        values = {field.name: row[field.name] for field in fields(cls)}
        values["ping"] = PingMode(values["ping"])
        return cls(**values)


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    """A row of ``challenges``."""

    id: int
    challenger_id: int
    opponent_id: int
    rules: str
    channel_surface: str
    channel_id: str
    options: str  # JSON of the service's GameOptions
    status: ChallengeStatus
    created_at: float
    expires_at: float | None
    answered_at: float | None
    game_id: int | None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ChallengeRecord:
        values = {field.name: row[field.name] for field in fields(cls)}
        values["status"] = ChallengeStatus(values["status"])
        return cls(**values)


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """A row of ``glicko_ratings``: a player's Glicko-2 rating in a family of rulesets, as set
    at ``rated_at`` (what the service writes when a rated game ends; it grows the deviation
    for the time since when it reads one). On a leaderboard, with the player's ``surface``,
    ``external_id`` and ``display_name`` joined in."""

    player_id: int
    family: str
    rating: float
    deviation: float
    volatility: float
    rated_at: float
    games: int
    wins: int
    losses: int
    draws: int
    surface: str | None = None
    external_id: str | None = None
    display_name: str | None = None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> RatingRecord:
        return cls(**{field.name: row[field.name] for field in fields(cls) if field.name in row})


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A row of ``rating_history``: a player's rating in a family as the end of game
    ``game_id`` set it, at ``rated_at``."""

    game_id: int
    family: str
    rating: float
    deviation: float
    rated_at: float

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> RatingPoint:
        return cls(**{field.name: row[field.name] for field in fields(cls)})


@dataclass(frozen=True, slots=True)
class ReviewRecord:
    """A row of ``game_reviews``: game ``game_id``'s review by the solver (``review``, JSON
    in layout ``version``), made with ``budget`` (what a ply could cost, as JSON) at
    ``reviewed_at``."""

    game_id: int
    budget: str
    version: int
    review: str
    reviewed_at: float

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ReviewRecord:
        return cls(**{field.name: row[field.name] for field in fields(cls)})


@dataclass(frozen=True, slots=True)
class Established:
    """Which ratings a leaderboard shows: those whose deviation, grown to ``now`` by
    ``volatility² × growth × seconds since rated_at`` (added to its square), is still under
    ``deviation_below``."""

    now: float
    growth: float
    deviation_below: float


@dataclass(frozen=True, slots=True)
class HeadToHeadRecord:
    """The finished games between two players in one ruleset: how many, and how many the
    first player won and drew."""

    rules: str
    games: int
    wins: int
    draws: int

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> HeadToHeadRecord:
        return cls(row["rules"], int(row["games"]), int(row["wins"]), int(row["draws"]))


class NewPuzzleAttempt(TypedDict):
    """An answer to a puzzle; storage decides whether it is ``counted`` (the player's first
    answer to that puzzle) or practice."""

    player_id: int
    puzzle_id: str
    server: str | None
    move: str
    correct: bool
    attempted_at: float


@dataclass(frozen=True, slots=True)
class PuzzleStandingRecord:
    """A player's counted puzzle answers summed up: how many (``answered``), how many right
    (``solved``), the run of right ones since the last wrong one (``streak``) and the longest
    such run (``best_streak``). On a puzzle board, with the player's ``surface``,
    ``external_id`` and ``display_name`` joined in."""

    player_id: int
    answered: int
    solved: int
    streak: int
    best_streak: int
    surface: str | None = None
    external_id: str | None = None
    display_name: str | None = None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> PuzzleStandingRecord:
        # PostgreSQL's sums are numeric (Decimal): every count is read back as an int
        counts = ("player_id", "answered", "solved", "streak", "best_streak")
        values: dict[str, Any] = {name: int(row[name] or 0) for name in counts}
        for name in ("surface", "external_id", "display_name"):
            if name in row:
                values[name] = row[name]
        return cls(**values)


# -- tournaments (bot.service.tournaments, docs/tournaments.md) ---------------------------------


class TournamentFormat(StrEnum):
    """How a tournament pairs its players: Swiss rounds, everyone against everyone (once, or
    twice with the sides swapped), or an arena (whoever is free is paired at once, for a
    fixed time)."""

    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"
    ARENA = "arena"


class TournamentStatus(StrEnum):
    """A tournament is ``open`` to players until it starts, ``running`` until its last round
    (or its time) is over, then ``finished``; or ``cancelled`` by an organiser."""

    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Pace(StrEnum):
    """A tournament's time control: ``live`` (minutes per move) or ``correspondence`` (days
    per move)."""

    LIVE = "live"
    CORRESPONDENCE = "correspondence"


class PairingKind(StrEnum):
    """A pairing of a round: a ``game`` played, a ``bye`` (an odd player out of a Swiss
    round) or a ``forfeit`` (a game not played because a player withdrew)."""

    GAME = "game"
    BYE = "bye"
    FORFEIT = "forfeit"


class PairingResult(StrEnum):
    """Who scored a pairing: ``south`` or ``north`` won, a ``draw``, or ``none`` (neither: both
    had withdrawn)."""

    SOUTH = "south"
    NORTH = "north"
    DRAW = "draw"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A row of ``tournaments`` (see ``storage.migrations``, version 7)."""

    id: int
    name: str
    format: TournamentFormat
    rules: str
    status: TournamentStatus
    rounds: int
    current_round: int
    announced_round: int
    pace: Pace
    move_seconds: float
    arena_seconds: float | None
    starts_at: float | None
    place_surface: str | None
    place_id: str | None
    place_server: str | None
    creator_id: int
    created_at: float
    started_at: float | None
    ended_at: float | None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> TournamentRecord:
        values = {field.name: row[field.name] for field in fields(cls)}
        values["format"] = TournamentFormat(values["format"])
        values["status"] = TournamentStatus(values["status"])
        values["pace"] = Pace(values["pace"])
        return cls(**values)


class NewTournament(TypedDict):
    """What a new tournament is created with; it starts ``open``, at round 0."""

    name: str
    format: TournamentFormat
    rules: str
    rounds: int
    pace: Pace
    move_seconds: float
    arena_seconds: float | None
    starts_at: float | None
    place_surface: str | None
    place_id: str | None
    place_server: str | None
    creator_id: int
    created_at: float


@dataclass(frozen=True, slots=True)
class TournamentPlayerRecord:
    """A row of ``tournament_players``: who joined, their rating when they joined (again at
    the start), their seed (set at the start: a round robin's numbers) and whether they
    withdrew."""

    tournament_id: int
    player_id: int
    joined_at: float
    rating: float
    seed: int | None
    withdrawn_at: float | None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> TournamentPlayerRecord:
        return cls(**{field.name: row[field.name] for field in fields(cls)})


@dataclass(frozen=True, slots=True)
class TournamentGameRecord:
    """A row of ``tournament_games``: board ``board`` of round ``round``. ``north_id`` is None
    for a bye; ``game_id`` is the game once created (None for a bye or a forfeit);
    ``result`` is set once, when known (at once for a bye or a forfeit)."""

    tournament_id: int
    round: int
    board: int
    south_id: int
    north_id: int | None
    kind: PairingKind
    game_id: int | None
    result: PairingResult | None
    recorded_at: float | None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> TournamentGameRecord:
        values = {field.name: row[field.name] for field in fields(cls)}
        values["kind"] = PairingKind(values["kind"])
        values["result"] = PairingResult(values["result"]) if values["result"] else None
        return cls(**values)


class NewPairing(TypedDict):
    """A pairing written when its round begins; a bye's or a forfeit's result with it."""

    board: int
    south_id: int
    north_id: int | None
    kind: PairingKind
    result: PairingResult | None


# -- correspondence on a human schedule (storage.migrations, version 8) -----------------------


@dataclass(frozen=True, slots=True)
class VacationRecord:
    """A row of ``vacations``: a player away from ``started_at``, until ``ended_at`` (None
    while away); it ends by itself at ``ends_at``."""

    id: int
    player_id: int
    started_at: float
    ends_at: float
    ended_at: float | None

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> VacationRecord:
        return cls(**{field.name: row[field.name] for field in fields(cls)})


@dataclass(frozen=True, slots=True)
class DigestSettingRecord:
    """A row of ``digest_settings``: the player gets a daily digest at ``hour`` (UTC), from
    day ``first_day`` (days since 1970-01-01, UTC)."""

    player_id: int
    hour: int
    first_day: int
    set_at: float

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> DigestSettingRecord:
        return cls(**{field.name: row[field.name] for field in fields(cls)})


@dataclass(frozen=True, slots=True)
class DigestRecord:
    """A row of ``digests``: the digest of ``day`` for a player, sent (claimed) at
    ``sent_at``; ``games`` is the JSON of the [game id, ply] pairs it listed."""

    player_id: int
    day: int
    sent_at: float
    games: str

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> DigestRecord:
        return cls(**{field.name: row[field.name] for field in fields(cls)})


@dataclass(frozen=True, slots=True)
class PremoveRecord:
    """A row of ``premoves``: if the opponent's moves after ``ply`` are ``if_moves``
    (space-separated, the engine's notation), the owner plays ``then_move``."""

    game_id: int
    player_id: int
    ply: int
    if_moves: str
    then_move: str
    created_at: float

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> PremoveRecord:
        return cls(**{field.name: row[field.name] for field in fields(cls)})


class NewPremove(TypedDict):
    """A conditional move to store for a game's player."""

    ply: int
    if_moves: str
    then_move: str
