"""The whole service flow on a real SQLite file, with a ManualClock and the AI in its worker
process: challenges, moves, AI replies, offers, resignation, clocks, ratings, restart."""

import sqlite3

import pytest

from bot.ai_runtime.pool import known_levels
from bot.service import (
    BadRequest,
    BadRules,
    ChallengeAnswered,
    ChallengeClosed,
    ChallengeReceived,
    Channel,
    ChannelBusy,
    DuplicateMove,
    Forfeit,
    GameFinished,
    GameOptions,
    GameOver,
    GameService,
    IllegalMove,
    MoveMade,
    NoOffer,
    NotAllowed,
    NotFound,
    NotYourTurn,
    OfferAnswered,
    OfferMade,
    Player,
    Recorder,
    Reminder,
    StaleMove,
)
from engine import Game, Termination

ALICE = Player("discord", "1001")
BOB = Player("email", "bob@example.org")
HERE = Channel("discord", "chan-1")
DAY = 86400.0


@pytest.fixture
def inbox(service):
    discord, email = Recorder(), Recorder()
    service.add_notifier("discord", discord)
    service.add_notifier("email", email)
    return {"discord": discord, "email": email}


async def new_game(service, rules="kalah", options=None, channel=HERE):
    challenge = await service.challenge(ALICE, BOB, rules, channel, options)
    return await service.accept(challenge.id, BOB)


# -- challenges ---------------------------------------------------------------------------------


async def test_challenge_reaches_the_opponent_on_their_surface_and_starts_a_game(service, inbox):
    challenge = await service.challenge(ALICE, BOB, "awale:captures=2-4", HERE)
    assert challenge.status == "open" and challenge.rules == "wari:captures=2-4"
    await service.idle()
    received = inbox["email"].of_type(ChallengeReceived)
    assert [e.challenge.id for e in received] == [challenge.id]
    assert inbox["discord"].events == []  # the challenger is answered by the return value
    game = await service.accept(challenge.id, BOB)
    assert (game.south, game.north, game.ply, game.status) == (ALICE, BOB, 0, "active")
    assert (await service.get_challenge(challenge.id)).game_id == game.id
    await service.idle()
    [answer] = inbox["discord"].of_type(ChallengeAnswered)
    assert answer.challenge.status == "accepted" and answer.game.id == game.id
    with pytest.raises(ChallengeClosed):
        await service.accept(challenge.id, BOB)


async def test_challenge_errors_say_what_was_wrong(service):
    with pytest.raises(BadRules, match="unknown ruleset 'chess'"):
        await service.challenge(ALICE, BOB, "chess", HERE)
    with pytest.raises(BadRequest, match="yourself"):
        await service.challenge(ALICE, ALICE, "kalah", HERE)
    with pytest.raises(BadRequest, match="unknown AI level 'godlike'"):
        await service.challenge(ALICE, Player.ai("godlike"), "kalah", HERE)
    with pytest.raises(BadRequest, match="unknown surface"):
        await service.challenge(ALICE, Player("fax", "1"), "kalah", HERE)
    challenge = await service.challenge(ALICE, BOB, "kalah", HERE)
    with pytest.raises(NotAllowed, match="only the challenged player"):
        await service.accept(challenge.id, ALICE)
    with pytest.raises(NotAllowed, match="only the challenger"):
        await service.cancel(challenge.id, BOB)
    with pytest.raises(NotFound):
        await service.accept(9999, BOB)


async def test_decline_cancel_and_expiry(service, inbox, clock):
    one = await service.challenge(ALICE, BOB, "kalah", HERE)
    assert (await service.decline(one.id, BOB)).status == "declined"
    two = await service.challenge(ALICE, BOB, "kalah", HERE)
    assert (await service.cancel(two.id, ALICE)).status == "cancelled"
    three = await service.challenge(ALICE, BOB, "kalah", HERE, GameOptions(expires_after=3600))
    assert [c.id for c in await service.open_challenges(BOB)] == [three.id]
    clock.advance(3601)
    assert await service.open_challenges(BOB) == []
    await service.tick()
    assert (await service.get_challenge(three.id)).status == "expired"
    with pytest.raises(ChallengeClosed, match="expired"):
        await service.accept(three.id, BOB)
    await service.idle()
    statuses = [e.challenge.status for e in inbox["discord"].of_type(ChallengeAnswered)]
    assert statuses == ["declined", "expired"]  # Alice's own cancel is not echoed to her


