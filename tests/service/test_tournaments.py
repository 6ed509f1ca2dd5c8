"""Tournaments through the service (bot.service.tournaments, docs/tournaments.md), on a real
SQLite file (and PostgreSQL where the ``database`` fixture says) with a manual clock: a
12-player Swiss of 5 rounds and a 6-player double round robin with a restart between rounds,
standings and tie-breaks checked by hand, a round begun once by two services on one
database, a finished game counted once, withdrawals, forfeits and byes, starts on the clock,
an arena, and the refusals."""

from __future__ import annotations

import asyncio
from collections import Counter
from itertools import pairwise

import pytest

from bot.service import (
    BadRequest,
    Channel,
    GameService,
    ManualClock,
    NotAllowed,
    NotFound,
    Player,
    Recorder,
)
from bot.service.errors import TooFewPlayers, TournamentClosed
from bot.service.events import TournamentNews, TournamentNewsKind
from bot.service.tournaments import (
    Format,
    Pairing,
    PairingKind,
    PairingResult,
    TimeControl,
    TournamentStatus,
)

DAY = 86400.0
CORRESPONDENCE = TimeControl.correspondence(3)
LIVE = TimeControl.live(5)
HERE = Channel("discord", "700")
SERVER = "600"
ORGANISER = Player("email", "org@example.org")
ADMIN = Player("discord", "9001")


def people(n: int) -> list[Player]:
    """``n`` players by mail (who may join any tournament)."""
    return [Player("email", f"p{i}@example.org") for i in range(n)]


def mixed(n: int) -> list[Player]:
    """``n`` players, Discord and mail alternately: for a tournament held in a Discord
    channel, which both may join (one tournament, both surfaces)."""
    return [
        Player("discord", str(1000 + i)) if i % 2 else Player("email", f"p{i}@example.org")
        for i in range(n)
    ]


IN_CHANNEL = dict(place=HERE, server=SERVER, as_organiser=True)


@pytest.fixture
def clock():
    return ManualClock(1_700_000_000.0)


class Heard:
    """What each surface was told (one Recorder per surface)."""

    def __init__(self) -> None:
        self.discord, self.email = Recorder(), Recorder()

    def attach(self, service: GameService) -> None:
        service.add_notifier("discord", self.discord)
        service.add_notifier("email", self.email)

    def news(self) -> list[TournamentNews]:
        return self.discord.of_type(TournamentNews) + self.email.of_type(TournamentNews)


@pytest.fixture
async def opened(clock):
    """Open a service on a database (and attach ``heard``); every one is closed at the end,
    even after a failure (an open SQLite connection's thread would keep pytest from
    exiting)."""
    services: list[GameService] = []

    async def open_service(path, heard: Heard | None = None) -> GameService:
        service = await GameService.open(path, clock=clock, tick_every=None)
        services.append(service)
        if heard is not None:
            heard.attach(service)
        return service

    yield open_service
    for service in services:
        await service.close()


async def finish(service: GameService, pairing: Pairing, result: PairingResult) -> None:
    """End a pairing's game with ``result``: a resignation, or a draw offered and accepted."""
    assert pairing.game_id is not None and pairing.north is not None
    if result is PairingResult.SOUTH:
        await service.resign(pairing.game_id, pairing.north)
    elif result is PairingResult.NORTH:
        await service.resign(pairing.game_id, pairing.south)
    else:
        await service.offer_draw(pairing.game_id, pairing.south)
        await service.accept_offer(pairing.game_id, pairing.north)


def chosen(round_no: int, board: int) -> PairingResult:
    """A fixed spread of results: South, North, a draw, South, ... by round and board."""
    return (PairingResult.SOUTH, PairingResult.NORTH, PairingResult.DRAW)[(round_no + board) % 3]


