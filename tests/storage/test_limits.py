"""The limits' counters (``storage.stores.limits``), on SQLite and on PostgreSQL: a hit is
counted only under its limit, in one statement, so many hits at once from two connections to
one database never count past the limit; the counts outlive a restart; a window's count
starts again at its end; a give-back undoes a hit; ended windows are deleted."""

import asyncio
import sys
from pathlib import Path

from storage import open_storage
from storage.stores.limits import Hit

DAY, HOUR = 86_400, 3_600


async def test_a_counter_counts_up_to_its_limit_then_refuses(database):
    store = await open_storage(database)
    try:
        hit = Hit("mail:reply:ann@example.org", DAY, 3)
        answers = [(await store.limits.count([hit], now=10.0))[0] for _ in range(5)]
        assert answers == [True, True, True, False, False]
        assert await store.limits.hits(hit.name, DAY, now=10.0) == 3
        # another name, and the same name in the next window, count from zero
        assert await store.limits.count([Hit("mail:reply:bob@example.org", DAY, 3)], 10.0) == [True]
        assert await store.limits.count([hit], now=DAY + 1.0) == [True]
        assert await store.limits.hits(hit.name, DAY, now=DAY + 1.0) == 1
    finally:
        await store.close()


async def test_several_counters_in_one_statement_each_under_its_own_limit(database):
    store = await open_storage(database)
    try:
        address, hour = Hit("address", DAY, 2), Hit("all:hour", HOUR, 3)
        assert await store.limits.count([address, hour], 0.0) == [True, True]
        assert await store.limits.count([address, hour], 1.0) == [True, True]
        assert await store.limits.count([address, hour], 2.0) == [False, True]  # address full
        assert await store.limits.count([Hit("other", DAY, 2), hour], 3.0) == [True, False]
        # a limit of 0 allows none; the others beside it count as usual
        assert await store.limits.count([Hit("none", DAY, 0), Hit("x", DAY, 5)], 4.0) == [
            False,
            True,
        ]
        assert await store.limits.count([Hit("none", DAY, 0)], 4.0) == [False]
        assert await store.limits.hits("none", DAY, 4.0) == 0
    finally:
        await store.close()


async def test_a_give_back_undoes_a_hit_and_never_goes_below_zero(database):
    store = await open_storage(database)
    try:
        hit = Hit("stranger:eve@example.org", DAY, 1)
        assert await store.limits.count([hit], 5.0) == [True]
        assert await store.limits.count([hit], 6.0) == [False]
        await store.limits.give_back([hit], 7.0)
        assert await store.limits.count([hit], 8.0) == [True]
        await store.limits.give_back([hit, Hit("never-counted", DAY, 1)], 9.0)
        await store.limits.give_back([hit], 9.0)
        assert await store.limits.hits(hit.name, DAY, 9.0) == 0
    finally:
        await store.close()


async def test_counts_outlive_a_restart(database):
    hit = Hit("mail:all:day", DAY, 2)
    for expected in ([True], [True], [False]):
        store = await open_storage(database)  # a process started anew each time
        try:
            assert await store.limits.count([hit], 100.0) == expected
        finally:
            await store.close()


async def test_ended_windows_are_deleted(database):
    store = await open_storage(database)
    try:
        await store.limits.count([Hit("day", DAY, 5), Hit("hour", HOUR, 5)], 10.0)
        assert await store.limits.prune(HOUR + 10.0) == 1  # the hour ended, the day did not
        assert await store.limits.hits("day", DAY, 20.0) == 1
        # counting prunes by itself, once an hour of the caller's clock
        await store.limits.count([Hit("later", DAY, 5)], DAY + 2 * HOUR)
        assert [row["name"] for row in await store.table_rows("limit_counters")] == ["later"]
    finally:
        await store.close()


