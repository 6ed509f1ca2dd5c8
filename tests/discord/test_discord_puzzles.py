"""``/mancala puzzle`` end to end: the real discord.py client and game service (SQLite file)
against the loopback fake of Discord, on the shipped puzzles: today's puzzle with its board
and buttons, a press answering it privately, streaks, the server's board, buttons that work
after a restart, the cooldown, and every puzzle's message within Discord's limits."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.discord import formatting as fmt
from bot.discord.puzzle_commands import (
    _rows,
    answer_text,
    board_text,
    puzzle_picture,
    puzzle_text,
    puzzle_view,
)
from bot.discord.views import CUSTOM_ID_LIMIT
from bot.i18n import Language, _, speaking
from bot.service import ManualClock, Player
from bot.service.puzzles import PuzzleResult, PuzzleStanding
from engine import puzzles as engine_puzzles
from engine.puzzles import Answer, Puzzle
from tests.discord.discord_fake import ALICE_ID, BOB_ID, CAROL_ID, click, in_dm, slash
from tests.discord.test_discord_bot import Table, start_bot, stop_bot

NOON = datetime(2026, 3, 14, 12, 0, tzinfo=UTC).timestamp()


@pytest.fixture
async def table(fake_discord, tmp_path):
    client = await start_bot(fake_discord, tmp_path / "games.sqlite3", clock=ManualClock(NOON))
    table = Table(client, fake_discord)
    yield table
    await stop_bot(table.client)  # the bot running now: a test may have restarted it


def today() -> Puzzle:
    return engine_puzzles.daily(datetime.fromtimestamp(NOON, UTC).date(), family="kalah")


def wrong_move(puzzle: Puzzle) -> str:
    return next(m for m in puzzle.position.legal_moves() if m != puzzle.solution)


async def press(table: Table, user: int, message: dict, move: str):
    """Press a puzzle's button ``move``: the private answer, at once (a shipped puzzle
    carries every move's line)."""
    answer = await table.click(user, message, move)
    assert answer.body["type"] == 4 and answer.ephemeral
    return answer


async def test_todays_puzzle_is_posted_with_its_boards_and_a_button_per_pit(table):
    puzzle = today()  # the server's ruleset is the default, kalah: a kalah puzzle
    posted = await table.command(ALICE_ID, "puzzle")
    assert not posted.ephemeral and posted.body["type"] == 4
    content = posted.content
    assert content.startswith(f"**Puzzle of the day** · `{puzzle.id}` · kalah")
    assert "```" in content and len(content) <= fmt.MESSAGE_LIMIT
    (name,) = posted.files
    assert name.endswith(".png") and posted.files[name][:8] == b"\x89PNG\r\n\x1a\n"
    (embed,) = posted.data["embeds"]
    assert embed["image"]["url"] == f"attachment://{name}"
    buttons = posted.buttons()
    letters = puzzle.position.rules.letters
    mover_pits = letters if puzzle.position.to_move == "south" else letters.lower()[::-1]
    assert [b["label"] for b in buttons] == list(mover_pits)
    legal = set(puzzle.position.legal_moves())
    assert {b["label"] for b in buttons if not b.get("disabled")} == legal
    rows = [len(r["components"]) for r in posted.data["components"]]
    assert rows == [len(part) for part in _rows(list(mover_pits))]  # 6 pits: 3 + 3
    assert all(b["custom_id"] == f"mancala:puzzle:{puzzle.id}:{b['label']}" for b in buttons)


async def test_a_right_press_answers_privately_with_the_proof_line_and_streak(table):
    puzzle = today()
    posted = await table.command(ALICE_ID, "puzzle")
    answer = await press(table, ALICE_ID, posted.message, puzzle.solution)
    assert answer.ephemeral and answer.content.startswith(f"`{puzzle.id}`: Right:")
    line = " ".join(engine_puzzles.check(puzzle, puzzle.solution).line)
    assert f"The proof line: {line}." in answer.content
    assert "Streak: 1 in a row; 1 solved of 1." in answer.content
    again = await press(table, ALICE_ID, posted.message, puzzle.solution)
    assert "Practice: only your first answer" in again.content


async def test_a_wrong_press_shows_the_refutation_and_another_try_is_practice(table):
    puzzle = today()
    posted = await table.command(BOB_ID, "puzzle")
    wrong = wrong_move(puzzle)
    answer = await press(table, BOB_ID, posted.message, wrong)
    assert answer.ephemeral and "Not this one" in answer.content
    line = " ".join(engine_puzzles.check(puzzle, wrong).line)
    assert f"The refutation: {line}." in answer.content
    assert "starts again from 0" in answer.content and "Try another pit" in answer.content
    right = await press(table, BOB_ID, posted.message, puzzle.solution)
    assert "Right" in right.content and "Practice" in right.content
    streak = await table.command(BOB_ID, "puzzle", kind="streak")
    assert streak.ephemeral and streak.content == (
        "Your puzzles: 0 solved of 1. Streak: 0 in a row."
    )


