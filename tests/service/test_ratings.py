"""Glicko-2 ratings per family of rulesets (docs/ratings.md): the paper's worked example, the
families, provisional ratings and leaderboards, the deviation's growth with inactivity on a
manual clock, head-to-head records, and each rated game counted exactly once, on SQLite and on
PostgreSQL (the ``database`` fixture). The migration from Elo is in
tests/storage/test_upgrade.py."""

from __future__ import annotations

import asyncio
import math

import pytest

from bot.service import (
    BadRequest,
    BadRules,
    Channel,
    DuplicateMove,
    GameOptions,
    GameService,
    Player,
    StaleMove,
)
from bot.service.ratings import (
    FAMILIES,
    MIN_RD,
    PERIOD,
    PROVISIONAL_RD,
    SCALE,
    START_RD,
    Family,
    Glicko,
    HeadToHead,
    family_of,
    glicko2,
)
from engine import Game
from engine.ruleset import PRESETS
from storage import migrations

ANN = Player("discord", "1001")
BOB = Player("email", "bob@example.org")
CAT = Player("discord", "1003")
HERE = Channel("discord", "chan-1")
WEEK = 7 * 86400.0


async def won(service, winner: Player, loser: Player, rules="kalah", **options):
    """A finished game: ``loser`` resigns at once."""
    game = await service.start_game(winner, loser, rules, HERE, GameOptions(**options))
    return await service.resign(game.id, loser)


async def drawn(service, a: Player, b: Player, rules="kalah"):
    game = await service.start_game(a, b, rules, HERE)
    await service.offer_draw(game.id, a)
    return await service.accept_offer(game.id, b)


# -- the arithmetic -------------------------------------------------------------------------------


def within(value: float, printed: float, decimals: int) -> bool:
    """``value`` agrees with a figure printed to ``decimals`` places (to one unit of the last)."""
    return abs(value - printed) < 10**-decimals


def test_glickmans_worked_example_to_its_printed_precision():
    """ "Example of the Glicko-2 system": a 1500/200/0.06 player beats a 1400/30 player and
    loses to 1550/100 and 1700/300 in one rating period, with tau 0.5."""
    player = Glicko(1500, 200, 0.06)
    results = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
    after = glicko2(player, results, tau=0.5)
    # On Glicko-2's scale, as the paper prints them (four places, the volatility five):
    assert round(after.mu, 4) == -0.2069
    assert round(after.phi, 4) == 0.8722
    assert within(after.volatility, 0.05999, 5)
    # and converted back: r' = 1464.06, RD' = 151.52 (the paper converts its rounded mu')
    assert within(after.rating, 1464.06, 2) and within(after.deviation, 151.52, 2)
    assert round(1500 + 173.7178 * round(after.mu, 4), 2) == 1464.06
    assert round(SCALE, 4) == 173.7178


def test_a_period_without_games_only_widens_the_deviation():
    """Step 6 alone, for a player who did not compete: phi' = sqrt(phi^2 + sigma^2)."""
    quiet = glicko2(Glicko(1500, 200, 0.06), [])
    assert quiet.rating == 1500 and quiet.volatility == 0.06
    assert quiet.phi == pytest.approx(math.sqrt((200 / SCALE) ** 2 + 0.06**2))
    assert glicko2(Glicko(1500, 340), [], periods=1000, max_deviation=START_RD).deviation == 350


def test_every_preset_has_a_family_and_the_migration_knows_the_same_ones():
    assert set(FAMILIES) == set(PRESETS)
    assert set(FAMILIES.values()) == set(Family)
    known_then = {
        name: str(family) for name, family in FAMILIES.items() if name in migrations._FAMILIES_V5
    }
    assert known_then == migrations._FAMILIES_V5
    # Presets added since are families of their own, named as the preset (as the migration's
    # ELSE reads a ruleset it does not know): no game of theirs predates them.
    for name in set(FAMILIES) - set(migrations._FAMILIES_V5):
        assert FAMILIES[name] == name
    assert family_of("kalah-nosweep:seeds=3") is family_of("mancala") is Family.KALAH
    assert family_of("awale:captures=2-4") is Family.WARI and family_of("oware") is Family.OWARE
    assert family_of("mankala") is family_of("manbula") is family_of("applet") is Family.APPLET


# -- provisional ratings and leaderboards ----------------------------------------------------------


