"""The service tests' shared fixtures: ``clock`` and ``service``, the game service on the
suite's ``database`` fixture (so on SQLite and on PostgreSQL). A file whose service or clock
differs overrides them."""

import pytest

from bot.service import GameService, ManualClock


@pytest.fixture
def clock():
    return ManualClock(1_000_000.0)


@pytest.fixture
async def service(database, clock):
    """The service on a fresh database: every test using it runs on SQLite and on PostgreSQL."""
    service = await GameService.open(database, clock=clock, tick_every=None)
    yield service
    await service.close()
