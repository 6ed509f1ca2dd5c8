"""The game service and its surfaces: the terminal, Discord, email, PlayStrategy and the
``mancala`` CLI.

The service decides every rule of play; each surface only translates to and from it.

- ``service``: ``GameService``, the one authority over games, challenges, offers and
  ratings, on ``storage`` (a SQLite file or PostgreSQL); surfaces hear its events.
- ``ai_runtime``: the AI's worker processes (``AIPool``), its compiled search and tables.
- ``render``: pictures of a position (a PNG and its words) for any surface.
- ``terminal``, ``discord``, ``mail``: the surfaces; ``web``: each game's page, live, and
  playable from a mail player's link; ``playstrategy``: the AI as a bot on playstrategy.org
  (its Bot API), each game there a service game.
- ``i18n``: the languages the bot speaks, and which one answers each request.
- ``commands``: the subcommands of ``mancala``, gathered by ``cli`` (with ``cli_args``,
  the argument types).
- ``tokens``: the per-game secret tokens the mail surface and the web pages check.
- ``config`` (``.env``, the database, the data directories), ``logs``, ``metrics``,
  ``health`` (the heartbeat and ``mancala health``), ``progress`` (waiting lines).
"""
