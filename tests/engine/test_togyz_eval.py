"""Togyz Kumalak's tuned evaluation: the shipped weights load into the rules array, the
features count what the rules do, and the kernel's values are the documented ones
(engine.ai.evaluation's docstring)."""

import json
import random
from importlib import resources

import numpy as np
import pytest

from engine import Game, Position, Ruleset
from engine.ai.encoding import EVAL_WEIGHTS, encode, kernel_board, with_weights
from engine.ai.evaluation import BASELINE, FEATURES, togyz_weights
from engine.ai.search_kernel import SCALE, evaluate, togyz_features

TOGYZ = Ruleset.parse("togyz-kumalak")


def value(rules: Ruleset, position: Position, weights: tuple[int, ...] | None = None) -> int:
    code = encode(rules)
    if weights is not None:
        code = with_weights(code, weights)
    return int(evaluate(code.rules, np.array(kernel_board(position), np.int64), position.mover))


def features(position: Position) -> dict[str, int]:
    board = np.array(kernel_board(position), np.int64)
    counted = togyz_features(encode(TOGYZ).rules, board, position.mover)
    return dict(zip(FEATURES, (int(f) for f in counted), strict=True))


def test_the_shipped_weights_load_into_togyz_rules_only():
    shipped = json.loads((resources.files("engine") / "data" / "togyz_eval.json").read_text())
    assert togyz_weights() == tuple(shipped["weights"][name] for name in FEATURES)
    assert togyz_weights() != BASELINE  # tuned, not the evaluation of before
    assert tuple(encode(TOGYZ).rules[EVAL_WEIGHTS:]) == togyz_weights()
    for name in ("kalah", "wari", "bestemshe"):  # no tuzdyks: the kazans' margin and the row
        assert not encode(Ruleset.parse(name)).rules[EVAL_WEIGHTS:].any()


def test_other_rulesets_keep_the_margin_and_the_row():
    rules = Ruleset.parse("kalah")
    pos = Game.from_moves(rules, ["C", "F"]).position
    n = rules.pits
    own = sum(pos.board[n : 2 * n])  # North moves
    other = sum(pos.board[:n])
    assert value(rules, pos) == SCALE * (pos.board[2 * n + 1] - pos.board[2 * n]) + own - other


# The documented values (engine.ai.evaluation's docstring), in search units: the start, and
# a game where South has made a tuzdyk, with the shipped weights and the baseline's.
TUZDYK_GAME = ["C", "e", "I", "b", "E", "g"]
VALUE_START, VALUE_TUZDYK, VALUE_TUZDYK_BASELINE = 18, 82, -3


def test_the_documented_values():
    start = Position.initial(TOGYZ)
    assert features(start) == dict.fromkeys(FEATURES, 0) | {"capture": 10}
    assert value(TOGYZ, start) == VALUE_START
    pos = Game.from_moves(TOGYZ, TUZDYK_GAME).position
    assert pos.stores == (13, 12) and pos.tuzdyks == (13, None)
    assert value(TOGYZ, pos) == VALUE_TUZDYK
    assert value(TOGYZ, pos, BASELINE) == VALUE_TUZDYK_BASELINE


def test_a_tuzdyk_owned_is_worth_more_than_none_all_else_equal():
    pos = Game.from_moves(TOGYZ, TUZDYK_GAME).position
    assert pos.tuzdyks[0] is not None and pos.mover == 0
    without = Position.settled(TOGYZ, pos.board, pos.mover)
    assert features(pos)["tuzdyk"] == 1 and features(without)["tuzdyk"] == 0
    assert value(TOGYZ, pos) > value(TOGYZ, without)
    # With the baseline weights the two were worth the same: the margin and the rows.
    assert value(TOGYZ, pos, BASELINE) == value(TOGYZ, without, BASELINE)


def best_by_playing(position: Position) -> tuple[int, int]:
    """(the most stones one move takes by an even count, 1 if a move makes a tuzdyk), found
    by playing every move through the engine."""
    n2 = 2 * TOGYZ.pits
    mover = position.mover
    mine = position.tuzdyks[mover]
    best = tuzdyk = 0
    for move in position.legal_moves():
        pit = position.parse_move(move)[0]
        seeds = position.pits[pit]
        after = position.play(move)
        if after.tuzdyks[mover] != mine:
            tuzdyk = 1
            continue
        steps = range(seeds) if seeds > 1 else [1]  # the first seed stays in its pit
        into_tuzdyk = sum(1 for k in steps if mine is not None and (pit + k) % n2 == mine)
        taken = after.board[n2 + mover] - position.board[n2 + mover] - into_tuzdyk
        if not after.is_over():
            best = max(best, taken)
    return best, tuzdyk


@pytest.mark.parametrize("seed", range(3))
def test_the_capture_features_are_what_one_move_takes(seed):
    rng = random.Random(seed)
    game = Game(TOGYZ)
    checked = 0
    while not game.is_over() and len(game.moves) < 200:
        pos = game.position
        counted = features(pos)
        ended = any(pos.play(m).is_over() for m in pos.legal_moves())
        if not ended:  # an end sweeps the rows into the kazans: not a capture
            assert (counted["capture"], counted["tuzdyk_threat"]) == best_by_playing(pos)
            checked += 1
        game.play(rng.choice(pos.legal_moves()))
    assert checked > 50
