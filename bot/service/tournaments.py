"""Tournaments: Swiss, round robin (single and double) and arena, on any surface and across
them (docs/tournaments.md says the rules for players; ``bot.service.pairing`` pairs and
ranks, as pure functions).

Everything is in the database, and every step is a compare-and-set there, so a tournament
survives a restart at any moment and runs the same with any number of processes on one
database:

- a tournament starts once (``open`` to ``running``, with its seeds, in one transaction);
- a round begins once: its pairings are written in the transaction that moves the
  tournament's ``current_round`` from the round before (another process's attempt at the
  same round writes nothing), and each pairing's game is created in the transaction that
  notes its id on the pairing (once);
- a finished game's result is copied to its pairing once (``result IS NULL``), and the
  standings are computed from the pairings' results whenever asked, never counted up;
- the round's news goes out once (``announced_round``, compared-and-set).

``advance`` does whatever is due next, from the stored state alone: create a missing game,
record results, begin the next round (or the arena's next wave), finish. A game that ends
calls it (``Hooks.game_over``), and so does the clock's ``tick`` (``Hooks.tick_after``),
which resumes whatever a process stopped in the middle of.

South moves first in every tournament game, so the pairings' balance of sides is a balance
of who moves first. Games between two humans are rated as usual.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.i18n import N_, _, ngettext
from bot.service import errors
from bot.service.announcer import Announcer
from bot.service.challenges import Challenges
from bot.service.events import TournamentNews, TournamentNewsKind
from bot.service.games import Games, known_id, parse_rules
from bot.service.hooks import Hooks
from bot.service.looking import Looking
from bot.service.pairing import (
    Entrant,
    Line,
    Match,
    arena_pairs,
    round_robin,
    standings,
    swiss_round,
)
from bot.service.play import Play
from bot.service.players import Players
from bot.service.tasks import Tasks
from bot.service.tournament_views import (
    DAY,
    MINUTE,
    Format,
    Pairing,
    Standing,
    TimeControl,
    TournamentView,
    whole_within,
)
from bot.service.types import Channel, GameOptions, Player
from engine import excerpt
from storage import ChannelTaken
from storage.records import (
    NewPairing,
    NewTournament,
    Pace,
    PairingKind,
    PairingResult,
    TournamentGameRecord,
    TournamentPlayerRecord,
    TournamentRecord,
    TournamentStatus,
)
from storage.stores.tournaments import TournamentStore

log = logging.getLogger(__name__)

# The plain values are bot.service.tournament_views'; surfaces import them from here too.
__all__ = [
    "Format",
    "Pace",
    "Pairing",
    "PairingKind",
    "PairingResult",
    "Standing",
    "TimeControl",
    "TournamentStatus",
    "TournamentView",
    "Tournaments",
]

ARENA_MINUTES = (10, 24 * 60)  # an arena's length
MOST_SWISS_ROUNDS = 20
MOST_PLAYERS = 256
MOST_ROUND_ROBIN = 16  # players: a double round robin of 16 is 30 rounds already
NAME_LENGTH = 64
LATEST_START = 90 * DAY  # how far ahead a start may be set

# Why a tournament refuses what was asked, once it is past it: its state, then the request.
_STATE = {
    TournamentStatus.OPEN: N_("tournament #{id} has not started yet"),
    TournamentStatus.RUNNING: N_("tournament #{id} has started"),
    TournamentStatus.FINISHED: N_("tournament #{id} is over"),
    TournamentStatus.CANCELLED: N_("tournament #{id} was cancelled"),
}
_TOO_LATE = {
    "join": N_("it is too late or too early to join it"),
    "withdraw": N_("it is too late or too early to withdraw from it"),
    "start": N_("it is too late or too early to start it"),
    "cancel": N_("it is too late or too early to cancel it"),
}


def _entrant(record: TournamentPlayerRecord) -> Entrant:
    return Entrant(record.player_id, record.rating)


def _match(row: TournamentGameRecord) -> Match:
    return Match(row.round, row.south_id, row.north_id, row.kind, row.result)


@dataclass(eq=False, kw_only=True)
class Tournaments:
    """Creating, joining, withdrawing, starting and cancelling tournaments; their pairings,
    standings and news; ``advance`` and ``tick`` move them on."""

    tournament_store: TournamentStore
    clock: Callable[[], float]
    tasks: Tasks
    players: Players
    games: Games
    announcer: Announcer
    challenges: Challenges
    play: Play
    looking: Looking
    # It moves on when a game ends and every tick (Hooks.game_over, tick_after); it asks the
    # surface of a tournament's place where its games are played (Hooks.place_for_game: a
    # game gets a place of its own, "tournament:<id>.<round>.<board>", where the surface
    # registered none or it makes none).
    hooks: Hooks
    _advancing: dict[int, asyncio.Lock] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        self.hooks.game_over.subscribe(self.game_over)
        self.hooks.tick_after.subscribe(self.tick)

    # -- the verbs ----------------------------------------------------------------------------

    async def create(
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
        """A new tournament, open for players to join, organised by ``by``.

        ``format``: swiss (``rounds``, 1 to 20), round-robin, double-round-robin (rounds from
        the players at the start), arena (``arena_minutes``, 10 to 1440, live, in a place).
        ``starts_at``: a clock time to start at, or None for when an organiser says.
        ``place``: the Discord channel (of ``server``) its news is posted in, on the
        creator's own surface, where only the server's admins may create one: the surface
        passes ``as_organiser`` when ``by`` may manage the server; None: its players' inboxes
        (by mail, where the creator organises).

        Raises BadRules, BadRequest (a bad name, format, number, time or place), NotAllowed
        (a place without ``as_organiser``)."""
        self.tasks.check_open()
        self.players.check(by)
        if by.is_ai:
            raise errors.BadRequest(_("the AI does not organise tournaments"))
        ruleset = parse_rules(rules)
        kind = self._format(format)
        title = excerpt(str(name)[:1000], NAME_LENGTH).strip()
        if not title:
            raise errors.BadRequest(_("a tournament needs a name"))
        if not isinstance(time_control, TimeControl):
            raise errors.BadRequest(_("a tournament needs a time control: minutes or days a move"))
        now = self.clock()
        if kind is Format.SWISS:
            rounds = whole_within(
                rounds,
                (1, MOST_SWISS_ROUNDS),
                N_("a Swiss plays {low} to {high} rounds, not {value}"),
            )
        elif rounds is not None:
            raise errors.BadRequest(
                _(
                    "only a Swiss takes a number of rounds: a round robin has one per opponent, "
                    "an arena a length in minutes"
                )
            )
        seconds = None
        if kind is Format.ARENA:
            arena_minutes = whole_within(
                arena_minutes,
                ARENA_MINUTES,
                N_("an arena lasts {low} to {high} minutes, not {value}"),
            )
            seconds = arena_minutes * MINUTE
            if time_control.pace is not Pace.LIVE:
                raise errors.BadRequest(_("an arena is played live: give it minutes a move"))
            if place is None:
                raise errors.BadRequest(_("an arena is played in a Discord channel: give it one"))
        elif arena_minutes is not None:
            raise errors.BadRequest(_("only an arena takes a length in minutes"))
        if starts_at is not None:
            if not isinstance(starts_at, (int, float)) or isinstance(starts_at, bool):
                raise errors.BadRequest(_("a start time is a clock time in seconds"))
            if not now < starts_at <= now + LATEST_START:
                raise errors.BadRequest(_("a start time must be in the next 90 days"))
        if place is not None:
            if not isinstance(place, Channel) or place.surface != by.surface:
                raise errors.BadRequest(_("a tournament's place is a channel where you are"))
            if not server or not as_organiser:
                raise errors.NotAllowed(
                    # TRANSLATORS: Manage Server is Discord's name of the permission.
                    _("only the server's admins (Manage Server) can organise a tournament here")
                )
        new: NewTournament = {
            "name": title,
            "format": kind,
            "rules": str(ruleset),
            "rounds": rounds or 0,
            "pace": time_control.pace,
            "move_seconds": time_control.seconds,
            "arena_seconds": seconds,
            "starts_at": float(starts_at) if starts_at is not None else None,
            "place_surface": place.surface if place else None,
            "place_id": place.id if place else None,
            "place_server": str(server) if place and server else None,
            "creator_id": await self.players.pid(by),
            "created_at": now,
        }
        return await self.view(await self.tournament_store.create(new))

    async def join(self, tournament_id: int, by: Player) -> TournamentView:
        """``by`` joins the open tournament (an arena: also while it runs): a player by mail
        any tournament, a player of another surface one placed on it (where its games are
        played). Raises NotFound, BadRequest (the AI), TournamentClosed (started, over, or
        full), NotAllowed (in it already, or not where it is played)."""
        self.tasks.check_open()
        self.players.check(by)
        if by.is_ai:
            raise errors.BadRequest(_("the AI does not play in tournaments"))
        record = await self._record(tournament_id)
        if by.surface != "email" and by.surface != record.place_surface:
            raise errors.NotAllowed(
                _(
                    "tournament #{id} is played by mail; join it with your email address, "
                    "or join one held in a channel where you play"
                ).format(id=record.id)
            )
        if not self._joinable(record):
            raise errors.TournamentClosed(self._closed(record, "join"))
        pid = await self.players.pid(by)
        rating = (await self.looking.rating(by, record.rules)).rating
        if not await self.tournament_store.join(record.id, pid, rating, self.clock(), MOST_PLAYERS):
            entry = next(
                (p for p in await self.tournament_store.players(record.id) if p.player_id == pid),
                None,
            )
            if entry is not None and entry.withdrawn_at is None:
                raise errors.NotAllowed(
                    _("you are in tournament #{id} already").format(id=record.id)
                )
            record = await self._record(tournament_id)
            if not self._joinable(record):
                raise errors.TournamentClosed(self._closed(record, "join"))
            raise errors.TournamentClosed(
                _("tournament #{id} is full: {most} players at most").format(
                    id=record.id, most=MOST_PLAYERS
                )
            )
        view = await self.view(record.id)
        self._place_news(view, TournamentNewsKind.JOINED, player=by)
        if record.status is TournamentStatus.RUNNING:  # an arena: pair them at once
            self._advance_later(record.id)
        return view

    async def withdraw(self, tournament_id: int, by: Player) -> TournamentView:
        """``by`` leaves the tournament: before the start simply; once it runs, for good (a
        game of theirs going on is resigned; a round robin's later games are forfeits,
        docs/tournaments.md). Raises NotFound, NotAllowed (not in it), TournamentClosed
        (over)."""
        self.tasks.check_open()
        record = await self._record(tournament_id)
        if record.status not in (TournamentStatus.OPEN, TournamentStatus.RUNNING):
            raise errors.TournamentClosed(self._closed(record, "withdraw"))
        pid = await self.players.pid(by)
        if not await self.tournament_store.withdraw(record.id, pid, self.clock()):
            raise errors.NotAllowed(
                _("you are not playing in tournament #{id}").format(id=record.id)
            )
        for row in await self.tournament_store.games(record.id):
            if (
                row.game_id is not None
                and row.result is None
                and pid in (row.south_id, row.north_id)
            ):
                with contextlib.suppress(errors.ServiceError):  # it ended meanwhile
                    await self.play.resign(row.game_id, by)
        view = await self.view(record.id)
        self._place_news(view, TournamentNewsKind.WITHDRAWN, player=by)
        self._advance_later(record.id)
        return view

    async def start(
        self, tournament_id: int, by: Player, as_organiser: bool = False
    ) -> TournamentView:
        """An organiser starts the tournament now: its first round is paired at once. Raises
        NotFound, NotAllowed (not an organiser), TournamentClosed (started already, over),
        TooFewPlayers."""
        self.tasks.check_open()
        record = await self._record(tournament_id)
        await self._check_organiser(record, by, as_organiser)
        if record.status is not TournamentStatus.OPEN:
            raise errors.TournamentClosed(self._closed(record, "start"))
        problem = self._cannot_start(record, await self._in(record.id))
        if problem:
            raise errors.TooFewPlayers(problem)
        if not await self._start(record):
            raise errors.TournamentClosed(
                _("tournament #{id} started meanwhile").format(id=record.id)
            )
        await self.advance(record.id)
        return await self.view(record.id)

    async def cancel(
        self, tournament_id: int, by: Player, as_organiser: bool = False
    ) -> TournamentView:
        """An organiser calls the tournament off: no more rounds; games going on finish as
        ordinary games. Raises NotFound, NotAllowed, TournamentClosed (over already)."""
        self.tasks.check_open()
        record = await self._record(tournament_id)
        await self._check_organiser(record, by, as_organiser)
        if not await self._end(record, TournamentStatus.CANCELLED):
            raise errors.TournamentClosed(self._closed(await self._record(record.id), "cancel"))
        return await self.view(record.id)

    async def view(self, tournament_id: int) -> TournamentView:
        """A tournament by id. Raises NotFound."""
        record = await self._record(tournament_id)
        entries = await self.tournament_store.players(record.id)
        players = [await self.players.player(p.player_id) for p in entries]
        return TournamentView(
            id=record.id,
            name=record.name,
            format=record.format,
            rules=record.rules,
            status=record.status,
            rounds=record.rounds,
            current_round=record.current_round,
            time_control=TimeControl.of(record.pace, record.move_seconds),
            creator=await self.players.player(record.creator_id),
            place=(
                Channel(record.place_surface, record.place_id)
                if record.place_surface and record.place_id
                else None
            ),
            server=record.place_server,
            players=tuple(
                p for p, e in zip(players, entries, strict=True) if e.withdrawn_at is None
            ),
            withdrawn=tuple(
                p for p, e in zip(players, entries, strict=True) if e.withdrawn_at is not None
            ),
            created_at=record.created_at,
            starts_at=record.starts_at,
            started_at=record.started_at,
            ended_at=record.ended_at,
            arena_minutes=(
                round(record.arena_seconds / MINUTE) if record.arena_seconds is not None else None
            ),
        )

    async def list_tournaments(
        self,
        status: TournamentStatus | str | None = None,
        player: Player | None = None,
        limit: int = 20,
    ) -> list[TournamentView]:
        """Tournaments, newest first: those in ``status``, those ``player`` joined."""
        if status is not None:
            try:
                status = TournamentStatus(str(status))
            except ValueError:
                words = ", ".join(TournamentStatus)
                raise errors.BadRequest(
                    # TRANSLATORS: {statuses} are the statuses' keywords: keep them.
                    _("a tournament is {statuses}; not '{status}'").format(
                        statuses=words, status=excerpt(status)
                    )
                ) from None
        pid = await self.players.pid(player) if player is not None else None
        limit = max(1, min(int(limit), 100))
        records = await self.tournament_store.find(status, pid, limit)
        return [await self.view(r.id) for r in records]

    async def pairings(self, tournament_id: int, round_no: int | None = None) -> list[Pairing]:
        """A round's pairings (None: the round under way; an arena's: every game so far), by
        board. Raises NotFound."""
        record = await self._record(tournament_id)
        rows = await self.tournament_store.games(record.id)
        if record.format is Format.ARENA and round_no is None:
            chosen = rows
        else:
            wanted = record.current_round if round_no is None else round_no
            chosen = [row for row in rows if row.round == wanted]
        return [await self._pairing(row) for row in chosen]

    async def standings(self, tournament_id: int) -> list[Standing]:
        """The standings as of now, best first (games going on count when they end). Raises
        NotFound."""
        record = await self._record(tournament_id)
        return await self._standings(
            record,
            await self.tournament_store.players(record.id),
            await self.tournament_store.games(record.id),
        )

    # -- moving on ----------------------------------------------------------------------------

    def game_over(self, game_id: int) -> None:
        """A game ended (``Hooks.game_over``, after its commit): if it is a tournament's, move
        the tournament on, in the background."""
        if not self.tasks.closed:
            self.tasks.spawn(self._game_over(game_id), name="tournament")

    async def _game_over(self, game_id: int) -> None:
        try:
            tournament_id = await self.tournament_store.of_game(game_id)
            if tournament_id is not None:
                await self.advance(tournament_id)
        except errors.ServiceClosed:
            pass  # the next process's tick moves it on
        except Exception:  # the tick tries again
            log.exception("moving on after game %s failed", game_id)

    def _advance_later(self, tournament_id: int) -> None:
        self.tasks.spawn(self._advance_logged(tournament_id), name="tournament")

    async def _advance_logged(self, tournament_id: int) -> None:
        try:
            await self.advance(tournament_id)
        except errors.ServiceClosed:
            pass  # the next process's tick moves it on
        except Exception:
            log.exception("moving tournament %s on failed", tournament_id)

    async def tick(self) -> None:
        """Start the tournaments whose time has come, and move every running one on (the
        clock calls this every minute: it resumes what a stopped process left halfway)."""
        for record in await self.tournament_store.due(self.clock()):
            try:
                await self.advance(record.id)
            except errors.ServiceClosed:
                return
            except Exception:
                log.exception("tournament %s: moving on failed", record.id)

    async def advance(self, tournament_id: int) -> None:
        """Do whatever is due next in the tournament, as often as something is: start it at
        its time (or cancel it, short of players), create missing games, record results,
        begin the next round or wave, announce, finish. Safe to call any time, from any
        process, any number of times."""
        lock = self._advancing.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            for _pass in range(MOST_SWISS_ROUNDS * 2 + 4):  # each begins a round or ends
                self.tasks.check_open()
                if not await self._step(await self._record(tournament_id)):
                    break

    async def _step(self, record: TournamentRecord) -> bool:
        """One step of ``advance``; True if it changed something worth another look."""
        now = self.clock()
        if record.status is TournamentStatus.OPEN:
            if record.starts_at is None or record.starts_at > now:
                return False
            entries = await self._in(record.id)
            if self._cannot_start(record, entries):
                await self._end(record, TournamentStatus.CANCELLED)
                return False
            return await self._start(record)
        if record.status is not TournamentStatus.RUNNING:
            return False
        await self.tournament_store.record_results(record.id, now)
        entries = await self.tournament_store.players(record.id)
        rows = await self.tournament_store.games(record.id)
        current = [row for row in rows if row.round == record.current_round]
        missing = [r for r in current if r.kind is PairingKind.GAME and r.game_id is None]
        if missing:
            await self._make_games(record, missing)
            rows = await self.tournament_store.games(record.id)
            current = [row for row in rows if row.round == record.current_round]
        if record.current_round and record.announced_round < record.current_round:
            await self._announce_round(record, entries, rows, current)
        if record.format is Format.ARENA:
            return await self._arena_step(record, entries, rows, now)
        if any(row.result is None for row in current):
            return False  # the round goes on
        active = [e for e in entries if e.withdrawn_at is None]
        if record.current_round >= record.rounds or (
            record.format is Format.SWISS and len(active) < 2
        ):
            await self._end(record, TournamentStatus.FINISHED)
            return False
        pairings = await self._next_round(record, entries, rows)
        return await self.tournament_store.begin_round(
            record.id, record.current_round + 1, pairings, now
        )

    async def _next_round(
        self,
        record: TournamentRecord,
        entries: Sequence[TournamentPlayerRecord],
        rows: Sequence[TournamentGameRecord],
    ) -> list[NewPairing]:
        """The pairings of the round after the current one, from the stored state alone (so
        two processes compute the same)."""
        round_no = record.current_round + 1
        pairings: list[NewPairing] = []
        if record.format is Format.SWISS:
            active = [_entrant(e) for e in entries if e.withdrawn_at is None]
            history = [_match(row) for row in rows]
            # a large field's search may take a moment: off the event loop
            paired = await asyncio.to_thread(swiss_round, active, history, round_no)
            for board, m in enumerate(paired.matches, 1):
                pairings.append(
                    {
                        "board": board,
                        "south_id": m.south,
                        "north_id": m.north,
                        "kind": m.kind,
                        "result": m.result,
                    }
                )
            return pairings
        seeded = sorted((e for e in entries if e.seed is not None), key=lambda e: e.seed or 0)
        schedule = round_robin(
            [e.player_id for e in seeded], double=record.format is Format.DOUBLE_ROUND_ROBIN
        )
        gone = {e.player_id for e in entries if e.withdrawn_at is not None}
        for board, (south, north) in enumerate(schedule[round_no - 1], 1):
            if south in gone or north in gone:  # not played: a forfeit for whoever is still in
                result = (
                    PairingResult.NONE
                    if south in gone and north in gone
                    else PairingResult.NORTH
                    if south in gone
                    else PairingResult.SOUTH
                )
                kind = PairingKind.FORFEIT
            else:
                kind, result = PairingKind.GAME, None
            pairings.append(
                {
                    "board": board,
                    "south_id": south,
                    "north_id": north,
                    "kind": kind,
                    "result": result,
                }
            )
        return pairings

    async def _arena_step(
        self,
        record: TournamentRecord,
        entries: Sequence[TournamentPlayerRecord],
        rows: Sequence[TournamentGameRecord],
        now: float,
    ) -> bool:
        """Pair whoever is free while the arena's time runs; after it, finish once the last
        game is over."""
        going = [row for row in rows if row.result is None]
        ends = (record.started_at or now) + (record.arena_seconds or 0.0)
        if now >= ends:
            if not going:
                await self._end(record, TournamentStatus.FINISHED)
            return False
        busy = {p for row in going for p in (row.south_id, row.north_id)}
        active = [e for e in entries if e.withdrawn_at is None]
        free = [_entrant(e) for e in active if e.player_id not in busy]
        wave = record.current_round + 1
        matches = arena_pairs(free, [_match(row) for row in rows], wave, alone=len(active) == 2)
        if not matches:
            return False
        pairings: list[NewPairing] = [
            {
                "board": board,
                "south_id": m.south,
                "north_id": m.north,
                "kind": PairingKind.GAME,
                "result": None,
            }
            for board, m in enumerate(matches, 1)
        ]
        return await self.tournament_store.begin_round(record.id, wave, pairings, now)

    async def _make_games(
        self, record: TournamentRecord, rows: Sequence[TournamentGameRecord]
    ) -> None:
        """Create the games of pairings that have none yet, each once (the store notes the
        game on its pairing in the same transaction, or makes none)."""
        # A correspondence tournament's games are days-a-move games (a reminder when a day
        # is left, clocks that stand still on vacation); a live one's, minutes a move.
        correspondence = record.pace is Pace.CORRESPONDENCE
        options = GameOptions(
            side="south",
            first="south",
            forfeit_after=record.move_seconds,
            expires_after=0,
            rated=True,
            days=round(record.move_seconds / DAY) if correspondence else None,
        )
        gone = {
            e.player_id
            for e in await self.tournament_store.players(record.id)
            if e.withdrawn_at is not None
        }
        maker = self.hooks.place_for_game.get(record.place_surface or "")
        view = await self.view(record.id) if maker is not None else None
        for row in rows:
            if row.north_id is None:
                continue
            south = await self.players.player(row.south_id)
            north = await self.players.player(row.north_id)
            channel = None
            if maker is not None and view is not None:
                try:
                    channel = await maker(view, await self._pairing(row))
                except Exception:  # the game is played without a place of its own
                    log.exception("tournament %s: no place made for a game", record.id)
            channel = channel or Channel("tournament", f"{record.id}.{row.round}.{row.board}")
            new = await self.challenges.game_row(record.rules, south, north, channel, options)
            try:
                made = await self.tournament_store.create_game(record.id, row.round, row.board, new)
            except ChannelTaken:
                continue  # another process made this game a moment ago
            for pid, player in ((row.south_id, south), (row.north_id, north)):
                if made is not None and pid in gone:  # withdrew as the round began
                    with contextlib.suppress(errors.ServiceError):
                        await self.play.resign(made, player)

    async def _announce_round(
        self,
        record: TournamentRecord,
        entries: Sequence[TournamentPlayerRecord],
        rows: Sequence[TournamentGameRecord],
        current: Sequence[TournamentGameRecord],
    ) -> None:
        """Tell the round's players their pairing (and the place the whole round), once every
        game of it exists, once across processes."""
        round_no = record.current_round
        if any(r.kind is PairingKind.GAME and r.game_id is None for r in current):
            return  # a game is still to be made: the next pass announces
        if not await self.tournament_store.claim_news(record.id, round_no):
            return
        view = await self.view(record.id)
        pairings = tuple([await self._pairing(row) for row in current])
        table = tuple(
            await self._standings(record, entries, [r for r in rows if r.round < round_no])
        )
        arena = record.format is Format.ARENA
        recipients = (
            [p for pairing in pairings for p in (pairing.south, pairing.north) if p]
            if arena
            else list(view.players)
        )

        games = {
            p.game_id: await self.games.get(p.game_id) for p in pairings if p.game_id is not None
        }

        def news(who: Player) -> TournamentNews:
            mine = next((p for p in pairings if p.has(who)), None)
            game = games.get(mine.game_id) if mine is not None and mine.game_id else None
            kind = TournamentNewsKind.ROUND_STARTED
            return TournamentNews(who, view, kind, round_no, mine, pairings, table, game=game)

        self.announcer.notify(recipients, news)
        if not arena or round_no == 1:
            self._place_news(view, TournamentNewsKind.ROUND_STARTED, round_no, pairings, table)

    # -- steps that change the status ---------------------------------------------------------

    def _cannot_start(
        self, record: TournamentRecord, entries: Sequence[TournamentPlayerRecord]
    ) -> str | None:
        """Why the tournament cannot start with these players, or None."""
        count = len(entries)
        if record.format is Format.SWISS and count < 2 * record.rounds:
            return ngettext(
                "a Swiss of {rounds} round needs at least {least} players (then nobody has to "
                "meet anyone twice); {count} joined",
                "a Swiss of {rounds} rounds needs at least {least} players (then nobody has to "
                "meet anyone twice); {count} joined",
                record.rounds,
            ).format(rounds=record.rounds, least=2 * record.rounds, count=count)
        if count < 2:
            return _("a tournament needs at least 2 players; {count} joined").format(count=count)
        if record.format in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN) and (
            count > MOST_ROUND_ROBIN
        ):
            return _("a round robin takes {most} players at most; {count} joined").format(
                most=MOST_ROUND_ROBIN, count=count
            )
        return None

    async def _start(self, record: TournamentRecord) -> bool:
        """Open to running, once: seeds by rating (refreshed now), then joining order."""
        entries = await self._in(record.id)
        rated = [
            (
                e,
                (
                    await self.looking.rating(await self.players.player(e.player_id), record.rules)
                ).rating,
            )
            for e in entries
        ]
        rated.sort(key=lambda pair: (-pair[1], pair[0].joined_at, pair[0].player_id))
        seeds = [(e.player_id, seed, rating) for seed, (e, rating) in enumerate(rated, 1)]
        count = len(seeds)
        if record.format is Format.SWISS:
            rounds = record.rounds
        elif record.format is Format.ARENA:
            rounds = 0
        else:
            rounds = (count - 1 if count % 2 == 0 else count) * (
                2 if record.format is Format.DOUBLE_ROUND_ROBIN else 1
            )
        return await self.tournament_store.start(record.id, rounds, self.clock(), seeds)

    async def _end(self, record: TournamentRecord, status: TournamentStatus) -> bool:
        """Finish or cancel, once; tell the players and the place."""
        ending = (
            [TournamentStatus.RUNNING]
            if status is TournamentStatus.FINISHED
            else [TournamentStatus.OPEN, TournamentStatus.RUNNING]
        )
        if not await self.tournament_store.end(record.id, status, self.clock(), ending):
            return False
        view = await self.view(record.id)
        table = tuple(await self.standings(record.id))
        kind = (
            TournamentNewsKind.FINISHED
            if status is TournamentStatus.FINISHED
            else TournamentNewsKind.CANCELLED
        )
        self.announcer.notify(
            [*view.players, *view.withdrawn],
            lambda who: TournamentNews(who, view, kind, record.current_round, standings=table),
        )
        self._place_news(view, kind, record.current_round, standings=table)
        return True

    # -- helpers ------------------------------------------------------------------------------

    def _place_news(
        self,
        view: TournamentView,
        kind: TournamentNewsKind,
        round_no: int = 0,
        pairings: tuple[Pairing, ...] = (),
        standings: tuple[Standing, ...] = (),
        player: Player | None = None,
    ) -> None:
        """News for the tournament's place, through its creator's (the place's) surface."""
        if view.place is None:
            return
        self.announcer.notify(
            [view.creator],
            lambda who: TournamentNews(
                who, view, kind, round_no, None, pairings, standings, player, in_place=True
            ),
        )

    async def _record(self, tournament_id: int) -> TournamentRecord:
        record = await self.tournament_store.get(known_id(tournament_id, "tournament"))
        if record is None:
            raise errors.NotFound(_("there is no tournament #{id}").format(id=tournament_id))
        return record

    async def _in(self, tournament_id: int) -> list[TournamentPlayerRecord]:
        entries = await self.tournament_store.players(tournament_id)
        return [e for e in entries if e.withdrawn_at is None]

    @staticmethod
    def _format(value: Format | str) -> Format:
        try:
            return Format(str(value).strip().lower())
        except ValueError:
            formats = ", ".join(Format)
            raise errors.BadRequest(
                # TRANSLATORS: {formats} are the formats' keywords (swiss, arena...): keep them.
                _("a tournament is one of: {formats}; not '{format}'").format(
                    formats=formats, format=excerpt(value)
                )
            ) from None

    @staticmethod
    def _joinable(record: TournamentRecord) -> bool:
        return record.status is TournamentStatus.OPEN or (
            record.status is TournamentStatus.RUNNING and record.format is Format.ARENA
        )

    @staticmethod
    def _closed(record: TournamentRecord, action: str) -> str:
        """Why ``action`` (join, withdraw, start, cancel) comes too late or too early."""
        state = _(_STATE[record.status]).format(id=record.id)
        # TRANSLATORS: {state} is "tournament #3 has started"; {reason} "it is too late...".
        return _("{state}: {reason}").format(state=state, reason=_(_TOO_LATE[action]))

    async def _check_organiser(
        self, record: TournamentRecord, by: Player, as_organiser: bool
    ) -> None:
        """The creator organises; so do the admins of the tournament's Discord server (the
        surface says so with ``as_organiser``, having checked Manage Server there)."""
        if await self.players.pid(by) == record.creator_id:
            return
        if as_organiser and record.place_server is not None and by.surface == record.place_surface:
            return
        raise errors.NotAllowed(
            _("only the tournament's organisers can do that: its creator, or the server's admins")
        )

    async def _pairing(self, row: TournamentGameRecord) -> Pairing:
        return Pairing(
            round=row.round,
            board=row.board,
            south=await self.players.player(row.south_id),
            north=await self.players.player(row.north_id) if row.north_id is not None else None,
            kind=row.kind,
            game_id=row.game_id,
            result=row.result,
        )

    async def _standings(
        self,
        record: TournamentRecord,
        entries: Sequence[TournamentPlayerRecord],
        rows: Sequence[TournamentGameRecord],
    ) -> list[Standing]:
        lines: list[Line] = standings(
            [_entrant(e) for e in entries],
            [_match(row) for row in rows],
            arena=record.format is Format.ARENA,
        )
        gone = {e.player_id for e in entries if e.withdrawn_at is not None}
        return [
            Standing(
                rank=line.rank,
                player=await self.players.player(line.player),
                points=line.points,
                buchholz=line.buchholz,
                sonneborn_berger=line.sonneborn_berger,
                rating=line.rating,
                games=line.games,
                wins=line.wins,
                draws=line.draws,
                losses=line.losses,
                withdrawn=line.player in gone,
            )
            for line in lines
        ]
