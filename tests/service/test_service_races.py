"""Races: a thousand concurrent move attempts on one game, from both players and through two
service instances on the same file (so the SQL compare-and-set, not only the in-process lock,
is tested). Each ply must be applied exactly once and the log must match the position."""

import asyncio
import json
import random

from bot.service import (
    Channel,
    GameFinished,
    GameService,
    IllegalMove,
    ManualClock,
    NotYourTurn,
    Player,
    StaleMove,
)
from engine import Game
from storage import open_storage

ALICE = Player("discord", "1")
BOB = Player("discord", "2")
ALLOWED = (StaleMove, NotYourTurn, IllegalMove, GameFinished)  # StaleMove covers DuplicateMove


async def test_a_thousand_concurrent_attempts_apply_each_ply_once(database):
    path = database  # a SQLite file, or a PostgreSQL database
    clock = ManualClock()
    one = await GameService.open(path, clock=clock, tick_every=None)
    two = await GameService.open(path, clock=clock, tick_every=None)
    rng = random.Random(7)
    game = await one.start_game(ALICE, BOB, "oware", Channel("discord", "race"))
    applied: list[tuple[int, str]] = []
    refused: dict[str, int] = {}
    finished: list[bool] = []

    async def attempt(i: int) -> None:
        await asyncio.sleep(rng.random() * 0.2)
        service = one if i % 2 else two
        player = ALICE if i % 4 < 2 else BOB
        view = await service.get_game(game.id)
        # A view shows committed state only: never a move whose commit is still in flight.
        assert len(view.moves) == view.ply and (view.is_over or view.position.legal_moves())
        legal = view.position.legal_moves() or ["A"]
        move = rng.choice(legal)
        expected = view.ply if i % 3 else None  # some without a ply: the lock alone guards them
        try:
            after = await service.move(game.id, player, move, expected_ply=expected)
            applied.append((after.ply, after.moves[-1]))
            finished.append(after.is_over)
        except ALLOWED as err:
            refused[type(err).__name__] = refused.get(type(err).__name__, 0) + 1

    try:
        await asyncio.gather(*(attempt(i) for i in range(1000)))
    finally:
        await one.close()
        await two.close()

    assert sum(refused.values()) + len(applied) == 1000
    plies = sorted(ply for ply, _ in applied)
    assert plies == list(range(1, len(plies) + 1)), "a ply was lost or applied twice"
    # The race really played a game, not a move or two: to its end (random moves can end an
    # oware game early, depending on how the attempts interleave) or for many plies.
    assert any(finished) or len(plies) > 50

    store = await open_storage(path)
    try:
        log = [(m.ply, m.move) for m in await store.games.moves(game.id)]
        row = await store.games.get(game.id)
        board, stored_ply = row.board, row.ply
    finally:
        await store.close()
    assert log == sorted(applied)  # every acknowledged move is in the log, nothing else
    assert stored_ply == len(log)
    replay = Game.from_moves("oware", [move for _, move in log])
    assert list(replay.position.board) == json.loads(board)


async def test_two_processes_on_one_file_see_each_others_moves(database):
    """Like ``mancala bot`` and ``mancala mail`` run apart on one database: each service's
    cache is checked against it (on SQLite, when older than ``cache_ttl``; on PostgreSQL, the
    other process's NOTIFY drops it a moment after the commit), and a move for a board the
    other one showed is accepted."""
    path = database
    bot = await GameService.open(path, tick_every=None, cache_ttl=0.0)
    mail = await GameService.open(path, tick_every=None)  # default: checked once a second
    try:
        game = await bot.start_game(ALICE, BOB, "wari", Channel("discord", "shared"))
        assert (await mail.get_game(game.id)).ply == 0  # now cached by the mail service
        await bot.move(game.id, ALICE, "A", expected_ply=0)
        after = await mail.move(game.id, BOB, "a", expected_ply=1)  # Bob saw ply 1
        assert after.moves == ("A", "a")
        seen = await bot.get_game(game.id)  # SQLite, cache_ttl=0: checked at once
        for _ in range(100 if database.startswith("postgresql") else 0):
            if seen.moves == ("A", "a"):
                break
            await asyncio.sleep(0.02)  # the notification is on its way
            seen = await bot.get_game(game.id)
        assert seen.moves == ("A", "a") and seen.to_move == ALICE
    finally:
        await bot.close()
        await mail.close()
