"""Whole games through the fake Bot API, in every variant, checked ply by ply."""

from __future__ import annotations

import asyncio

import pytest

from bot.playstrategy.notation import VARIANTS, from_uci
from bot.service import errors
from bot.service.types import Channel
from engine.game import Game
from tests.playstrategy.fake_api import FakeGame


def replay(game: FakeGame) -> Game:
    """The fake's record read back move by move by our engine (each must be legal and end
    in the pit PlayStrategy names)."""
    ours = Game(VARIANTS[game.variant].rules)
    for uci in game.moves:
        ours.play(from_uci(ours.position, uci))
    return ours


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("bot_is_p1", [True, False])
async def test_a_whole_game_agrees_ply_by_ply(harness, variant, bot_is_p1):
    ps_id = f"{variant[:4]}{int(bot_is_p1)}"
    harness.fake.challenge(ps_id, variant, bot_is_p1=bot_is_p1, seed=7)
    await harness.game_over(ps_id)

    fake_game = harness.fake.games[ps_id]
    assert fake_game.status == "variantEnd"
    assert harness.bot.disagreements == 0
    assert harness.fake.refused_moves == []
    view = await harness.service.get_game(harness.bot.links[ps_id].game_id)
    assert view.is_over and view.channel == Channel("playstrategy", ps_id)
    # Ply by ply: the service's game is the server's, and each move was the right player's.
    ours = replay(fake_game)
    assert list(view.moves) == list(ours.moves)
    assert view.position == ours.position
    assert view.outcome is not None and view.outcome.winner == ours.outcome().winner
    bot_moves = [uci for gid, uci in harness.fake.posted_moves if gid == ps_id]
    assert bot_moves == fake_game.moves[0 if bot_is_p1 else 1 :: 2]  # each sent once
    ai = view.south if bot_is_p1 else view.north
    assert ai.is_ai and ai.id == "greedy"


async def test_a_dropped_stream_reconnects_and_plays_no_move_twice(harness):
    # The streams drop just after the bot's 3rd move, before they say it was played.
    harness.fake.drop_after_bot_move.add(("drop", 4))
    harness.fake.challenge("drop", "togyzkumalak", bot_is_p1=True, seed=3)
    await harness.game_over("drop")

    game = harness.fake.games["drop"]
    assert game.status == "variantEnd"
    assert harness.fake.game_connections["drop"] >= 2  # it came back
    assert harness.fake.refused_moves == []  # never the same move twice
    posted = [uci for gid, uci in harness.fake.posted_moves if gid == "drop"]
    assert posted == game.moves[0::2]
    assert harness.bot.disagreements == 0


async def test_challenges_outside_the_settings_are_declined_with_the_api_reason(harness):
    harness.fake.challenge("chess", "chess960")
    harness.fake.challenge("blitz", "oware", control={"type": "clock", "limit": 30, "increment": 0})
    await harness.answered("chess")
    await harness.answered("blitz")
    assert harness.fake.declined == {"chess": "variant", "blitz": "tooFast"}
    assert harness.fake.accepted == []


async def test_a_429_waits_a_minute_then_goes_on(harness):
    harness.fake.rate_limit_once.add("accept")
    harness.fake.challenge("slow", "bestemshe", seed=1)
    await harness.game_over("slow")
    assert harness.fake.accepted == ["slow"]
    assert 60.0 in harness.sleeps
    assert harness.bot.api.rate_limited == 1


async def test_draw_offers_are_declined(harness):
    harness.fake.challenge("draw", "oware", bot_is_p1=True, seed=5, draw_offer_at=4)
    await harness.game_over("draw")
    assert ("draw", "no") in harness.fake.draw_answers
    assert ("draw", "yes") not in harness.fake.draw_answers


async def test_a_disagreement_is_counted_said_and_resigned(harness):
    # The server names the opponent's second move with a wrong last pit: a different rule book.
    harness.fake.lie_about[("lie", 3)] = "a2a2"
    harness.fake.challenge("lie", "oware", bot_is_p1=True, seed=2)
    await harness.game_over("lie")
    assert harness.bot.disagreements == 1
    assert harness.fake.resigned == ["lie"]
    assert [room for gid, room, _ in harness.fake.chat if gid == "lie"] == ["player"]
    view = await harness.service.get_game(harness.bot.links["lie"].game_id)
    assert view.is_over and view.outcome is not None and view.outcome.winner == "north"


