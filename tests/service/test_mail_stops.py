"""A stop (``GameService.stop_mail``), on both backends: what the player has under way ends
as docs/privacy.md says, the opponent hears why, and ``start`` lifts it."""

from __future__ import annotations

from bot.service import Channel, GameOver, Player, PlayerLeft, Recorder
from bot.tokens import address_key

ANN = Player("email", "ann@example.org")
BOB = Player("discord", "2002")
CAT = Player("discord", "3003")
KEY = address_key(ANN.id, b"secret")


async def test_a_stop_ends_games_and_challenges_and_tells_the_opponent(service):
    heard = Recorder()
    service.add_notifier("discord", heard)

    def here(n: int) -> Channel:
        return Channel("email", f"thread-{n}")

    with_bob = await service.accept((await service.challenge(BOB, ANN, "kalah", here(1))).id, ANN)
    against_ai = await service.start_game(ANN, Player.ai("first"), "kalah", here(2))
    to_cat = await service.challenge(ANN, CAT, "wari", here(3))
    from_cat = await service.challenge(CAT, ANN, "oware", here(4))
    await service.idle()
    assert not await service.mail_stopped(KEY)

    stopped = await service.stop_mail(ANN, KEY)
    await service.idle()

    assert await service.mail_stopped(KEY)
    assert (stopped.resigned, stopped.ai_games, stopped.challenges) == (1, 1, 2)
    assert not stopped.already
    game = await service.get_game(with_bob.id)
    assert game.is_over and game.outcome is not None
    assert game.outcome.winner == game.side_of(BOB)
    assert (await service.get_game(against_ai.id)).is_over
    told = [e for e in heard.of_type(GameOver) if e.game.id == with_bob.id]
    assert [(type(e), e.recipient, e.leaver) for e in told if isinstance(e, PlayerLeft)] == [
        (PlayerLeft, BOB, ANN)
    ]
    assert {(await service.get_challenge(c.id)).status for c in (to_cat, from_cat)} == {
        "cancelled",
        "declined",
    }
    again = await service.stop_mail(ANN, KEY)  # idempotent: nothing left to end
    assert again.already and (again.resigned, again.ai_games, again.challenges) == (0, 0, 0)
    assert await service.start_mail(KEY) is True
    assert not await service.mail_stopped(KEY)
    assert await service.start_mail(KEY) is False


async def test_a_stop_that_proves_nothing_stops_the_mail_and_ends_nothing(service):
    """``end_games=False``: a surface that cannot tell the owner from a forger (a From line)
    stops the mail only; the games and challenges go on."""
    game = await service.accept(
        (await service.challenge(BOB, ANN, "kalah", Channel("email", "t1"))).id, ANN
    )
    stopped = await service.stop_mail(ANN, KEY, end_games=False)
    assert await service.mail_stopped(KEY)
    assert (stopped.resigned, stopped.ai_games, stopped.challenges) == (0, 0, 0)
    assert not (await service.get_game(game.id)).is_over