async def play_round(service: GameService, tournament_id: int, pick=chosen) -> list[Pairing]:
    """Play every game of the current round to ``pick``'s result; the round's pairings."""
    pairings = await service.tournament_pairings(tournament_id)
    for pairing in pairings:
        if pairing.kind is PairingKind.GAME and pairing.result is None:
            await finish(service, pairing, pick(pairing.round, pairing.board))
    await service.idle()  # the last game's end begins the next round, in the background
    return pairings


def hand_standings(everyone: list[Player], history: list[Pairing]) -> dict[Player, tuple]:
    """Points, Buchholz and Sonneborn-Berger added up here, independently of the service, as
    docs/tournaments.md says: unplayed pairings against a virtual opponent of one's own
    points."""
    points = Counter()
    for p in history:
        if p.result is PairingResult.DRAW:
            points[p.south] += 0.5
            points[p.north] += 0.5
        elif p.result is PairingResult.SOUTH:
            points[p.south] += 1
        elif p.result is PairingResult.NORTH:
            points[p.north] += 1
    table = {}
    for who in everyone:
        buchholz = berger = 0.0
        for p in history:
            if not p.has(who) or p.result is None:
                continue
            scored = (
                0.5
                if p.result is PairingResult.DRAW
                else float(p.result.value == ("south" if who == p.south else "north"))
            )
            other = p.opponent_of(who)
            opposition = points[who] if p.kind is not PairingKind.GAME else points[other]
            buchholz += opposition
            berger += scored * opposition
        table[who] = (points[who], buchholz, berger)
    return table


def check_standings(standings, everyone, history) -> None:
    expected = hand_standings(everyone, history)
    for line in standings:
        assert (line.points, line.buchholz, line.sonneborn_berger) == expected[line.player]
    keys = [(s.points, s.buchholz, s.sonneborn_berger, s.rating) for s in standings]
    assert keys == sorted(keys, reverse=True)


# -- the two tournaments, with a restart between rounds -------------------------------


async def test_a_twelve_player_swiss_of_five_rounds_survives_restarts(tmp_path, opened):
    path = tmp_path / "games.sqlite3"
    heard = Heard()
    service = await opened(path, heard)
    everyone = mixed(12)
    t = await service.create_tournament(
        ADMIN, "Autumn Swiss", "swiss", "oware", CORRESPONDENCE, rounds=5, **IN_CHANNEL
    )
    for who in everyone:
        await service.join_tournament(t.id, who)
    await service.start_tournament(t.id, ADMIN)
    history: list[Pairing] = []
    for round_no in range(1, 6):
        view = await service.tournament(t.id)
        assert (view.status, view.current_round) == (TournamentStatus.RUNNING, round_no)
        pairings = await service.tournament_pairings(t.id)
        assert sorted(p for x in pairings for p in (x.south, x.north)) == sorted(everyone)
        game = await service.get_game(pairings[0].game_id)
        assert game.options.forfeit_after == 3 * DAY and game.options.rated
        assert game.position.to_move == "south" and game.channel.surface == "tournament"
        history += await play_round(service, t.id)
        await service.close()  # a restart between rounds: everything is in the file
        service = await opened(path, heard)
        if round_no < 5:  # the next round began before the restart, and is still there
            assert [p.round for p in await service.tournament_pairings(t.id)] == [round_no + 1] * 6
    done = await service.tournament(t.id)
    assert done.status is TournamentStatus.FINISHED and done.current_round == 5
    met = Counter(frozenset((p.south, p.north)) for p in history)
    assert max(met.values()) == 1, "no pair meets twice"
    sides = Counter()
    for p in history:
        sides[p.south] += 1
        sides[p.north] -= 1
    assert all(abs(sides[who]) <= 1 for who in everyone), "sides balanced within one"
    standings = await service.tournament_standings(t.id)
    assert sum(s.points for s in standings) == 30  # five rounds of six games, a point each
    check_standings(standings, everyone, await all_pairings(service, t.id))
    news = heard.news()
    for who in everyone:
        mine = [n for n in news if n.recipient == who and not n.in_place]
        rounds = [n.round for n in mine if n.kind is TournamentNewsKind.ROUND_STARTED]
        assert rounds == [1, 2, 3, 4, 5], "told of each round once, despite the restarts"
        assert all(
            n.pairing is not None and n.pairing.has(who)
            for n in mine
            if n.kind is TournamentNewsKind.ROUND_STARTED
        )
        assert [n.kind for n in mine][-1] is TournamentNewsKind.FINISHED
    winner = standings[0].player
    rating = await service.rating(winner, "oware")
    assert rating.games == 5, "tournament games between people are rated as usual"
    await service.close()


