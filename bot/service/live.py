"""A game held in memory between requests: its stored row plus the engine's Game (which keeps
the history the repetition rule needs). The service caches these, so a move costs no read.

The row is the truth on disk; the Game is rebuilt from the move log when a game is loaded,
and checked against the stored position.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import asdict

from bot.service.types import Channel, GameOptions, GameView, Offer, Player, Seats
from engine import Game, Outcome, Ruleset, Termination
from storage import StorageError


def board_json(board) -> str:
    return json.dumps(list(board), separators=(",", ":"))


def options_json(options: GameOptions) -> str:
    return json.dumps(asdict(options), separators=(",", ":"))


def options_from_json(text: str) -> GameOptions:
    known = GameOptions.__dataclass_fields__
    return GameOptions(**{k: v for k, v in json.loads(text).items() if k in known})


class LiveGame(Seats):
    __slots__ = ("row", "game", "south", "north", "snapshot", "checked_at")

    def __init__(self, row: dict, game: Game, south: Player, north: Player):
        self.row = row
        self.game = game  # may run one move ahead of ``row`` while that move is being written
        self.south = south
        self.north = north
        self.snapshot: GameView | None = None  # the view as last committed; None: rebuild
        self.checked_at = 0.0  # time.monotonic() when last known to match the file

    @classmethod
    def build(
        cls, row: dict, moves: list[dict], south: Player, north: Player, rules: Ruleset
    ) -> LiveGame:
        game = Game(rules, first=row["first"])
        for record in moves:
            game.play(record["move"])
        # A game that ended by repetition shows its board settled; versions before stored the
        # board as the repeating move left it: both are the same game.
        stored = json.loads(row["board"])
        if (
            stored not in (list(game.position.board), list(game.positions[-1].board))
            or len(game.moves) != row["ply"]
        ):
            raise StorageError(f"game {row['id']}: the move log does not match the stored position")
        return cls(row, game, south, north)

    @property
    def to_move_side(self) -> str:
        return self.game.position.to_move

    def mover_of_ply(self, ply: int) -> str:
        """The side that made move number ``ply`` (1-based)."""
        return self.game.positions[ply - 1].to_move

    def view(self, offer_by: Player | None) -> GameView:
        row = self.row
        outcome = None
        if row["status"] == "over":
            outcome = Outcome(
                Termination(row["result_termination"]),
                (row["score_south"], row["score_north"]),
                row["result_winner"],
                row["result_by"],
                row["result_ply"],
            )
        offer = Offer(row["offer_kind"], offer_by, row["offer_ply"]) if row["offer_kind"] else None
        return GameView(
            id=row["id"],
            rules=row["rules"],
            south=self.south,
            north=self.north,
            channel=Channel(row["channel_surface"], row["channel_id"]),
            position=self.game.position,
            ply=row["ply"],
            status=row["status"],
            moves=tuple(self.game.moves),
            outcome=outcome,
            offer=offer,
            options=options_from_json(row["options"]),
            created_at=row["created_at"],
            last_move_at=row["last_move_at"],
            deadline=row["forfeit_at"],
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
        self._games[live.row["id"]] = live
        self._games.move_to_end(live.row["id"])
        while len(self._games) > self.size:
            self._games.popitem(last=False)

    def drop(self, game_id: int) -> None:
        self._games.pop(game_id, None)
