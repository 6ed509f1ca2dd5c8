"""The schema, as numbered migrations applied in order on start.

A migration only adds (tables, columns, indexes), so an upgrade never loses data; each runs in
one transaction with the bump of ``schema_version``. The SQL is SQLite's; the PostgreSQL
backend runs the same list through ``storage.postgres_driver.postgres_sql``, which spells
``INTEGER PRIMARY KEY``, ``REAL`` and ``WITHOUT ROWID`` its way: one schema for both.

>>> [version for version, _ in MIGRATIONS][:6]
[1, 2, 3, 4, 5, 6]
"""

from __future__ import annotations

# The families of rulesets rated together, as version 5 knew them (bot.service.ratings.FAMILIES
# says the same today; tests/service/test_ratings.py checks it). Frozen: a later change of families
# is a new migration.
_FAMILIES_V5 = {
    "kalah": "kalah",
    "kalah-nosweep": "kalah",
    "wari": "wari",
    "oware": "oware",
    "al-manqala": "al-manqala",
    "mankala": "applet",
    "manbula": "applet",
}


def _family(column: str) -> str:
    """SQL for the family of the canonical ruleset string in ``column`` (its preset's name,
    alone or before the ``:`` of its parameters)."""
    cases = " ".join(
        f"WHEN {column} = '{name}' OR {column} LIKE '{name}:%' THEN '{family}'"
        for name, family in _FAMILIES_V5.items()
    )
    return f"CASE {cases} ELSE {column} END"


