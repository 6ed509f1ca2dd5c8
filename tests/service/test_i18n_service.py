"""The service's languages, through the real GameService on a SQLite file: a player's setting
is kept with them (across services, and across processes on one database), the rule that
picks a reply's language, and refusals written in the language the surface speaks."""

import asyncio

import pytest

from bot.i18n import Language, speaking
from bot.service import (
    BadRequest,
    Channel,
    GameFinished,
    GameOptions,
    GameService,
    ManualClock,
    NotYourTurn,
    Player,
    StaleMove,
)

ANN = Player("discord", "2001")
BEN = Player("email", "ben@example.org")
HERE = Channel("discord", "chan-i18n")


@pytest.fixture
def path(tmp_path):
    return tmp_path / "games.sqlite3"


@pytest.fixture
async def service(path):
    service = await GameService.open(path, clock=ManualClock(1_000_000.0), tick_every=None)
    yield service
    await service.close()


async def _game(service: GameService) -> int:
    """A game of Kalah between Ann (South, to move) and Ben (North)."""
    await service.set_display_name(ANN, "Ann")
    await service.set_display_name(BEN, "Ben")
    options = GameOptions(side="south", first="south")
    challenge = await service.challenge(ANN, BEN, "kalah", HERE, options)
    game = await service.accept(challenge.id, BEN)
    return game.id


async def test_a_setting_is_kept_across_services_and_processes_on_one_database(service, path):
    assert await service.set_language(ANN, "Français") is Language.FR
    assert await service.set_language(BEN, "pt-BR") is Language.PT
    # another process on the same database (mancala mail beside mancala bot) sees it at once
    other = await GameService.open(path, clock=ManualClock(1_000_000.0), tick_every=None)
    try:
        assert await other.language_for(ANN) is Language.FR
        assert await other.language_for(BEN, "de") is Language.PT
        await other.set_language(ANN, "de")
        assert await service.language_for(ANN, "fr") is Language.DE
    finally:
        await other.close()
    await service.close()
    # and a new service after a restart
    again = await GameService.open(path, clock=ManualClock(1_000_000.0), tick_every=None)
    try:
        assert await again.language_for(ANN) is Language.DE
        assert await again.language_for(BEN) is Language.PT
        assert await again.set_language(ANN, "auto") is None  # forgotten: the hints decide
        assert await again.language_for(ANN, "es-419") is Language.ES
    finally:
        await again.close()


async def test_an_unknown_language_is_refused_with_the_list_of_those_spoken(service):
    with pytest.raises(BadRequest) as refused:
        await service.set_language(ANN, "xx")
    message = str(refused.value)
    assert "'xx' is not a language I speak" in message
    for language in Language:
        assert f"{language.value} ({language.native_name})" in message
    assert await service.language_for(ANN) is Language.EN  # nothing was stored
    with speaking(Language.FR), pytest.raises(BadRequest, match="n'est pas une langue"):
        await service.set_language(ANN, "xx")


async def test_the_setting_beats_the_hints_and_the_first_known_hint_wins(service):
    assert await service.language_for(ANN) is Language.EN
    assert await service.language_for(ANN, None, "it", "pt-BR", "fr") is Language.PT
    assert await service.language_for(None, "ru, en") is Language.RU
    assert await service.language_for(Player.ai("easy"), "kk") is Language.KK  # no setting
    await service.set_language(ANN, "de")
    assert await service.language_for(ANN, "fr", "es") is Language.DE


async def test_a_refusal_is_in_the_language_the_surface_speaks(service):
    game_id = await _game(service)
    with pytest.raises(NotYourTurn, match=r"^it is not your turn: South \(Ann\) is to move$"):
        await service.move(game_id, BEN, "c")
    with speaking(Language.FR), pytest.raises(NotYourTurn) as french:
        await service.move(game_id, BEN, "c")
    assert "ce n'est pas votre tour" in str(french.value) and "Sud (Ann)" in str(french.value)
    with speaking(Language.DE), pytest.raises(NotYourTurn) as german:
        await service.move(game_id, BEN, "c")
    assert "du bist nicht am Zug" in str(german.value) and "Süd (Ann)" in str(german.value)
    with speaking(Language.RU), pytest.raises(StaleMove, match="хода 5 ещё нет"):
        await service.move(game_id, ANN, "C", expected_ply=4)
    await service.resign(game_id, ANN)
    with speaking(Language.ES), pytest.raises(GameFinished, match="ha terminado"):
        await service.resign(game_id, BEN)


async def test_each_request_keeps_its_own_language_when_they_run_at_once(service):
    game_id = await _game(service)

    async def refusal(language: Language) -> str:
        with speaking(language):
            await asyncio.sleep(0)
            try:
                await service.move(game_id, BEN, "c")
            except NotYourTurn as err:
                return str(err)
        raise AssertionError("Ben moved out of turn")

    french, german, english = await asyncio.gather(
        refusal(Language.FR), refusal(Language.DE), refusal(Language.EN)
    )
    assert french.startswith("ce n'est pas votre tour")
    assert german.startswith("du bist nicht am Zug")
    assert english.startswith("it is not your turn")


async def test_words_the_service_makes_are_written_when_shown(service):
    """Vacations, digests and the AI's name are formatted in the language of the moment a
    surface shows them, so a surface writing to someone else does it inside their language."""
    status = await service.start_vacation(BEN, 3)
    digest = await service.set_digest(BEN, True, 18)
    assert status.words().startswith("You are on vacation until")
    with speaking(Language.FR):
        assert status.words().startswith("Vous êtes en vacances jusqu'au")
        assert "0 jour sur 30 jours" in status.words()  # French counts 0 as one
        assert "18:00 UTC" in digest.words() and "digest off" in digest.words()
        assert await service.display_name(Player.ai("easy")) == "IA (easy)"
    with speaking(Language.RU):
        assert "использовано 0 дней из 30 дней" in status.words()
    assert await service.display_name(Player.ai("easy")) == "AI (easy)"


async def test_news_sent_unasked_goes_in_the_language_last_seen(service, path):
    """A player who never chose a language but writes in French (their mail's
    Content-Language, their Discord client) gets the news of their games in French."""
    await service.set_display_name(BEN, "Ben")  # Ben is a player now
    assert await service.language_for(BEN) is Language.EN  # nothing seen yet
    assert await service.language_for(BEN, "it", "fr-FR") is Language.FR
    assert await service.language_for(BEN) is Language.FR  # the move notice, unasked
    assert await service.language_for(BEN, "es") is Language.ES  # he wrote in Spanish since
    other = await GameService.open(path, clock=ManualClock(1_000_000.0), tick_every=None)
    try:
        assert await other.language_for(BEN) is Language.ES  # another process knows it too
    finally:
        await other.close()
    await service.set_language(BEN, "de")  # a setting beats what was seen
    assert await service.language_for(BEN) is Language.DE
    await service.set_language(BEN, "auto")
    assert await service.language_for(BEN) is Language.ES


async def test_a_strangers_language_makes_no_player(service):
    """Answering a stranger's mail in their language stores nothing about them."""
    stranger = Player("email", "nobody@example.net")
    assert await service.language_for(stranger, "fr") is Language.FR
    assert await service.language_setting(stranger) is None
    assert await service._store.players.find("email", "nobody@example.net") is None
