"""A PostgreSQL restart under load (the server stopped as an operator's restart stops it, then
started again on the same data): the service stays up, answers what it could not store with
"try again in a moment", never acknowledges a move it did not store, and plays on once the
server is back, without restarting."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.service import Channel, GameService, Player, ServiceError, Unavailable
from storage import open_storage
from tests.postgres_server import HOW_TO_GET, PostgresServer, binaries, unavailable

GAMES = 6


@pytest.fixture
def own_server():
    """A server of this test's own, since the test stops and starts it."""
    bindir = binaries()
    if bindir is None:
        unavailable(HOW_TO_GET)
    server = PostgresServer(bindir).start()
    yield server
    with contextlib.suppress(RuntimeError):  # already down, if the test failed while it was
        server.stop()


async def test_a_restart_loses_no_acknowledged_move_and_the_service_plays_on(own_server):
    url = own_server.new_database()
    service = await GameService.open(url, tick_every=None)
    acked: list[tuple[int, int]] = []  # (game, ply) of every move the service acknowledged
    unavailable_answers: list[str] = []
    down = asyncio.Event()
    try:
        games = [
            (
                await service.start_game(
                    Player("discord", f"s{n}"),
                    Player("discord", f"n{n}"),
                    "oware",
                    Channel("discord", f"c{n}"),
                )
            ).id
            for n in range(GAMES)
        ]

        async def play(game_id: int, moves: int) -> None:
            """Make ``moves`` moves in the game, whatever the server is doing meanwhile."""
            made = 0
            for _ in range(2000):  # bounded: every attempt either lands or is refused
                if made == moves:
                    return
                try:
                    view = await service.get_game(game_id)
                    if view.is_over:
                        return
                    move = view.position.legal_moves()[0]
                    after = await service.move(game_id, view.to_move, move, view.ply)
                except Unavailable as err:
                    unavailable_answers.append(str(err))
                    await asyncio.sleep(0.05)
                    continue
                except ServiceError:
                    continue  # stale after a reload: look again
                acked.append((game_id, after.ply))
                made += 1
                if down.is_set():
                    await asyncio.sleep(0.05)
            raise AssertionError(f"game {game_id}: {made} of {moves} moves in 2000 attempts")

        await asyncio.gather(*(play(g, 3) for g in games))
        seen = [await service.get_game(g) for g in games]  # the boards the players look at
        before = len(acked)
        down.set()
        await asyncio.to_thread(own_server.halt)
        try:
            # While the server is down, moves are refused, saying so, and none is acknowledged;
            # a board is the one cached, until the lost notifications make the service forget
            # it, and then refused the same way.
            for view in seen:
                try:
                    assert (await service.get_game(view.id)).ply == view.ply
                except Unavailable as err:
                    assert "try again in a moment" in str(err)
                with pytest.raises(Unavailable, match="try again in a moment"):
                    await service.move(
                        view.id, view.to_move, view.position.legal_moves()[0], view.ply
                    )
            assert len(acked) == before
        finally:
            await asyncio.to_thread(own_server.resume)
        await asyncio.gather(*(play(g, 5) for g in games))  # the same service plays on
        await service.tick()  # listens again for other processes' changes
        assert service.games.told_of_changes
    finally:
        await service.close()

    store = await open_storage(url)
    try:
        logged = {(g, m.ply) for g in games for m in await store.games.moves(g)}
        finals = {g: (await store.games.get(g)).ply for g in games}
    finally:
        await store.close()
    assert set(acked) <= logged  # every acknowledged move is in the log
    assert len(acked) == len(set(acked))  # and none was acknowledged twice
    assert all(ply == sum(1 for g, _ in logged if g == game) for game, ply in finals.items())
    assert all(finals[g] >= 8 or (g, finals[g]) in logged for g in games)