async def all_pairings(service: GameService, tournament_id: int) -> list[Pairing]:
    view = await service.tournament(tournament_id)
    return [
        p
        for r in range(1, view.current_round + 1)
        for p in await service.tournament_pairings(tournament_id, r)
    ]


async def test_a_six_player_double_round_robin_survives_restarts(tmp_path, opened):
    path = tmp_path / "games.sqlite3"
    service = await opened(path)
    everyone = people(6)
    t = await service.create_tournament(
        ORGANISER, "Double", Format.DOUBLE_ROUND_ROBIN, "kalah", LIVE
    )
    for who in everyone:
        await service.join_tournament(t.id, who)
    assert (await service.tournament(t.id)).rounds == 0  # known at the start
    await service.start_tournament(t.id, ORGANISER)
    assert (await service.tournament(t.id)).rounds == 10
    for _ in range(10):
        await play_round(service, t.id)
        await service.close()
        service = await opened(path)
    view = await service.tournament(t.id)
    assert view.status is TournamentStatus.FINISHED
    history = await all_pairings(service, t.id)
    assert len(history) == 30 and all(p.kind is PairingKind.GAME for p in history)
    games = Counter((p.south, p.north) for p in history)
    assert set(games.values()) == {1}
    assert all((n, s) in games for s, n in games), "each pair twice, the sides swapped"
    first = await service.get_game(history[0].game_id)
    assert first.options.forfeit_after == 5 * 60  # live: minutes a move
    standings = await service.tournament_standings(t.id)
    check_standings(standings, everyone, history)
    assert sum(s.games for s in standings) == 60
    await service.close()


async def test_tie_breaks_as_worked_by_hand_in_the_docs(tmp_path, opened):
    """docs/tournaments.md's example: four players all round; 2 and 3 tie on points and on
    Buchholz, Sonneborn-Berger puts 3 ahead."""
    service = await opened(tmp_path / "games.sqlite3")
    one, two, three, four = people(4)
    t = await service.create_tournament(ORGANISER, "Four", "round-robin", "kalah", LIVE)
    for who in (one, two, three, four):
        await service.join_tournament(t.id, who)
    await service.start_tournament(t.id, ORGANISER)
    # Berger's table of 4 (all rated 1500: seeded as they joined): 1-4 2-3 | 4-3 1-2 | 2-4 3-1
    wanted = {
        (one, four): PairingResult.SOUTH,  # 1 beats 4
        (two, three): PairingResult.DRAW,
        (four, three): PairingResult.SOUTH,  # 4 beats 3
        (one, two): PairingResult.SOUTH,  # 1 beats 2
        (two, four): PairingResult.SOUTH,  # 2 beats 4
        (three, one): PairingResult.SOUTH,  # 3 beats 1
    }
    for _ in range(3):
        pairings = await service.tournament_pairings(t.id)
        for p in pairings:
            await finish(service, p, wanted[(p.south, p.north)])
        await service.idle()
    rows = [
        (s.rank, s.player, s.points, s.buchholz, s.sonneborn_berger)
        for s in await service.tournament_standings(t.id)
    ]
    assert rows == [
        (1, one, 2.0, 4.0, 2.5),
        (2, three, 1.5, 4.5, 2.75),
        (3, two, 1.5, 4.5, 1.75),
        (4, four, 1.0, 5.0, 1.5),
    ]
    await service.close()


# -- exactly once, across processes --------------------------------------------------------------


