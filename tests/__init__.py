"""The test suite, arranged as the code is: one package per part of the project, one file per
subject. README's command runs it all, on every core (pytest-xdist, see pyproject.toml).

- ``engine/``: the rules, the notation, the AI's search, solver and tables, reviews, puzzles.
- ``storage/``: the database contract on SQLite and PostgreSQL, upgrades, backups, tables
  on disk.
- ``service/``: the game service: games, correspondence, tournaments, ratings, puzzles, the
  AI's workers, several processes on one database.
- ``discord/``, ``mail/``, ``terminal/``: the three surfaces, end to end; ``web/``: the game
  pages, through aiohttp's test client and in Debian's Chromium (Playwright, axe-core).
- ``cli/``: the ``mancala`` program's other commands: solve and hint, the referee, settings
  errors, health, the first run on a fresh machine.
- Here, what spans the whole project: ``test_fuzz.py`` (hostile input to every reader, with
  ``fuzz_strategies.py``), ``test_i18n.py`` (every catalog), ``test_docs.py`` (docs/rules.md
  against the engine), ``test_deploy_files.py`` and ``test_web_deploy.py`` (deploy/), ``test_structure.py``
  (no import circle, the layers, every package's map, room under ``/mancala``).

Shared here: ``conftest.py`` (Hypothesis profiles, the numba cache, the ``database``
fixture and its PostgreSQL server from ``postgres_server.py``), ``strategies.py`` (rulesets
and random games for property tests), ``data/`` (a position file the docs name too).
"""
