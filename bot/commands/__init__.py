"""The subcommands of ``mancala``, one module per group; ``bot.cli`` finds every module here
and calls its ``register(subparsers)``, and each parser's ``func(args)`` returns the exit
status. Heavy imports (discord.py, numba, the service) wait inside ``func``.

- ``play``: ``mancala play``, the terminal game (``bot.terminal``), and what plain
  ``mancala`` runs without a Discord token.
- ``referee``: ``rules``, ``board`` and ``move``, the rules and positions without a game.
- ``ai``: ``solve``, ``hint`` and ``warm-up`` (compiling the AI's search ahead of time).
- ``review``: ``mancala review``, a game reviewed move by move by the solver
  (``engine.review``), from its moves or its record, ours or the community's.
- ``record``: ``mancala record``, a game record written in the community's formats
  (``engine.records``: PlayStrategy's PGN, the Kazakh scoresheet, Aualé's OGN).
- ``puzzle``: ``mancala puzzle``, the one right move in a real ending (``engine.puzzles``).
- ``discord``: ``mancala bot``, the Discord bot (``bot.discord``), with the mail surface in
  the same process when mail is configured: the two surfaces meet here, never in each other.
- ``mail``: ``mancala mail``, the SMTP server or one piped message (``bot.mail``).
- ``web``: ``mancala web``, the games' web pages (``bot.web``), mailing email opponents
  when mail is configured.
- ``playstrategy``: ``mancala playstrategy-bot``, the AI as a bot on PlayStrategy
  (``bot.playstrategy``).
- ``health``: ``mancala health``, the checks behind a container's HEALTHCHECK.
- ``database``: ``backup`` and ``restore`` of a SQLite file, and ``migrate-db`` between
  SQLite and PostgreSQL, either way.
"""
