"""The service's internal hooks (bot.service.hooks): which part reacts to which, and in what
order, as GameService wires them."""

import pytest

from bot.service import GameService, ManualClock


@pytest.fixture
async def service(tmp_path):
    service = await GameService.open(
        tmp_path / "hooks.sqlite3", clock=ManualClock(1_700_000_000.0), tick_every=None
    )
    yield service
    await service.close()


async def test_each_hook_reaches_its_parts_in_order(service):
    hooks = service.hooks
    assert hooks.ai_turn_due.subscribers == (service.ai_turns.schedule,)
    assert hooks.game_over.subscribers == (service.tournaments.game_over,)
    assert hooks.moved.subscribers == (service.premoves.after_move,)
    # vacations end before the clocks are looked at; tournaments move on before digests go
    assert hooks.tick_first.subscribers == (service.vacations.tick,)
    assert hooks.tick_after.subscribers == (service.tournaments.tick, service.digests.tick)
    assert hooks.is_away.subscribers == (service.vacations.is_away,)
    assert hooks.decorate.subscribers == (service.vacations.decorate,)
    assert hooks.held_back.subscribers == (service.digests.held_back,)


async def test_a_surface_registers_its_place_maker_through_the_service(service):
    async def make_place(tournament, pairing):
        return None

    assert service.hooks.place_for_game.get("discord") is None
    service.add_place_maker("discord", make_place)
    assert service.hooks.place_for_game.get("discord") is make_place
