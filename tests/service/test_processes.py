"""Several service processes on one database (the PostgreSQL backend, as shards or mail
workers would run): every move applies exactly once, the move log replays to the stored
board, and background work (reminders) is done once, not once per process."""

from __future__ import annotations

import asyncio
import json
import sys
import textwrap

import pytest

from bot.service import Channel, GameService, ManualClock, Player, Recorder, Reminder
from engine import Game
from storage import open_storage

ALICE, BOB = Player("discord", "1"), Player("discord", "2")

# One worker process: plays its side (or both) for as long as the game lasts, always for the
# board it last saw; prints the plies its moves were acknowledged at. A worker that plays
# both sides races the others for every move.
WORKER = textwrap.dedent("""
    import asyncio, json, os, random, sys, time
    from bot.service import GameService, Player, ServiceError

    async def main(url, game_id, seed, barrier, sides):
        rng = random.Random(seed)
        service = await GameService.open(url, tick_every=None, cache_ttl=0.0)
        # All start together, however long each took to import and connect (a loaded
        # machine once let the worker that plays both sides finish the game alone).
        open(os.path.join(barrier, str(seed)), "w").close()
        deadline = time.time() + 120
        while len(os.listdir(barrier)) < 3 and time.time() < deadline:
            await asyncio.sleep(0.01)
        acked = []
        try:
            for _ in range(3000):
                view = await service.get_game(game_id)
                if view.is_over:
                    break
                if view.position.to_move not in sides:
                    await asyncio.sleep(rng.random() * 0.01)
                    continue
                try:
                    after = await service.move(game_id, view.to_move,
                                               rng.choice(view.position.legal_moves()),
                                               expected_ply=view.ply)
                    acked.append([after.ply, after.moves[-1]])
                except ServiceError:
                    pass  # another process moved first: look again
                # A pause after every try, won or lost: without it the worker playing both
                # sides, never idle, once won every race and the others acknowledged nothing.
                await asyncio.sleep(rng.random() * 0.005)
        finally:
            await service.close()
        print(json.dumps(acked))

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4],
                     sys.argv[5].split(",")))
""")


@pytest.fixture
def postgres_database(database):
    if not database.startswith("postgresql://"):
        pytest.skip("the SQLite run of this test is test_service_races (one process)")
    return database


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_moves_from_three_processes_apply_exactly_once(postgres_database, tmp_path):
    url = postgres_database
    service = await GameService.open(url, tick_every=None)
    game = await service.start_game(ALICE, BOB, "oware", Channel("discord", "shared"))
    await service.close()

    workers = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            WORKER,
            url,
            str(game.id),
            str(seed),
            str(tmp_path),
            sides,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for seed, sides in ((1, "south"), (2, "north"), (3, "south,north"))
    ]
    results = [await asyncio.wait_for(w.communicate(), 300) for w in workers]
    for worker, (_, err) in zip(workers, results, strict=False):
        assert worker.returncode == 0, err.decode()[-2000:]
    acked = sorted(tuple(a) for out, _ in results for a in json.loads(out))
    assert len({ply for ply, _ in acked}) == len(acked), "a ply was acknowledged twice"

    store = await open_storage(url)
    try:
        log = [(m.ply, m.move) for m in await store.games.moves(game.id)]
        row = await store.games.get(game.id)
    finally:
        await store.close()
    assert log == acked  # every acknowledged move is in the log, and nothing else
    assert row.ply == len(log) > 20
    assert sum(1 for out, _ in results if json.loads(out)) >= 2  # the processes did share
    replay = Game.from_moves("oware", [move for _, move in log])
    assert list(replay.position.board) == json.loads(row.board)


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_a_reminder_is_sent_once_whatever_the_number_of_processes(postgres_database):
    clock = ManualClock(1_000_000.0)
    services = [
        await GameService.open(postgres_database, clock=clock, tick_every=None) for _ in range(3)
    ]
    recorders = [Recorder() for _ in services]
    for service, recorder in zip(services, recorders, strict=False):
        service.add_notifier("discord", recorder)
    try:
        game = await services[0].start_game(ALICE, BOB, "wari", Channel("discord", "slow"))
        for service in services:
            await service.get_game(game.id)  # each caches the game, reminded_at unset
        clock.advance(2 * 86400)  # past Discord's reminder (a day), short of the forfeit
        await asyncio.gather(*(service.tick() for service in services))
        for service in services:
            await service.idle()
    finally:
        for service in services:
            await service.close()
    reminders = [e for r in recorders for e in r.events if isinstance(e, Reminder)]
    assert len(reminders) == 1 and reminders[0].recipient == ALICE


