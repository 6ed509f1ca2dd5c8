"""Looking at games and ratings: the active game of a channel, boards, a player's games, a
game's record, ratings, their history and leaderboards. Nothing here changes anything."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.ai_runtime.pool import known_levels
from bot.i18n import _
from bot.service import errors, ratings
from bot.service.games import Games
from bot.service.players import Players
from bot.service.ratings import Family, HeadToHead, family_of
from bot.service.types import SIDES, Channel, GameView, Player, Rating, RatingStep
from engine import RulesetError, Side
from storage.records import GameStatus, RatingRecord
from storage.stores.games import GameStore
from storage.stores.ratings import RatingStore


@dataclass(eq=False, kw_only=True)
class Looking:
    """Read-only questions about games and ratings."""

    game_store: GameStore
    rating_store: RatingStore
    players: Players
    games: Games
    clock: Callable[[], float]

    async def open_game_count(self) -> int:
        """How many games are in progress, on every surface."""
        return await self.game_store.count(GameStatus.ACTIVE)

    async def active_game(self, channel: Channel) -> GameView | None:
        """The active game in a channel, or None."""
        record = await self.game_store.active_in(channel.surface, channel.id)
        return await self.games.get(record.id) if record else None

    async def board(self, game_id: int, perspective: Side | str | Player = Side.SOUTH) -> str:
        """The board picture, seen by "south", "north" or a player of the game. Raises
        NotFound."""
        view = await self.games.get(game_id)
        if isinstance(perspective, Player):
            perspective = view.side_of(perspective) or Side.SOUTH
        if perspective not in SIDES:
            # TRANSLATORS: south and north are the values a surface sends: keep them.
            raise errors.BadRequest(_("a board is seen from south or north"))
        return view.board(Side(perspective))

    async def list_games(
        self, player: Player, include_finished: bool = False, limit: int = 50
    ) -> list[GameView]:
        """The player's games: active ones where it is their turn first, then the other active
        ones, then (if asked) finished ones, most recent first."""
        records = await self.game_store.of_player(
            await self.players.pid(player), include_finished, limit
        )
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
        """The player's rating in the family of ``rules`` (a ruleset or a family's name), as
        of now: 1500, provisional, before any rated game. Raises BadRules."""
        family = _family(rules)
        record = await self.rating_store.get(await self.players.pid(player), family)
        return self._rating(player, family, record)

    async def rating_history(self, player: Player, rules: str, limit: int = 50) -> list[RatingStep]:
        """The player's rating in the family of ``rules`` after each of their last ``limit``
        rated games there, oldest first (none for games ended before the history was kept).
        Raises BadRules."""
        family = _family(rules)
        points = await self.rating_store.history(await self.players.pid(player), family, limit)
        return [RatingStep(p.game_id, p.rating, p.deviation, p.rated_at) for p in points]

    def _rating(self, player: Player, family: Family, record: RatingRecord | None) -> Rating:
        now = ratings.current(record, self.clock())
        return Rating(
            player,
            family.value,
            now.rating,
            record.games if record else 0,
            record.wins if record else 0,
            record.losses if record else 0,
            record.draws if record else 0,
            record.display_name if record else None,
            deviation=now.deviation,
            volatility=now.volatility,
            provisional=ratings.is_provisional(now.deviation),
        )

    async def leaderboard(
        self, rules: str, limit: int = 10, server: tuple[str, str] | None = None
    ) -> list[Rating]:
        """The established ratings of the family of ``rules`` (a ruleset or a family's name),
        best first: everyone's, or (``server``, a (surface, server id)) those who play on that
        server. Provisional ratings are left out. Raises BadRules."""
        family = _family(rules)
        limit = max(1, min(int(limit), 100))
        records = await self.rating_store.leaderboard(
            family,
            limit + len(known_levels()),
            server,
            ratings.established(self.clock()),
        )
        # Ratings the AI got before its games went unrated are left out.
        return [
            self._rating(Player(r.surface or "", r.external_id or ""), family, r)
            for r in records
            if r.surface != "ai"
        ][:limit]

    async def head_to_head(
        self, player: Player, opponent: Player, rules: str | None = None
    ) -> list[HeadToHead]:
        """``player``'s finished games against ``opponent`` (rated or not), won, lost and
        drawn per family, in the order of ``Family``; only the family of ``rules`` if given.
        Raises BadRules, BadRequest (a player against themselves)."""
        if player == opponent:
            raise errors.BadRequest(_("a record is between two different players"))
        wanted = _family(rules) if rules is not None else None
        first, second = await self.players.pid(player), await self.players.pid(opponent)
        counts: dict[Family, list[int]] = {}
        for row in await self.rating_store.head_to_head(first, second):
            family = family_of(row.rules)
            if wanted is None or family is wanted:
                total = counts.setdefault(family, [0, 0, 0])
                total[0] += row.wins
                total[1] += row.games - row.wins - row.draws
                total[2] += row.draws
        return [HeadToHead(family, *counts[family]) for family in Family if family in counts]


def _family(rules: str) -> Family:
    """The family of a ruleset or a family's name, or BadRules with the engine's message."""
    try:
        return family_of(rules)
    except RulesetError as err:
        raise errors.BadRules(str(err)) from None
