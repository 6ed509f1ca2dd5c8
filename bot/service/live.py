"""A game held in memory between requests: its stored record plus the engine's Game (which
keeps the history the repetition rule needs). The service caches these, so a move costs no
read.

The record is the truth on disk; the Game is rebuilt from the move log when a game is loaded,
and checked against the stored position.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import asdict

from bot.service.types import Channel, GameOptions, GameView, Offer, Player, Seats
from engine import Game, Outcome, Ruleset, Side, Termination
from storage import StorageError
from storage.records import GameRecord, GameStatus, MoveRecord


def board_json(board: Iterable[int]) -> str:
    return json.dumps(list(board), separators=(",", ":"))


def options_json(options: GameOptions) -> str:
    return json.dumps(asdict(options), separators=(",", ":"))


def options_from_json(text: str) -> GameOptions:
    known = GameOptions.__dataclass_fields__
    return GameOptions(**{k: v for k, v in json.loads(text).items() if k in known})


class LiveGame(Seats):
    """A game in play: ``record`` as committed, ``game`` the engine's (with its history)."""

    __slots__ = ("record", "game", "south", "north", "options", "snapshot", "checked_at")

    def __init__(self, record: GameRecord, game: Game, south: Player, north: Player):
        self.record = record
        self.game = game  # may run one move ahead of ``record`` while that move is being written
        self.south = south
        self.north = north
        self.options = options_from_json(record.options)  # fixed when the game was created
        self.snapshot: GameView | None = None  # the view as last committed; None: rebuild
        self.checked_at = 0.0  # time.monotonic() when last known to match the file

    @classmethod
    def build(
        cls,
        record: GameRecord,
        moves: list[MoveRecord],
        south: Player,
        north: Player,
        rules: Ruleset,
    ) -> LiveGame:
        game = Game(rules, first=record.first)
        for move in moves:
            game.play(move.move)
        # A game that ended by repetition shows its board settled; versions before stored the
        # board as the repeating move left it: both are the same game.
        stored = json.loads(record.board)
        if (
            stored not in (list(game.position.board), list(game.positions[-1].board))
            or len(game.moves) != record.ply
        ):
            raise StorageError(f"game {record.id}: the move log does not match the stored position")
        return cls(record, game, south, north)

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def to_move_side(self) -> Side:
        return Side(self.game.position.to_move)

    def mover_of_ply(self, ply: int) -> Side:
        """The side that made move number ``ply`` (1-based)."""
        return Side(self.game.positions[ply - 1].to_move)

    def view(self, offer_by: Player | None) -> GameView:
        record = self.record
        outcome = None
        if record.status is GameStatus.OVER:
            outcome = Outcome.of(
                Termination(record.result_termination),
                (record.score_south or 0, record.score_north or 0),
                by=record.result_by,
                ply=record.result_ply,
                winner=record.result_winner,
            )
        offer = None
        if record.offer_kind is not None and offer_by is not None and record.offer_ply is not None:
            offer = Offer(record.offer_kind, offer_by, record.offer_ply)
        return GameView(
            id=record.id,
            rules=record.rules,
            south=self.south,
            north=self.north,
            channel=Channel(record.channel_surface, record.channel_id),
            position=self.game.position,
            ply=record.ply,
            status=record.status,
            moves=tuple(self.game.moves),
            outcome=outcome,
            offer=offer,
            options=self.options,
            created_at=record.created_at,
            last_move_at=record.last_move_at,
            deadline=record.forfeit_at,
        )


class LiveCache:
    """At most ``size`` games, least recently used dropped first."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._games: OrderedDict[int, LiveGame] = OrderedDict()

    def get(self, game_id: int) -> LiveGame | None:
        live = self._games.get(game_id)
        if live is not None:
            self._games.move_to_end(game_id)
        return live

    def put(self, live: LiveGame) -> None:
        self._games[live.id] = live
        self._games.move_to_end(live.id)
        while len(self._games) > self.size:
            self._games.popitem(last=False)

    def clear(self) -> None:
        self._games.clear()

    def drop(self, game_id: int) -> None:
        self._games.pop(game_id, None)