async def test_a_channel_holds_one_active_game_and_a_player_many_channels(service):
    await new_game(service)
    with pytest.raises(ChannelBusy):
        await service.challenge(ALICE, BOB, "kalah", HERE)
    other = await new_game(service, channel=Channel("discord", "chan-2"))
    assert other.status == "active"
    assert len(await service.list_games(ALICE)) == 2


# -- moves --------------------------------------------------------------------------------------


async def test_moves_are_checked_and_applied_once(service, inbox):
    game = await new_game(service)
    with pytest.raises(NotYourTurn, match="South"):
        await service.move(game.id, BOB, "a")
    with pytest.raises(NotAllowed, match="not playing"):
        await service.move(game.id, Player("discord", "42"), "A")
    with pytest.raises(IllegalMove, match="not a move"):
        await service.move(game.id, ALICE, "Q")
    after = await service.move(game.id, ALICE, "A", expected_ply=0)
    assert after.ply == 1 and after.moves == ("A",)
    with pytest.raises(DuplicateMove, match="already played"):
        await service.move(game.id, ALICE, "A", expected_ply=0)
    with pytest.raises(StaleMove, match="out of date"):
        await service.move(game.id, BOB, "b", expected_ply=0)
    with pytest.raises(StaleMove, match="no move 8 yet"):
        await service.move(game.id, BOB, "b", expected_ply=7)
    with pytest.raises(BadRequest, match="whole number"):
        await service.move(game.id, BOB, "b", expected_ply="one")
    assert (await service.get_game(game.id)).ply == 1
    after = await service.move(game.id, BOB, "b", expected_ply="1")  # digits from a button id
    assert after.moves == ("A", "b")
    await service.idle()
    [seen] = inbox["email"].of_type(MoveMade)  # Bob hears of Alice's move by email
    assert seen.move == "A" and seen.by == ALICE and "last move A" in seen.game.board()


async def test_a_full_game_ends_with_result_ratings_and_an_export_that_replays(service, inbox):
    game = await new_game(service, "kalah:pits=3,seeds=2")
    while not game.is_over:
        game = await service.move(
            game.id, game.to_move, game.position.legal_moves()[0], expected_ply=game.ply
        )
    with pytest.raises(GameFinished):
        await service.move(game.id, ALICE, "A")
    replay = Game.from_moves("kalah:pits=3,seeds=2", list(game.moves))
    assert replay.is_over() and replay.score() == game.outcome.score
    record = await service.export(game.id)
    assert '[Rules "kalah:pits=3,seeds=2"]' in record and '[First "south"]' in record
    assert Game.from_moves(game.rules, record.split("\n\n", 1)[1]).moves == list(game.moves)
    winner = game.outcome.winner
    ratings = {p: await service.rating(p, "kalah:seeds=2,pits=3") for p in (ALICE, BOB)}
    if winner == "draw":
        assert ratings[ALICE].draws == ratings[BOB].draws == 1
    else:
        champion = game.player(winner)
        loser = game.opponent_of(champion)
        assert ratings[champion].rating > 1500 > ratings[loser].rating
        assert (ratings[champion].wins, ratings[loser].losses) == (1, 1)
    await service.idle()
    last_side = replay.positions[-2].to_move  # who made the last move is told by the return
    told = game.player("north" if last_side == "south" else "south")
    assert [e.game.id for e in inbox[told.surface].of_type(GameOver)] == [game.id]


async def test_resign_gives_the_game_and_rating_to_the_opponent(service, inbox):
    game = await new_game(service, "wari")
    over = await service.resign(game.id, BOB)
    assert over.outcome.winner == "south" and over.outcome.words == "North resigned at move 1"
    assert "North resigned" in over.board()
    assert await service.leaderboard("wari") == []  # one game each: both still provisional
    won, lost = await service.rating(ALICE, "wari"), await service.rating(BOB, "wari")
    assert (won.shown, won.wins, lost.shown, lost.losses) == ("1662?", 1, "1338?", 1)
    with pytest.raises(GameFinished):
        await service.resign(game.id, ALICE)
    await service.idle()
    [told] = inbox["discord"].of_type(GameOver)
    assert told.game.outcome.winner == "south"


