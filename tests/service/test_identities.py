"""One player on every surface, and a player's data (bot.service.identities), through the
service on SQLite and PostgreSQL: a link needs a code from each side, and then the two accounts
are one player (one rating, one language, one games list, either account plays the seats);
unlinking splits an account off; an export holds the player's games; a deletion leaves no id,
address or name anywhere while every game still replays."""

from __future__ import annotations

import json

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
from bot.service.events import LinkRequested
from bot.service.identities import LINK_SECONDS, TRIES_PER_DAY
from bot.service.players import REFRESH_AFTER
from bot.service.tournaments import TimeControl
from engine import Game
from storage import open_storage
from storage.queries import TABLES
from storage.stores.identities import PLAYER_COLUMNS

DAY = 86_400.0
DISCORD, MAIL = Player("discord", "101"), Player("email", "ann@example.org")
BOB, CAT = Player("email", "bob@example.org"), Player("discord", "303")


@pytest.fixture
async def table(database):
    clock = ManualClock(1_800_000_000.0)
    service = await GameService.open(database, clock=clock, tick_every=None)
    heard = Recorder()
    for surface in ("discord", "email"):
        service.add_notifier(surface, heard)
    yield service, heard, clock
    await service.close()


async def finished_game(service: GameService, south: Player, north: Player, channel: str) -> int:
    game = await service.start_game(south, north, "kalah", Channel("discord", channel))
    await service.move(game.id, south, "A")
    await service.resign(game.id, north)
    return game.id


async def link_from_discord(service: GameService, heard: Recorder) -> None:
    asked = await service.ask_link(DISCORD, "email", "Ann@Example.org")
    await service.idle()
    mailed = [e for e in heard.of_type(LinkRequested) if e.recipient == MAIL]
    assert mailed and mailed[-1].code == asked.code and mailed[-1].asked_by == DISCORD
    await service.confirm_link(MAIL, asked.code)


async def test_a_link_asked_on_discord_is_proved_by_the_address_and_makes_one_player(table):
    service, heard, _clock = table
    by_discord = await finished_game(service, DISCORD, CAT, "c1")  # Discord won: rated
    by_mail = await finished_game(service, BOB, MAIL, "c2")  # by mail, won too
    for first in range(3):  # the mail account plays more: its rating is better established
        await finished_game(service, BOB, MAIL, f"m{first}")
    await service.set_language(MAIL, "fr")
    before = await service.rating(MAIL, "kalah")
    await link_from_discord(service, heard)

    assert await service.account_owner(MAIL) == await service.account_owner(DISCORD)
    for account in (DISCORD, MAIL):
        games = {g.id for g in await service.list_games(account, include_finished=True)}
        assert {by_discord, by_mail} <= games and len(games) == 5
        assert str(await service.language_setting(account)) == "fr"
        rating = await service.rating(account, "kalah")
        assert (rating.rating, rating.games) == (before.rating, before.games + 1)
    linked = await service.linked_accounts(MAIL)
    assert set(linked.accounts) == {DISCORD, MAIL} and linked.player == DISCORD  # the older


async def test_either_account_plays_the_seat_of_the_other(table):
    service, heard, _clock = table
    game = await service.start_game(BOB, MAIL, "kalah", Channel("discord", "c"))
    await service.move(game.id, BOB, "A")
    await link_from_discord(service, heard)
    view = await service.move(game.id, DISCORD, "a")  # the mail account's seat, from Discord
    assert view.ply == 2 and view.north == MAIL  # the older player stays, named as it was
    await service.send_news_to(DISCORD, "discord")
    assert (await service.get_game(game.id)).north == DISCORD


async def test_a_link_asked_by_mail_is_proved_by_the_discord_account_that_enters_the_code(table):
    service, _heard, _clock = table
    asked = await service.ask_link(MAIL, "discord")
    assert asked.account is None and asked.surface == "discord"
    with pytest.raises(NotAllowed):  # a mail address cannot prove a Discord account
        await service.confirm_link(BOB, asked.code)
    linked = await service.confirm_link(CAT, asked.code)
    assert set(linked.accounts) == {MAIL, CAT}
    with pytest.raises(NotAllowed):  # a code works once
        await service.confirm_link(CAT, asked.code)


async def test_a_code_for_one_address_links_no_other_and_expires(table):
    service, _heard, clock = table
    asked = await service.ask_link(DISCORD, "email", MAIL.id)
    with pytest.raises(NotAllowed):
        await service.confirm_link(BOB, asked.code)  # another address: refused, still waiting
    assert set((await service.confirm_link(MAIL, asked.code)).accounts) == {DISCORD, MAIL}
    again = await service.ask_link(CAT, "email", BOB.id)
    clock.advance(LINK_SECONDS + 1)
    with pytest.raises(NotAllowed):
        await service.confirm_link(BOB, again.code)
    assert (await service.linked_accounts(BOB)).accounts == (BOB,)


async def test_guesses_are_limited_and_link_mails_too(table):
    service, _heard, clock = table
    for guess in range(TRIES_PER_DAY):
        with pytest.raises(NotAllowed, match="not a link code"):
            await service.confirm_link(CAT, f"AAAA-{guess:04d}")
    asked = await service.ask_link(MAIL, "discord")
    with pytest.raises(NotAllowed, match="too many"):
        await service.confirm_link(CAT, asked.code)  # even the right code, today
    await service.ask_link(DISCORD, "email", "x1@example.org")
    with pytest.raises(NotAllowed):  # an address gets one link mail a day
        await service.ask_link(Player("discord", "404"), "email", "x1@example.org")
    clock.advance(DAY)
    assert await service.confirm_link(CAT, (await service.ask_link(MAIL, "discord")).code)