async def test_an_ai_turn_is_thought_by_one_service_of_several(database):
    """Services on one database each resume the pending AI turns they find (at start, or on
    a tick); the lease in the database lets one of them think, and the move is played once."""
    services = [await GameService.open(database, tick_every=None) for _ in range(3)]
    thoughts = []

    def counting(service):
        choose = service.ai_turns.pool.choose

        async def counted(*args, **kwargs):
            thoughts.append(service)
            await asyncio.sleep(0.5)  # long enough for the others to try meanwhile
            return await choose(*args, **kwargs)

        service.ai_turns.pool.choose = counted

    for service in services:
        counting(service)
    try:
        game = await services[0].start_game(
            Player.ai("first"), ALICE, "kalah", Channel("discord", "vs-ai")
        )  # the AI moves first
        await asyncio.sleep(0.1)  # the first service is thinking now
        for service in services[1:]:
            service.ai_turns.schedule(game.id)  # as a restart or a tick would
        for service in services:
            await service.idle()
        after = await services[0].get_game(game.id)
    finally:
        for service in services:
            await service.close()
    assert after.to_move == ALICE and len(after.moves) >= 1
    assert len(thoughts) == len(after.moves)  # each AI move thought once, by one service


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_a_cached_game_learns_of_another_processes_move_at_once(postgres_database):
    """Without the notification, the second service would show its cached board for an
    hour (cache_ttl); with LISTEN/NOTIFY it forgets the game when the other one moves."""
    one = await GameService.open(postgres_database, tick_every=None, cache_ttl=3600)
    two = await GameService.open(postgres_database, tick_every=None, cache_ttl=3600)
    try:
        game = await one.start_game(ALICE, BOB, "wari", Channel("discord", "n"))
        assert (await two.get_game(game.id)).ply == 0  # cached by the second now
        await one.move(game.id, ALICE, "A")
        for _ in range(100):
            if (await two.get_game(game.id)).ply == 1:
                break
            await asyncio.sleep(0.02)
        seen = await two.get_game(game.id)
        assert seen.moves == ("A",) and seen.to_move == BOB
        assert (await two.move(game.id, BOB, "a", expected_ply=1)).ply == 2
    finally:
        await one.close()
        await two.close()


# A process that starts a game against the AI, whose AI thinks for ever (it holds the turn's
# lease in the database), and a game between people whose moves it acknowledges; it says so
# on stdout, line by line, and then waits to be killed.
THINKER = textwrap.dedent("""
    import asyncio, sys
    from bot.service import Channel, GameService, Player

    async def main(url):
        service = await GameService.open(url, tick_every=None)
        thinking = asyncio.Event()
        async def forever(*args, **kwargs):
            print("thinking", flush=True)
            thinking.set()
            await asyncio.sleep(3600)
        service.ai.choose = forever
        ai_game = await service.start_game(
            Player.ai("first"), Player("discord", "9"), "kalah", Channel("discord", "ai"))
        print("ai-game", ai_game.id, flush=True)
        ann, bob = Player("discord", "1"), Player("discord", "2")
        game = await service.start_game(ann, bob, "oware", Channel("discord", "people"))
        for _ in range(10):
            view = await service.move(game.id, game.to_move, game.position.legal_moves()[0],
                                      expected_ply=game.ply)
            print("acked", game.id, view.ply, flush=True)
            game = view
        await asyncio.wait_for(thinking.wait(), 60)
        print("ready", flush=True)
        await asyncio.sleep(3600)

    asyncio.run(main(sys.argv[1]))
""")


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_a_process_killed_mid_thought_loses_nothing_and_another_takes_its_ai_turn(
    postgres_database,
):
    """SIGKILL one of two processes while its AI thinks: every move it acknowledged is in the
    log, and once its lease on the AI's turn runs out, the other process plays that turn,
    once (its clock is a manual one, moved past the lease)."""
    import signal
    import time

    from bot.service.ai_turns import AI_LEASE

    url = postgres_database
    thinker = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        THINKER,
        url,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    said: list[list[str]] = []
    try:
        while not said or said[-1] != ["ready"]:
            line = await asyncio.wait_for(thinker.stdout.readline(), 120)
            assert line, (await thinker.stderr.read()).decode()[-2000:]
            said.append(line.decode().split())
    finally:
        thinker.send_signal(signal.SIGKILL)
        await thinker.wait()
    assert ["thinking"] in said  # it held the AI's turn when it died
    ai_game = next(int(words[1]) for words in said if words[0] == "ai-game")
    acked = {(int(words[1]), int(words[2])) for words in said if words[0] == "acked"}
    assert len(acked) == 10

    clock = ManualClock(time.time())
    survivor = await GameService.open(url, clock=clock, tick_every=None)
    try:
        await survivor.idle()  # it found the AI's turn pending, but the lease is not its own
        assert (await survivor.get_game(ai_game)).ply == 0
        clock.advance(AI_LEASE + 1)
        await survivor.tick()  # the lease has run out: this process takes the turn
        await survivor.idle()
        after = await survivor.get_game(ai_game)
    finally:
        await survivor.close()
    assert after.ply >= 1 and after.to_move == Player("discord", "9")

    store = await open_storage(url)
    try:
        logged = {(g, m.ply) for g in {g for g, _ in acked} for m in await store.games.moves(g)}
        ai_moves = [m.ply for m in await store.games.moves(ai_game)]
    finally:
        await store.close()
    assert acked <= logged  # nothing the killed process acknowledged is lost
    assert ai_moves == list(range(1, after.ply + 1))  # the AI's turn was played once