# -- offers ---------------------------------------------------------------------------------------


async def test_draw_offer_accepted_ends_in_a_draw(service, inbox):
    game = await new_game(service)
    offered = await service.offer_draw(game.id, ALICE)
    assert offered.offer.kind == "draw" and offered.offer.by == ALICE
    with pytest.raises(NoOffer, match="you made this offer"):
        await service.accept_offer(game.id, ALICE)
    over = await service.accept_offer(game.id, BOB)
    assert over.outcome.winner == "draw" and over.is_over
    assert (await service.rating(ALICE, "kalah")).draws == 1
    await service.idle()
    assert [type(e) for e in inbox["email"].events] == [ChallengeReceived, OfferMade]
    [answer] = inbox["discord"].of_type(OfferAnswered)
    assert answer.accepted and answer.kind == "draw"


async def test_offering_what_the_opponent_offers_accepts_it_on_every_surface(service, inbox):
    game = await new_game(service)
    await service.offer_draw(game.id, ALICE)
    over = await service.offer_draw(game.id, BOB)  # Bob offers the same: that is agreement
    assert over.is_over and over.outcome.winner == "draw" and over.offer is None
    await service.idle()
    [answer] = inbox["discord"].of_type(OfferAnswered)
    assert answer.accepted and answer.kind == "draw"
    game = await new_game(service, channel=Channel("discord", "chan-2"))
    await service.offer_draw(game.id, ALICE)
    other = await service.offer_end(game.id, BOB)  # a different offer replaces it
    assert not other.is_over and other.offer.kind == "end" and other.offer.by == BOB


async def test_a_move_cancels_an_offer_and_a_declined_offer_goes_away(service):
    game = await new_game(service)
    await service.offer(game.id, BOB, "end")
    game = await service.move(game.id, ALICE, "A")
    assert game.offer is None
    await service.offer_end(game.id, BOB)
    game = await service.decline_offer(game.id, ALICE)
    assert game.offer is None and not game.is_over
    with pytest.raises(NoOffer):
        await service.accept_offer(game.id, ALICE)
    with pytest.raises(BadRequest, match="one of: draw, end, undo"):
        await service.offer(game.id, ALICE, "truce")


async def test_agreed_end_scores_by_the_ruleset(service):
    game = await new_game(service, "wari")  # wari's cycle policy: a draw
    await service.offer_end(game.id, ALICE)
    over = await service.accept_offer(game.id, BOB)
    assert over.outcome.termination is Termination.AGREED_END and over.outcome.winner == "draw"


async def test_undo_takes_back_the_askers_last_move_and_the_reply(service):
    game = await new_game(service, "wari")
    with pytest.raises(BadRequest, match="no move of yours"):
        await service.request_undo(game.id, ALICE)
    game = await service.move(game.id, ALICE, "A")
    game = await service.move(game.id, BOB, "a")
    await service.request_undo(game.id, ALICE)
    game = await service.accept_offer(game.id, BOB)
    assert game.ply == 0 and game.moves == () and game.position.to_move == "south"
    game = await service.move(game.id, ALICE, "B", expected_ply=0)
    assert game.moves == ("B",)


# -- the AI -----------------------------------------------------------------------------------


async def test_the_ai_replies_in_its_worker_and_accepts_undo(service, inbox):
    level = known_levels()[0]
    challenge = await service.challenge(ALICE, Player.ai(level), "wari", HERE)
    assert challenge.status == "accepted"
    game = await service.move(challenge.game_id, ALICE, "A")
    await service.idle()
    game = await service.get_game(game.id)
    assert game.to_move == ALICE and game.ply >= 2
    told = inbox["discord"].of_type(MoveMade)  # Alice's own moves are not echoed to her
    assert told and all(e.by == Player.ai(level) for e in told)
    assert told[-1].game.ply == game.ply
    with pytest.raises(NotAllowed, match="AI does not agree"):
        await service.offer_draw(game.id, ALICE)
    game = await service.request_undo(game.id, ALICE)  # granted at once
    assert game.ply == 0 and game.to_move == ALICE