async def test_two_services_begin_each_round_once_and_count_each_game_once(database, clock, opened):
    heard = Heard()
    one, two = await opened(database, heard), await opened(database, heard)
    for service in (one, two):  # only the clocks move the tournament on: they race
        service.hooks.game_over.unsubscribe(service.tournaments.game_over)
    everyone = people(6)
    t = await one.create_tournament(
        ORGANISER, "Race", "swiss", "wari", CORRESPONDENCE, rounds=3, starts_at=clock() + 3600
    )
    for who in everyone:
        await (one if who.surface == "email" else two).join_tournament(t.id, who)
    clock.advance(3600)
    for round_no in (1, 2, 3):
        await asyncio.gather(*(s.tick() for s in (one, two, one, two)))
        await asyncio.gather(one.idle(), two.idle())
        pairings = await two.tournament_pairings(t.id)
        assert [p.round for p in pairings] == [round_no] * 3
        assert len({p.game_id for p in pairings}) == 3
        assert await one.open_game_count() == 3, "each pairing's game made once"
        for p in pairings:
            await finish(one if p.board % 2 else two, p, chosen(p.round, p.board))
        await asyncio.gather(*(s.tick() for s in (one, two, two, one)))
        standings = await one.tournament_standings(t.id)
        assert sum(s.points for s in standings) == 3 * round_no, "each game counted once"
    await asyncio.gather(one.tick(), two.tick())
    await asyncio.gather(one.idle(), two.idle())
    assert (await two.tournament(t.id)).status is TournamentStatus.FINISHED
    news = heard.news()
    for who in everyone:
        started = [
            n.round
            for n in news
            if n.recipient == who and n.kind is TournamentNewsKind.ROUND_STARTED
        ]
        assert started == [1, 2, 3], "each round announced once, by one of the two"
    finished = [n for n in news if n.kind is TournamentNewsKind.FINISHED]
    assert sorted(n.recipient for n in finished) == sorted(everyone)
    await one.close()
    await two.close()


async def test_a_finished_game_counts_once_however_often_the_tournament_moves_on(tmp_path, opened):
    service = await opened(tmp_path / "games.sqlite3")
    a, b, c, d = people(4)
    t = await service.create_tournament(ORGANISER, "Once", "swiss", "kalah", LIVE, rounds=2)
    for who in (a, b, c, d):
        await service.join_tournament(t.id, who)
    await service.start_tournament(t.id, ORGANISER)
    first = (await service.tournament_pairings(t.id))[0]
    await finish(service, first, PairingResult.SOUTH)
    for _ in range(3):
        await service.tournaments.advance(t.id)
        await service.tick()
    await service.idle()
    lines = {s.player: s for s in await service.tournament_standings(t.id)}
    assert lines[first.south].points == 1.0 and lines[first.south].wins == 1
    assert sum(s.points for s in lines.values()) == 1.0
    assert (await service.tournament(t.id)).current_round == 1  # the other game goes on
    await service.close()


# -- withdrawals, forfeits, byes ------------------------------------------------------------------


async def test_a_bye_scores_a_point_and_goes_to_the_lowest_ranked_once(tmp_path, opened):
    service = await opened(tmp_path / "games.sqlite3")
    everyone = people(5)
    t = await service.create_tournament(ORGANISER, "Odd", "swiss", "kalah", LIVE, rounds=2)
    for who in everyone:
        await service.join_tournament(t.id, who)
    await service.start_tournament(t.id, ORGANISER)
    byes = []
    for _ in range(2):
        pairings = await play_round(service, t.id)
        bye = [p for p in pairings if p.kind is PairingKind.BYE]
        assert len(bye) == 1 and bye[0].north is None and bye[0].result is PairingResult.SOUTH
        byes.append(bye[0].south)
    assert byes[0] == everyone[-1], "all rated alike: the last to join ranks lowest"
    assert byes[0] != byes[1]
    lines = {s.player: s for s in await service.tournament_standings(t.id)}
    assert lines[byes[0]].games == 1 and lines[byes[0]].points >= 1.0
    await service.close()