async def test_what_cannot_be_linked(table):
    service, _heard, _clock = table
    with pytest.raises(BadRequest):
        await service.ask_link(DISCORD, "discord")  # the same surface
    with pytest.raises(BadRequest):
        await service.ask_link(Player.ai("easy"), "discord")
    with pytest.raises(BadRequest):
        await service.ask_link(DISCORD, "email", "not an address")
    game = await service.start_game(DISCORD, MAIL, "kalah", Channel("discord", "c"))
    asked = await service.ask_link(DISCORD, "email", MAIL.id)
    with pytest.raises(NotAllowed, match="playing each other"):
        await service.confirm_link(MAIL, asked.code)
    await service.resign(game.id, MAIL)
    await service.confirm_link(MAIL, asked.code)  # refused, the code waited
    with pytest.raises(NotAllowed, match="linked already"):  # one account per surface
        await service.ask_link(MAIL, "discord")


async def test_unlinking_splits_an_account_off_with_nothing_and_news_goes_where_chosen(table):
    service, heard, _clock = table
    game = await finished_game(service, DISCORD, CAT, "c1")
    await link_from_discord(service, heard)
    assert (await service.send_news_to(DISCORD, "email")).player == MAIL
    assert (await service.get_game(game)).south == MAIL  # seats name the news account
    left = await service.unlink(MAIL, "email")
    assert left.accounts == (DISCORD,)
    assert [g.id for g in await service.list_games(DISCORD, include_finished=True)] == [game]
    assert await service.list_games(MAIL, include_finished=True) == []
    assert await service.account_owner(MAIL) == MAIL
    with pytest.raises(NotFound):
        await service.unlink(DISCORD, "email")


async def test_a_link_made_by_another_process_holds_here_after_the_refresh(database):
    clock = ManualClock(1_800_000_000.0)
    here = await GameService.open(database, clock=clock, tick_every=None)
    there = await GameService.open(database, clock=clock, tick_every=None)
    there.add_notifier("email", Recorder())  # the link mail's way out
    try:
        await here.display_name(DISCORD)  # the older: the player that stays
        await here.display_name(MAIL)  # this process knows the mail account as a player
        asked = await there.ask_link(DISCORD, "email", MAIL.id)
        await there.confirm_link(MAIL, asked.code)
        assert await here.account_owner(MAIL) == MAIL  # not heard of yet
        clock.advance(REFRESH_AFTER)
        assert await here.account_owner(MAIL) == DISCORD
    finally:
        await here.close()
        await there.close()


async def test_an_export_holds_the_players_games_and_accounts(table):
    service, heard, _clock = table
    game = await finished_game(service, DISCORD, CAT, "c1")
    await link_from_discord(service, heard)
    exported = json.loads(await service.export_player(MAIL))
    tables = exported["tables"]
    assert {(p["surface"], p["external_id"]) for p in tables["players"]} == {
        ("discord", "101"),
        ("email", "ann@example.org"),
    }
    assert [g["id"] for g in tables["games"]] == [game]
    assert [m["move"] for m in tables["moves"]] == ["A"]
    assert tables["glicko_ratings"][0]["family"] == "kalah"
    assert "player_codes" not in tables


async def test_a_deletion_needs_its_code_and_leaves_no_trace_while_every_game_replays(
    table, database
):
    service, heard, _clock = table
    await service.set_display_name(DISCORD, "Annabel")
    finished = await finished_game(service, DISCORD, CAT, "c1")
    running = await service.start_game(BOB, MAIL, "kalah", Channel("email", "ann@example.org/1f"))
    await service.move(running.id, BOB, "B")
    with pytest.raises(BadRequest):
        await service.ask_link(MAIL, "email")
    ids = {await service.player_number(DISCORD), await service.player_number(MAIL)}
    cup = await service.create_tournament(
        CAT, "Cup", "swiss", "kalah", TimeControl.correspondence(3), rounds=3
    )
    await service.join_tournament(cup.id, MAIL)
    await link_from_discord(service, heard)
    code = await service.ask_delete(DISCORD)
    with pytest.raises(NotAllowed):
        await service.delete_player(CAT, code)  # not Cat's code
    code = await service.ask_delete(DISCORD)
    done = await service.delete_player(MAIL, code)
    assert (done.resigned, done.kept) == (1, 2)
    await service.idle()

    gone = await service.get_game(finished)
    assert gone.north == CAT and gone.south.surface == "deleted"
    assert (await service.get_game(running.id)).outcome.winner == "south"  # Bob won

    store = await open_storage(database)
    try:
        for table_name, column in {(c.table, c.column) for c in PLAYER_COLUMNS}:
            rows = await store.table_rows(table_name)
            assert all(r[column] not in ids for r in rows), (table_name, column)
        for table_name in TABLES:  # every table, every column: no address, name or user id
            for row in await store.table_rows(table_name):
                text = json.dumps(row, default=str)
                for secret in ("ann@example.org", "Annabel", '"101"'):
                    assert secret not in text, (table_name, row)
        for game_id in (finished, running.id):
            record, moves = await store.games.with_moves(game_id)
            replay = Game(record.rules, first=record.first)
            for move in moves:
                replay.play(move.move)
            assert len(moves) == record.ply
    finally:
        await store.close()
    assert (await service.tournament(cup.id)).players == ()  # left the tournament
    assert await service.list_games(DISCORD, include_finished=True) == []  # a new player
