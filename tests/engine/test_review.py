"""The move-by-move review (engine.review, `mancala review`): every value it calls proven is
the value plain minimax gives, every result-worsening move is a blunder, the JSON has its
shape, and every rules family plays through."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import main
from engine import Game, Position, Ruleset, Side
from engine.ai import pysolve
from engine.review import (
    Budget,
    MoveClass,
    RecordError,
    classify,
    from_stored_json,
    game_from_record,
    result_of,
    review,
    review_move,
    stored_json,
)
from tests.engine.minimax import path_minimax

ACYCLIC = ["kalah:pits=3,seeds=2", "kalah:pits=4,seeds=2", "kalah-nosweep:pits=3,seeds=2"]
# Where positions repeat plain minimax has no memo: it checks boards of a few seeds, and the
# plain-Python solver (another implementation than the compiled kernel's) the rest.
CYCLIC = [
    "wari:pits=3,seeds=2",
    "oware:pits=3,seeds=2",
    "al-manqala:pits=3,seeds=2",
    "mankala:pits=2",
    "manbula:pits=2,seeds=3",
    "wari:pits=3,seeds=2,laps=relay",
]
PATH_MINIMAX_SEEDS = 3


def random_game(rules, seed, max_plies=200):
    rng = random.Random(seed)
    game = Game(rules)
    while not game.is_over() and len(game.moves) < max_plies:
        game.play(rng.choice(game.position.legal_moves()))
    return game


_MEMO = {}  # (rules, board, mover) -> value: shared by every call, as positions never repeat


def minimax(position):
    """Plain memoised minimax, as tests/engine/minimax.py's, its memo kept from call to call."""
    rules = position.rules

    def value(p):
        key = (rules, p.board, p.mover)
        if key not in _MEMO:
            _MEMO[key] = max(child(p, m) for m in p.legal_moves())
        return _MEMO[key]

    def child(p, move):
        c = p.play(move)
        if c.is_over():
            return c.stores[p.mover] - c.stores[1 - p.mover]
        return value(c) if c.mover == p.mover else -value(c)

    return value(position)


def reference(position):
    """The exact value for the player to move, by an implementation other than the kernel's;
    None where none is affordable."""
    rules = position.rules
    if not pysolve.may_cycle(rules):
        return minimax(position)
    if sum(position.pits) <= PATH_MINIMAX_SEEDS:
        return path_minimax(position)
    solved = pysolve.solve(position, node_limit=200_000)
    return int(solved.value) if solved.complete else None


def value_for(mover, child):
    """``child``'s exact value for ``mover`` (who moved into it), or None."""
    if child.is_over():
        return child.stores[mover] - child.stores[1 - mover]
    value = reference(child)
    if value is None:
        return None
    return value if child.mover == mover else -value


def check_proven(game, reviewed):
    """Every proven ply's values and best moves equal the reference's."""
    checked = 0
    for ply in reviewed.plies:
        if not ply.proven:
            continue
        position = game.positions[ply.ply - 1]
        values = {
            move: value_for(position.mover, position.play(move)) for move in position.legal_moves()
        }
        if None in values.values():
            continue
        best = max(values.values())
        assert ply.value_before == best, (position, ply)
        assert ply.value_after == values[ply.move], (position, ply)
        assert set(ply.best) == {m for m, v in values.items() if v == best}, (position, ply)
        checked += 1
    return checked


def check_classes(reviewed):
    for ply in reviewed.plies:
        assert ply.value_after <= ply.value_before
        assert (ply.move_class == MoveClass.BEST) == (ply.loss == 0), ply
        assert ply.move_class == classify(ply.value_before, ply.value_after, ply.proven)
        if ply.proven and result_of(ply.value_after) < result_of(ply.value_before):
            assert ply.move_class == MoveClass.BLUNDER, ply


@settings(derandomize=True, max_examples=25)
@given(st.sampled_from(ACYCLIC), st.integers(0, 10**6), st.booleans())
def test_proven_values_equal_plain_minimax(name, seed, compiled):
    game = random_game(Ruleset.parse(name), seed)
    reviewed = review(game, compiled=compiled)
    assert reviewed.proven == len(game.moves)  # boards this small are all proven
    assert check_proven(game, reviewed) == len(game.moves)
    check_classes(reviewed)


@settings(derandomize=True, max_examples=20)
@given(st.sampled_from(CYCLIC), st.integers(0, 10**6), st.booleans())
def test_proven_values_equal_the_reference_where_positions_repeat(name, seed, compiled):
    game = random_game(Ruleset.parse(name), seed, max_plies=40)
    reviewed = review(game, compiled=compiled)
    assert check_proven(game, reviewed) >= 1  # the small boards at the end at least
    check_classes(reviewed)