async def test_ai_against_ai_plays_to_the_end(service):
    level = known_levels()[0]
    game = await service.start_game(
        Player.ai(level), Player.ai(level), "kalah:pits=3,seeds=2", Channel("terminal", "arena")
    )
    await service.idle()
    game = await service.get_game(game.id)
    assert game.is_over and Game.from_moves(game.rules, list(game.moves)).is_over()


# -- hints ------------------------------------------------------------------------------------


async def test_a_hint_against_the_ai_is_the_solvers_best_move(service):
    from engine.ai import solve

    game = await service.start_game(
        ALICE, Player.ai(known_levels()[0]), "kalah:pits=3,seeds=2", HERE
    )
    asked = []

    async def thinking():
        asked.append((await service.get_game(game.id)).ply)

    hint = await service.hint(game.id, ALICE, thinking=thinking)
    assert asked == [0]  # told once, before the AI started
    assert hint.ply == 0 and hint.move in game.position.legal_moves()
    assert hint.exact and hint.value == solve(game.position).value  # small enough to prove
    assert "proven" in hint.summary()
    after = await service.move(game.id, ALICE, hint.move)  # the hint is a move the game takes
    assert after.moves[0] == hint.move


async def test_hints_are_refused_with_a_reason_and_without_thinking(service):
    def thinking():
        raise AssertionError("a refused hint must not start the AI")

    rated = await new_game(service)
    with pytest.raises(NotAllowed, match="rated game between people"):
        await service.hint(rated.id, ALICE, thinking=thinking)
    unrated = await new_game(
        service,
        "kalah:pits=3,seeds=2",
        GameOptions(rated=False),
        channel=Channel("discord", "chan-2"),
    )
    with pytest.raises(NotYourTurn, match="not your turn"):
        await service.hint(unrated.id, BOB, thinking=thinking)
    with pytest.raises(NotAllowed, match="not playing"):
        await service.hint(unrated.id, Player("discord", "42"), thinking=thinking)
    with pytest.raises(NotFound):
        await service.hint(9999, ALICE, thinking=thinking)
    hint = await service.hint(unrated.id, ALICE)  # an unrated game between people may ask
    assert hint.move in unrated.position.legal_moves()
    over = await service.resign(unrated.id, ALICE)
    with pytest.raises(GameFinished):
        await service.hint(over.id, BOB, thinking=thinking)


# -- clocks ---------------------------------------------------------------------------------------


async def test_a_clock_without_a_reminder_reminds_at_a_third_of_it(service, clock):
    game = await new_game(service, options=GameOptions(forfeit_after=3 * DAY))
    assert game.options.reminder_after == DAY
    off = await new_game(
        service,
        options=GameOptions(forfeit_after=3 * DAY, reminder_after=0),
        channel=Channel("discord", "chan-2"),
    )
    assert off.options.reminder_after is None


async def test_reminder_then_forfeit_for_the_silent_player(service, inbox, clock):
    game = await new_game(service, options=GameOptions(reminder_after=DAY, forfeit_after=3 * DAY))
    game = await service.move(game.id, ALICE, "A")  # Bob's turn, and Bob's clock
    clock.advance(DAY - 1)
    await service.tick()
    await service.idle()
    assert inbox["email"].of_type(Reminder) == []
    clock.advance(2)
    await service.tick()
    await service.tick()  # a second tick does not remind twice
    await service.idle()
    [reminder] = inbox["email"].of_type(Reminder)
    assert reminder.game.id == game.id and reminder.forfeit_at == game.last_move_at + 3 * DAY
    clock.advance(2 * DAY)
    await service.tick()
    await service.idle()
    over = await service.get_game(game.id)
    assert over.outcome.winner == "south" and over.outcome.termination is Termination.TIME
    [forfeit] = inbox["email"].of_type(Forfeit)
    assert forfeit.loser == BOB
    assert inbox["discord"].of_type(Forfeit)[0].game.id == game.id