async def test_a_newcomer_is_provisional_until_the_deviation_falls_under_the_bound(service):
    fresh = await service.rating(ANN, "kalah")
    assert (fresh.rating, fresh.deviation, fresh.games, fresh.shown) == (1500, 350, 0, "1500?")
    games = 0
    while (await service.rating(ANN, "kalah")).provisional:
        mine = await service.rating(ANN, "kalah")
        assert mine.deviation >= PROVISIONAL_RD and mine.shown.endswith("?")
        assert await service.leaderboard("kalah") == []
        # Ann and Bob take turns winning, so neither runs away with it
        await (won(service, ANN, BOB) if games % 2 == 0 else won(service, BOB, ANN))
        games += 1
    ann, bob = await service.rating(ANN, "kalah"), await service.rating(BOB, "kalah")
    assert games == 13  # two newcomers playing each other: documented as about a dozen
    assert ann.deviation < PROVISIONAL_RD and not ann.shown.endswith("?")
    assert (ann.wins, ann.losses, bob.wins, bob.losses) == (7, 6, 6, 7)
    assert [r.player for r in await service.leaderboard("kalah")] == [ANN, BOB]
    assert await service.leaderboard("wari") == []  # another family knows nothing of it


async def test_variants_are_rated_in_their_presets_family(service):
    await won(service, ANN, BOB, "kalah:pits=4,seeds=3")
    await won(service, ANN, BOB, "kalah-nosweep")
    await won(service, BOB, ANN, "oware")
    ann = await service.rating(ANN, "kalah")
    assert (ann.rules, ann.games, ann.wins) == ("kalah", 2, 2)
    assert (await service.rating(ANN, "kalah:seeds=5")) == ann
    assert (await service.rating(ANN, "wari")).games == 0  # oware is a family of its own
    assert (await service.rating(ANN, "oware")).losses == 1
    with pytest.raises(BadRules, match="unknown ruleset"):
        await service.rating(ANN, "chess")


async def test_server_leaderboards_show_only_their_established_players(service):
    await service.note_server_player("discord", "guild", ANN)
    await service.note_server_player("discord", "guild", CAT)
    for n in range(14):  # Ann and Bob are established; Cat plays one game
        await (won(service, ANN, BOB) if n % 2 == 0 else won(service, BOB, ANN))
    await won(service, CAT, BOB)
    here = await service.leaderboard("kalah", server=("discord", "guild"))
    assert [r.player for r in here] == [ANN]  # Bob never played here, Cat is provisional
    assert (await service.rating(CAT, "kalah")).provisional
    everyone = await service.leaderboard("kalah")
    assert {r.player for r in everyone} == {ANN, BOB}
    assert all(not r.provisional for r in everyone)


async def test_the_deviation_grows_with_inactivity_until_the_rating_is_provisional_again(
    service, clock
):
    for n in range(20):
        await (won(service, ANN, BOB) if n % 2 == 0 else won(service, BOB, ANN))
    now = await service.rating(ANN, "kalah")
    assert not now.provisional and now.deviation > MIN_RD
    # One rating period later: the square of the deviation gained the volatility's square.
    clock.advance(PERIOD)
    week = await service.rating(ANN, "kalah")
    assert week.rating == now.rating
    assert (week.deviation / SCALE) ** 2 == pytest.approx(
        (now.deviation / SCALE) ** 2 + now.volatility**2
    )
    # The moment it reaches the bound, the rating leaves the leaderboard (storage and the
    # service grow it alike): a little before, it is still there.
    periods = ((PROVISIONAL_RD / SCALE) ** 2 - (now.deviation / SCALE) ** 2) / now.volatility**2
    clock.set(1_000_000.0 + periods * PERIOD - 3600)
    before = await service.rating(ANN, "kalah")
    assert not before.provisional and ANN in [r.player for r in await service.leaderboard("kalah")]
    clock.advance(2 * 3600)
    after = await service.rating(ANN, "kalah")
    assert after.provisional and after.shown.endswith("?")
    assert ANN not in [r.player for r in await service.leaderboard("kalah")]
    assert periods > 26  # an established player keeps their place through months away
    # Never wider than a newcomer's.
    clock.advance(100 * 52 * WEEK)
    assert (await service.rating(ANN, "kalah")).deviation == START_RD


