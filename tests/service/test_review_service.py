"""The solver's review through the service: finished games only, every ply in the AI pool as
background work, progress as it goes, one review at a time per player, kept once done in
the database, where another process on it (on SQLite and on PostgreSQL) finds it."""

import asyncio

import pytest

from bot.service import (
    Channel,
    GameService,
    ManualClock,
    NotAllowed,
    NotFound,
    Player,
    TooMuchAIWork,
)
from engine import Game
from engine.review import Budget
from engine.review import review as engine_review
from tests.service.test_ai_fairness import NeverCompiled

ALICE = Player("discord", "3001")
BOB = Player("discord", "3002")
RULES = "kalah:pits=3,seeds=2"


@pytest.fixture
async def service(tmp_path):
    service = await GameService.open(
        tmp_path / "review.sqlite3", clock=ManualClock(1_000_000.0), tick_every=None
    )
    service.ai.kernel = NeverCompiled()  # the plain-Python solver: these boards are small
    yield service
    await service.close()


async def finished_game(service, channel="t1"):
    challenge = await service.challenge(ALICE, BOB, RULES, Channel("discord", channel))
    game = await service.accept(challenge.id, BOB)
    while not game.is_over:
        mover = game.to_move
        game = await service.move(game.id, mover, game.position.legal_moves()[-1])
    return game


async def test_a_finished_game_is_reviewed_as_the_engine_reviews_it(service):
    game = await finished_game(service)
    heard = []
    reviewed = await service.review(
        game.id, BOB, progress=lambda n, total: heard.append((n, total))
    )
    view, done = reviewed.game, reviewed.review
    assert view.id == game.id
    assert reviewed.positions[0] == Game.from_moves(RULES, []).position
    assert [p.move for p in done.plies] == list(game.moves)
    assert heard == [(n, len(game.moves)) for n in range(1, len(game.moves) + 1)]
    alone = engine_review(Game.from_moves(RULES, list(game.moves)), compiled=False)
    assert done.to_dict() == alone.to_dict()  # the pool, ply by ply, as the engine in one go
    assert all(p.proven for p in done.plies)


async def test_a_game_still_going_on_is_not_reviewed(service):
    challenge = await service.challenge(ALICE, BOB, RULES, Channel("discord", "t2"))
    game = await service.accept(challenge.id, BOB)
    with pytest.raises(NotAllowed, match="still going on"):
        await service.review(game.id, ALICE)


async def test_one_review_at_a_time_and_a_done_one_is_kept(service):
    first = await finished_game(service, "t3")
    second = await finished_game(service, "t4")
    gate = asyncio.Event()

    async def slow(done, total):
        await gate.wait()

    running = asyncio.create_task(service.review(first.id, ALICE, progress=slow))
    await asyncio.sleep(0.2)
    with pytest.raises(TooMuchAIWork, match="still running"):
        await service.review(second.id, ALICE)
    gate.set()
    done = await running
    calls = []
    original = service.ai.review_move

    async def counted(*args, **kwargs):
        calls.append(args)
        return await original(*args, **kwargs)

    service.ai.review_move = counted
    again = await service.review(first.id, BOB)
    assert again is done and calls == []  # kept: no work done twice


async def test_without_a_number_the_latest_finished_game_is_reviewed(service):
    with pytest.raises(NotFound, match="no finished game"):
        await service.review(None, ALICE)
    game = await finished_game(service, "t5")
    assert (await service.review(None, ALICE)).game.id == game.id


async def test_a_review_made_in_one_process_is_shown_and_reused_by_another(database):
    """Two services on one database, as the bot and a separate ``mancala web`` are: the
    review one makes is kept in the database, the other shows it and never makes it again."""
    clock = ManualClock(1_000_000.0)
    bot = await GameService.open(database, clock=clock, tick_every=None)
    web = await GameService.open(database, clock=clock, tick_every=None)
    try:
        for service in (bot, web):
            service.ai.kernel = NeverCompiled()
        game = await finished_game(bot, "t6")
        assert await web.kept_review(game.id) is None  # nobody asked yet
        made = await bot.review(game.id, ALICE)

        shown = await web.kept_review(game.id)
        assert shown is not None and shown.game.id == game.id
        assert shown.review == made.review  # every ply, its values, classes and summaries
        assert shown.positions == made.positions

        def no_work(*args, **kwargs):
            raise AssertionError("a kept review is made again")

        web.ai.review_move = no_work
        again = await web.review(game.id, BOB)
        assert again.review == made.review

        web.reviews.budget = Budget(nodes=1_000)  # another budget: made again, and replaces it
        del web.ai.review_move
        redone = await web.review(game.id, BOB)
        assert redone.budget != made.budget
        later = await GameService.open(database, clock=clock, tick_every=None)
        try:
            latest = await later.kept_review(game.id)
            assert latest is not None and latest.budget == redone.budget
        finally:
            await later.close()
    finally:
        await bot.close()
        await web.close()
