"""The one storage interface the service talks to. Rows come back as the typed records of
``storage.records`` (a ``GameRecord``, a ``ChallengeRecord``...); new rows and changes go in as
its TypedDicts (``NewGame``, ``GameChanges``...), so a misspelt column is a type error. Times
are float seconds from the service's clock.

Every method that changes a game takes the ply the caller last saw and changes nothing (returning
False) when the stored ply differs: that compare-and-set, with the primary key on
(game_id, ply) of the move log, is what makes a move apply exactly once even with several
processes on one file.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from storage.records import (
    ChallengeRecord,
    ChallengeStatus,
    DigestRecord,
    DigestSettingRecord,
    Established,
    GameChanges,
    GameRecord,
    GameStatus,
    HeadToHeadRecord,
    MoveRecord,
    NewChallenge,
    NewGame,
    NewMove,
    NewPairing,
    NewPremove,
    NewPuzzleAttempt,
    NewTournament,
    PingMode,
    PlayerRecord,
    PremoveRecord,
    PuzzleStandingRecord,
    RatingRecord,
    TournamentGameRecord,
    TournamentPlayerRecord,
    TournamentRecord,
    TournamentStatus,
    VacationRecord,
)


class StorageError(Exception):
    """A storage failure that is not the user's doing."""


class StorageUnavailable(StorageError):
    """The database cannot be reached just now (a restart, a network cut). Nothing the call
    meant to write can be counted on, nor on not being written: the caller tells its user to
    try again, and a retry finds out (a move sent again for the same ply is refused as
    already played if it did land)."""


class ChannelTaken(StorageError):
    """A game is already active in that channel (the unique index refused a second one)."""


