"""Tests of ``storage``: the contract on SQLite and on a real PostgreSQL, migrations and
upgrades, moves written in batches, a PostgreSQL restart, backup and restore, and the
endgame tables on disk."""
