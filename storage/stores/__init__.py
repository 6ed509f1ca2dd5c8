"""One store per domain, each holding its own SQL and written once against
``storage.driver``'s verbs, whichever engine is underneath: a storage feature is a store's
method and a migration. Work that spans domains passes its one transaction along
(``games.insert_game``, ``ratings.upsert_ratings``).

- ``games``: games and their move log, the clocks and leases (``GameStore``);
- ``challenges``: challenges, and accepting one with its game (``ChallengeStore``);
- ``players``: players, their settings, and Discord servers (``PlayerStore``);
- ``ratings``: ratings and their history, leaderboards, head to head (``RatingStore``);
- ``reviews``: finished games' reviews by the solver, kept once made (``ReviewStore``);
- ``puzzles``: puzzle answers and standings (``PuzzleStore``);
- ``tournaments``: tournaments, their rounds, pairings and games (``TournamentStore``);
- ``schedule``: vacations, digests and conditional moves (``ScheduleStore``);
- ``limits``: counters of the limits every process shares, counted and checked in one
  statement (``LimitStore``);
- ``identities``: one player on several surfaces (linking), the codes that prove an account,
  and a player's own data, exported or erased (``IdentityStore``);
- ``mail_stops``: the addresses that said ``stop``, by a keyed hash (``MailStopStore``).
"""