async def test_a_move_restarts_the_clock_and_surface_defaults_apply(service, inbox, clock):
    game = await new_game(service)
    assert game.options.forfeit_after == 7 * DAY  # email is the slower surface: a week
    clock.advance(6 * DAY)
    await service.move(game.id, ALICE, "A")
    clock.advance(6 * DAY)
    await service.tick()
    assert not (await service.get_game(game.id)).is_over


async def test_a_terminal_game_has_no_clock(service, clock):
    me = Player("terminal", "local")
    game = await service.start_game(me, me, "kalah", Channel("terminal", "local"))
    clock.advance(365 * DAY)
    await service.tick()
    assert not (await service.get_game(game.id)).is_over


# -- listing, restart -----------------------------------------------------------------------------


async def test_list_games_puts_your_turn_first(service):
    first = await new_game(service, channel=Channel("discord", "x"))
    second = await new_game(service, channel=Channel("discord", "y"))
    await service.move(first.id, ALICE, "A")  # now Bob's turn in the first game
    mine = await service.list_games(BOB)
    assert [g.id for g in mine] == [first.id, second.id]
    assert [g.id for g in await service.list_games(ALICE)] == [second.id, first.id]


async def test_restart_resumes_games_and_pending_ai_turns(tmp_path, clock):
    path = tmp_path / "games.sqlite3"
    level = known_levels()[0]
    service = await GameService.open(path, clock=clock, tick_every=None)
    human = await new_game(service, "oware")
    await service.move(human.id, ALICE, "C")
    # The AI is South and moves first; close before it can.
    ai_game = await service.start_game(
        Player.ai(level), ALICE, "kalah", Channel("discord", "vs-ai")
    )
    await service.close()
    with sqlite3.connect(path) as conn:  # the AI had no time to move before the close
        assert conn.execute("SELECT ply FROM games WHERE id = ?", (ai_game.id,)).fetchone() == (0,)
    service = await GameService.open(path, clock=clock, tick_every=None)
    try:
        await service.idle()
        resumed = await service.get_game(ai_game.id)
        assert resumed.ply >= 1 and resumed.to_move == ALICE
        game = await service.get_game(human.id)
        assert game.moves == ("C",) and game.to_move == BOB
        game = await service.move(game.id, BOB, "a", expected_ply=1)
        assert game.ply == 2
    finally:
        await service.close()


async def test_first_in_the_options_beats_the_rulesets_coin_flip(service):
    for seed_game in range(6):  # kalah-nosweep flips a coin; an explicit first does not
        challenge = await service.challenge(
            ALICE,
            BOB,
            "kalah-nosweep",
            Channel("discord", f"flip-{seed_game}"),
            GameOptions(side="north", first="north"),
        )
        game = await service.accept(challenge.id, BOB)
        assert game.north == ALICE and game.position.to_move == "north"


async def test_games_against_the_ai_are_unrated_and_the_ai_is_never_ranked(service):
    challenge = await service.challenge(ALICE, Player.ai("first"), "kalah:pits=2,seeds=1", HERE)
    await service.idle()
    game = await service.get_game(challenge.game_id)
    assert not game.options.rated
    while not (await service.get_game(game.id)).is_over:
        view = await service.get_game(game.id)
        await service.move(view.id, ALICE, view.position.legal_moves()[0])
        await service.idle()
    assert all(not r.player.is_ai for r in await service.leaderboard("kalah:pits=2,seeds=1"))
    assert (await service.rating(ALICE, "kalah:pits=2,seeds=1")).games == 0


async def test_a_rematch_is_the_same_match_with_the_sides_swapped(service, inbox):
    game = await new_game(service, "wari", GameOptions(forfeit_after=3 * DAY))
    with pytest.raises(BadRequest, match="still going on"):
        await service.rematch(game.id, BOB)
    await service.resign(game.id, BOB)
    with pytest.raises(NotAllowed):
        await service.rematch(game.id, Player("discord", "999"))
    again = await service.rematch(game.id, BOB)
    assert (again.challenger, again.opponent, again.rules) == (BOB, ALICE, "wari")
    assert again.options.side == "south" and again.options.forfeit_after == 3 * DAY
    started = await service.accept(again.id, ALICE)
    assert (started.south, started.north) == (BOB, ALICE)