async def test_withdrawing_resigns_the_game_going_on_and_leaves_the_pairings(tmp_path, opened):
    heard = Heard()
    service = await opened(tmp_path / "games.sqlite3", heard)
    everyone = people(6)
    t = await service.create_tournament(ORGANISER, "Leaving", "swiss", "kalah", LIVE, rounds=3)
    for who in everyone:
        await service.join_tournament(t.id, who)
    await service.withdraw_from_tournament(t.id, everyone[0])  # before the start: just leaves
    await service.join_tournament(t.id, everyone[0])
    await service.start_tournament(t.id, ORGANISER)
    pairings = await service.tournament_pairings(t.id)
    leaver = pairings[0].south
    view = await service.withdraw_from_tournament(t.id, leaver)
    assert leaver in view.withdrawn and leaver not in view.players
    game = await service.get_game(pairings[0].game_id)
    assert game.is_over and game.outcome.winner == "north"  # their game was resigned
    for p in pairings[1:]:
        await finish(service, p, PairingResult.DRAW)
    await service.idle()
    second = await service.tournament_pairings(t.id)
    assert second[0].round == 2 and all(not p.has(leaver) for p in second)
    assert [p.kind for p in second][-1] is PairingKind.BYE  # five left: one has a bye
    lines = {s.player: s for s in await service.tournament_standings(t.id)}
    assert lines[leaver].withdrawn and lines[leaver].losses == 1
    with pytest.raises(NotAllowed):
        await service.withdraw_from_tournament(t.id, leaver)
    await service.close()


async def test_a_round_robin_scores_a_withdrawn_players_games_as_forfeits(tmp_path, clock, opened):
    service = await opened(tmp_path / "games.sqlite3")
    everyone = people(4)
    t = await service.create_tournament(ORGANISER, "Forfeits", "round-robin", "kalah", LIVE)
    for who in everyone:
        await service.join_tournament(t.id, who)
    await service.start_tournament(t.id, ORGANISER)
    leaver = everyone[3]  # seed 4: meets 1 now (resigned), then 3 and 2 (not played)
    await service.withdraw_from_tournament(t.id, leaver)
    await service.idle()
    await play_round(service, t.id)
    for _ in range(2):
        pairings = await service.tournament_pairings(t.id)
        theirs = [p for p in pairings if p.has(leaver)]
        assert len(theirs) == 1 and theirs[0].kind is PairingKind.FORFEIT
        assert theirs[0].game_id is None
        winner = theirs[0].opponent_of(leaver)
        assert theirs[0].result.value == ("south" if winner == theirs[0].south else "north")
        await play_round(service, t.id)
    assert (await service.tournament(t.id)).status is TournamentStatus.FINISHED
    lines = {s.player: s for s in await service.tournament_standings(t.id)}
    assert lines[leaver].games == 1 and lines[leaver].withdrawn
    check_standings(list(lines.values()), everyone, await all_pairings(service, t.id))
    await service.close()


# -- starting on the clock, cancelling, organisers -----------------------------------------------


async def test_a_tournament_starts_at_its_time_or_is_cancelled_short_of_players(
    tmp_path, clock, opened
):
    heard = Heard()
    service = await opened(tmp_path / "games.sqlite3", heard)
    everyone = people(4)
    soon = await service.create_tournament(
        ORGANISER, "At noon", "round-robin", "kalah", LIVE, starts_at=clock() + DAY
    )
    empty = await service.create_tournament(
        ORGANISER, "Nobody", "round-robin", "kalah", LIVE, starts_at=clock() + DAY
    )
    await service.join_tournament(empty.id, everyone[0])
    for who in everyone:
        await service.join_tournament(soon.id, who)
    await service.tick()
    assert (await service.tournament(soon.id)).status is TournamentStatus.OPEN
    clock.advance(DAY)
    await service.tick()
    await service.idle()
    assert (await service.tournament(soon.id)).current_round == 1
    assert (await service.tournament(empty.id)).status is TournamentStatus.CANCELLED
    told = [n for n in heard.news() if n.tournament.id == empty.id]
    assert [(n.recipient, n.kind) for n in told] == [(everyone[0], TournamentNewsKind.CANCELLED)]
    with pytest.raises(TournamentClosed):
        await service.join_tournament(soon.id, Player("email", "late@example.org"))
    with pytest.raises(NotAllowed, match="played by mail"):
        await service.join_tournament(empty.id, Player("discord", "77"))
    await service.close()


