"""The board picture and its alt text: every ruleset's boards along random games, extreme
boards, the highlighted last move, and the words a screen reader says."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.render import board_picture as picture
from engine import Game, Ruleset, Side
from engine.position import Position
from tests.discord.test_discord_limits import RULESETS, positions_along_random_games


def pit_centre(n: int, index: int) -> tuple[int, int]:
    """Where the picture puts pit ``index`` (0..2n-1) of an ``n``-pit board."""
    top = picture.MARGIN + picture.TITLE + picture.LETTERS
    if index < n:  # South, left to right, on the lower row
        column, y = index, top + picture.CELL + picture.GAP
    else:  # North, right to left, on the upper row
        column, y = n - 1 - (index - n), top
    x = picture.MARGIN + (column + 1) * (picture.CELL + picture.GAP)
    return x + picture.CELL // 2, y + picture.CELL // 2


def said_counts(position: Position) -> list[str]:
    """What the alt text should say of each pit: its count, or whose tuzdyk it is."""
    owners = {
        pit: side
        for side, pit in zip(("South", "North"), position.tuzdyks, strict=True)
        if pit is not None
    }
    return [
        f"{owners[i]}'s tuzdyk" if i in owners else str(count)
        for i, count in enumerate(position.pits)
    ]


@pytest.mark.parametrize("rules", RULESETS)
def test_every_rulesets_boards_draw_and_read_aloud(rules):
    for position, _ply in positions_along_random_games(rules, games=1):
        png = picture.draw_board(position)
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and image.width <= 1100 and image.height < 400
        text = picture.describe_board(position)
        assert len(text) <= 1000  # Discord's attachment description holds 1,024
        n = position.rules.pits
        north = re.search(r"North, pits \w to \w: ([\w', ]+)\.", text).group(1)
        south = re.search(r"South, pits \w to \w: ([\w', ]+)\.", text).group(1)
        assert north.split(", ") == said_counts(position)[n:]
        assert south.split(", ") == said_counts(position)[:n]
        assert f"South {position.stores[0]}, North {position.stores[1]}" in text
        if position.is_over():
            assert "Game over" in text
        else:
            assert f"{position.to_move.title()} to move" in text


def test_the_last_move_is_ringed_and_nothing_else():
    position = Game.from_moves(Ruleset.parse("kalah"), "C F").position  # F ended it
    image = Image.open(io.BytesIO(picture.draw_board(position))).convert("RGB")
    for index in range(12):
        x, y = pit_centre(6, index)
        ring = image.getpixel((x, y - picture.CELL // 2 - 3))  # just outside the well
        assert (ring == picture.HIGHLIGHT) == (index == 5), index  # F is South's sixth
        assert image.getpixel((x - 30, y)) == picture.WELL  # inside the well, off the digits


def test_big_counts_small_and_large_boards_fit():
    for spec, board in (
        ("kalah:pits=8,seeds=6", (150, 0, 3, 1000, 5, 6, 7, 8) * 2 + (99, 1234)),
        ("kalah:pits=1,seeds=1", (12345, 0, 7, 0)),
    ):
        rules = Ruleset.parse(spec)
        position = Position(rules, board, 1, "a")  # as written, not settled by the rules
        image = Image.open(io.BytesIO(picture.draw_board(position)))
        assert (
            image.width
            == 2 * picture.MARGIN + (rules.pits + 2) * picture.CELL + (rules.pits + 1) * picture.GAP
        )
        text = picture.describe_board(position)
        assert all(str(count) in text for count in board)


def test_the_same_position_gives_the_same_bytes_and_names_can_be_given():
    position = Game.from_moves(Ruleset.parse("wari"), "A b").position
    assert picture.draw_board(position) == picture.draw_board(position)
    text = picture.describe_board(position, {"south": "Ann", "north": "Bob"})
    assert text.startswith("Wari board. Ann to move.") and text.endswith("Last move: b.")


TOGYZ_MOVES = "D d G h B a I e F d E h G i I h D b D i F a H b D a F a G i I h H h I"


def test_a_tuzdyk_is_a_dark_well_with_an_x_and_read_aloud_as_whose_it_is():
    position = Game.from_moves(Ruleset.parse("togyz-kumalak"), TOGYZ_MOVES).position
    assert position.tuzdyks == (9, 2)  # South's at North's a, North's at South's C
    image = Image.open(io.BytesIO(picture.draw_board(position))).convert("RGB")
    for index in range(18):
        x, y = pit_centre(9, index)
        well = image.getpixel((x - 30, y))  # inside the well, off the X and the digits
        assert (well == picture.TUZDYK) == (index in (9, 2)), index
        assert well in (picture.TUZDYK, picture.WELL)
    assert image.width <= 1000  # 9 pits and two kazans: readable on a phone, as 8 pits are
    text = picture.describe_board(position)
    assert "North, pits a to i: South's tuzdyk, 5, 1, 5, 0, 20, 19, 0, 3." in text
    assert "South, pits A to I: 19, 0, North's tuzdyk, 0, 5, 0, 1, 1, 1." in text
    assert "Kazans: South 41, North 41." in text and "aptured" not in text


def test_stores_and_captured_counts_keep_their_words():
    kalah = picture.describe_board(Position.initial(Ruleset.parse("kalah")))
    wari = picture.describe_board(Position.initial(Ruleset.parse("wari")))
    assert "Stores: South 0, North 0." in kalah and "Captured: South 0, North 0." in wari
    assert "tuzdyk" not in kalah + wari


def _well(png: bytes, centre: tuple[int, int]) -> bytes:
    """The pixels of the well around ``centre``."""
    x, y = centre
    half = picture.CELL // 2
    return Image.open(io.BytesIO(png)).crop((x - half, y - half, x + half, y + half)).tobytes()


@pytest.mark.parametrize("rules", ["kalah", "wari", "togyz-kumalak"])
def test_seen_from_north_the_board_turns_round(rules):
    """A mail to North shows North's row at the bottom, as its 003 board does: each of the 2n
    wells is drawn where the same well of the other side's view is, half a turn round."""
    game = Game(rules)
    game.play(game.position.legal_moves()[0])
    position = game.position
    south_view = picture.draw_board(position)
    assert picture.draw_board(position, Side.SOUTH) == south_view
    north_view = picture.draw_board(position, Side.NORTH)
    assert north_view != south_view
    n = position.rules.pits
    moved = picture._moved_pit(position)
    for index in range(2 * n):
        if index == moved:
            continue  # ringed in both, the ring's edge crosses the crop differently
        turned = (index + n) % (2 * n)  # where the other row's same-placed pit is
        assert _well(north_view, pit_centre(n, turned)) == _well(south_view, pit_centre(n, index))