MIGRATIONS: list[tuple[int, str]] = [
    (
        1,
        """
CREATE TABLE players (
    id           INTEGER PRIMARY KEY,
    surface      TEXT NOT NULL,              -- terminal, discord, email, ai
    external_id  TEXT NOT NULL,              -- user id, address, 'local', AI level
    display_name TEXT,
    created_at   REAL NOT NULL,
    UNIQUE (surface, external_id)
);

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    rules           TEXT NOT NULL,           -- canonical ruleset string, str(Ruleset)
    south_id        INTEGER NOT NULL REFERENCES players(id),
    north_id        INTEGER NOT NULL REFERENCES players(id),
    channel_surface TEXT NOT NULL,
    channel_id      TEXT NOT NULL,
    first           TEXT NOT NULL CHECK (first IN ('south', 'north')),
    status          TEXT NOT NULL CHECK (status IN ('active', 'over')),
    ply             INTEGER NOT NULL DEFAULT 0,   -- moves played so far
    board           TEXT NOT NULL,           -- JSON list: pits A..F, a..f, south, north store
    mover           INTEGER NOT NULL CHECK (mover IN (0, 1)),
    options         TEXT NOT NULL,           -- JSON of GameOptions
    rated           INTEGER NOT NULL DEFAULT 1,
    offer_kind      TEXT CHECK (offer_kind IN ('draw', 'end', 'undo')),
    offer_by        INTEGER REFERENCES players(id),
    offer_ply       INTEGER,
    result_reason   TEXT,
    result_winner   TEXT CHECK (result_winner IN ('south', 'north', 'draw')),
    score_south     INTEGER,
    score_north     INTEGER,
    created_at      REAL NOT NULL,
    last_move_at    REAL NOT NULL,           -- when the player to move got the turn
    remind_at       REAL,                    -- when to remind the player to move (NULL: never)
    forfeit_at      REAL,                    -- when their silence loses the game (NULL: never)
    reminded_at     REAL,                    -- reminder sent for the current turn
    ended_at        REAL
);
-- A channel holds at most one active game, whatever the code above it does.
CREATE UNIQUE INDEX games_active_channel ON games (channel_surface, channel_id)
    WHERE status = 'active';
CREATE INDEX games_south ON games (south_id, status);
CREATE INDEX games_north ON games (north_id, status);
CREATE INDEX games_remind ON games (remind_at) WHERE status = 'active';
CREATE INDEX games_forfeit ON games (forfeit_at) WHERE status = 'active';

CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games(id),
    ply       INTEGER NOT NULL,              -- 1 for the first move
    move      TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    played_at REAL NOT NULL,
    board     TEXT NOT NULL,                 -- the position after the move
    mover     INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)               -- a ply is recorded exactly once
) WITHOUT ROWID;

CREATE TABLE challenges (
    id              INTEGER PRIMARY KEY,
    challenger_id   INTEGER NOT NULL REFERENCES players(id),
    opponent_id     INTEGER NOT NULL REFERENCES players(id),
    rules           TEXT NOT NULL,
    channel_surface TEXT NOT NULL,
    channel_id      TEXT NOT NULL,
    options         TEXT NOT NULL,
    status          TEXT NOT NULL
        CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    created_at      REAL NOT NULL,
    expires_at      REAL,
    answered_at     REAL,
    game_id         INTEGER REFERENCES games(id)
);
CREATE INDEX challenges_open ON challenges (status, expires_at);
CREATE INDEX challenges_challenger ON challenges (challenger_id, status);
CREATE INDEX challenges_opponent ON challenges (opponent_id, status);

CREATE TABLE ratings (
    player_id INTEGER NOT NULL REFERENCES players(id),
    rules     TEXT NOT NULL,
    rating    REAL NOT NULL,
    games     INTEGER NOT NULL DEFAULT 0,
    wins      INTEGER NOT NULL DEFAULT 0,
    losses    INTEGER NOT NULL DEFAULT 0,
    draws     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, rules)
);
CREATE INDEX ratings_board ON ratings (rules, rating);
""",
    ),
    # How a game ended, as data (engine.Termination's value), the side it names and the move
    # it came at; result_reason keeps the words. Games ended before are converted from their
    # words, which every version wrote the same way.
    (
        2,
        """
ALTER TABLE games ADD COLUMN result_termination TEXT;
ALTER TABLE games ADD COLUMN result_by TEXT CHECK (result_by IN ('south', 'north'));
ALTER TABLE games ADD COLUMN result_ply INTEGER;
UPDATE games SET
    result_termination = CASE
        WHEN result_reason = 'a row is empty' THEN 'row_empty'
        WHEN result_reason = 'every pit is empty' THEN 'all_empty'
        WHEN result_reason LIKE '% has no move' THEN 'no_move'
        WHEN result_reason LIKE '% cannot feed' THEN 'cannot_feed'
        WHEN result_reason = 'more than half the seeds' THEN 'majority'
        WHEN result_reason = 'grand slam' THEN 'grand_slam'
        WHEN result_reason = 'a position repeated' THEN 'repetition'
        WHEN result_reason = 'agreed end' THEN 'agreed_end'
        WHEN result_reason = 'draw agreed' THEN 'agreed_draw'
        WHEN result_reason LIKE '% resigned%' THEN 'resignation'
        WHEN result_reason LIKE '% ran out of time%' THEN 'time'
    END,
    result_by = CASE
        WHEN lower(result_reason) LIKE 'south %' THEN 'south'
        WHEN lower(result_reason) LIKE 'north %' THEN 'north'
    END
WHERE status = 'over';
""",
    ),
    # How a player wants to hear it is their move: a mention where the game is, a direct
    # message, or nothing.
    (
        3,
        """
ALTER TABLE players ADD COLUMN ping TEXT NOT NULL DEFAULT 'mention'
    CHECK (ping IN ('mention', 'dm', 'off'));
""",
    ),
    # What a server's admins set for their server (bot.service.servers): one JSON object of
    # the settings they changed, so a new setting needs no migration; and who plays there,
    # for the server's own leaderboard; and leases, so that background work (an AI's turn) is
    # done by one process of several on one database.
    (
        4,
        """
CREATE TABLE server_settings (
    surface TEXT NOT NULL,
    server_id TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    updated_at REAL NOT NULL,
    PRIMARY KEY (surface, server_id)
) WITHOUT ROWID;
CREATE TABLE leases (
    name       TEXT PRIMARY KEY,             -- a piece of background work, like ai-turn:12
    holder     TEXT NOT NULL,                -- the process doing it
    expires_at REAL NOT NULL                 -- after this, another process may take it over
);
CREATE TABLE server_players (
    surface TEXT NOT NULL,
    server_id TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (id),
    PRIMARY KEY (surface, server_id, player_id)
) WITHOUT ROWID;
""",
    ),
    # Glicko-2 per family of rulesets (bot.service.ratings, docs/ratings.md) in a table of its
    # own; the Elo table ``ratings`` stays as it was, no longer written. Each player's Elo
    # rows of one family become one row: the rating their games' average (weighted by games),
    # the counts summed, the deviation from the games played, max(1400 / (4 + games), 50)
    # (350 for none, 100 at 10 games: established), volatility 0.06, as of their last rated
    # game of the family (else when the player was first seen).
    (
        5,
        f"""
CREATE TABLE glicko_ratings (
    player_id  INTEGER NOT NULL REFERENCES players(id),
    family     TEXT NOT NULL,                -- kalah, wari, oware, al-manqala, applet
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,                -- RD as of rated_at
    volatility REAL NOT NULL,
    rated_at   REAL NOT NULL,                -- when the rating was last set
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (player_id, family)
);
CREATE INDEX glicko_board ON glicko_ratings (family, rating);
INSERT INTO glicko_ratings
    (player_id, family, rating, deviation, volatility, rated_at, games, wins, losses, draws)
SELECT f.player_id, f.family, f.rating,
    CASE WHEN f.games < 24 THEN CAST(1400 AS REAL) / (4 + f.games) ELSE 50 END,
    0.06,
    COALESCE(
        (SELECT max(g.ended_at) FROM games g
         WHERE g.status = 'over' AND g.rated = 1
           AND (g.south_id = f.player_id OR g.north_id = f.player_id)
           AND {_family("g.rules")} = f.family),
        (SELECT p.created_at FROM players p WHERE p.id = f.player_id)),
    f.games, f.wins, f.losses, f.draws
FROM (
    SELECT e.player_id, e.family,
        CASE WHEN sum(e.games) > 0
            THEN sum(e.rating * e.games) / CAST(sum(e.games) AS REAL)
            ELSE avg(e.rating) END AS rating,
        sum(e.games) AS games, sum(e.wins) AS wins, sum(e.losses) AS losses,
        sum(e.draws) AS draws
    FROM (SELECT r.*, {_family("r.rules")} AS family FROM ratings r) e
    GROUP BY e.player_id, e.family
) f;
""",
    ),
    # Answers to puzzles (bot.service.puzzles): one row per answer. A player's first answer
    # to a puzzle is ``counted`` (for streaks and the puzzle board), later ones are practice;
    # the partial unique index keeps it to one counted answer per player and puzzle, however
    # many arrive at once. ``server``: where it was answered (a Discord server's id, 'email',
    # 'terminal'; NULL in a direct message), for that server's puzzle board.
    (
        6,
        """
CREATE TABLE puzzle_attempts (
    id           INTEGER PRIMARY KEY,
    player_id    INTEGER NOT NULL REFERENCES players(id),
    puzzle_id    TEXT NOT NULL,              -- engine.puzzles' id, like kalah-0042
    server       TEXT,
    move         TEXT NOT NULL,              -- as the engine writes it (South's pits uppercase)
    correct      INTEGER NOT NULL CHECK (correct IN (0, 1)),
    counted      INTEGER NOT NULL CHECK (counted IN (0, 1)),
    attempted_at REAL NOT NULL
);
CREATE UNIQUE INDEX puzzle_attempts_counted ON puzzle_attempts (player_id, puzzle_id)
    WHERE counted = 1;
CREATE INDEX puzzle_attempts_player ON puzzle_attempts (player_id, id);
CREATE INDEX puzzle_attempts_server ON puzzle_attempts (server, player_id) WHERE counted = 1;
""",
    ),
    # Tournaments (bot.service.tournaments, docs/tournaments.md). ``current_round`` is
    # compared-and-set when a round begins, in the transaction that writes its pairings, so a
    # round begins once whatever the processes; ``announced_round`` the same for its news.
    # A pairing's game is created in the transaction that sets its ``game_id`` (once), and
    # its ``result`` is copied from the finished game once (``result IS NULL`` in the
    # update): the standings are computed from these rows, never counted up.
    (
        7,
        """
CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    name            TEXT NOT NULL,
    format          TEXT NOT NULL
        CHECK (format IN ('swiss', 'round-robin', 'double-round-robin', 'arena')),
    rules           TEXT NOT NULL,           -- canonical ruleset string
    status          TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    rounds          INTEGER NOT NULL,        -- a Swiss's as set, a round robin's at the start
    current_round   INTEGER NOT NULL DEFAULT 0,  -- the round begun last (an arena's: its wave)
    announced_round INTEGER NOT NULL DEFAULT 0,  -- the round whose news went out
    pace            TEXT NOT NULL CHECK (pace IN ('live', 'correspondence')),
    move_seconds    REAL NOT NULL,           -- each move's time: silence this long forfeits
    arena_seconds   REAL,                    -- an arena's length
    starts_at       REAL,                    -- NULL: when an organiser says
    place_surface   TEXT,                    -- where news is posted (NULL: players' inboxes)
    place_id        TEXT,
    place_server    TEXT,                    -- the Discord server whose admins organise it
    creator_id      INTEGER NOT NULL REFERENCES players(id),
    created_at      REAL NOT NULL,
    started_at      REAL,
    ended_at        REAL
);
CREATE INDEX tournaments_status ON tournaments (status, starts_at);

CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    player_id     INTEGER NOT NULL REFERENCES players(id),
    joined_at     REAL NOT NULL,
    rating        REAL NOT NULL,             -- as they joined, then as the tournament started
    seed          INTEGER,                   -- their number from the start (Berger's)
    withdrawn_at  REAL,                      -- NULL while they play on
    PRIMARY KEY (tournament_id, player_id)
) WITHOUT ROWID;
CREATE INDEX tournament_players_player ON tournament_players (player_id);

CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    south_id      INTEGER NOT NULL REFERENCES players(id),
    north_id      INTEGER REFERENCES players(id),    -- NULL: south has a bye
    kind          TEXT NOT NULL CHECK (kind IN ('game', 'bye', 'forfeit')),
    game_id       INTEGER REFERENCES games(id),      -- NULL: a bye, a forfeit, or not yet made
    result        TEXT CHECK (result IN ('south', 'north', 'draw', 'none')),
    recorded_at   REAL,
    PRIMARY KEY (tournament_id, round, board)
) WITHOUT ROWID;
CREATE UNIQUE INDEX tournament_games_game ON tournament_games (game_id)
    WHERE game_id IS NOT NULL;
""",
    ),
    # Correspondence on a human schedule (docs/correspondence.md). A vacation is open while
    # ``ended_at`` is NULL (one at a time per player: the partial unique index); it ends by
    # itself at ``ends_at``. Its end, a compare-and-set on ``ended_at``, moves the player's
    # deadlines in the same transaction. A player with a ``digest_settings`` row gets one
    # mail a day; ``digests`` holds each day's, claimed once per (player, day) whatever the
    # processes, with the plies of the games it listed. ``premoves`` are a player's
    # conditional moves in a game, set at ``ply``: the opponent's moves after it are
    # compared with ``if_moves`` (the engine's notation, space-separated).
    (
        8,
        """
CREATE TABLE vacations (
    id         INTEGER PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players(id),
    started_at REAL NOT NULL,
    ends_at    REAL NOT NULL,                -- when it ends by itself (length or allowance)
    ended_at   REAL                          -- NULL while the player is away
);
CREATE UNIQUE INDEX vacations_open ON vacations (player_id) WHERE ended_at IS NULL;
CREATE INDEX vacations_player ON vacations (player_id, started_at);

CREATE TABLE digest_settings (
    player_id  INTEGER NOT NULL REFERENCES players(id),
    hour       INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),   -- UTC
    first_day  INTEGER NOT NULL,             -- the first day one is due (days since 1970, UTC)
    set_at     REAL NOT NULL,
    PRIMARY KEY (player_id)
) WITHOUT ROWID;

CREATE TABLE digests (
    player_id  INTEGER NOT NULL REFERENCES players(id),
    day        INTEGER NOT NULL,             -- days since 1970-01-01, UTC
    sent_at    REAL NOT NULL,
    games      TEXT NOT NULL,                -- JSON: [[game id, ply], ...] as listed
    PRIMARY KEY (player_id, day)
) WITHOUT ROWID;

CREATE TABLE premoves (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    player_id  INTEGER NOT NULL REFERENCES players(id),
    ply        INTEGER NOT NULL,             -- the game's ply when set
    if_moves   TEXT NOT NULL,                -- the opponent's move(s) that trigger it
    then_move  TEXT NOT NULL,                -- the owner's answer
    created_at REAL NOT NULL,
    PRIMARY KEY (game_id, player_id, if_moves)
) WITHOUT ROWID;
""",
    ),
    (
        9,
        """
-- 1 while a player has conditional moves waiting in the game: a move reads the premoves
-- table only then, and setting one changes the game row, so other processes hear of it.
ALTER TABLE games ADD COLUMN premoves INTEGER NOT NULL DEFAULT 0;
""",
    ),
    (
        10,
        """
-- The language a player chose (en, fr, ... as in bot.i18n.Language), on every surface. NULL until
-- they choose one, when each surface goes by what it knows (a Discord locale, a mail's).
ALTER TABLE players ADD COLUMN language TEXT;
-- The language a surface last saw the player use (their Discord client's, their mail's): what
-- news sent to them unasked (a move, a reminder) is written in while they have chosen none.
ALTER TABLE players ADD COLUMN language_seen TEXT;
""",
    ),
    # The limits every process shares (storage.stores.limits, docs/limits.md): how many times
    # something was done in a window of time, one row per (what, window), deleted once the
    # window has ended. ``hit_limit`` is the limit the last hit was checked against (the
    # statement that counts compares with it: one statement counts several counters).
    (
        11,
        """
CREATE TABLE limit_counters (
    name         TEXT NOT NULL,              -- what is counted, e.g. 'mail:reply:ann@x.org'
    window_start INTEGER NOT NULL,           -- seconds since 1970, a multiple of its length
    window_end   INTEGER NOT NULL,
    hits         INTEGER NOT NULL,
    hit_limit    INTEGER NOT NULL,
    PRIMARY KEY (name, window_start)
) WITHOUT ROWID;
""",
    ),
    # Each player's rating after each rated game (storage.stores.ratings): one row per player
    # and rated game, written in the transaction that ends the game, with the ratings it
    # changes. Games that ended before this version left none: a history starts here.
    (
        12,
        """
CREATE TABLE rating_history (
    game_id    INTEGER NOT NULL REFERENCES games(id),
    player_id  INTEGER NOT NULL REFERENCES players(id),
    family     TEXT NOT NULL,                -- as in glicko_ratings
    rating     REAL NOT NULL,                -- as the game's end set it
    deviation  REAL NOT NULL,                -- RD as of rated_at
    rated_at   REAL NOT NULL,
    PRIMARY KEY (game_id, player_id)
) WITHOUT ROWID;
CREATE INDEX rating_history_player ON rating_history (player_id, family, rated_at);
""",
    ),
    # A finished game's review by the solver (bot.service.reviews), kept once made so that
    # every process shows it (a review asked for on Discord shows on the web pages of another
    # process) and nobody pays for it twice. ``budget`` is what it cost per ply
    # (engine.review.Budget as JSON); ``version`` the layout of ``review``
    # (engine.review.STORED_FORMAT).
    (
        13,
        """
CREATE TABLE game_reviews (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    budget      TEXT NOT NULL,
    version     INTEGER NOT NULL,
    review      TEXT NOT NULL,               -- JSON: engine.review.stored_json
    reviewed_at REAL NOT NULL,
    PRIMARY KEY (game_id)
) WITHOUT ROWID;
""",
    ),
    # One player on several surfaces (storage.stores.identities, docs/privacy.md). A players
    # row linked to another keeps its surface's id, so the surface still finds it, and names
    # the player it now is in ``merged_into``: everything it had moved there. ``player_codes``
    # are the codes a player is sent to prove they hold an account or an address (link), or
    # to confirm what cannot be undone (delete); only a code's hash is stored.
    (
        14,
        """
ALTER TABLE players ADD COLUMN merged_into INTEGER REFERENCES players(id);
CREATE INDEX players_merged ON players (merged_into) WHERE merged_into IS NOT NULL;

CREATE TABLE player_codes (
    code_hash   TEXT PRIMARY KEY,            -- SHA-256 of the code, hex
    player_id   INTEGER NOT NULL REFERENCES players(id),   -- who asked for it
    purpose     TEXT NOT NULL CHECK (purpose IN ('link', 'delete')),
    surface     TEXT,                        -- link: the surface whose account proves it
    external_id TEXT,                        -- link: the one account that may (NULL: any)
    created_at  REAL NOT NULL,
    expires_at  REAL NOT NULL
);
CREATE INDEX player_codes_player ON player_codes (player_id);
""",
    ),
    # Addresses that said ``stop`` (docs/privacy.md): the bot mails them nothing more. Keyed by
    # a keyed hash of the address (``bot.tokens.address_key``), never the address, so the row
    # outlives the deletion of the player's data and still names nobody.
    (
        15,
        """
CREATE TABLE mail_stops (
    address_key TEXT NOT NULL,               -- HMAC-SHA256 of the lowercased address, hex
    stopped_at  REAL NOT NULL,
    PRIMARY KEY (address_key)
) WITHOUT ROWID;
""",
    ),
]

LATEST = MIGRATIONS[-1][0]
