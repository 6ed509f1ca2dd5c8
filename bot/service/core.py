"""GameService: the one place that decides who may do what. See ``bot.service`` for a usage
example. Every verb that reads or changes the database is a coroutine; each raises only
``ServiceError`` subclasses on a user's mistake (their messages are fit to show), and never
blocks the event loop.

How it keeps a move exactly-once: moves of one game run one at a time under that game's lock;
the stored ply is compared-and-set in the same transaction that appends to the move log, whose
primary key is (game, ply). A move is acknowledged (the method returns) only after its commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeVar, cast

from bot import metrics
from bot.ai_runtime.pool import DEFAULT_WORKERS, AIPool
from bot.i18n import Language, _
from bot.service.ai_limits import AIBusy, AIFairness, AILimits
from bot.service.ai_turns import AITurns
from bot.service.announcer import Announcer
from bot.service.challenges import Challenges
from bot.service.clock import SystemClock
from bot.service.deadlines import Deadlines
from bot.service.digests import Digests, DigestSetting
from bot.service.errors import ServiceError, Unavailable
from bot.service.events import Notifier
from bot.service.games import Games
from bot.service.hooks import Hooks
from bot.service.identities import Deleted, Identities, LinkAsked, Linked
from bot.service.languages import Languages
from bot.service.limits import Hit, Limits
from bot.service.looking import Looking
from bot.service.mail_stops import MailStops, Stopped
from bot.service.pings import Ping, Pings
from bot.service.play import Play
from bot.service.players import Players
from bot.service.premoves import Premove, Premoves
from bot.service.puzzles import PuzzleResult, Puzzles, PuzzleStanding
from bot.service.ratings import HeadToHead
from bot.service.reviews import GameReview, RecordReview, ReviewProgress, Reviews
from bot.service.servers import Servers, ServerSettings
from bot.service.tasks import Tasks
from bot.service.tournament_views import PlaceMaker
from bot.service.tournaments import (
    Format,
    Pairing,
    Standing,
    TimeControl,
    Tournaments,
    TournamentStatus,
    TournamentView,
)
from bot.service.types import (
    Challenge,
    Channel,
    GameOptions,
    GameView,
    Hint,
    OfferKind,
    Player,
    Rating,
    RatingStep,
)
from bot.service.vacations import Vacations, VacationStatus
from engine import Side
from engine.puzzles import Answer, Grade, Puzzle
from storage import Storage, StorageUnavailable, open_storage
from storage.records import PingMode

P = ParamSpec("P")
T = TypeVar("T")


@contextlib.contextmanager
def _refusal_leaving() -> Iterator[None]:
    """Around a verb: count each refusal that leaves the service, by its kind, once, where it
    reaches the surface (an error made and handled inside the service is not a refusal); a
    database out of reach leaves as ``Unavailable``."""
    try:
        yield
    except ServiceError as err:
        metrics.ERRORS.labels(kind=type(err).__name__).inc()
        raise
    except StorageUnavailable:
        metrics.ERRORS.labels(kind=Unavailable.__name__).inc()
        raise Unavailable(
            _(
                "the game database cannot be reached just now; nothing was lost: try again in a moment"
            )
        ) from None


def refusals_counted(verb: Callable[P, Awaitable[T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """A verb whose refusals are counted as they leave the service (``_refusal_leaving``)."""

    @functools.wraps(verb)
    async def counted(*args: P.args, **kwargs: P.kwargs) -> T:
        with _refusal_leaving():
            return await verb(*args, **kwargs)

    return counted


def service_verb(verb: Callable[P, Awaitable[T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """A verb of ``GameService``: each account it is given stands for the player it is (a
    linked account for its player, ``Players.owner``), so a part compares seats with players
    and never with accounts; and its refusals are counted (``refusals_counted``)."""

    @functools.wraps(verb)
    async def as_players(*args: P.args, **kwargs: P.kwargs) -> T:
        with _refusal_leaving():
            players = cast("GameService", args[0]).players
            owned = [await _owner(players, a) for a in args]
            named = {k: await _owner(players, v) for k, v in kwargs.items()}
            return await verb(*owned, **named)

    return as_players


async def _owner(players: Players, value: Any) -> Any:
    return await players.owner(value) if isinstance(value, Player) else value


class GameService:
    """Games, challenges, clocks, AI turns and ratings, on SQLite or PostgreSQL: the facade
    every surface calls. Each responsibility is a part in its own module, built with the parts
    it uses (by keyword), so each file says what it depends on:

    - ``players`` (``Players``): who plays, their ids and display names
    - ``games`` (``Games``): loading, locking, committing and ending a game
    - ``announcer`` (``Announcer``): telling the players; hands AI turns to ``ai_turns``
    - ``challenges``: challenge, accept, decline, cancel, expiry, start_game
    - ``play``: move, resign, offers (draw, agreed end, undo) and their answers
    - ``ai_turns``: the AI's moves, and hints (the worker pool is ``ai``)
    - ``fairness`` (``AIFairness``): what one player may ask of the AI (``ai_limits``)
    - ``reviews``: a finished game, or one a player brings as a record, reviewed move by move by
      the solver
    - ``puzzles``: the daily puzzle and more, answers, streaks, a server's puzzle board
    - ``tournaments``: Swiss, round robin and arena tournaments (``pairing`` pairs them)
    - ``deadlines``: tick (reminders, forfeits, expiries, tournaments moving on)
    - ``looking``: games, boards, a game's record, ratings, leaderboards
    - ``pings``: whom to ping when it is their move, and how
    - ``servers``: a Discord server's settings and who plays there
    - ``vacations``, ``digests``, ``premoves``: correspondence on a human schedule (vacations
      that stop the clocks, the daily digest by mail, conditional moves)
    - ``limits``: the counters of a surface's limits, shared by every process (``count_hits``)
    - ``identities``: one player on several surfaces (linking accounts), and a player's data
      exported or deleted

    Where one part reacts to another (a game ended, a move was made, the clock ticked, is
    this player away...), it does so through ``hooks`` (``bot.service.hooks``): each part
    gets them when it is built and subscribes itself there, so a reaction's order is the
    order the parts are built in below.

    Every verb below is a method that hands the request to the part that decides it; its
    docstring there says the rules. This class adds the life cycle: open, close, notifiers,
    idle.
    """

    def __init__(
        self,
        store: Storage,
        clock: Callable[[], float],
        ai: AIPool,
        cache_ttl: float = 1.0,
        limits: AILimits | None = None,
    ):
        """Use ``await GameService.open(path)``; this only wires the parts together."""
        self._store = store
        self._clock = clock
        self.ai = ai  # the one worker pool, shared with surfaces that play without a game
        self.tasks = Tasks()
        self.hooks = hooks = Hooks()
        self.announcer = Announcer(self.tasks, hooks)
        self.players = Players(
            player_store=store.players,
            clock=clock,
            extra_surfaces=lambda: self.announcer.notifiers,
            identity_store=store.identities,
        )
        self.games = Games(
            game_store=store.games,
            rating_store=store.ratings,
            clock=clock,
            players=self.players,
            hooks=hooks,
            cache_ttl=cache_ttl,
        )
        self.fairness = AIFairness(
            limits=limits or AILimits(), pool=ai, game_store=store.games, players=self.players
        )
        tasks, players, games, announcer = self.tasks, self.players, self.games, self.announcer
        fairness = self.fairness
        self.challenges = Challenges(
            challenge_store=store.challenges,
            game_store=store.games,
            clock=clock,
            tasks=tasks,
            players=players,
            games=games,
            announcer=announcer,
            fairness=fairness,
        )
        self.play = Play(
            clock=clock,
            tasks=tasks,
            players=players,
            games=games,
            announcer=announcer,
            fairness=fairness,
        )
        self.ai_turns = AITurns(
            game_store=store.games,
            clock=clock,
            tasks=tasks,
            players=players,
            games=games,
            announcer=announcer,
            play=self.play,
            pool=ai,
            fairness=fairness,
            hooks=hooks,
        )
        self.deadlines = Deadlines(
            challenge_store=store.challenges,
            game_store=store.games,
            clock=clock,
            games=self.games,
            announcer=self.announcer,
            challenges=self.challenges,
            hooks=hooks,
        )
        self.looking = Looking(
            game_store=store.games,
            rating_store=store.ratings,
            players=self.players,
            games=self.games,
            clock=clock,
        )
        self.reviews = Reviews(
            tasks=tasks,
            games=games,
            looking=self.looking,
            pool=ai,
            review_store=store.reviews,
            clock=clock,
        )
        self.tournaments = Tournaments(
            tournament_store=store.tournaments,
            clock=clock,
            tasks=tasks,
            players=players,
            games=games,
            announcer=announcer,
            challenges=self.challenges,
            play=self.play,
            looking=self.looking,
            hooks=hooks,  # before digests: a tick moves tournaments on, then mails digests
        )
        self.pings = Pings(player_store=store.players, clock=clock, players=self.players)
        self.languages = Languages(player_store=store.players, players=self.players)
        self.servers = Servers(player_store=store.players, clock=clock, players=self.players)
        self.puzzles = Puzzles(
            puzzle_store=store.puzzles,
            clock=clock,
            tasks=tasks,
            players=players,
            servers=self.servers,
            pool=ai,
            fairness=fairness,
        )
        self.vacations = Vacations(
            schedule_store=store.schedule, clock=clock, players=players, games=games, hooks=hooks
        )
        self.digests = Digests(
            schedule_store=store.schedule,
            clock=clock,
            players=players,
            looking=self.looking,
            announcer=announcer,
            hooks=hooks,
        )
        self.premoves = Premoves(
            schedule_store=store.schedule,
            clock=clock,
            players=players,
            games=games,
            play=self.play,
            announcer=announcer,
            hooks=hooks,
        )
        self.limits = Limits(limit_store=store.limits)
        self.identities = Identities(
            identity_store=store.identities,
            clock=clock,
            players=players,
            games=games,
            looking=self.looking,
            play=self.play,
            announcer=announcer,
            limits=self.limits,
        )
        self.mail_stops = MailStops(
            stop_store=store.mail_stops,
            clock=clock,
            looking=self.looking,
            play=self.play,
            challenges=self.challenges,
            tournaments=self.tournaments,
        )
        self._ticker: asyncio.Task[None] | None = None

    # -- challenges and starting games (bot.service.challenges) ---------------------------------

    @service_verb
    async def challenge(
        self,
        challenger: Player,
        opponent: Player,
        rules: str,
        channel: Channel,
        options: GameOptions | None = None,
    ) -> Challenge:
        """Challenge ``opponent`` to a game of ``rules`` in ``channel``; see
        ``Challenges.challenge``."""
        return await self.challenges.challenge(challenger, opponent, rules, channel, options)

    @service_verb
    async def accept(self, challenge_id: int, by: Player) -> GameView:
        """The challenged player accepts; the game starts. See ``Challenges.accept``."""
        return await self.challenges.accept(challenge_id, by)

    @service_verb
    async def decline(self, challenge_id: int, by: Player) -> Challenge:
        """The challenged player declines. See ``Challenges.decline``."""
        return await self.challenges.decline(challenge_id, by)

    @service_verb
    async def cancel(self, challenge_id: int, by: Player) -> Challenge:
        """The challenger withdraws. See ``Challenges.cancel``."""
        return await self.challenges.cancel(challenge_id, by)

    @service_verb
    async def get_challenge(self, challenge_id: int) -> Challenge:
        """A challenge by id. Raises NotFound."""
        return await self.challenges.get_challenge(challenge_id)

    @service_verb
    async def open_challenges(self, player: Player) -> list[Challenge]:
        """Open challenges the player made or received, newest first."""
        return await self.challenges.open_challenges(player)

    @service_verb
    async def rematch(self, game_id: int, by: Player) -> Challenge:
        """The same match again, sides swapped. See ``Challenges.rematch``."""
        return await self.challenges.rematch(game_id, by)

    @service_verb
    async def start_game(
        self,
        south: Player,
        north: Player,
        rules: str,
        channel: Channel,
        options: GameOptions | None = None,
    ) -> GameView:
        """Start a game at once, without a challenge. See ``Challenges.start_game``."""
        return await self.challenges.start_game(south, north, rules, channel, options)

    # -- playing (bot.service.play) -------------------------------------------------------------

    @service_verb
    async def move(
        self, game_id: int, by: Player, move: str, expected_ply: int | str | None = None
    ) -> GameView:
        """Play ``move`` for ``by``, exactly once (a vacation of theirs ends). See
        ``Play.move``."""
        await self.vacations.moved(by)
        return await self.play.move(game_id, by, move, expected_ply)

    @service_verb
    async def resign(self, game_id: int, by: Player) -> GameView:
        """``by`` resigns; the opponent wins. See ``Play.resign``."""
        return await self.play.resign(game_id, by)

    @service_verb
    async def offer(self, game_id: int, by: Player, kind: OfferKind | str) -> GameView:
        """Offer a draw, an agreed end, or ask to take back a move. See ``Play.offer``."""
        return await self.play.offer(game_id, by, kind)

    @service_verb
    async def offer_draw(self, game_id: int, by: Player) -> GameView:
        """Same as ``offer(game_id, by, OfferKind.DRAW)``."""
        return await self.play.offer(game_id, by, OfferKind.DRAW)

    @service_verb
    async def offer_end(self, game_id: int, by: Player) -> GameView:
        """Same as ``offer(game_id, by, OfferKind.END)``."""
        return await self.play.offer(game_id, by, OfferKind.END)

    @service_verb
    async def request_undo(self, game_id: int, by: Player) -> GameView:
        """Same as ``offer(game_id, by, OfferKind.UNDO)``."""
        return await self.play.offer(game_id, by, OfferKind.UNDO)

    @service_verb
    async def accept_offer(self, game_id: int, by: Player) -> GameView:
        """Accept the opponent's pending offer. See ``Play.accept_offer``."""
        return await self.play.accept_offer(game_id, by)

    @service_verb
    async def decline_offer(self, game_id: int, by: Player) -> GameView:
        """Decline (or withdraw) the pending offer. See ``Play.decline_offer``."""
        return await self.play.decline_offer(game_id, by)

    @service_verb
    async def hint(
        self,
        game_id: int,
        by: Player,
        *,
        thinking: Callable[[], Awaitable[Any]] | None = None,
    ) -> Hint:
        """The AI's best move for the player to move. See ``AITurns.hint``."""
        return await self.ai_turns.hint(game_id, by, thinking=thinking)

    @service_verb
    async def review(
        self,
        game_id: int | None,
        by: Player,
        *,
        progress: ReviewProgress | None = None,
        thinking: Callable[[], Awaitable[Any]] | None = None,
    ) -> GameReview:
        """The solver's move-by-move review of a finished game, with the game. See
        ``Reviews.review``."""
        return await self.reviews.review(game_id, by, progress, thinking)

    @service_verb
    async def review_record(
        self,
        text: str,
        by: Player,
        *,
        progress: ReviewProgress | None = None,
        thinking: Callable[[], Awaitable[Any]] | None = None,
    ) -> RecordReview:
        """The solver's move-by-move review of the game in a record a player brings (any
        format we read), not stored. See ``Reviews.review_record``."""
        return await self.reviews.review_record(text, by, progress, thinking)

    # -- puzzles (bot.service.puzzles) ----------------------------------------------------------

    @service_verb
    async def daily_puzzle(
        self, server: tuple[str, str] | None = None, family: str | None = None
    ) -> Puzzle:
        """Today's puzzle (of a server's family). See ``Puzzles.daily``."""
        return await self.puzzles.daily(server, family)

    @service_verb
    async def next_puzzle(
        self, player: Player, family: str | None = None, grade: Grade | str | None = None
    ) -> Puzzle:
        """A puzzle the player has not answered yet. See ``Puzzles.next_puzzle``."""
        return await self.puzzles.next_puzzle(player, family, grade)

    def puzzle(self, puzzle_id: str) -> Puzzle:
        """A puzzle by its id. Raises UnknownPuzzle."""
        with _refusal_leaving():
            return self.puzzles.puzzle(puzzle_id)

    @service_verb
    async def answer_puzzle(
        self,
        player: Player,
        puzzle_id: str,
        move: str,
        server: str | None = None,
        *,
        thinking: Callable[[], Awaitable[Any]] | None = None,
    ) -> PuzzleResult:
        """Check a player's answer to a puzzle; the first one counts. See
        ``Puzzles.answer``."""
        return await self.puzzles.answer(player, puzzle_id, move, server, thinking)

    @service_verb
    async def puzzle_streak(self, player: Player) -> PuzzleStanding:
        """A player's puzzle record and streak. See ``Puzzles.streak``."""
        return await self.puzzles.streak(player)

    @service_verb
    async def puzzle_board(self, server: str, limit: int = 10) -> list[PuzzleStanding]:
        """A server's puzzle board, best first. See ``Puzzles.board``."""
        return await self.puzzles.board(server, limit)

    @service_verb
    async def tick(self) -> None:
        """Act on the clock now: expiries, reminders, forfeits. See ``Deadlines.tick``."""
        await self.deadlines.tick()

    # -- tournaments (bot.service.tournaments) --------------------------------------------------

    @service_verb
    async def create_tournament(
        self,
        by: Player,
        name: str,
        format: Format | str,
        rules: str,
        time_control: TimeControl,
        *,
        rounds: int | None = None,
        arena_minutes: int | None = None,
        starts_at: float | None = None,
        place: Channel | None = None,
        server: str | None = None,
        as_organiser: bool = False,
    ) -> TournamentView:
        """A new tournament, open to join. See ``Tournaments.create``."""
        return await self.tournaments.create(
            by,
            name,
            format,
            rules,
            time_control,
            rounds=rounds,
            arena_minutes=arena_minutes,
            starts_at=starts_at,
            place=place,
            server=server,
            as_organiser=as_organiser,
        )

    @service_verb
    async def join_tournament(self, tournament_id: int, by: Player) -> TournamentView:
        """``by`` joins. See ``Tournaments.join``."""
        return await self.tournaments.join(tournament_id, by)

    @service_verb
    async def withdraw_from_tournament(self, tournament_id: int, by: Player) -> TournamentView:
        """``by`` leaves or withdraws. See ``Tournaments.withdraw``."""
        return await self.tournaments.withdraw(tournament_id, by)

    @service_verb
    async def start_tournament(
        self, tournament_id: int, by: Player, as_organiser: bool = False
    ) -> TournamentView:
        """An organiser starts it now. See ``Tournaments.start``."""
        return await self.tournaments.start(tournament_id, by, as_organiser)

    @service_verb
    async def cancel_tournament(
        self, tournament_id: int, by: Player, as_organiser: bool = False
    ) -> TournamentView:
        """An organiser calls it off. See ``Tournaments.cancel``."""
        return await self.tournaments.cancel(tournament_id, by, as_organiser)

    @service_verb
    async def tournament(self, tournament_id: int) -> TournamentView:
        """A tournament by id. Raises NotFound."""
        return await self.tournaments.view(tournament_id)

    @service_verb
    async def list_tournaments(
        self,
        status: TournamentStatus | str | None = None,
        player: Player | None = None,
        limit: int = 20,
    ) -> list[TournamentView]:
        """Tournaments, newest first. See ``Tournaments.list_tournaments``."""
        return await self.tournaments.list_tournaments(status, player, limit)

    @service_verb
    async def tournament_pairings(
        self, tournament_id: int, round_no: int | None = None
    ) -> list[Pairing]:
        """A round's pairings. See ``Tournaments.pairings``."""
        return await self.tournaments.pairings(tournament_id, round_no)

    @service_verb
    async def tournament_standings(self, tournament_id: int) -> list[Standing]:
        """The standings with their tie-breaks. See ``Tournaments.standings``."""
        return await self.tournaments.standings(tournament_id)

    # -- correspondence: vacations, digests, conditional moves --------------------------------

    @service_verb
    async def start_vacation(self, player: Player, days: int | None = None) -> VacationStatus:
        """``player`` goes on vacation: clocks stand still. See ``Vacations.start``."""
        return await self.vacations.start(player, days)

    @service_verb
    async def stop_vacation(self, player: Player) -> VacationStatus:
        """``player`` is back. See ``Vacations.stop``."""
        return await self.vacations.stop(player)

    @service_verb
    async def vacation(self, player: Player) -> VacationStatus:
        """Whether ``player`` is away, and their allowance. See ``Vacations.status``."""
        return await self.vacations.status(player)

    @service_verb
    async def set_digest(self, player: Player, on: bool, hour: int | None = None) -> DigestSetting:
        """A daily digest instead of a mail per move, or not. See ``Digests.set``."""
        return await self.digests.set(player, on, hour)

    @service_verb
    async def digest_setting(self, player: Player) -> DigestSetting:
        """Whether ``player`` gets a daily digest, and when."""
        return await self.digests.setting(player)

    @service_verb
    async def digest_listing(self, player: Player, day: int) -> dict[int, int] | None:
        """The games (and plies) the player's digest of ``day`` listed. See
        ``Digests.listed``."""
        return await self.digests.listed(player, day)

    @service_verb
    async def set_premoves(
        self,
        game_id: int,
        by: Player,
        pairs: Sequence[tuple[str, str]],
        replace: bool = False,
    ) -> list[Premove]:
        """Conditional moves: (the opponent's turn, the answer) pairs. See
        ``Premoves.set``."""
        return await self.premoves.set(game_id, by, pairs, replace)

    @service_verb
    async def my_premoves(self, game_id: int, by: Player) -> list[Premove]:
        """``by``'s conditional moves in the game (theirs only)."""
        return await self.premoves.mine(game_id, by)

    @service_verb
    async def clear_premoves(self, game_id: int, by: Player) -> int:
        """Drop ``by``'s conditional moves in the game; how many there were."""
        return await self.premoves.clear(game_id, by)

    # -- looking (bot.service.looking) ----------------------------------------------------------

    @service_verb
    async def get_game(self, game_id: int) -> GameView:
        """A game by id. Raises NotFound."""
        return await self.games.get(game_id)

    @service_verb
    async def active_game(self, channel: Channel) -> GameView | None:
        """The active game in a channel, or None."""
        return await self.looking.active_game(channel)

    @service_verb
    async def board(self, game_id: int, perspective: Side | str | Player = Side.SOUTH) -> str:
        """The board as text, seen from a side or by a player. See ``Looking.board``."""
        return await self.looking.board(game_id, perspective)

    @service_verb
    async def open_game_count(self) -> int:
        """How many games are in progress, on every surface."""
        return await self.looking.open_game_count()

    @service_verb
    async def list_games(
        self, player: Player, include_finished: bool = False, limit: int = 50
    ) -> list[GameView]:
        """The player's games, theirs to move first. See ``Looking.list_games``."""
        return await self.looking.list_games(player, include_finished, limit)

    @service_verb
    async def export(self, game_id: int) -> str:
        """A game's record as text. See ``Looking.export``."""
        return await self.looking.export(game_id)

    @service_verb
    async def rating(self, player: Player, rules: str) -> Rating:
        """The player's rating in a ruleset. See ``Looking.rating``."""
        return await self.looking.rating(player, rules)

    @service_verb
    async def rating_history(self, player: Player, rules: str, limit: int = 50) -> list[RatingStep]:
        """The player's rating after each of their last rated games in a family, oldest first.
        See ``Looking.rating_history``."""
        return await self.looking.rating_history(player, rules, limit)

    @service_verb
    async def leaderboard(
        self, rules: str, limit: int = 10, server: tuple[str, str] | None = None
    ) -> list[Rating]:
        """The best-rated players of a ruleset. See ``Looking.leaderboard``."""
        return await self.looking.leaderboard(rules, limit, server)

    @service_verb
    async def head_to_head(
        self, player: Player, opponent: Player, rules: str | None = None
    ) -> list[HeadToHead]:
        """One player's record against another per family. See ``Looking.head_to_head``."""
        return await self.looking.head_to_head(player, opponent, rules)

    # -- players, pings and servers -------------------------------------------------------------

    @service_verb
    async def display_name(self, player: Player) -> str:
        """The player's display name, or a readable default."""
        return await self.players.display_name(player)

    @service_verb
    async def set_display_name(self, player: Player, name: str) -> None:
        """Remember how to call a player. See ``Players.set_display_name``."""
        await self.players.set_display_name(player, name)

    @service_verb
    async def player_number(self, player: Player) -> int:
        """The number the database knows ``player`` by, which names them on the web pages
        (``/player/N``) without their address. Records a player on first sight, as every
        verb does: ask it of players the bot has met (a game's)."""
        return await self.players.pid(player)

    @service_verb
    async def numbered_player(self, number: int) -> Player:
        """The player the database numbers ``number``. Raises NotFound."""
        return await self.players.player(number)

    def email_player(self, text: str) -> Player:
        """The email player at an address. See ``Players.email_player``."""
        with _refusal_leaving():
            return self.players.email_player(text)

    # -- accounts and a player's data (bot.service.identities) -----------------------------------
    # These take the account as given (the one that proves itself), not the player it is.

    @refusals_counted
    async def ask_link(self, by: Player, surface: str, address: str | None = None) -> LinkAsked:
        """A code linking ``by`` with an account on ``surface``. See ``Identities.ask_link``."""
        return await self.identities.ask_link(by, surface, address)

    @refusals_counted
    async def confirm_link(self, by: Player, code: str) -> Linked:
        """Link ``by``'s account with the asker of ``code``. See ``Identities.confirm_link``."""
        return await self.identities.confirm_link(by, code)

    @refusals_counted
    async def linked_accounts(self, by: Player) -> Linked:
        """The accounts of ``by``'s player. See ``Identities.linked``."""
        return await self.identities.linked(by)

    @refusals_counted
    async def unlink(self, by: Player, surface: str) -> Linked:
        """Split the player's account on ``surface`` off. See ``Identities.unlink``."""
        return await self.identities.unlink(by, surface)

    @refusals_counted
    async def send_news_to(self, by: Player, surface: str) -> Linked:
        """Send the player's news to their account on ``surface``. See
        ``Identities.send_news_to``."""
        return await self.identities.send_news_to(by, surface)

    @refusals_counted
    async def export_player(self, by: Player) -> str:
        """Everything stored about ``by``'s player, as JSON. See ``Identities.export``."""
        return await self.identities.export(by)

    @refusals_counted
    async def ask_delete(self, by: Player) -> str:
        """The code confirming ``by``'s deletion. See ``Identities.ask_delete``."""
        return await self.identities.ask_delete(by)

    @refusals_counted
    async def delete_player(self, by: Player, code: str) -> Deleted:
        """Delete ``by``'s player, confirmed by ``code``. See ``Identities.delete``."""
        return await self.identities.delete(by, code)

    @refusals_counted
    async def account_owner(self, account: Player) -> Player:
        """The player ``account`` plays as, as seats name them (a linked account: its
        player). Surfaces compare a game's players with this, not with the account."""
        return await self.players.owner(account)

    async def count_hits(self, hits: Sequence[Hit], now: float) -> list[bool]:
        """Count each of a surface's ``hits`` still under its limit, shared by every process on
        the database; for each, whether it was counted. See ``Limits.count``."""
        return await self.limits.count(hits, now)

    async def give_back_hits(self, hits: Sequence[Hit], now: float) -> None:
        """Undo ``count_hits`` of ``hits``. See ``Limits.give_back``."""
        await self.limits.give_back(hits, now)

    @refusals_counted
    async def stop_mail(self, player: Player, key: str, end_games: bool = True) -> Stopped:
        """The email ``player`` (their address keyed ``key``, ``bot.tokens.address_key``)
        wants no more mail, for good: their games end (``end_games``: only when the surface
        knows the request is theirs). See ``MailStops.stop``."""
        return await self.mail_stops.stop(player, key, end_games)

    async def start_mail(self, key: str) -> bool:
        """The address keyed ``key`` gets mail again. See ``MailStops.start``."""
        return await self.mail_stops.start(key)

    async def mail_stopped(self, key: str) -> bool:
        """Whether the address keyed ``key`` said stop: one indexed read."""
        return await self.mail_stops.is_stopped(key)

    def set_mail_address(self, address: str | None) -> None:
        """The bot's own address, once a mail surface is attached: nobody may challenge it."""
        self.players.mail_address = address

    @service_verb
    async def set_ping_mode(self, player: Player, mode: PingMode | str) -> None:
        """How ``player`` wants to hear it is their move. See ``Pings.set_mode``."""
        await self.pings.set_mode(player, mode)

    @service_verb
    async def set_language(self, player: Player, text: str | None) -> Language | None:
        """The language ``player`` chose, on every surface. See ``Languages.set``."""
        return await self.languages.set(player, text)

    @service_verb
    async def language_setting(self, player: Player) -> Language | None:
        """The language ``player`` chose, or None. See ``Languages.setting``."""
        return await self.languages.setting(player)

    @service_verb
    async def language_for(self, player: Player | None, *hints: Language | str | None) -> Language:
        """The language to answer ``player`` in. See ``Languages.for_player``."""
        return await self.languages.for_player(player, *hints)

    @service_verb
    async def ping_for_turn(
        self, game: GameView, actor: Player | None = None, place: ServerSettings | None = None
    ) -> Ping:
        """Whom to ping now that ``game.to_move`` has the turn. See ``Pings.for_turn``."""
        return await self.pings.for_turn(game, actor, place)

    @service_verb
    async def server_settings(self, surface: str, server_id: str | int) -> ServerSettings:
        """A server's settings (the defaults until its admins change one)."""
        return await self.servers.get(surface, str(server_id))

    @service_verb
    async def set_server_settings(
        self, surface: str, server_id: str | int, **changes: Any
    ) -> ServerSettings:
        """Change some of a server's settings. See ``Servers.update``."""
        return await self.servers.update(surface, str(server_id), **changes)

    @service_verb
    async def note_server_player(self, surface: str, server_id: str | int, player: Player) -> None:
        """Note that ``player`` plays on a server (for its own leaderboard)."""
        await self.servers.note_player(surface, str(server_id), player)

    # -- life cycle -----------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        clock: Callable[[], float] | None = None,
        ai_workers: int = DEFAULT_WORKERS,
        ai_time_limit: float | None = None,
        tick_every: float | None = 60.0,
        cache_ttl: float = 1.0,
        limits: AILimits | None = None,
    ) -> GameService:
        """A ready service on the database at ``path``: a SQLite file, or a ``postgresql://``
        URL (created, or migrated to the current schema, keeping all data). ``clock`` returns
        seconds (default: wall clock; tests pass a ``ManualClock``). ``ai_workers`` worker
        processes run AI searches (started on first use), in turn between players, within
        ``limits`` (``bot.service.ai_limits``). ``tick_every`` seconds a background
        task runs ``tick()`` (reminders, forfeits, expiries); None turns it off (tests call
        ``tick()`` themselves). Pending AI turns of unfinished games resume at once. For
        other processes on the same database, a game cached in memory is checked against it
        when older than ``cache_ttl`` seconds; on PostgreSQL, which tells every process of
        each change (LISTEN/NOTIFY), it is instead forgotten when told, a moment after the
        other process's commit."""
        store = await open_storage(path)
        service = cls(
            store, clock or SystemClock(), AIPool(ai_workers, ai_time_limit), cache_ttl, limits
        )
        await service.games.listen()  # other processes' changes, where the database tells
        await service.vacations.refresh()  # who is away, for the boards
        for game in await store.games.awaiting_ai():
            service.ai_turns.schedule(game.id)
        if tick_every:
            service._ticker = asyncio.create_task(service.deadlines.tick_forever(tick_every))
        return service

    async def close(self) -> None:
        """Stop the clock task, wait for AI turns and notifications in flight, close the file.

        AI turns still thinking are abandoned; they resume when the service opens again."""
        if self.tasks.closed:
            return
        if self._ticker:
            self._ticker.cancel()
        await self.tasks.close()
        self.ai.close()
        await self._store.close()

    async def __aenter__(self) -> GameService:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def add_notifier(self, surface: str, notifier: Notifier) -> None:
        """Route events for players on ``surface`` ("discord", "email", "terminal") to
        ``notifier``. A player whose surface has no notifier simply isn't told."""
        self.announcer.notifiers[surface] = notifier

    def add_place_maker(self, surface: str, maker: PlaceMaker) -> None:
        """Let ``surface`` make the place of each game of a tournament whose place is on it
        (Discord: a thread of the tournament's channel). Without one, such a game gets a
        place of its own. See ``Hooks.place_for_game``."""
        self.hooks.place_for_game.register(surface, maker)

    def now(self) -> float:
        """The service's clock time, in seconds (a ``ManualClock``'s in tests): what a surface
        adds a delay to, for a time the service compares with its own (a tournament's
        start)."""
        return self._clock()

    def ai_status(self) -> str:
        """The AI's compiled search: "ready", or "compiling" / "cold" while the search levels
        play through the quicker-to-start pure-Python search (a few plies shallower)."""
        return self.ai.status()

    def ai_reply_after(self, game: GameView) -> AIBusy | None:
        """If the AI is to move in ``game`` and its reply will come later than a surface's
        deadline (``AILimits.busy_after``), about when; ``str()`` of it is the note to show
        beside the player's move. See ``bot.service.ai_limits``."""
        return self.fairness.reply_after(game)

    async def idle(self) -> None:
        """Wait until no AI turn and no notification is in flight (for tests and the
        terminal, which waits for the AI's reply)."""
        await self.tasks.idle()

    async def kept_review(self, game_id: int) -> GameReview | None:
        """The review of a finished game if one was made, by any process on the database,
        else None; never starts one (a game's page shows it). See ``Reviews.kept``."""
        return await self.reviews.kept(game_id)

    def practise_puzzle(self, puzzle_id: str, move: str) -> Answer:
        """An answer to a puzzle checked for nobody, recorded nowhere (the web page's
        visitor). Raises UnknownPuzzle, IllegalMove, NoReview. See ``Puzzles.practise``."""
        with _refusal_leaving():
            return self.puzzles.practise(puzzle_id, move)