async def test_organisers_are_the_creator_and_the_servers_admins(tmp_path, opened):
    heard = Heard()
    service = await opened(tmp_path / "games.sqlite3", heard)
    everyone = mixed(4)
    with pytest.raises(NotAllowed):  # a place on Discord needs a server's admin
        await service.create_tournament(
            everyone[1], "Mine", "swiss", "kalah", LIVE, rounds=1, place=HERE, server=SERVER
        )
    t = await service.create_tournament(
        ADMIN,
        "Server cup",
        "swiss",
        "kalah",
        LIVE,
        rounds=2,
        place=HERE,
        server=SERVER,
        as_organiser=True,
    )
    assert t.place == HERE and t.server == SERVER
    for who in everyone:
        await service.join_tournament(t.id, who)
    with pytest.raises(NotAllowed):
        await service.start_tournament(t.id, everyone[1])
    with pytest.raises(NotAllowed):  # an admin of a server, but by mail: not this one's
        await service.start_tournament(t.id, everyone[0], as_organiser=True)
    other_admin = Player("discord", "9002")
    await service.start_tournament(t.id, other_admin, as_organiser=True)
    with pytest.raises(TournamentClosed):
        await service.start_tournament(t.id, ADMIN)
    placed = [n for n in heard.news() if n.in_place]
    assert all(n.recipient == ADMIN for n in placed)
    assert [n.kind for n in placed].count(TournamentNewsKind.JOINED) == 4
    assert [n.round for n in placed if n.kind is TournamentNewsKind.ROUND_STARTED] == [1]
    await service.cancel_tournament(t.id, ADMIN)
    assert (await service.tournament(t.id)).status is TournamentStatus.CANCELLED
    with pytest.raises(TournamentClosed):
        await service.cancel_tournament(t.id, ADMIN)
    await service.close()


async def test_refusals_say_what_is_wrong(tmp_path, opened):
    service = await opened(tmp_path / "games.sqlite3")
    a, b, c = people(3)
    with pytest.raises(BadRequest, match="1 to 14 days"):
        TimeControl.correspondence(30)
    with pytest.raises(BadRequest, match="1 to 60 minutes"):
        TimeControl.live(0)
    with pytest.raises(BadRequest, match="swiss, round-robin"):
        await service.create_tournament(a, "X", "knockout", "kalah", LIVE)
    with pytest.raises(BadRequest, match="1 to 20 rounds"):
        await service.create_tournament(a, "X", "swiss", "kalah", LIVE)
    with pytest.raises(BadRequest, match="only a Swiss"):
        await service.create_tournament(a, "X", "round-robin", "kalah", LIVE, rounds=3)
    with pytest.raises(BadRequest, match="played live"):
        await service.create_tournament(
            a, "X", "arena", "kalah", CORRESPONDENCE, arena_minutes=60, place=HERE
        )
    with pytest.raises(BadRequest, match="name"):
        await service.create_tournament(a, "  ", "round-robin", "kalah", LIVE)
    with pytest.raises(NotFound):
        await service.join_tournament(999, a)
    t = await service.create_tournament(a, "Three", "swiss", "kalah", LIVE, rounds=2)
    with pytest.raises(BadRequest, match="AI"):
        await service.join_tournament(t.id, Player.ai("first"))
    await service.join_tournament(t.id, b)
    with pytest.raises(NotAllowed, match="already"):
        await service.join_tournament(t.id, b)
    await service.join_tournament(t.id, c)
    with pytest.raises(TooFewPlayers, match="at least 4 players"):
        await service.start_tournament(t.id, a)
    with pytest.raises(NotAllowed):
        await service.withdraw_from_tournament(t.id, a)  # the organiser does not play
    await service.close()


