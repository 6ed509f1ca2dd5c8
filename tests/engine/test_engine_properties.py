"""Properties that hold for every preset and every parameter mix the parser accepts."""

import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, IllegalMove, parse_position, render
from tests.strategies import random_game_positions, rulesets

MAX_PLIES = 3000  # generous: random games here end in a few hundred plies at most


@settings(max_examples=150, deadline=None)
@given(rulesets(), st.integers(0, 2**32))
def test_seeds_are_conserved_and_moves_empty_only_at_the_end(rules, seed):
    for pos, _ in random_game_positions(rules, seed, MAX_PLIES):
        assert sum(pos.pits) + sum(pos.stores) == rules.total_seeds
        assert min(pos.board) >= 0
        assert (pos.legal_moves() == []) == pos.is_over()


@settings(max_examples=150, deadline=None)
@given(rulesets(), st.integers(0, 2**32))
def test_random_games_end_within_a_bound(rules, seed):
    rng = random.Random(seed)
    game = Game(rules, seed=seed)
    while not game.is_over():
        assert len(game.moves) < MAX_PLIES, f"{rules} did not end"
        game.play(rng.choice(game.position.legal_moves()))
    south, north = game.score()
    assert south + north <= rules.total_seeds
    assert game.winner() in ("south", "north", "draw")


@settings(max_examples=100, deadline=None)
@given(rulesets(), st.integers(0, 2**32), st.sampled_from(["south", "north"]))
def test_render_then_parse_gives_the_same_position(rules, seed, perspective):
    for pos, _ in random_game_positions(rules, seed, 200):
        text = render(pos, perspective)
        back = parse_position(text, rules, perspective=perspective)
        assert back == pos
        assert back.last_move == pos.last_move
        assert render(back, perspective) == text
        assert max(len(line) for line in text.splitlines()) <= 40  # a phone's code block


@settings(max_examples=100, deadline=None)
@given(rulesets(), st.integers(0, 2**32), st.text(string.ascii_letters + "<>!-0 ", max_size=3))
def test_anything_but_a_legal_move_raises_illegal_move(rules, seed, attempt):
    for pos, _ in random_game_positions(rules, seed, 60):
        if attempt.strip() in pos.legal_moves():
            pos.play(attempt)  # legal: must work
            continue
        try:
            after = pos.play(attempt)
        except IllegalMove as err:
            assert str(err)  # a reason is given
        else:  # another spelling of a legal move (e.g. "c" for North's C, or "E>")
            assert after.last_move in pos.legal_moves()