async def test_another_puzzle_is_private_and_one_not_answered_yet(table):
    family, grade = "wari", next(p.grade for p in engine_puzzles.load() if p.family == "wari")
    first = await table.command(CAROL_ID, "puzzle", kind="next", family=family, grade=grade)
    assert first.ephemeral and "**A puzzle for you**" in first.content
    puzzle_id = first.content.split("`")[1]
    puzzle = engine_puzzles.by_id(puzzle_id)
    assert (puzzle.family, puzzle.grade) == (family, grade)
    await press(table, CAROL_ID, first.message, puzzle.solution)
    second = await table.command(CAROL_ID, "puzzle", kind="next", family=family, grade=grade)
    assert second.content.split("`")[1] != puzzle_id


async def test_the_board_ranks_this_servers_solvers(table):
    puzzle = today()
    posted = await table.command(ALICE_ID, "puzzle")
    await press(table, ALICE_ID, posted.message, puzzle.solution)
    await press(table, BOB_ID, posted.message, wrong_move(puzzle))
    board = await table.command(CAROL_ID, "puzzle", kind="board")
    assert not board.ephemeral
    assert board.content.splitlines() == [
        "**Puzzle board** (this server: most solved, then the longest streak)",
        f"1. <@{ALICE_ID}>: 1 solved of 1 · streak 1 · best 1",
        f"2. <@{BOB_ID}>: 0 solved of 1 · streak 0 · best 0",
    ]
    assert board.data["allowed_mentions"]["parse"] == [] and not board.data["allowed_mentions"].get(
        "users"
    )  # a board names people, it pings nobody
    alone = await table.send(in_dm(slash(ALICE_ID, "puzzle", kind="board"), 555))
    assert alone.ephemeral and "belongs to a server" in alone.content


async def test_a_puzzles_buttons_work_after_a_restart(table, fake_discord, tmp_path):
    puzzle = today()
    posted = await table.command(ALICE_ID, "puzzle")
    await stop_bot(table.client)
    table.client = await start_bot(
        fake_discord, tmp_path / "games.sqlite3", clock=ManualClock(NOON)
    )
    answer = await press(table, ALICE_ID, posted.message, puzzle.solution)
    assert "Right" in answer.content and "Streak: 1" in answer.content


async def test_answers_share_the_puzzle_cooldown(table):
    puzzle = today()
    posted = await table.command(ALICE_ID, "puzzle")  # 1 of 10
    for _press in range(9):
        await press(table, ALICE_ID, posted.message, puzzle.solution)
    refused = await table.click(ALICE_ID, posted.message, puzzle.solution)
    assert refused.ephemeral and refused.content.startswith(
        "You asked for or answered 10 puzzles in the last minute"
    )
    command = await table.command(ALICE_ID, "puzzle")
    assert command.ephemeral and "10 puzzles" in command.content


async def test_an_unknown_puzzles_button_is_refused_clearly(table):
    posted = await table.command(ALICE_ID, "puzzle")
    gone = "mancala:puzzle:nope-0000:A"  # a puzzle since taken out of the set, say
    button = {"type": 2, "style": 1, "label": "A", "custom_id": gone}
    message = dict(posted.message, components=[{"type": 1, "components": [button]}])
    reply = await table.send(click(ALICE_ID, gone, message))
    assert reply.ephemeral and "there is no puzzle 'nope-0000'" in reply.content


def test_every_shipped_puzzles_message_fits_discords_limits():
    """Every puzzle: its text, its picture's embed and alt text, its buttons (at most 5 rows
    of 5, custom ids under 100 characters), and its answer with the longest record."""
    far = Player("discord", "9" * 20)
    standing = PuzzleStanding(far, "x" * 64, 10**6, 10**6, 10**6, 10**6)
    for puzzle in engine_puzzles.load():
        for language in Language:  # in every language: its words, the same board
            with speaking(language):
                for title in (_("Puzzle of the day"), _("A puzzle for you")):
                    text = puzzle_text(puzzle, title)
                    assert len(text) <= fmt.MESSAGE_LIMIT and not text.endswith("…")
        picture, embed = puzzle_picture(puzzle)
        assert len(picture.description or "") <= 1024 and len(embed) <= fmt.EMBED_TOTAL
        rows: dict[int | None, int] = {}
        for item in puzzle_view(puzzle).children:
            assert len(item.custom_id) <= CUSTOM_ID_LIMIT  # type: ignore[attr-defined]
            rows[item.row] = rows.get(item.row, 0) + 1
        assert len(rows) <= 5 and max(rows.values()) <= 5
        right = Answer(puzzle, puzzle.solution, True, puzzle.line, puzzle.value)
        for counted in (True, False):
            for language in Language:
                with speaking(language):
                    answer = answer_text(PuzzleResult(right, counted, standing))
                assert len(answer) <= fmt.MESSAGE_LIMIT
    for language in Language:
        with speaking(language):
            assert len(board_text([standing] * 25)) <= fmt.MESSAGE_LIMIT