async def test_a_game_after_a_long_absence_moves_the_rating_further(service, clock):
    for n in range(20):
        await (won(service, ANN, BOB) if n % 2 == 0 else won(service, BOB, ANN))
    await won(service, CAT, BOB)  # Cat: a newcomer, to beat twice
    soon = await service.rating(ANN, "kalah")
    await won(service, ANN, CAT)
    gain_now = (await service.rating(ANN, "kalah")).rating - soon.rating
    clock.advance(52 * WEEK)
    away = await service.rating(ANN, "kalah")
    assert away.deviation > soon.deviation
    await won(service, ANN, CAT)
    gain_later = (await service.rating(ANN, "kalah")).rating - away.rating
    assert gain_later > gain_now > 0


# -- head to head ---------------------------------------------------------------------------------


async def test_head_to_head_counts_wins_losses_and_draws_per_family(service):
    await won(service, ANN, BOB, "kalah")
    await won(service, ANN, BOB, "kalah-nosweep:seeds=3")
    await won(service, BOB, ANN, "kalah", rated=False)  # unrated games count in a record
    await drawn(service, BOB, ANN, "wari")
    await won(service, ANN, CAT, "wari")  # not between them
    await service.start_game(ANN, BOB, "oware", HERE)  # not finished
    assert await service.head_to_head(ANN, BOB) == [
        HeadToHead(Family.KALAH, wins=2, losses=1, draws=0),
        HeadToHead(Family.WARI, wins=0, losses=0, draws=1),
    ]
    assert await service.head_to_head(BOB, ANN, "kalah:pits=4") == [
        HeadToHead(Family.KALAH, wins=1, losses=2, draws=0)
    ]
    assert await service.head_to_head(BOB, ANN, "oware") == []
    assert await service.head_to_head(BOB, CAT) == []
    with pytest.raises(BadRequest, match="two different players"):
        await service.head_to_head(ANN, ANN)
    with pytest.raises(BadRules):
        await service.head_to_head(ANN, BOB, "chess")


async def test_games_against_the_ai_stay_unrated(service):
    game = await service.start_game(ANN, Player.ai("first"), "kalah:pits=2,seeds=1", HERE)
    assert not game.options.rated
    await service.resign(game.id, ANN)
    await service.idle()
    assert (await service.rating(ANN, "kalah")).games == 0
    assert (await service.rating(Player.ai("first"), "kalah")).games == 0
    assert await service.head_to_head(ANN, Player.ai("first")) == [
        HeadToHead(Family.KALAH, wins=0, losses=1, draws=0)
    ]


# -- exactly once ---------------------------------------------------------------------------------


def last_move(rules: str, moves: list[str]) -> str | None:
    """A move that ends the game after ``moves``, if there is one."""
    game = Game.from_moves(rules, moves)
    for move in game.position.legal_moves():
        if Game.from_moves(rules, [*moves, move]).is_over():
            return move
    return None


async def test_the_move_that_ends_a_game_rates_both_players_once_across_processes(database, clock):
    """Two services on one database (two processes) send the final move at once: one move
    lands, and each player's rating counts the game once."""
    rules = "kalah:pits=2,seeds=1"
    one = await GameService.open(database, clock=clock, tick_every=None)
    two = await GameService.open(database, clock=clock, tick_every=None)
    try:
        game = await one.start_game(ANN, BOB, rules, HERE)
        while (final := last_move(rules, list(game.moves))) is None:
            game = await one.move(game.id, game.to_move, game.position.legal_moves()[0])
        tries = [
            service.move(game.id, game.to_move, final, expected_ply=game.ply)
            for service in (one, two, one)
        ]
        answers = await asyncio.gather(*tries, return_exceptions=True)
        ended = [a for a in answers if not isinstance(a, BaseException)]
        assert len(ended) == 1 and ended[0].is_over
        assert all(isinstance(a, (StaleMove, DuplicateMove)) for a in answers if a not in ended)
        for service in (one, two):
            ann, bob = await service.rating(ANN, rules), await service.rating(BOB, rules)
            assert ann.games == bob.games == 1
            assert ann.wins + ann.losses + ann.draws == bob.wins + bob.losses + bob.draws == 1
        # and a retry of the final move changes nothing
        with pytest.raises((StaleMove, DuplicateMove)):
            await two.move(game.id, game.to_move, final, expected_ply=game.ply)
        assert (await two.rating(ANN, rules)).games == 1
    finally:
        await one.close()
        await two.close()