@pytest.mark.parametrize(
    ("name", "seed", "compiled"),
    [
        ("togyz-kumalak:pits=3,seeds=2", 1, True),  # even captures and a tuzdyk
        ("togyz-kumalak:pits=3,seeds=2", 3, False),
        ("bestemshe:pits=3,seeds=2", 2, True),
    ],
)
def test_togyz_reviews_prove_the_reference_values(name, seed, compiled):
    # Fixed games, not drawn with the others: sowing from the lifted pit repeats positions so
    # often that the reference takes seconds a game.
    game = random_game(Ruleset.parse(name), seed, max_plies=40)
    reviewed = review(game, compiled=compiled)
    assert check_proven(game, reviewed) >= 4
    check_classes(reviewed)


def test_an_extra_turn_keeps_the_movers_sign():
    # kalah:pits=3,seeds=2: B ends in South's store, so South moves again.
    game = Game.from_moves("kalah:pits=3,seeds=2", "B C")
    first, second = review(game).plies
    assert first.side == second.side == Side.SOUTH
    assert first.value_after == second.value_before == 4
    # Handing over flips it: North's value before its move is minus South's after C.
    game = Game.from_moves("kalah:pits=3,seeds=2", "B C a")
    third = review(game).plies[2]
    assert third.side == Side.NORTH and third.value_before == -review(game).plies[1].value_after


@settings(derandomize=True, max_examples=10)
@given(st.integers(0, 10**6))
def test_consecutive_plies_agree(seed):
    """value_after of a ply is the next ply's value_before, signed by who moves next."""
    game = random_game(Ruleset.parse("kalah:pits=4,seeds=3"), seed)
    plies = review(game).plies
    for ply, following in zip(plies, plies[1:], strict=False):
        sign = 1 if following.side == ply.side else -1
        assert ply.value_after == sign * following.value_before


def test_a_result_given_away_is_a_blunder_whatever_the_margin():
    assert classify(2, 0, proven=True) == MoveClass.BLUNDER  # a win drawn
    assert classify(0, -2, proven=True) == MoveClass.BLUNDER  # a draw lost
    assert classify(2, -2, proven=True) == MoveClass.BLUNDER
    assert classify(2, 0, proven=False) == MoveClass.GOOD  # an estimate: by the margin only
    assert classify(10, 8, proven=True) == MoveClass.GOOD  # still a win
    assert classify(-2, -4, proven=True) == MoveClass.GOOD  # a loss stays a loss
    thresholds = [(0, "best"), (1, "good"), (2, "good"), (3, "inaccuracy"), (4, "inaccuracy")]
    thresholds += [(5, "mistake"), (8, "mistake"), (9, "blunder"), (30, "blunder")]
    for loss, kind in thresholds:
        assert classify(40, 40 - loss, proven=True).value == kind, loss


def test_the_summary_counts_accuracy_mistakes_and_the_turning_point():
    # South: B (best, an extra turn), A (gives a win of 4 away as a draw); North: b (best).
    reviewed = review(Game.from_moves("kalah:pits=3,seeds=2", "B A b"))
    south, north = reviewed.summaries[Side.SOUTH], reviewed.summaries[Side.NORTH]
    assert (south.moves, south.choices, south.kept, south.accuracy) == (2, 2, 1, 0.5)
    [mistake] = south.mistakes
    assert (mistake.ply, mistake.move, mistake.best, mistake.move_class) == (
        2,
        "A",
        ("C",),
        MoveClass.BLUNDER,
    )
    assert south.turning_point == 2 and north.turning_point is None
    assert north.accuracy == 1.0 and not north.mistakes
    assert reviewed.turning_point == 2


def test_json_has_one_object_per_move():
    game = Game.from_moves("kalah:pits=3,seeds=2", "B A b")
    data = json.loads(review(game).to_json())
    assert [p["ply"] for p in data["plies"]] == [1, 2, 3]
    first = data["plies"][1]
    assert first == {
        "ply": 2,
        "side": "south",
        "move": "A",
        "best": ["C"],
        "value_before": 4,
        "value_after": 0,
        "loss": 4,
        "proven": True,
        "depth": 0,
        "class": "blunder",
        "legal": 2,
    }
    for ply in data["plies"]:
        assert isinstance(ply["value_before"], int) and isinstance(ply["value_after"], int)
        assert ply["side"] in ("south", "north") and isinstance(ply["proven"], bool)
    assert data["summary"]["south"]["mistakes"][0]["better"] == "C"
    assert data["turning_point"] == 2


@pytest.mark.parametrize(
    "name",
    [
        "kalah",
        "kalah-nosweep",
        "wari",
        "oware",
        "al-manqala",
        "mankala",
        "manbula",
        "togyz-kumalak",
        "bestemshe",
    ],
)
def test_every_rules_family_plays_through(name):
    rules = Ruleset.parse(name)
    game = random_game(rules, seed=7, max_plies=80)
    # A small budget: the point is that every family reviews, not how deep.
    budget = Budget(nodes=100_000, try_seeds=0, depth=4, estimate_nodes=10_000, seconds=5)
    reviewed = review(game, budget=budget)
    assert [p.ply for p in reviewed.plies] == list(range(1, len(game.moves) + 1))
    assert [p.move for p in reviewed.plies] == game.moves
    assert [p.side for p in reviewed.plies] == [p.to_move for p in game.positions[:-1]]
    check_classes(reviewed)
    for ply in reviewed.plies:
        assert ply.proven == (ply.depth == 0)
    json.loads(reviewed.to_json())
    # as a database keeps it: every field back, proofs and estimates alike
    assert from_stored_json(stored_json(reviewed)) == reviewed


