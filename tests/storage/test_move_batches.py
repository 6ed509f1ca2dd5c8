"""Moves written to PostgreSQL in batches (``storage.move_batches``), on the real server the
fixtures start: each move of a batch applies exactly as it would alone, and moves that arrive
together share a statement."""

from __future__ import annotations

import asyncio

import asyncpg

from storage import open_storage
from storage.postgres_driver import NOTIFY_CHANNEL
from tests.conftest import _postgres
from tests.storage.test_storage import game_row, move_row


class CountingPool:
    """The storage's pool, counting the statements the batcher sends through it."""

    def __init__(self, pool):
        self.pool = pool
        self.statements = 0

    async def fetch(self, *args):
        self.statements += 1
        return await self.pool.fetch(*args)


async def games_and_players(store, count):
    a = await store.players.id("discord", "a", now=0.0)
    b = await store.players.id("discord", "b", now=0.0)
    return [await store.games.create(game_row(a, b, channel=f"c{n}")) for n in range(count)], a


async def test_moves_of_many_games_at_once_share_statements_and_all_apply():
    store = await open_storage(_postgres().new_database())
    try:
        games, a = await games_and_players(store, 20)
        counting = CountingPool(store.db._moves.pool)
        store.db._moves.pool = counting
        applied = await asyncio.gather(
            *(store.games.record_move(g, 0, move_row(a), {"mover": 1}) for g in games)
        )
        assert applied == [True] * 20
        # The first goes alone (nothing waits for a timer); the rest wait for it, then go
        # together (plus the one read of the games table's column types).
        assert counting.statements <= 4
        for g in games:
            moves = await store.games.moves(g)
            assert [(m.ply, m.move) for m in moves] == [(1, "C")]
            assert (await store.games.get(g)).ply == 1
    finally:
        await store.close()


async def test_a_batch_applies_each_compare_and_set_on_its_own():
    store = await open_storage(_postgres().new_database())
    try:
        games, a = await games_and_players(store, 3)
        assert await store.games.record_move(games[0], 0, move_row(a), {"mover": 1})
        # In one batch: a stale move (game 0 is at ply 1), a good one, and two moves of one
        # game at the same ply, of which exactly one applies.
        results = await asyncio.gather(
            store.games.record_move(games[0], 0, move_row(a, "D"), {"mover": 1}),
            store.games.record_move(games[1], 0, move_row(a, "E"), {"mover": 1}),
            store.games.record_move(games[2], 0, move_row(a, "A"), {"mover": 1}),
            store.games.record_move(games[2], 0, move_row(a, "B"), {"mover": 1}),
        )
        assert results[:2] == [False, True]
        assert sorted(results[2:]) == [False, True]
        assert [m.move for m in await store.games.moves(games[0])] == ["C"]
        assert [m.move for m in await store.games.moves(games[1])] == ["E"]
        won = "A" if results[2] else "B"
        assert [m.move for m in await store.games.moves(games[2])] == [won]
    finally:
        await store.close()


async def test_other_processes_hear_of_each_move_of_a_batch():
    url = _postgres().new_database()
    store = await open_storage(url)
    heard: list[str] = []
    listener = await asyncpg.connect(url)
    await listener.add_listener(NOTIFY_CHANNEL, lambda *args: heard.append(args[-1]))
    try:
        games, a = await games_and_players(store, 5)
        await asyncio.gather(
            *(store.games.record_move(g, 0, move_row(a), {"mover": 1}) for g in games)
        )
        assert not await store.games.record_move(games[0], 0, move_row(a), {"mover": 1})
        for _ in range(50):
            if len(heard) >= 5:
                break
            await asyncio.sleep(0.05)
        assert sorted(int(payload.split(":")[0]) for payload in heard) == sorted(games)
    finally:
        await listener.close()
        await store.close()


async def test_a_lost_server_fails_every_move_of_the_batch_and_the_next_batch_works():
    store = await open_storage(_postgres().new_database())
    try:
        games, a = await games_and_players(store, 4)
        real = store.db._moves.pool

        class Failing:
            async def fetch(self, *args):
                raise ConnectionResetError("the server went away")

        store.db._moves.pool = Failing()
        results = await asyncio.gather(
            *(store.games.record_move(g, 0, move_row(a), {"mover": 1}) for g in games),
            return_exceptions=True,
        )
        assert all(type(r).__name__ == "StorageUnavailable" for r in results), results
        store.db._moves.pool = real
        assert await store.games.record_move(games[0], 0, move_row(a), {"mover": 1})
    finally:
        await store.close()


async def test_a_batch_the_server_cancelled_for_a_deadlock_is_sent_again_and_applies_once():
    store = await open_storage(_postgres().new_database())
    try:
        games, a = await games_and_players(store, 2)
        real = store.db._moves.pool

        class DeadlockedOnce:
            """Two processes' batches locked the same games in opposite orders: the server
            cancels one statement (which then changed nothing)."""

            cancelled = 0

            async def fetch(self, statement, *args):
                if "unnest" in statement and not self.cancelled:
                    self.cancelled += 1
                    raise asyncpg.DeadlockDetectedError("deadlock detected")
                return await real.fetch(statement, *args)

        pool = store.db._moves.pool = DeadlockedOnce()
        applied = await asyncio.gather(
            *(store.games.record_move(g, 0, move_row(a), {"mover": 1}) for g in games)
        )
        assert applied == [True, True] and pool.cancelled == 1
        for g in games:
            assert [(m.ply, m.move) for m in await store.games.moves(g)] == [(1, "C")]
    finally:
        await store.close()
