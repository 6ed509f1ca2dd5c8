"""Looking at games and ratings: the active game of a channel, boards, a player's games, a
game's record, ratings and leaderboards. Nothing here changes anything."""

from __future__ import annotations

from dataclasses import dataclass

from bot.ai_runtime.pool import known_levels
from bot.service import errors
from bot.service.games import Games, parse_rules
from bot.service.players import Players
from bot.service.ratings import START
from bot.service.types import SIDES, Channel, GameView, Player, Rating
from engine import Side
from storage import Storage
from storage.records import GameStatus


@dataclass(eq=False, kw_only=True)
class Looking:
    """Read-only questions about games and ratings."""

    store: Storage
    players: Players
    games: Games

    async def open_game_count(self) -> int:
        """How many games are in progress, on every surface."""
        return await self.store.count_games(GameStatus.ACTIVE)

    async def active_game(self, channel: Channel) -> GameView | None:
        """The active game in a channel, or None."""
        record = await self.store.active_game_in(channel.surface, channel.id)
        return await self.games.get(record.id) if record else None

    async def board(self, game_id: int, perspective: Side | str | Player = Side.SOUTH) -> str:
        """The board picture, seen by "south", "north" or a player of the game. Raises
        NotFound."""
        view = await self.games.get(game_id)
        if isinstance(perspective, Player):
            perspective = view.side_of(perspective) or Side.SOUTH
        if perspective not in SIDES:
            raise errors.BadRequest("a board is seen from south or north")
        return view.board(Side(perspective))

    async def list_games(
        self, player: Player, include_finished: bool = False, limit: int = 50
    ) -> list[GameView]:
        """The player's games: active ones where it is their turn first, then the other active
        ones, then (if asked) finished ones, most recent first."""
        records = await self.store.games_of(await self.players.pid(player), include_finished, limit)
        views = [await self.games.get(record.id) for record in records]

        def order(view: GameView) -> tuple[int, float]:
            group = 0 if view.to_move == player else 1 if not view.is_over else 2
            return group, -view.last_move_at

        return sorted(views, key=order)

    async def export(self, game_id: int) -> str:
        """A game's record as text: tag lines ([Rules "wari"], [South "..."], [Result ...])
        then the moves in order, space-separated, as ``engine.Game.from_moves`` reads them
        (with the ``First`` tag as its ``first``). Raises NotFound."""
        view = await self.games.get(game_id)
        live = await self.games.load(game_id)
        if view.outcome:
            out = view.outcome
            result = f"{out.winner} (South {out.score[0]}, North {out.score[1]}; {out.words})"
        else:
            result = "*"
        tags = [
            ("Game", str(view.id)),
            ("Rules", view.rules),
            ("South", await self.players.display_name(view.south)),
            ("North", await self.players.display_name(view.north)),
            ("First", live.record.first),
            ("Result", result),
        ]
        lines = [f'[{key} "{value}"]' for key, value in tags]
        words, line = list(view.moves), ""
        body = []
        for word in words:
            if len(line) + len(word) + 1 > 72:
                body.append(line)
                line = ""
            line = f"{line} {word}".strip()
        if line:
            body.append(line)
        return "\n".join(lines + [""] + body) + "\n"

    async def rating(self, player: Player, rules: str) -> Rating:
        """The player's Elo rating in a ruleset (1500 before any rated game). Raises BadRules."""
        rules = str(parse_rules(rules))
        record = await self.store.rating(await self.players.pid(player), rules)
        if record is None:
            return Rating(player, rules, START)
        return Rating(
            player, rules, record.rating, record.games, record.wins, record.losses, record.draws
        )

    async def leaderboard(
        self, rules: str, limit: int = 10, server: tuple[str, str] | None = None
    ) -> list[Rating]:
        """The best-rated players of a ruleset, best first: everyone's, or (``server``, a
        (surface, server id)) those who play on that server. Raises BadRules."""
        rules = str(parse_rules(rules))
        limit = max(1, min(int(limit), 100))
        # Ratings the AI got before its games went unrated are left out.
        records = [
            r
            for r in await self.store.leaderboard(rules, limit + len(known_levels()), server)
            if r.surface != "ai"
        ][:limit]
        return [
            Rating(
                Player(r.surface or "", r.external_id or ""),
                rules,
                r.rating,
                r.games,
                r.wins,
                r.losses,
                r.draws,
                r.display_name,
            )
            for r in records
        ]
