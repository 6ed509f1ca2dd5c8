"""The game service: every surface (terminal, Discord, email) calls it, and it alone decides
who may do what. It keeps everything in the database (``storage``: a SQLite file, or
PostgreSQL for several processes) and runs the AI in worker processes
(``bot.ai_runtime``), so the event loop never blocks.

How a surface uses the service::

    from bot.service import GameService, Player, Channel, Notifier, ServiceError

    class DiscordNotifier(Notifier):
        async def on_move(self, event):            # the opponent moved (or the AI did)
            await post(event.game.channel, event.game.board(event.game.side_of(event.recipient)))

    service = await GameService.open("mancala.sqlite3")        # or open(path, clock=ManualClock())
    service.add_notifier("discord", DiscordNotifier())
    alice, bob = Player("discord", "1234"), Player("discord", "5678")
    here = Channel("discord", "998877")
    try:
        challenge = await service.challenge(alice, bob, "wari:captures=2-4", here)
        game = await service.accept(challenge.id, bob)
        game = await service.move(game.id, alice, "E", expected_ply=game.ply)
        print(game.board("south"))
    except ServiceError as err:
        await reply(str(err))                      # every message is fit to show a user
    await service.close()

Against the AI, challenge ``Player.ai(level)`` (any level in ``engine.ai.LEVELS``): the game
starts at once, and the AI's replies arrive as ``MoveMade`` events (``await service.idle()``
waits for them, for tests and the terminal). ``await service.hint(game.id, alice)`` asks the
strongest AI for the player to move (in games against the AI or unrated ones). The AI serves
players in turn, and caps what one player may ask of it (``bot.service.ai_limits``): past a
cap the request is refused with ``TooMuchAIWork``; ``service.ai_reply_after(game)`` says when
a reply will come late, for the surface to show.

What an offer (a draw, an agreed end, a take-back) says, made or answered, on any surface, is
written once, in ``bot.service.offer_words``: each surface translates it where it shows it.

One service per process is the intended shape; several processes on one database (``mancala
bot`` and ``mancala mail``) are safe: a move is compare-and-set on its ply in SQL, and a cached
game is checked against the database after ``cache_ttl`` seconds (at once on PostgreSQL, which
announces each change). A move is acknowledged (its method
returns) only after its transaction commits, so a crash loses no acknowledged move.

Moves are pit letters in the engine's notation: South's pits uppercase, North's lowercase
(where the ruleset lets a player sow only their own pits, either case names their own pit).
A surface that shows North the board turned round converts with ``engine.from_perspective``.

The modules. The facade, ``core`` (``GameService``), builds one part of each kind below and
hands each the parts it uses; parts react to one another only through ``hooks``:

- ``core``: ``GameService``, every verb a surface calls, and the life cycle (open, close)
- ``hooks``: the internal hooks, each reaction of one part to another, named and typed
- ``types``: the values handed out (players, channels, games, challenges, options, ratings)
- ``events``: what players are told (``MoveMade``, ``GameOver``...) and the ``Notifier``
- ``errors``: the typed refusals, each message fit to show a user
- ``offer_words``: the wording of offers (draw, agreed end, undo), for every surface
- ``players``: who plays, their ids and display names; ``addresses``: email addresses as
  players
- ``games``: reading, locking, committing and ending a game; ``live``: a game held in memory
- ``announcer``: telling the players of each change, through their surface's notifier
- ``challenges``: challenge, accept, decline, cancel, expiry, start a game
- ``play``: moves, resignation, offers (draw, agreed end, undo) and their answers
- ``ai_turns``: the AI's moves and hints; ``ai_limits``: what one player may ask of the AI
- ``reviews``: a finished game, or one a player brings as a record, reviewed move by move by
  the solver
- ``puzzles``: the daily puzzle and more, answers, streaks, a server's puzzle board
- ``tournaments``: Swiss, round robin and arena tournaments; ``tournament_views``: their
  plain values (time control, pairings, standings, the tournament); ``pairing``: pairings
  and standings as pure functions
- ``deadlines``: the clock's tick (reminders, forfeits, expiries); ``clock``: the clocks,
  and when a turn's deadlines fall
- ``looking``: boards, a player's games, a game's record, ratings, leaderboards;
  ``ratings``: Glicko-2, per family of rulesets
- ``pings``: whom to ping when it is their move; ``servers``: a Discord server's settings;
  ``languages``: which language a player is answered in
- ``vacations``, ``digests``, ``premoves``: correspondence on a human schedule (clocks that
  stand still, a daily digest by mail, conditional moves)
- ``mail_stops``: addresses that said ``stop``, and what a stop ends (their games)
- ``limits``: a surface's limits (mail replies, challenges to strangers, Discord cooldowns)
  counted in the database, so every process shares them (``Hit``, ``GameService.count_hits``)
- ``identities``: one player on several surfaces (linking a Discord account and a mail
  address with a code from each side), and a player's data exported or deleted
- ``surface_defaults``: each surface's defaults for clocks and challenges
- ``tasks``: the background work and the service's open or closed state
"""