async def test_many_hits_at_once_from_two_connections_never_pass_the_limit(database):
    first, second = await open_storage(database), await open_storage(database)
    try:
        limit, tries = 25, 120
        shared, own = Hit("mail:all:hour", HOUR, limit), Hit("mail:all:day", DAY, 1000)

        async def one(store, i):
            return await store.limits.count([shared, own], 50.0 + i / 1000)

        answers = await asyncio.gather(*(one(first if i % 2 else second, i) for i in range(tries)))
        assert sum(counted[0] for counted in answers) == limit
        assert sum(counted[1] for counted in answers) == tries  # the day's limit was not near
        assert await first.limits.hits(shared.name, HOUR, 60.0) == limit
        assert await second.limits.hits(own.name, DAY, 60.0) == tries
    finally:
        await first.close()
        await second.close()


HITTER = """
import asyncio, sys
from storage import open_storage
from storage.stores.limits import Hit

async def main(database, tries, limit):
    store = await open_storage(database)
    try:
        hit = Hit("shared", 3600, limit)
        answers = await asyncio.gather(*(store.limits.count([hit], 10.0) for _ in range(tries)))
        print(sum(counted[0] for counted in answers))
    finally:
        await store.close()

asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
"""


async def test_two_processes_hitting_at_once_never_pass_the_limit(database):
    """Two real processes, each with its own connections, hit one counter at the same time:
    together they are granted exactly the limit."""
    store = await open_storage(database)  # migrated before the processes race to do it
    await store.close()
    limit, tries = 30, 50
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            HITTER,
            database,
            str(tries),
            str(limit),
            stdout=asyncio.subprocess.PIPE,
            cwd=Path(__file__).resolve().parents[2],
        )
        for _ in range(2)
    ]
    outputs = [await process.communicate() for process in processes]
    assert [process.returncode for process in processes] == [0, 0]
    granted = [int(out.decode()) for out, _err in outputs]
    assert sum(granted) == limit
    store = await open_storage(database)
    try:
        assert await store.limits.hits("shared", HOUR, 10.0) == limit
    finally:
        await store.close()


async def test_counts_and_give_backs_at_once_stay_consistent(database):
    """Replies as the mail limiter makes them, many at once from two connections: each counts
    its address, the hour and the day in one statement, and gives back what it took when one
    of them refused. None fails (no deadlock), the hour never passes its limit, and the day
    holds exactly the replies granted."""
    first, second = await open_storage(database), await open_storage(database)
    try:
        hour, day = Hit("all:hour", HOUR, 20), Hit("all:day", DAY, 1000)

        async def reply(store, i):
            hits = [Hit(f"address:{i % 7}", DAY, 4), hour, day]
            counted = await store.limits.count(hits, 30.0)
            if not all(counted):
                await store.limits.give_back(
                    [h for h, c in zip(hits, counted, strict=True) if c], 30.0
                )
            return all(counted)

        granted = await asyncio.gather(*(reply(first if i % 2 else second, i) for i in range(80)))
        assert 0 < sum(granted) <= 20
        assert await first.limits.hits(day.name, DAY, 30.0) == sum(granted)
        assert await second.limits.hits(hour.name, HOUR, 30.0) == sum(granted)
        addresses = [await first.limits.hits(f"address:{a}", DAY, 30.0) for a in range(7)]
        assert sum(addresses) == sum(granted) and max(addresses) <= 4
    finally:
        await first.close()
        await second.close()


async def test_a_change_that_fails_among_others_at_once_fails_alone(database):
    """SQLite commits the counts arriving together in one transaction: one failing change
    (here, a table that is not there) is run again alone and fails alone; every other count
    is answered and kept."""
    store = await open_storage(database)
    try:
        hit = Hit("shared", HOUR, 10)
        broken = store.limits.db.change_returning(
            "INSERT INTO no_such_table VALUES (1) RETURNING 1"
        )
        answers = await asyncio.gather(
            *(store.limits.count([hit], 10.0) for _ in range(6)), broken, return_exceptions=True
        )
        assert answers[:6] == [[True]] * 6
        assert isinstance(answers[6], Exception) and "no_such_table" in str(answers[6])
    finally:
        await store.close()
    reopened = await open_storage(database)  # and what was answered was committed
    try:
        assert await reopened.limits.hits("shared", HOUR, 10.0) == 6
    finally:
        await reopened.close()