# -- the arena ----------------------------------------------------------------------------------


async def test_an_arena_pairs_whoever_is_free_until_its_time_is_up(tmp_path, clock, opened):
    heard = Heard()
    service = await opened(tmp_path / "games.sqlite3", heard)
    a, b, c, d, e = [Player("discord", str(n)) for n in range(11, 16)]
    t = await service.create_tournament(
        ADMIN,
        "Blitz arena",
        "arena",
        "kalah",
        TimeControl.live(60),  # an hour a move: the arena's end, not a forfeit, stops it
        arena_minutes=30,
        place=HERE,
        server=SERVER,
        as_organiser=True,
    )
    for who in (a, b, c, d):
        await service.join_tournament(t.id, who)
    await service.start_tournament(t.id, ADMIN)
    wave = await service.tournament_pairings(t.id, 1)
    assert len(wave) == 2
    await service.join_tournament(t.id, e)  # late, alone: waits
    await service.idle()
    assert (await service.tournament(t.id)).current_round == 1
    first = wave[0]
    await finish(service, first, PairingResult.SOUTH)
    await service.idle()
    # the two just freed are not paired together again: one meets e, the other waits
    second = await service.tournament_pairings(t.id, 2)
    assert len(second) == 1 and second[0].has(e)
    winner = first.south
    for _ in range(20):  # the winner wins on; the others draw, freeing partners for them
        going = [p for p in await service.tournament_pairings(t.id) if p.result is None]
        theirs = [p for p in going if p.has(winner)]
        if theirs:
            won = PairingResult.SOUTH if theirs[0].south == winner else PairingResult.NORTH
            await finish(service, theirs[0], won)
        elif going:
            await finish(service, going[0], PairingResult.DRAW)
        await service.idle()
        if (await service.tournament_standings(t.id))[0].wins == 4:
            break
        met = [
            p.opponent_of(winner) for p in await service.tournament_pairings(t.id) if p.has(winner)
        ]
        assert all(x != y for x, y in pairwise(met)), "never the same opponent twice in a row"
    lines = {s.player: s for s in await service.tournament_standings(t.id)}
    assert lines[winner].wins == 4 and lines[winner].points == 2 + 2 + 4 + 4
    going = [p for p in await service.tournament_pairings(t.id) if p.result is None]
    assert going, "a wave began when the winner was free again"
    clock.advance(1800)
    await service.tick()
    assert (await service.tournament(t.id)).status is TournamentStatus.RUNNING  # games go on
    for p in going:
        await finish(service, p, PairingResult.DRAW)
    await service.idle()
    assert not [p for p in await service.tournament_pairings(t.id) if p.result is None]
    view = await service.tournament(t.id)
    assert view.status is TournamentStatus.FINISHED
    arena_news = [n for n in heard.news() if n.kind is TournamentNewsKind.ROUND_STARTED]
    assert all(n.pairing is not None for n in arena_news if not n.in_place)
    assert [n.round for n in arena_news if n.in_place] == [1]  # the place hears the start
    await service.close()


async def test_a_correspondence_tournament_reminds_when_a_day_is_left(tmp_path, opened):
    # Its games are days-a-move games: reminded a day before the deadline, as any game of days
    # a move (not after a third of the time, as a live tournament's are).
    service = await opened(tmp_path / "games.sqlite3")
    t = await service.create_tournament(
        ORGANISER, "Slow", "swiss", "kalah", CORRESPONDENCE, rounds=1
    )
    for who in people(2):
        await service.join_tournament(t.id, who)
    await service.start_tournament(t.id, ORGANISER)
    (pairing,) = await service.tournament_pairings(t.id)
    record = await service._store.games.get(pairing.game_id)
    assert record.forfeit_at - record.last_move_at == 3 * 86400
    assert record.remind_at - record.last_move_at == 2 * 86400
    await service.close()
