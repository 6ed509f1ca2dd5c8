"""Tournament pairings and standings (bot.service.pairing, docs/tournaments.md) as properties
over random fields and random results: Swiss rounds never repeat a pairing, give a bye at most
once per player and keep the sides within one (or say they could not); round robins meet
everyone exactly once (twice, sides swapped, when double); arenas never pair a busy player;
the standings add up and break ties as documented."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.service.pairing import (
    DRAW,
    NONE,
    NORTH,
    SOUTH,
    Entrant,
    Match,
    arena_pairs,
    arena_points,
    berger_rounds,
    round_robin,
    standings,
    swiss_round,
)
from storage.records import PairingKind

RESULTS = (SOUTH, NORTH, DRAW)


def field(n: int, rng: random.Random) -> list[Entrant]:
    return [Entrant(p, float(rng.randrange(1200, 1900, 25))) for p in range(1, n + 1)]


def played(match: Match, rng: random.Random) -> Match:
    """The match with a random result (a bye's and a forfeit's are set already)."""
    if match.result is not None:
        return match
    return Match(match.round, match.south, match.north, match.kind, rng.choice(RESULTS))


def sides_balance(history: list[Match]) -> Counter[int]:
    """Souths minus norths per player, over the games played."""
    balance: Counter[int] = Counter()
    for m in history:
        if m.kind is PairingKind.GAME and m.north is not None:
            balance[m.south] += 1
            balance[m.north] -= 1
    return balance


def check_round(entrants: list[Entrant], history: list[Match], r: int) -> list[Match]:
    """Pair round ``r``, check it against every rule, and play it with random results."""
    paired = swiss_round(entrants, history, r)
    ids = [e.id for e in entrants]
    seen = [p for m in paired.matches for p in m.players]
    assert sorted(seen) == sorted(ids), "everyone still in plays exactly once a round"
    byes = [m for m in paired.matches if m.kind is PairingKind.BYE]
    assert len(byes) == len(ids) % 2
    met = {frozenset(m.players) for m in history if m.north is not None}
    for m in paired.matches:
        assert m.round == r
        if m.north is not None:
            assert m.kind is PairingKind.GAME and m.result is None
            assert paired.rematch or frozenset(m.players) not in met, "no pair meets twice"
        else:
            assert m.result is SOUTH, "a bye scores as a win"
    after = history + list(paired.matches)
    balance = sides_balance(after)
    if paired.sides_within is not None:
        assert all(abs(balance[p]) <= paired.sides_within for p in ids), balance
    if paired.sides_within == 2:  # relaxed: never three in a row on one side
        for p in ids:
            sides = [m.side_of(p) for m in after if m.kind is PairingKind.GAME and p in m.players]
            assert all(len(set(sides[i : i + 3])) > 1 for i in range(len(sides) - 2))
    return list(paired.matches)


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 20), st.integers(1, 10), st.integers(0, 2**32))
@example(12, 5, 0)  # the 12-player Swiss of 5 rounds
@example(13, 6, 1)
def test_swiss_rounds_never_repeat_a_pairing_and_keep_sides_balanced(n, rounds, seed):
    rng = random.Random(seed)
    rounds = min(rounds, n // 2)  # at least twice as many players as rounds, as the service asks
    entrants, history = field(n, rng), []
    for r in range(1, rounds + 1):
        before = len(history)
        history += [played(m, rng) for m in check_round(entrants, history, r)]
        assert len(history) > before
    byes = Counter(m.south for m in history if m.kind is PairingKind.BYE)
    assert all(count == 1 for count in byes.values()), "a bye at most once per player"
    assert not any(  # with 2R players or more, a pairing without a rematch always exists
        frozenset(a.players) == frozenset(b.players)
        for i, a in enumerate(history)
        for b in history[:i]
        if a.north is not None and b.north is not None
    )
    balance = sides_balance(history)
    assert all(abs(balance[p]) <= 2 for p in range(1, n + 1))


@settings(max_examples=150, deadline=None)
@given(st.integers(4, 24), st.integers(2, 8), st.integers(0, 2**32))
def test_swiss_rounds_with_withdrawals_pair_only_those_still_in(n, rounds, seed):
    rng = random.Random(seed)
    entrants, history = field(n, rng), []
    for r in range(1, min(rounds, n // 2) + 1):
        if len(entrants) > 2 and rng.random() < 0.4:
            entrants.pop(rng.randrange(len(entrants)))
        paired = swiss_round(entrants, history, r)
        assert sorted(p for m in paired.matches for p in m.players) == sorted(
            e.id for e in entrants
        )
        history += [played(m, rng) for m in paired.matches]
        byes = Counter(m.south for m in history if m.kind is PairingKind.BYE)
        for m in paired.matches:  # a second bye only once everyone still in has had one
            if m.kind is PairingKind.BYE and byes[m.south] > 1:
                assert all(byes[e.id] for e in entrants)


def test_the_swiss_pairs_the_leaders_together_and_floats_the_odd_one_down():
    field5 = [Entrant(p, 2000 - 10 * p) for p in range(1, 7)]
    first = [
        Match(1, 1, 4, result=SOUTH),
        Match(1, 5, 2, result=NORTH),
        Match(1, 3, 6, result=DRAW),
    ]
    second = swiss_round(field5, first, 2)
    pairs = [frozenset(m.players) for m in second.matches]
    # 1 and 2 lead with a point: they meet, each on the side they did not play
    assert (second.matches[0].south, second.matches[0].north) == (2, 1)
    assert frozenset({3, 6}) not in pairs  # no rematch for the drawers, who float apart
    assert second.sides_within == 1


def test_the_bye_goes_to_the_lowest_ranked_player_who_has_not_had_one():
    entrants = [Entrant(p, 2000 - p) for p in range(1, 6)]
    first = swiss_round(entrants, [], 1)
    assert first.matches[-1] == Match(1, 5, None, PairingKind.BYE, SOUTH)
    history = [played(m, random.Random(1)) for m in first.matches]
    second = swiss_round(entrants, history, 2)
    bye = second.matches[-1]
    assert bye.kind is PairingKind.BYE and bye.south != 5


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 16), st.booleans())
def test_a_round_robin_meets_everyone_exactly_once_or_twice_sides_swapped(n, double):
    seeds = list(range(101, 101 + n))
    rounds = round_robin(seeds, double)
    cycle = n - 1 if n % 2 == 0 else n
    assert len(rounds) == cycle * (2 if double else 1)
    for pairs in rounds:
        players = [p for pair in pairs for p in pair]
        assert len(players) == len(set(players)), "nobody plays twice in a round"
        assert len(players) == n - n % 2, "with an odd number, exactly one rests"
    games = [pair for pairs in rounds for pair in pairs]
    meetings = Counter(frozenset(pair) for pair in games)
    assert set(meetings) == {frozenset({a, b}) for a in seeds for b in seeds if a < b}
    assert set(meetings.values()) == {2 if double else 1}
    if double:  # the second cycle is the first with the sides swapped
        assert Counter(games[: len(games) // 2]) == Counter(
            (n_, s) for s, n_ in games[len(games) // 2 :]
        )
    balance: Counter[int] = Counter()
    for s, n_ in games:
        balance[s] += 1
        balance[n_] -= 1
    limit = 1 if n % 2 == 0 and not double else 0  # Berger's sides: as even as can be
    assert all(abs(balance[p]) <= limit for p in seeds), balance
    rests = Counter(p for pairs in rounds for p in seeds if all(p not in pair for pair in pairs))
    assert set(rests.values()) <= {2 if double else 1}


def test_berger_tables_are_fides():
    assert berger_rounds(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 12), st.integers(1, 30), st.integers(0, 2**32))
def test_arena_waves_pair_only_free_players_and_no_immediate_rematch(n, waves, seed):
    rng = random.Random(seed)
    entrants = field(n, rng)
    history: list[Match] = []
    busy: set[int] = set()
    for wave in range(1, waves + 1):
        free = [e for e in entrants if e.id not in busy]
        new = arena_pairs(free, history, wave, alone=n == 2)
        players = [p for m in new for p in m.players]
        assert len(players) == len(set(players)) and not set(players) & busy
        last = {}
        for m in history:
            for p in m.players:
                last[p] = m.opponent(p)
        for m in new:
            assert n == 2 or last.get(m.south) != m.north, "never the opponent just played"
        history += new
        busy |= set(players)
        for m in [m for m in history if m.result is None and rng.random() < 0.6]:
            history[history.index(m)] = played(m, rng)
            busy -= set(m.players)
    points = arena_points(history)
    wins = Counter(
        m.south if m.result is SOUTH else m.north for m in history if m.result in (SOUTH, NORTH)
    )
    for p in range(1, n + 1):
        assert 2 * wins[p] <= points.get(p, 0) <= 4 * wins[p] + 2 * len(history)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 14), st.integers(0, 2**32))
def test_standings_add_up_and_are_ordered_by_points_then_tie_breaks(n, seed):
    rng = random.Random(seed)
    entrants = field(n, rng)
    history = [
        played(Match(r, s, n_), rng)
        for r, pairs in enumerate(round_robin([e.id for e in entrants]), 1)
        for s, n_ in pairs
    ]
    lines = standings(entrants, history)
    assert sum(line.points for line in lines) == len(history)  # a point per game
    keys = [(line.points, line.buchholz, line.sonneborn_berger, line.rating) for line in lines]
    assert keys == sorted(keys, reverse=True)
    assert [line.rank for line in lines][0] == 1
    for line in lines:
        assert line.wins + line.draws + line.losses == line.games == n - 1
        assert 0 <= line.sonneborn_berger <= line.buchholz


def test_byes_and_forfeits_count_as_games_against_a_virtual_opponent_of_ones_own_points():
    entrants = [Entrant(1, 1600), Entrant(2, 1500), Entrant(3, 1400)]
    history = [
        Match(1, 1, 2, result=SOUTH),
        Match(1, 3, None, PairingKind.BYE, SOUTH),
        Match(2, 3, 1, result=DRAW),
        Match(2, 2, None, PairingKind.BYE, SOUTH),
        Match(3, 2, 3, PairingKind.FORFEIT, NORTH),  # 2 withdrew: 3 wins without a game
        Match(3, 1, None, PairingKind.BYE, SOUTH),
    ]
    by_player = {line.player: line for line in standings(entrants, history)}
    # points: 1 = 1 + ½ + 1 (bye) = 2.5; 2 = 0 + 1 (bye) + 0 = 1; 3 = 1 (bye) + ½ + 1 = 2.5
    assert [by_player[p].points for p in (1, 2, 3)] == [2.5, 1.0, 2.5]
    # Buchholz of 1: 2's 1 + 3's 2.5 + their own 2.5 for the bye = 6
    assert by_player[1].buchholz == 6.0
    # of 3: own 2.5 (bye) + 1's 2.5 + own 2.5 (forfeit win) = 7.5; so 3 ranks above 1
    assert by_player[3].buchholz == 7.5
    # Sonneborn-Berger of 1: beat 2 (1) + ½ × 3's 2.5 + bye 1 × own 2.5 = 4.75
    assert by_player[1].sonneborn_berger == 4.75
    assert by_player[3].sonneborn_berger == 2.5 + 1.25 + 2.5
    assert [line.player for line in standings(entrants, history)] == [3, 1, 2]
    assert by_player[3].games == 1 and by_player[3].draws == 1  # the bye and forfeit are no games
    neither = Match(4, 1, 2, PairingKind.FORFEIT, NONE)
    assert neither.points(1) == neither.points(2) == 0.0


def test_an_arena_doubles_points_on_a_streak_of_two_wins():
    games = [
        Match(r, 1, 2, result=result)
        for r, result in enumerate([SOUTH, SOUTH, SOUTH, DRAW, SOUTH, NORTH], 1)
    ]
    # 1: 2 + 2 + 4 (on fire) + 2 (a draw, doubled, ends it) + 2 + 0
    # 2: 0 + 0 + 0 + 1 + 0 + 2
    assert arena_points(games) == {1: 12, 2: 3}
    lines = standings([Entrant(1), Entrant(2)], games, arena=True)
    assert [(line.player, line.points) for line in lines] == [(1, 12.0), (2, 3.0)]
