"""Endgame tables: every board numbered once, every value equal to plain minimax, and the
solver giving the same answers with a table as without."""

import itertools
import random

import numpy as np
import pytest

from engine import Game, Position, Ruleset
from engine.ai.encoding import encode
from engine.ai.endgame import build, index, layer_counts
from engine.ai.search import Searcher, solve
from tests.engine.minimax import minimax


def test_index_numbers_every_board_once():
    pits, most = 3, 6
    counts = layer_counts(pits, most)
    seen = []
    for board in itertools.product(range(most + 1), repeat=2 * pits):
        if sum(board) <= most:
            for mover in (0, 1):
                seen.append((index(counts, np.array(board + (0, 0)), mover, pits), mover))
    south = sorted(at for at, mover in seen if mover == 0)
    assert south == list(range(counts[0, most + 1]))
    assert sorted(at for at, mover in seen if mover == 1) == south


def random_endgame(rules: Ruleset, most: int, rng: random.Random) -> Position | None:
    """A board with at most ``most`` seeds left in the pits, the rest in the stores."""
    pits = [0] * (2 * rules.pits)
    for _ in range(rng.randint(1, most)):
        pits[rng.randrange(len(pits))] += 1
    rest = rules.total_seeds - sum(pits)
    south = rng.randint(0, rest)
    position = Position.settled(rules, tuple(pits) + (south, rest - south), rng.randint(0, 1))
    return None if position.is_over() else position


@pytest.mark.parametrize(
    "text",
    [
        "kalah:pits=3,seeds=3",
        "kalah-nosweep:pits=3,seeds=3",
        "kalah:pits=4,seeds=2,capture_needs_opposite=yes",
        "kalah:pits=3,seeds=3,replay=no",
        "mankala:pits=3",
    ],
)
def test_table_values_equal_minimax(text):
    rules = Ruleset.parse(text)
    most = min(rules.total_seeds, 8)
    counts, values = build(encode(rules), most)
    assert (values > -100).all()  # every board built
    rng = random.Random(text)
    checked = 0
    while checked < 60:
        position = random_endgame(rules, most, rng)
        if position is None:
            continue
        stores = position.stores
        table = (
            stores[position.mover]
            - stores[1 - position.mover]
            + int(values[index(counts, np.array(position.board), position.mover, rules.pits)])
        )
        assert table == minimax(position), position.board
        checked += 1


def test_rules_where_boards_repeat_get_no_table():
    with pytest.raises(ValueError, match="repeat"):
        build(encode(Ruleset.parse("kalah:choose=any,pits=3,seeds=3")), 6)
    # Where the stores matter, the table is another kind (engine.ai.retrograde's): one of
    # the Kalah kind is refused, not misread.
    kalah_table = build(encode(Ruleset.parse("kalah")), 6)
    with pytest.raises(ValueError, match="not one of 6 seeds"):
        Searcher(Ruleset.parse("wari")).use_endgame_table(6, kalah_table)


def test_solver_with_a_table_gives_the_same_values():
    rules = Ruleset.parse("kalah:pits=4,seeds=2")  # small enough for minimax in a second
    rng = random.Random(4)
    games = [Game.from_moves(rules, "")]
    while len(games) < 6:
        game = Game.from_moves(rules, "")
        for _ in range(rng.randint(1, 8)):
            if not game.is_over():
                game.play(rng.choice(game.position.legal_moves()))
        if not game.is_over():
            games.append(game)
    with_table = Searcher(rules, tt_bits=16)
    with_table.use_endgame_table(8)
    nodes = {"plain": 0, "tabled": 0}
    for game in games:
        plain = solve(game.position, tt_bits=16)
        tabled = solve(game.position, searcher=with_table)
        assert tabled.complete and tabled.value == plain.value == minimax(game.position)
        nodes["plain"] += plain.nodes
        nodes["tabled"] += tabled.nodes
    assert nodes["tabled"] < nodes["plain"]  # reads count as nodes; subtrees searched count more
