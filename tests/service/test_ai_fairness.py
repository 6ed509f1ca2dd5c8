"""One player cannot starve the others: the AI's workers go round the players in turn, live
work first, and the caps on one player's AI work are refused at once, with nothing lost."""

import asyncio
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai_runtime.fair_queue import FairQueue, Priority
from bot.service import (
    AILimits,
    Channel,
    GameOptions,
    GameService,
    ManualClock,
    Player,
    TooMuchAIWork,
)
from engine.ai import AIMove

ALICE = Player("discord", "2001")
BOB = Player("discord", "2002")
SOUTH = GameOptions(side="south")
CHANNELS = (Channel("discord", f"table-{n}") for n in itertools.count())


# -- the queue ---------------------------------------------------------------------------------


async def _served_order(queue: FairQueue, requests: list[tuple[str, Priority]]) -> list[str]:
    """Queue every request at once and let each finish only when the test's loop moves on:
    the order in which they got a worker."""
    order: list[str] = []

    async def request(name: str, owner: str, priority: Priority) -> None:
        async with queue.turn(owner, priority):
            order.append(name)
            await asyncio.sleep(0)

    await asyncio.gather(
        *(request(f"{owner}{n}", owner, p) for n, (owner, p) in enumerate(requests))
    )
    return order


async def test_one_worker_goes_round_the_players_in_turn():
    queue = FairQueue(workers=1)
    live = Priority.LIVE
    order = await _served_order(queue, [("a", live)] * 4 + [("b", live), ("c", live)])
    # a0 had the worker before b and c asked; after it, each player in turn
    assert order == ["a0", "b4", "c5", "a1", "a2", "a3"]


async def test_with_two_workers_one_player_leaves_one_free():
    queue = FairQueue(workers=2)
    gate = asyncio.Event()
    started: list[str] = []

    async def request(name: str, owner: str) -> None:
        async with queue.turn(owner):
            started.append(name)
            await gate.wait()

    flood = [asyncio.create_task(request(f"a{n}", "a")) for n in range(5)]
    await asyncio.sleep(0)
    assert started == ["a0"] and queue.busy == 1  # the second worker stays free
    assert queue.backlog("a").waiting == 4 and queue.backlog("a").running == 1
    other = asyncio.create_task(request("b0", "b"))
    await asyncio.sleep(0)
    assert started == ["a0", "b0"]  # at once, on the free worker
    gate.set()
    await asyncio.gather(*flood, other)
    assert queue.busy == 0 and queue.backlog("a").waiting == 0


async def test_live_work_comes_before_background_work():
    queue = FairQueue(workers=1)
    background, live = Priority.BACKGROUND, Priority.LIVE
    order = await _served_order(
        queue, [("r", background), ("r", background), ("p", live), ("q", live)]
    )
    assert order == ["r0", "p2", "q3", "r1"]


async def test_background_work_never_takes_every_worker():
    queue = FairQueue(workers=2)
    gate = asyncio.Event()

    async def review(owner: str) -> None:
        async with queue.turn(owner, Priority.BACKGROUND):
            await gate.wait()

    reviews = [asyncio.create_task(review(owner)) for owner in "xyz"]
    await asyncio.sleep(0)
    assert queue.busy == 1  # one review at a time: a live request finds a worker free
    gate.set()
    await asyncio.gather(*reviews)


async def test_a_request_given_up_while_waiting_leaves_no_trace():
    queue = FairQueue(workers=1)
    gate = asyncio.Event()

    async def request(owner: str) -> None:
        async with queue.turn(owner):
            await gate.wait()

    first = asyncio.create_task(request("a"))
    waiting = asyncio.create_task(request("b"))
    await asyncio.sleep(0)
    assert queue.backlog("b").waiting == 1
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert queue.backlog("b").waiting == 0
    gate.set()
    await first
    assert queue.busy == 0
    async with queue.turn("c"):  # the worker is free again
        assert queue.busy == 1


