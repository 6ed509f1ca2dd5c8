"""``/mancala review`` with a game record, through the real discord.py client against the
loopback fake: a record file attached (its bytes fetched from the fake as from Discord's CDN)
or its text pasted, reviewed by the solver and posted with its graph; a malformed record,
a file over the limit and a record beside a game's number are refused privately."""

from __future__ import annotations

from bot.service.reviews import MAX_REVIEWED_RECORD
from engine.review import Budget
from tests.discord.discord_fake import ALICE_ID, APP_ID, BOB_ID
from tests.discord.test_discord_bot import bot, table  # noqa: F401  (the fixtures)
from tests.mail.test_mail_records import BESTEMSHE_PGN, OWARE_OGN, TOGYZ_SCORESHEET
from tests.service.test_ai_fairness import NeverCompiled


def quick(table) -> None:  # noqa: F811
    """The plain-Python solver with a small budget: the test is of the way there."""
    service = table.client.service
    service.ai.kernel = NeverCompiled()
    service.reviews.budget = Budget(nodes=300)


async def reviewed(table, fake_discord, user=ALICE_ID, **options) -> str:  # noqa: F811
    deferred = await table.command(user, "review", **options)
    assert deferred.body["type"] == 5, deferred.content  # deferred: the review takes its time
    done = await fake_discord.wait_for("PATCH", f"/webhooks/{APP_ID}/", timeout=60)
    while not done.files:  # "Reviewing: 2 of 4 moves done...", on a slow machine
        assert done.body["content"].startswith("Reviewing: "), done.body
        done = await fake_discord.wait_for("PATCH", f"/webhooks/{APP_ID}/", timeout=60)
    (name,) = done.files
    assert name == "review-record.png" and done.files[name][:4] == b"\x89PNG"
    content = done.body["content"]
    assert len(content) <= 2000
    return content


async def test_an_attached_playstrategy_pgn_is_reviewed(table, fake_discord):  # noqa: F811
    quick(table)
    record = fake_discord.attach("game.pgn", BESTEMSHE_PGN.encode(), "application/x-chess-pgn")
    content = await reviewed(table, fake_discord, record=record)
    assert content.startswith("The game in your record (bestemshe), reviewed by the solver:")
    assert " of 3 moves" in content


async def test_an_attached_ogn_and_a_pasted_scoresheet_are_reviewed(table, fake_discord):  # noqa: F811
    quick(table)
    record = fake_discord.attach("club.ogn", OWARE_OGN.encode("latin-1"))
    content = await reviewed(table, fake_discord, record=record)
    assert content.startswith("The game in your record (oware), reviewed by the solver:")
    # a slash command's text is one line: a scoresheet's moves read so too
    moves = " ".join(TOGYZ_SCORESHEET.split("\n\n", 1)[1].split())
    # by another user: the review cooldown allows Alice no second one yet
    again = await reviewed(table, fake_discord, user=BOB_ID, text=moves)
    assert again.startswith("The game in your record (togyz-kumalak), reviewed by the solver:")


async def test_a_malformed_record_names_the_line_and_the_ply(table, fake_discord):  # noqa: F811
    quick(table)
    broken = BESTEMSHE_PGN.replace("d1b2", "d1z9")
    record = fake_discord.attach("game.pgn", broken.encode())
    reply = await table.command(ALICE_ID, "review", record=record)
    assert reply.ephemeral
    assert "I could not review the record: line 6, ply 3 ('d1z9')" in reply.content


async def test_a_file_over_the_limit_is_not_fetched(table, fake_discord):  # noqa: F811
    record = fake_discord.attach("big.pgn", b"", size=MAX_REVIEWED_RECORD + 1)
    reply = await table.command(ALICE_ID, "review", record=record)
    assert reply.ephemeral and "read up to 65,536 bytes" in reply.content
    assert not any("/attachments/" in r.path for r in fake_discord.requests)


async def test_a_record_and_a_game_number_are_not_both_given(table, fake_discord):  # noqa: F811
    record = fake_discord.attach("game.pgn", BESTEMSHE_PGN.encode())
    reply = await table.command(ALICE_ID, "review", game=1, record=record)
    assert reply.ephemeral and "Give one of" in reply.content