from bot.service.ai_limits import AIBusy, AILimits
from bot.service.clock import ManualClock, SystemClock
from bot.service.core import GameService
from bot.service.errors import (
    BadRequest,
    BadRules,
    ChallengeClosed,
    ChannelBusy,
    DuplicateMove,
    GameFinished,
    IllegalMove,
    NoHint,
    NoOffer,
    NoReview,
    NotAllowed,
    NotFound,
    NotYourTurn,
    ServiceClosed,
    ServiceError,
    StaleMove,
    TooFewPlayers,
    TooMuchAIWork,
    TournamentClosed,
    Unavailable,
    UnknownPuzzle,
)
from bot.service.events import (
    ChallengeAnswered,
    ChallengeReceived,
    Event,
    Forfeit,
    GameOver,
    MoveMade,
    Notifier,
    OfferAnswered,
    OfferMade,
    PlayerLeft,
    Recorder,
    Reminder,
    TournamentNews,
    TournamentNewsKind,
)
from bot.service.limits import Hit
from bot.service.offer_words import OFFER_ASKS, OFFER_NOUNS
from bot.service.surface_defaults import SURFACE_DEFAULTS, SurfaceDefaults
from bot.service.types import (
    Challenge,
    ChallengeStatus,
    Channel,
    GameOptions,
    GameStatus,
    GameView,
    Hint,
    Offer,
    OfferKind,
    Player,
    Rating,
    RatingStep,
    Side,
)

__all__ = [
    "AIBusy",
    "AILimits",
    "OFFER_ASKS",
    "OFFER_NOUNS",
    "BadRequest",
    "BadRules",
    "Challenge",
    "ChallengeAnswered",
    "ChallengeClosed",
    "ChallengeStatus",
    "ChallengeReceived",
    "Channel",
    "ChannelBusy",
    "DuplicateMove",
    "Event",
    "Forfeit",
    "PlayerLeft",
    "GameFinished",
    "GameOptions",
    "GameOver",
    "GameService",
    "Hit",
    "GameStatus",
    "GameView",
    "Hint",
    "IllegalMove",
    "ManualClock",
    "MoveMade",
    "NoHint",
    "NoOffer",
    "NoReview",
    "NotAllowed",
    "NotFound",
    "NotYourTurn",
    "Notifier",
    "Offer",
    "OfferAnswered",
    "OfferKind",
    "OfferMade",
    "Player",
    "Rating",
    "RatingStep",
    "Recorder",
    "Reminder",
    "SURFACE_DEFAULTS",
    "ServiceClosed",
    "Side",
    "ServiceError",
    "StaleMove",
    "SurfaceDefaults",
    "SystemClock",
    "TooFewPlayers",
    "TooMuchAIWork",
    "TournamentClosed",
    "TournamentNews",
    "TournamentNewsKind",
    "Unavailable",
    "UnknownPuzzle",
]