@settings(max_examples=60, deadline=None)
@given(
    workers=st.integers(1, 3),
    requests=st.lists(
        st.tuples(st.sampled_from("abcd"), st.sampled_from(list(Priority)), st.booleans()),
        min_size=1,
        max_size=24,
    ),
)
def test_every_request_is_served_within_the_caps(workers, requests):
    """Whatever arrives, in whatever mix of owners and classes, and whichever give up: every
    request not given up is served; no more run at once than there are workers, no owner on
    more than ``per_owner``, no more background work than ``background_at_once``."""

    async def scenario() -> None:
        queue = FairQueue(workers)
        served: list[int] = []
        peak = {"all": 0, "background": 0, "owner": 0}
        running: dict[str, int] = {}
        background = 0

        async def request(n: int, owner: str, priority: Priority) -> None:
            nonlocal background
            async with queue.turn(owner, priority):
                running[owner] = running.get(owner, 0) + 1
                background += priority is Priority.BACKGROUND
                peak["all"] = max(peak["all"], sum(running.values()))
                peak["owner"] = max(peak["owner"], running[owner])
                peak["background"] = max(peak["background"], background)
                try:
                    await asyncio.sleep(0)
                    await asyncio.sleep(0)
                    served.append(n)
                finally:
                    running[owner] -= 1
                    background -= priority is Priority.BACKGROUND

        tasks = [
            asyncio.create_task(request(n, owner, priority))
            for n, (owner, priority, _) in enumerate(requests)
        ]
        await asyncio.sleep(0)
        for task, (_, _, give_up) in zip(tasks, requests, strict=True):
            if give_up:
                task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        kept = {n for n, task in enumerate(tasks) if not task.cancelled()}
        assert set(served) == kept
        assert peak["all"] <= queue.workers
        assert peak["owner"] <= queue.per_owner
        assert peak["background"] <= queue.background_at_once
        assert queue.busy == 0 and all(
            queue.backlog(owner) == queue.backlog("nobody") for owner in "abcd"
        )

    asyncio.run(scenario())


# -- the service -------------------------------------------------------------------------------


class NeverCompiled:
    """The compiled kernel is never ready and never compiles: these tests time nothing."""

    def is_ready(self) -> bool:
        return False

    def is_compiling(self) -> bool:
        return False

    def start_background(self) -> bool:
        return False