async def test_an_ai_move_no_notifier_told_of_goes_out_at_a_keep_alive(harness, monkeypatch):
    # As when another process on the database played the AI's turn: nobody here is told.
    async def deaf(event):
        return None

    monkeypatch.setattr(harness.bot, "on_move", deaf)
    harness.fake.keep_alive_every = 0.02
    harness.fake.challenge("quiet", "bestemshe", bot_is_p1=True, seed=4)
    await harness.game_over("quiet")
    game = harness.fake.games["quiet"]
    assert game.status == "variantEnd"
    assert [uci for gid, uci in harness.fake.posted_moves if gid == "quiet"] == game.moves[0::2]
    assert harness.bot.disagreements == 0


async def test_a_restart_mid_game_takes_the_game_up_and_plays_no_move_twice(harness):
    harness.fake.challenge("again", "togyzkumalak", seed=9)
    await harness.answered("again")
    while len(harness.fake.games["again"].moves) < 7:
        await asyncio.sleep(0)
    await harness.stop_bot()  # the process stops, maybe with the AI thinking
    first_game_id = next(iter({link.game_id for link in harness.bot.links.values()}))
    await harness.start_bot()  # the event stream's first lines name the game going on
    await harness.game_over("again")

    game = harness.fake.games["again"]
    assert game.status == "variantEnd"
    assert harness.bot.links["again"].game_id == first_game_id  # the same service game
    assert harness.fake.refused_moves == []
    assert [uci for gid, uci in harness.fake.posted_moves if gid == "again"] == game.moves[1::2]
    assert harness.bot.disagreements == 0
    view = await harness.service.get_game(first_game_id)
    assert view.is_over and len(view.moves) == len(game.moves)


async def test_a_dropped_event_stream_is_opened_again_after_a_backoff(harness):
    while harness.fake.event_connections < 1:  # the bot has connected once
        await asyncio.sleep(0.01)
    harness.fake.drop_event_stream()
    harness.fake.rate_limit_once.add("events")  # and the first try again meets a 429
    harness.fake.challenge("later", "chess960")
    await harness.answered("later")
    assert harness.fake.declined == {"later": "variant"}
    assert harness.fake.event_connections == 2
    assert harness.sleeps[:2] == [1.0, 60.0]  # the backoff's first step, then the 429's minute


async def test_a_move_past_the_fair_queues_cap_waits_its_turn(harness, monkeypatch):
    # The opponent's second move finds them with too many requests waiting for the AI: it is
    # played on PlayStrategy already, so it waits, then goes in once.
    real_move = harness.service.move
    refused: list[int] = []

    async def busy_once(game_id, by, move, expected_ply=None):
        if expected_ply == 3 and not refused:
            refused.append(expected_ply)
            raise errors.TooMuchAIWork("too many requests waiting for the AI")
        return await real_move(game_id, by, move, expected_ply)

    monkeypatch.setattr(harness.service, "move", busy_once)
    harness.fake.challenge("busy", "oware", bot_is_p1=True, seed=6)
    await harness.game_over("busy")
    assert refused == [3]
    assert harness.bot.disagreements == 0
    view = await harness.service.get_game(harness.bot.links["busy"].game_id)
    assert list(view.moves) == list(replay(harness.fake.games["busy"]).moves)


async def test_challenging_bots_online_in_turn_plays_their_games(harness):
    """With PLAYSTRATEGY_CHALLENGE_BOTS=yes: the bots online in turn, the variants in turn,
    at the clock set, one challenge at a time; a declined one frees the turn, an accepted
    one is played out like any game."""
    from dataclasses import replace

    await harness.stop_bot()
    harness.settings = replace(
        harness.settings, challenge_bots=True, max_games=1, variants=("oware", "bestemshe")
    )
    harness.fake.online_bots = ["ZetaBot", "AlphaBot"]
    harness.fake.accepting_bots = {"zetabot"}
    await harness.start_bot()
    await harness.game_over("out2")  # AlphaBot declined the first; ZetaBot took the second

    assert harness.bot.challenged[:2] == [("alphabot", "oware"), ("zetabot", "bestemshe")]
    to, form = harness.fake.outgoing[1]
    assert to == "zetabot"
    assert form == {
        "variant": "bestemshe",
        "rated": "false",
        "clock.limit": "300",
        "clock.increment": "3",
    }
    game = harness.fake.games["out2"]
    assert game.status == "variantEnd" and harness.bot.disagreements == 0
    assert harness.fake.refused_moves == []
    assert harness.settings.challenge_every in harness.sleeps  # it waited between turns