def test_a_stored_review_reads_back_whole_or_not_at_all():
    reviewed = review(random_game(Ruleset.parse("kalah:pits=4,seeds=3"), seed=3), compiled=False)
    back = from_stored_json(stored_json(reviewed))
    assert back == reviewed and back.summaries == reviewed.summaries
    assert [(p.nodes, p.seconds, p.reduced, p.timed_out) for p in back.plies] == [
        (p.nodes, p.seconds, p.reduced, p.timed_out) for p in reviewed.plies
    ]  # what to_json leaves out is kept too
    assert back.rules == reviewed.rules and back.turning_point == reviewed.turning_point
    data = json.loads(stored_json(reviewed))
    for damaged in (
        {**data, "format": 99},  # another layout
        {**data, "rules": "chess"},
        {**data, "plies": [{**data["plies"][0], "move_class": "brilliant"}]},
        {**data, "plies": [{"ply": 1}]},
        [],
    ):
        with pytest.raises(ValueError):
            from_stored_json(json.dumps(damaged))
    with pytest.raises(ValueError):
        from_stored_json("{not json")


def test_estimates_say_how_deep():
    # Three plies in: past the opening book (engine.ai.book), far from a provable ending.
    position = Game.from_moves("kalah", "A a B").position
    judged = review_move(position, "C", budget=Budget(depth=6, estimate_nodes=50_000))
    assert not judged.proven and judged.depth == 6 and judged.nodes > 0
    assert judged.move_class == classify(judged.value_before, judged.value_after, False)


def test_the_plain_python_review_proves_small_boards_and_says_so():
    game = random_game(Ruleset.parse("kalah:pits=4,seeds=3"), seed=3)
    reviewed = review(game, compiled=False)
    assert all(p.reduced for p in reviewed.plies)
    assert reviewed.plies[-1].proven
    check_proven(game, reviewed)


def test_a_progress_callback_hears_every_ply():
    heard = []
    game = Game.from_moves("kalah:pits=3,seeds=2", "B A b")
    review(game, progress=lambda done, total: heard.append((done, total)))
    assert heard == [(1, 3), (2, 3), (3, 3)]


def test_a_move_list_needs_its_rules_and_legal_moves():
    assert len(review("B A b", "kalah:pits=3,seeds=2").plies) == 3
    with pytest.raises(ValueError):
        review("B A b")
    with pytest.raises(ValueError):
        review_move(Position.initial(Ruleset.parse("kalah:pits=3,seeds=2")), "f")


RECORD = """[Game "12"]
[Rules "kalah:pits=3,seeds=2"]
[South "Alice"]
[North "Bob"]
[First "south"]
[Result "*"]

B A b
"""


def test_a_record_replays():
    game = game_from_record(RECORD)
    assert game.moves == ["B", "A", "b"] and str(game.rules) == "kalah:pits=3,seeds=2"
    north_first = RECORD.replace('[First "south"]', '[First "north"]').replace("B A b", "a")
    assert game_from_record(north_first).positions[0].to_move == Side.NORTH
    for bad in ("B A b", '[Rules "kalah"\nC', '[Rules "kalah"]\n[First "west"]\nC'):
        with pytest.raises(RecordError):
            game_from_record(bad)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_cli_prints_the_table_and_the_summary(capsys):
    status, out, _ = run(capsys, "review", "kalah:pits=3,seeds=2", "--moves", "B A b")
    assert status == 0
    lines = out.splitlines()
    assert lines[1].split() == ["ply", "side", "move", "before", "after", "best", "values", "class"]
    assert lines[3].split() == ["2", "South", "A", "+4", "+0", "C", "proven", "blunder"]
    assert "South: accuracy 50%" in out and "better C" in out
    assert "turning point: move 2" in out


def test_cli_json_and_record(capsys, tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(RECORD)
    status, out, _ = run(capsys, "review", "--record", str(path), "--json")
    assert status == 0
    data = json.loads(out)
    assert [(p["ply"], p["side"], p["move"], p["class"]) for p in data["plies"]] == [
        (1, "south", "B", "best"),
        (2, "south", "A", "blunder"),
        (3, "north", "b", "best"),
    ]
    assert all(p["proven"] for p in data["plies"])


def test_cli_refuses_what_it_cannot_review(capsys, tmp_path):
    status, out, _ = run(capsys, "review", "kalah")
    assert status == 2 and "--moves" in out
    status, out, _ = run(capsys, "review", "kalah", "--moves", "C Z")
    assert status == 2 and "move 2" in out
    status, out, _ = run(capsys, "review", "--record", str(tmp_path / "none.txt"))
    assert status == 2 and "cannot read" in out
    status, out, _ = run(capsys, "review", "kalah", "--moves", "")
    assert status == 2 and "no move" in out