class HeldWorkers:
    """Stands in for the worker processes (``AIPool._run``) behind the real fair queue: each
    search starts, notes which game's AI turn it is for, and ends when the test lets it."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.release = asyncio.Event()

    async def __call__(self, function, position, *args) -> AIMove:
        self.started.append(asyncio.current_task().get_name())
        await self.release.wait()
        return AIMove(position.legal_moves()[0], 0.0, 1, 1, 0.0)


async def _open_held(database, clock: ManualClock) -> tuple[GameService, HeldWorkers]:
    """A service (a process's) on ``database`` whose AI workers the test holds."""
    service = await GameService.open(
        database,
        clock=clock,
        tick_every=None,
        ai_workers=2,
        limits=AILimits(games_per_player=8, waiting_per_player=3),
    )
    workers = HeldWorkers()
    service.ai.kernel = NeverCompiled()
    service.ai._run = workers
    return service, workers


@pytest.fixture
async def held_service(tmp_path):
    service, workers = await _open_held(tmp_path / "fair.sqlite3", ManualClock(1_000_000.0))
    yield service, workers
    workers.release.set()
    await service.close()


async def _games_against_ai(service, player, count, level="medium"):
    games = []
    for _ in range(count):
        challenge = await service.challenge(
            player, Player.ai(level), "kalah", next(CHANNELS), SOUTH
        )
        games.append(challenge.game_id)
    return games


async def _until(condition) -> None:
    """Wait for the AI's turn tasks to reach the queue (they read the database first, in
    aiosqlite's thread); the bound only keeps a broken test from hanging."""
    for _ in range(3000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the AI's turns did not reach the queue")


async def test_a_flood_of_moves_does_not_delay_another_players_reply(held_service):
    service, workers = held_service
    flood = await _games_against_ai(service, ALICE, 4)
    for game_id in flood:
        await service.move(game_id, ALICE, "A")
    await _until(lambda: service.ai.backlog(ALICE).waiting == 3)
    (running,) = workers.started  # Alice holds one worker, no more
    assert running in {f"ai-turn-{game_id}" for game_id in flood}

    (mine,) = await _games_against_ai(service, BOB, 1)
    await service.move(mine, BOB, "A")
    await _until(lambda: len(workers.started) == 2)
    assert workers.started[-1] == f"ai-turn-{mine}"  # Bob's turn starts at once

    workers.release.set()
    await service.idle()
    for game_id in [*flood, mine]:
        assert (await service.get_game(game_id)).ply == 2  # every AI turn was played


async def test_past_the_waiting_cap_a_move_is_refused_and_not_played(held_service):
    service, workers = held_service
    games = await _games_against_ai(service, ALICE, 5)
    for game_id in games[:4]:
        await service.move(game_id, ALICE, "A")
    await _until(lambda: service.ai.backlog(ALICE).waiting == 3)

    with pytest.raises(TooMuchAIWork, match="3 requests waiting for the AI") as refused:
        await service.move(games[4], ALICE, "A")
    assert len(str(refused.value)) < 200
    assert (await service.get_game(games[4])).ply == 0  # not played: nothing to lose
    with pytest.raises(TooMuchAIWork):
        await service.hint(games[4], ALICE)

    busy = service.ai_reply_after(await service.get_game(games[3]))
    assert busy is not None and "Your move is saved" in str(busy)

    workers.release.set()
    await service.idle()
    game = await service.move(games[4], ALICE, "A")  # the AI caught up: allowed again
    assert game.ply == 1
    await service.idle()


async def test_a_reply_on_time_needs_no_note(held_service):
    service, workers = held_service
    (game_id,) = await _games_against_ai(service, BOB, 1)
    workers.release.set()
    game = await service.move(game_id, BOB, "A")
    assert service.ai_reply_after(game) is None  # nothing queued: the reply comes at once
    await service.idle()
    assert service.ai_reply_after(await service.get_game(game_id)) is None  # Bob's turn


async def test_past_the_games_cap_a_new_game_against_the_ai_is_refused(held_service):
    service, _ = held_service
    games = await _games_against_ai(service, ALICE, 8)
    with pytest.raises(TooMuchAIWork, match="8 games against the AI in progress"):
        await _games_against_ai(service, ALICE, 1, level="easy")
    with pytest.raises(TooMuchAIWork):
        await service.start_game(ALICE, Player.ai("easy"), "kalah", Channel("terminal", "t"))
    # games between people are not capped, nor are other players
    await service.challenge(ALICE, BOB, "kalah", next(CHANNELS))
    await _games_against_ai(service, BOB, 1)

    await service.resign(games[0], ALICE)  # finishing one frees a place
    await _games_against_ai(service, ALICE, 1, level="easy")


async def test_the_games_cap_holds_over_two_processes_and_the_waiting_cap_per_pool(database):
    """Two processes on one database: the games against the AI are counted from the games
    table, so the cap holds over both; the requests waiting are counted in each process's own
    pool, which only that process's workers serve (docs/limits.md says why)."""
    clock = ManualClock(1_000_000.0)
    (first, first_workers), (second, second_workers) = [
        await _open_held(database, clock) for _ in range(2)
    ]
    try:
        games = await _games_against_ai(first, ALICE, 4)
        games += await _games_against_ai(second, ALICE, 4)
        for service in (first, second):  # 8 in all: the cap, whichever process is asked
            with pytest.raises(TooMuchAIWork, match="8 games against the AI in progress"):
                await _games_against_ai(service, ALICE, 1, level="easy")

        for game_id in games[:4]:  # Alice's moves through the first process fill its pool
            await first.move(game_id, ALICE, "A")
        await _until(lambda: first.ai.backlog(ALICE).waiting == 3)
        with pytest.raises(TooMuchAIWork, match="3 requests waiting"):
            await first.move(games[4], ALICE, "A")
        # the second process's pool and workers are its own: her move there is queued there
        await second.move(games[4], ALICE, "A")
        await _until(lambda: len(second_workers.started) == 1)
        assert second.ai.backlog(ALICE).running == 1 and first.ai.backlog(ALICE).waiting == 3

        first_workers.release.set()
        second_workers.release.set()
        await first.idle()
        await second.idle()
        await first.resign(games[0], ALICE)  # one finished through the first ...
        await _games_against_ai(second, ALICE, 1, level="easy")  # ... frees a place in both
    finally:
        first_workers.release.set()
        second_workers.release.set()
        await first.close()
        await second.close()