class Storage(ABC):
    # -- players
    @abstractmethod
    async def player_id(self, surface: str, external_id: str, now: float) -> int:
        """The id of a player, created on first sight."""

    @abstractmethod
    async def player(self, player_id: int) -> PlayerRecord | None: ...

    @abstractmethod
    async def set_display_name(self, player_id: int, name: str) -> None: ...

    @abstractmethod
    async def set_ping(self, player_id: int, ping: PingMode) -> None:
        """How the player wants to hear it is their move: mention, dm or off."""

    @abstractmethod
    async def set_language(self, player_id: int, language: str | None) -> None:
        """The language code the player chose (``None``: each surface guesses again)."""

    @abstractmethod
    async def set_language_seen(self, player_id: int, language: str) -> None:
        """The language code a surface last saw the player use."""

    @abstractmethod
    async def find_player(self, surface: str, external_id: str) -> PlayerRecord | None:
        """The player's row, if the player was ever seen (never adds one)."""

    # -- challenges
    @abstractmethod
    async def create_challenge(self, challenge: NewChallenge) -> int: ...

    @abstractmethod
    async def challenge(self, challenge_id: int) -> ChallengeRecord | None: ...

    @abstractmethod
    async def close_challenge(self, challenge_id: int, status: ChallengeStatus, now: float) -> bool:
        """Move an open challenge to ``status``; False if it was no longer open."""

    @abstractmethod
    async def accept_challenge(self, challenge_id: int, game: NewGame, now: float) -> int | None:
        """In one transaction: create the game and mark the challenge accepted. None if the
        challenge was no longer open; ChannelTaken if the channel has an active game."""

    @abstractmethod
    async def open_challenges(self, player_id: int) -> list[ChallengeRecord]: ...

    @abstractmethod
    async def due_challenges(self, now: float) -> list[ChallengeRecord]:
        """Open challenges whose expiry time has passed."""

    # -- games
    @abstractmethod
    async def create_game(self, game: NewGame) -> int:
        """Insert a game; ChannelTaken if its channel already has an active one."""

    @abstractmethod
    async def game(self, game_id: int) -> GameRecord | None: ...

    @abstractmethod
    async def active_game_in(self, channel_surface: str, channel_id: str) -> GameRecord | None: ...

    @abstractmethod
    async def game_with_moves(self, game_id: int) -> tuple[GameRecord | None, list[MoveRecord]]:
        """A game and its move log read in one snapshot (so they agree)."""

    @abstractmethod
    async def moves(self, game_id: int) -> list[MoveRecord]:
        """The move log of a game in ply order."""

    @abstractmethod
    async def record_move(
        self,
        game_id: int,
        ply: int,
        move: NewMove,
        changes: GameChanges,
        ratings: Sequence[RatingRecord] = (),
    ) -> bool:
        """Append ``move`` (ply ``ply + 1``) and apply ``changes`` to the game, if its stored
        ply is still ``ply`` and it is active; ``ratings`` rows are upserted in the same
        transaction (when the move ends the game). False if the ply moved on."""

    @abstractmethod
    async def update_game(
        self,
        game_id: int,
        ply: int,
        changes: GameChanges,
        ratings: Sequence[RatingRecord] = (),
    ) -> bool:
        """Apply ``changes`` if the game is active at ply ``ply``; False otherwise."""

    @abstractmethod
    async def take_back(self, game_id: int, ply: int, to_ply: int, changes: GameChanges) -> bool:
        """Delete the moves after ``to_ply`` and apply ``changes``, if the game is active at
        ``ply``; False otherwise."""

    @abstractmethod
    async def games_of(
        self, player_id: int, include_finished: bool, limit: int
    ) -> list[GameRecord]: ...

    @abstractmethod
    async def due_clocks(self, now: float) -> list[GameRecord]:
        """Active games whose reminder (not yet sent) or forfeit time has passed."""

    @abstractmethod
    async def claim_lease(self, name: str, holder: str, now: float, seconds: float) -> bool:
        """Take (or renew) the lease ``name`` for ``holder`` until ``now + seconds``, unless
        another holder has it and it has not expired. True when ``holder`` has it now."""

    @abstractmethod
    async def release_lease(self, name: str, holder: str) -> None: ...

    @abstractmethod
    async def claim_reminder(self, game_id: int, ply: int, now: float) -> bool:
        """Mark the active game at ``ply`` reminded at ``now``, unless it was already: True
        for the one caller (of every process) that should send the reminder."""

    @abstractmethod
    async def games_awaiting_ai(self) -> list[GameRecord]:
        """Active games where an AI player is to move."""

    # -- servers (a Discord server's settings)
    @abstractmethod
    async def server_settings(self, surface: str, server_id: str) -> str | None:
        """The JSON of a server's settings, or None if it never set any."""

    @abstractmethod
    async def set_server_settings(
        self, surface: str, server_id: str, settings: str, now: float
    ) -> None: ...

    @abstractmethod
    async def add_server_player(self, surface: str, server_id: str, player_id: int) -> None:
        """Note that a player plays on a server (once; again is a no-op)."""

    @abstractmethod
    async def count_games(self, status: GameStatus | None = None) -> int:
        """How many games there are (with ``status``: 'active' or 'over', if given)."""

    # -- ratings
    @abstractmethod
    async def rating(self, player_id: int, family: str) -> RatingRecord | None: ...

    @abstractmethod
    async def leaderboard(
        self,
        family: str,
        limit: int,
        server: tuple[str, str] | None = None,
        established: Established | None = None,
    ) -> list[RatingRecord]:
        """Rating rows of a family, best first, joined with the player's surface, external_id
        and display_name: everyone's, or (``server``: surface, server id) those who play on
        that server; with ``established``, only the ratings it lets through."""

    @abstractmethod
    async def head_to_head(self, first_id: int, second_id: int) -> list[HeadToHeadRecord]:
        """The finished games between two players, per ruleset, counted for the first."""

    # -- puzzles
    @abstractmethod
    async def record_puzzle_attempt(self, attempt: NewPuzzleAttempt) -> bool:
        """Store an answer to a puzzle: counted (True) if it is the player's first answer to
        that puzzle, else practice (False); one counted answer per player and puzzle, however
        many arrive at once."""

    @abstractmethod
    async def puzzles_seen(self, player_id: int) -> set[str]:
        """The ids of the puzzles the player has answered."""

    @abstractmethod
    async def puzzle_standing(self, player_id: int) -> PuzzleStandingRecord | None:
        """The player's counted answers summed up; None before their first."""

    @abstractmethod
    async def puzzle_board(self, server: str, limit: int) -> list[PuzzleStandingRecord]:
        """The standings of everyone with a counted answer on ``server``, best first (most
        solved, the longest streak, the current streak), joined with the player's surface,
        external_id and display_name."""

    # -- tournaments (bot.service.tournaments): each change a compare-and-set, so that with any
    # number of processes a tournament starts once, a round begins once, a pairing's game is
    # made once and a result is recorded once
    @abstractmethod
    async def create_tournament(self, tournament: NewTournament) -> int: ...

    @abstractmethod
    async def tournament(self, tournament_id: int) -> TournamentRecord | None: ...

    @abstractmethod
    async def tournaments(
        self, status: TournamentStatus | None, player_id: int | None, limit: int
    ) -> list[TournamentRecord]:
        """Tournaments, newest first: those in ``status``, those ``player_id`` joined."""

    @abstractmethod
    async def due_tournaments(self, now: float) -> list[TournamentRecord]:
        """Running tournaments, and open ones whose start time has come."""

    @abstractmethod
    async def tournament_players(self, tournament_id: int) -> list[TournamentPlayerRecord]:
        """Everyone who joined (withdrawn players too), in the order they joined."""

    @abstractmethod
    async def join_tournament(
        self, tournament_id: int, player_id: int, rating: float, now: float, most: int
    ) -> bool:
        """Add a player while the tournament is open (an arena: also while it runs) and has
        fewer than ``most`` players in; a player who withdrew from a running arena comes
        back. False if they are in already, it is full, or it is past joining."""

    @abstractmethod
    async def withdraw_from_tournament(
        self, tournament_id: int, player_id: int, now: float
    ) -> bool:
        """Before the start, the player leaves (their row goes); after it, they are marked
        withdrawn. False if they were not in (or had withdrawn already)."""

    @abstractmethod
    async def start_tournament(
        self,
        tournament_id: int,
        rounds: int,
        now: float,
        seeds: Sequence[tuple[int, int, float]],
    ) -> bool:
        """Open to running, with its number of rounds and each player's (player id, seed,
        rating), in one transaction; False if it was not open (started or cancelled)."""

    @abstractmethod
    async def begin_round(
        self, tournament_id: int, round_no: int, pairings: Sequence[NewPairing], now: float
    ) -> bool:
        """Move the running tournament's current round from ``round_no - 1`` to ``round_no``
        and write the round's pairings, in one transaction; False (nothing written) if
        another caller or process began it first."""

    @abstractmethod
    async def create_tournament_game(
        self, tournament_id: int, round_no: int, board: int, game: NewGame
    ) -> int | None:
        """Create the game of a pairing and note its id on the pairing, in one transaction;
        None (no game) if the pairing has its game already. ChannelTaken as ``create_game``."""

    @abstractmethod
    async def record_tournament_results(self, tournament_id: int, now: float) -> int:
        """Copy the result of each finished game of the tournament to its pairing, if not yet
        recorded; how many were recorded now."""

    @abstractmethod
    async def tournament_games(self, tournament_id: int) -> list[TournamentGameRecord]:
        """Every pairing of the tournament, by round and board."""

    @abstractmethod
    async def tournament_of_game(self, game_id: int) -> int | None:
        """The tournament a game belongs to, if any."""

    @abstractmethod
    async def claim_tournament_news(self, tournament_id: int, round_no: int) -> bool:
        """True for the one caller that is to announce round ``round_no`` (once)."""

    @abstractmethod
    async def end_tournament(
        self,
        tournament_id: int,
        status: TournamentStatus,
        now: float,
        ending: Sequence[TournamentStatus],
    ) -> bool:
        """Set the status (finished, cancelled) if the tournament is in one of ``ending``;
        False if it was not (it ended already)."""

    # -- correspondence on a human schedule (bot.service.vacations, digests, premoves)
    @abstractmethod
    async def start_vacation(self, player_id: int, started_at: float, ends_at: float) -> bool:
        """Open a vacation for the player; False if one is open already."""

    @abstractmethod
    async def open_vacations(self, player_id: int | None = None) -> list[VacationRecord]:
        """The vacations under way (the player's, at most one, when given)."""

    @abstractmethod
    async def vacations_since(self, player_id: int, since: float) -> list[VacationRecord]:
        """The player's vacations still open or ended after ``since``, oldest first."""

    @abstractmethod
    async def end_vacation(self, vacation: VacationRecord, ended_at: float) -> list[int] | None:
        """End the open vacation at ``ended_at`` and, in the same transaction, move the
        deadlines of each active game where its player is to move by the part of the
        vacation in that turn (``queries.SHIFT_DEADLINES``). None if it had ended already
        (another caller or process ended it); else the games whose deadlines moved."""

    @abstractmethod
    async def set_digest(
        self, player_id: int, hour: int | None, first_day: int, now: float
    ) -> None:
        """Turn the player's daily digest on at ``hour`` (UTC) from ``first_day``, or off
        (``hour`` None)."""

    @abstractmethod
    async def digest_setting(self, player_id: int) -> DigestSettingRecord | None: ...

    @abstractmethod
    async def due_digests(self, day: int, hour: int) -> list[DigestSettingRecord]:
        """Players whose digest of ``day`` is due by ``hour`` and not claimed yet."""

    @abstractmethod
    async def claim_digest(self, player_id: int, day: int, now: float, games: str) -> bool:
        """Record the player's digest of ``day`` listing ``games``: True for the one caller
        (of every process) that is to send it."""

    @abstractmethod
    async def digest(self, player_id: int, day: int) -> DigestRecord | None: ...

    @abstractmethod
    async def premoves(self, game_id: int, player_id: int | None = None) -> list[PremoveRecord]:
        """The conditional moves in a game (one player's, when given)."""

    @abstractmethod
    async def set_premoves(
        self,
        game_id: int,
        player_id: int,
        premoves: Sequence[NewPremove],
        now: float,
        replace: bool,
    ) -> None:
        """Store conditional moves (one per condition: the same condition again replaces its
        answer); with ``replace``, the player's others in the game go in the same
        transaction."""

    @abstractmethod
    async def take_premoves(self, game_id: int, player_id: int) -> list[PremoveRecord]:
        """Delete the player's conditional moves in the game and return them: the one caller
        that deletes them has them (an empty list for the others)."""

    # -- other processes' changes
    async def watch_games(self, callback: Callable[[int | None], None]) -> bool:
        """Call ``callback(game_id)`` whenever another process changes a game, if this backend
        can say so (PostgreSQL's LISTEN/NOTIFY), and ``callback(None)`` if it stops being able
        to (the listening connection was lost: any game may have changed since). False where
        it cannot (SQLite: the service checks its cached games against the file instead)."""
        return False

    # -- whole tables (moving a database between backends: storage.transfer)
    @abstractmethod
    async def table_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of ``table`` (one of storage.transfer.TABLES), in primary-key order."""

    @abstractmethod
    async def insert_rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        """Insert ``rows`` as they are, ids included, in one transaction."""

    @abstractmethod
    async def close(self) -> None: ...
