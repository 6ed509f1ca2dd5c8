"""Correspondence on a human schedule, through the service on a manual clock
(docs/correspondence.md): days a move as a game's clock, vacations that stop it, the daily
digest and conditional moves; and the storage under them on SQLite and PostgreSQL, where two
services on one database send a digest once and end a vacation once."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.service import (
    BadRequest,
    Channel,
    Forfeit,
    GameOptions,
    GameService,
    ManualClock,
    MoveMade,
    NotAllowed,
    Player,
    Recorder,
    Reminder,
)
from bot.service.events import DigestDue
from bot.service.premoves import parse_conditions

DAY, HOUR = 86400.0, 3600.0
MONDAY = 1_767_571_200.0  # 2026-01-05 00:00 UTC
ANN, BOB = Player("discord", "101"), Player("email", "bob@example.org")
CAT = Player("email", "cat@example.org")


async def open_service(
    path, clock: ManualClock, cache_ttl: float = 1.0
) -> tuple[GameService, Recorder]:
    service = await GameService.open(path, clock=clock, tick_every=None, cache_ttl=cache_ttl)
    heard = Recorder()
    for surface in ("discord", "email"):
        service.add_notifier(surface, heard)
    return service, heard


@pytest.fixture
async def table(tmp_path):
    clock = ManualClock(MONDAY)
    service, heard = await open_service(tmp_path / "games.sqlite3", clock)
    yield service, heard, clock
    await service.close()


async def new_game(
    service: GameService, south: Player, north: Player, rules: str = "wari", days: int = 3
) -> int:
    challenge = await service.challenge(
        south, north, rules, Channel("discord", f"c{south.id}{north.id}"), GameOptions(days=days)
    )
    return (await service.accept(challenge.id, north)).id


async def tick_until(service: GameService, clock: ManualClock, until: float, step: float) -> None:
    while clock() + step <= until:
        clock.advance(step)
        await service.tick()
        await service.idle()


# -- days a move -------------------------------------------------------------------------------


async def test_days_a_move_remind_a_day_before_the_deadline_and_forfeit_at_it(table):
    service, heard, clock = table
    game = await service.get_game(await new_game(service, ANN, BOB, days=3))
    assert game.options.days == 3 and game.deadline == MONDAY + 3 * DAY
    await tick_until(service, clock, MONDAY + 2 * DAY - 60, 3 * HOUR)
    assert not heard.of_type(Reminder)
    clock.set(MONDAY + 2 * DAY)
    await service.tick()
    await service.idle()
    (reminder,) = heard.of_type(Reminder)
    assert reminder.recipient == ANN and reminder.forfeit_at == MONDAY + 3 * DAY
    clock.set(MONDAY + 3 * DAY)
    await service.tick()
    await service.idle()
    assert {e.recipient for e in heard.of_type(Forfeit)} == {ANN, BOB}
    assert (await service.get_game(game.id)).outcome.winner == "north"


@pytest.mark.parametrize("days", [0, 15, 2.5, True])
async def test_days_a_move_are_one_to_fourteen_whole_days(table, days):
    service, _, _ = table
    with pytest.raises(BadRequest, match="days a move are a whole number from 1 to 14"):
        await service.challenge(ANN, BOB, "wari", Channel("discord", "x"), GameOptions(days=days))


# -- vacations -----------------------------------------------------------------------------------


async def test_three_days_a_move_with_vacations_has_no_spurious_reminder_or_forfeit(
    database, tmp_path
):
    """The issue's goal: each player goes away once, for longer than a move's time; nobody is
    reminded or forfeited, and each deadline comes back moved on by the time away."""
    clock = ManualClock(MONDAY)
    service, heard = await open_service(database, clock)
    try:
        game_id = await new_game(service, ANN, BOB, days=3)
        await service.move(game_id, ANN, "C")  # Bob's move from Monday 00:00: due Thursday
        clock.advance(1 * DAY)
        away = await service.start_vacation(BOB, days=7)
        assert away.until == MONDAY + 8 * DAY
        seen_by_ann = await service.get_game(game_id)
        assert [(a.player, a.until) for a in seen_by_ann.away] == [(BOB, MONDAY + 8 * DAY)]
        await tick_until(service, clock, MONDAY + 8 * DAY + HOUR, 4 * HOUR)
        game = await service.get_game(game_id)
        assert game.away == ()  # the vacation ended by itself after its 7 days
        assert game.deadline == MONDAY + 10 * DAY  # three days a move, seven of them away
        await tick_until(service, clock, MONDAY + 8 * DAY + 12 * HOUR, 4 * HOUR)
        game = await service.move(game_id, BOB, "d")
        assert game.deadline == clock() + 3 * DAY

        clock.advance(DAY)
        await service.start_vacation(ANN)  # until she says, or her allowance is used up
        await tick_until(service, clock, clock() + 10 * DAY, 6 * HOUR)
        back = await service.stop_vacation(ANN)
        assert not back.away and back.used == pytest.approx(10 * DAY)
        game = await service.get_game(game_id)
        assert game.deadline == clock() + 2 * DAY  # one day of her three had gone by
        await tick_until(service, clock, clock() + DAY - HOUR, 2 * HOUR)
        await service.move(game_id, ANN, game.position.legal_moves()[0])
        await service.idle()
        assert heard.of_type(Reminder) == [] and heard.of_type(Forfeit) == []
        assert (await service.vacation(BOB)).used == pytest.approx(7 * DAY)
    finally:
        await service.close()


async def test_a_vacation_ends_when_its_player_moves_and_stops_only_their_clock(table):
    service, heard, clock = table
    game_id = await new_game(service, ANN, BOB)
    await service.start_vacation(ANN, days=10)
    with pytest.raises(BadRequest, match="on vacation already"):
        await service.start_vacation(ANN)
    clock.advance(2 * DAY)
    game = await service.move(game_id, ANN, "C")  # her own move ends it
    assert game.away == () and not (await service.vacation(ANN)).away
    assert (await service.vacation(ANN)).used == pytest.approx(2 * DAY)
    clock.advance(3 * DAY)  # Bob is not away: his clock ran
    await service.tick()
    await service.idle()
    assert [e.loser for e in heard.of_type(Forfeit)][:1] == [BOB]
    with pytest.raises(BadRequest, match="not on vacation"):
        await service.stop_vacation(ANN)
    with pytest.raises(BadRequest, match="1 to 30 days"):
        await service.start_vacation(BOB, days=31)


async def test_vacation_days_are_counted_per_calendar_year(tmp_path):
    clock = ManualClock(1_761_955_200.0)  # 2025-11-01 00:00 UTC
    service, _ = await open_service(tmp_path / "games.sqlite3", clock)
    try:
        await service.start_vacation(ANN, days=25)
        clock.advance(25 * DAY)
        await service.tick()
        assert (await service.vacation(ANN)).used == pytest.approx(25 * DAY)
        clock.set(1_767_052_800.0)  # 2025-12-30: five days of 2025 left, then 2026's thirty
        status = await service.start_vacation(ANN)
        assert status.until == 1_767_225_600.0 + 30 * DAY  # 2026-01-31
        clock.set(1_767_225_600.0 + 10 * DAY)
        status = await service.vacation(ANN)
        assert (status.year, status.used, status.away) == (2026, pytest.approx(10 * DAY), True)
        clock.set(1_767_225_600.0 + 31 * DAY)
        await service.tick()
        status = await service.vacation(ANN)
        assert not status.away and status.used == pytest.approx(30 * DAY) and status.left == 0
        with pytest.raises(NotAllowed, match="used all 30 vacation days of 2026"):
            await service.start_vacation(ANN)
    finally:
        await service.close()


# -- the daily digest ----------------------------------------------------------------------------


async def test_a_digest_reader_gets_one_digest_a_day_instead_of_each_move(table):
    service, heard, clock = table
    first = await new_game(service, ANN, BOB)
    second = await new_game(service, ANN, CAT)
    setting = await service.set_digest(BOB, True, hour=7)
    assert setting.on and setting.first_at == MONDAY + 7 * HOUR
    with pytest.raises(BadRequest, match="for players by email"):
        await service.set_digest(ANN, True)
    await service.move(first, ANN, "C")
    await service.move(second, ANN, "C")
    await service.idle()
    assert [e.recipient for e in heard.of_type(MoveMade)] == [CAT]  # Bob's is held back
    await tick_until(service, clock, MONDAY + 2 * DAY + 8 * HOUR, HOUR)
    digests = heard.of_type(DigestDue)
    assert [(d.recipient, d.day, [g.id for g in d.games]) for d in digests] == [
        (BOB, int(MONDAY // DAY), [first]),
        (BOB, int(MONDAY // DAY) + 1, [first]),
        (BOB, int(MONDAY // DAY) + 2, [first]),
    ]
    assert await service.digest_listing(BOB, int(MONDAY // DAY)) == {first: 1}
    await service.set_digest(BOB, False)
    await service.move(first, BOB, "d")
    await service.resign(second, CAT)
    await service.idle()
    assert heard.of_type(MoveMade)[-1].recipient == ANN


# -- conditional moves ---------------------------------------------------------------------------


async def test_a_conditional_move_is_played_when_the_opponent_matches_and_dropped_if_not(table):
    service, heard, _ = table
    game_id = await new_game(service, ANN, CAT)
    await service.move(game_id, ANN, "C")
    with pytest.raises(BadRequest, match="it is your move"):
        await service.set_premoves(game_id, CAT, [("A", "c")])
    pairs = await service.set_premoves(game_id, ANN, [("d", "B"), ("e", "D")])
    assert [str(p) for p in pairs] == ["if d then B", "if e then D"]
    assert await service.my_premoves(game_id, CAT) == []  # Ann's are hers alone
    await service.move(game_id, CAT, "e")
    await service.idle()
    game = await service.get_game(game_id)
    assert game.moves == ("C", "e", "D")
    played = [e for e in heard.of_type(MoveMade) if e.answering is not None]
    assert {(e.recipient, e.by, e.move, e.answering) for e in played} == {
        (ANN, ANN, "D", "e"),
        (CAT, ANN, "D", "e"),
    }
    assert await service.my_premoves(game_id, ANN) == []  # each is used once, or dropped
    await service.set_premoves(game_id, ANN, [("a", "A")])
    await service.move(game_id, CAT, "b")  # not the condition: dropped
    await service.idle()
    assert (await service.get_game(game_id)).moves == ("C", "e", "D", "b")
    assert await service.my_premoves(game_id, ANN) == []


async def test_a_condition_is_a_whole_turn_checked_by_the_rules(table):
    service, _, _ = table
    game_id = await new_game(service, ANN, CAT, rules="kalah")
    await service.move(game_id, ANN, "A")
    with pytest.raises(BadRequest, match="your opponent moves again: write their whole turn"):
        await service.set_premoves(game_id, ANN, [("c", "B")])  # c ends in North's store
    with pytest.raises(BadRequest, match="if z"):
        await service.set_premoves(game_id, ANN, [("z", "B")])
    (pair,) = await service.set_premoves(game_id, ANN, [("c f", "B")])
    assert pair.if_moves == ("c", "f")
    await service.move(game_id, CAT, "c")  # half the turn: nothing yet
    await service.idle()
    assert (await service.get_game(game_id)).moves == ("A", "c")
    assert [str(p) for p in await service.my_premoves(game_id, ANN)] == ["if c f then B"]
    await service.move(game_id, CAT, "f")
    await service.idle()
    assert (await service.get_game(game_id)).moves[-1] == "B"
    ai_game = await service.start_game(ANN, Player.ai("first"), "wari", Channel("discord", "ai"))
    with pytest.raises(BadRequest, match="between two people"):
        await service.set_premoves(ai_game.id, ANN, [("a", "B")])


@given(st.text(max_size=400))
def test_any_text_reads_as_conditional_moves_or_as_none(text):
    for condition, answer in parse_conditions(text):
        assert condition.split() and 1 <= len(answer) <= 2


@pytest.mark.parametrize(
    "pair",
    [("", "B"), ("a" * 500, "B"), ("f", ""), ("f\x00", "B"), ("f", "B" * 40), (7, None)],
)
async def test_odd_conditional_moves_are_refused_clearly(table, pair):
    service, _, _ = table
    game_id = await new_game(service, ANN, CAT)
    await service.move(game_id, ANN, "C")
    with pytest.raises(BadRequest) as refused:
        await service.set_premoves(game_id, ANN, [pair])
    assert len(str(refused.value)) < 300 and str(refused.value).isprintable()


# -- two services on one database ----------------------------------------------------------------


async def test_two_services_on_one_database_send_a_digest_once_and_end_a_vacation_once(
    database,
):
    clock = ManualClock(MONDAY)
    # each reads a game again before using it: what the other changed shows at once
    one, heard_one = await open_service(database, clock, cache_ttl=0)
    two, heard_two = await open_service(database, clock, cache_ttl=0)
    try:
        game_id = await new_game(one, ANN, BOB)
        await one.set_digest(BOB, True, hour=7)
        await one.move(game_id, ANN, "C")  # Bob's move, due Thursday 00:00
        await one.start_vacation(BOB, days=2)
        clock.set(MONDAY + 2 * DAY + 8 * HOUR)  # past the vacation and Wednesday's digest hour
        await asyncio.gather(one.tick(), two.tick(), one.tick(), two.tick())
        await asyncio.gather(one.idle(), two.idle())
        due = heard_one.of_type(DigestDue) + heard_two.of_type(DigestDue)
        assert len(due) == 1 and [g.id for g in due[0].games] == [game_id]
        for service in (one, two):
            game = await service.get_game(game_id)
            assert game.deadline == MONDAY + 5 * DAY  # moved on by the two days, once
        assert (await two.vacation(BOB)).used == pytest.approx(2 * DAY)
    finally:
        await one.close()
        await two.close()


async def test_a_conditional_move_set_in_one_process_is_played_by_another(database):
    # A move reads the premoves table only in a game flagged as holding some, where the
    # storage reports other processes' changes (PostgreSQL): issue 31, a read per move cost
    # the PostgreSQL processes a sixth of their moves. Setting one flags the game's row.
    clock = ManualClock(MONDAY)
    one, _ = await open_service(database, clock, cache_ttl=0)
    two, _ = await open_service(database, clock, cache_ttl=0)
    try:
        game_id = await new_game(one, ANN, CAT)
        reads = []
        store = two.premoves.schedule_store
        looked_up = store.premoves

        async def counted(*args):
            reads.append(args)
            return await looked_up(*args)

        store.premoves = counted
        await two.move(game_id, ANN, "C")
        await two.move(game_id, CAT, "a")
        await two.move(game_id, ANN, (await two.get_game(game_id)).position.legal_moves()[0])
        await two.idle()
        if two.games.told_of_changes:
            assert reads == []  # nobody set one: no read
        position = (await one.get_game(game_id)).position
        condition = position.legal_moves()[0]
        answer = position.play(condition).legal_moves()[-1]
        await one.set_premoves(game_id, ANN, [(condition, answer)])
        reads.clear()
        for _ in range(100):  # the other process hears of the change by notification
            if not two.games.told_of_changes or two.games.live.get(game_id) is None:
                break
            await asyncio.sleep(0.02)
        await two.move(game_id, CAT, condition)
        await two.idle()
        assert (await two.get_game(game_id)).moves[-2:] == (condition, answer)
        if two.games.told_of_changes:  # (SQLite reads at every move between two people)
            assert len(reads) == 1  # the flagged game's, then none: the answer cleared it
    finally:
        await one.close()
        await two.close()
