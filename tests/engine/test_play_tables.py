"""The endgame tables the levels play with where positions repeat (wari, oware): the search
reading them, the levels and hints using them, and their build in the background."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

from engine import Position, Ruleset
from engine.ai import choose_move, hint
from engine.ai.encoding import encode
from engine.ai.retrograde import build
from engine.ai.search import solve
from tests.engine.test_retrograde import boards, brute_force


def sign(x: float) -> int:
    return (x > 0) - (x < 0)


def positions(rules: Ruleset, most: int, stores):
    for seeds in range(1, most + 1):
        for pits_row, (south, north), mover in itertools.product(
            boards(rules.pits, seeds), stores, (0, 1)
        ):
            position = Position.settled(rules, pits_row + (south, north), mover)
            if not position.is_over():
                yield position


def mover_value(position: Position) -> int:
    """Brute force's final margin for the player to move."""
    south = brute_force(position)
    return south if position.mover == 0 else -south


@pytest.mark.parametrize(
    "rules_text, most, above, stores",
    [
        # A layer above the table too: the solver searches it, reading the table below.
        ("wari:pits=2,seeds=2,majority=no", 4, 1, [(0, 0), (2, 1), (0, 3)]),
        ("wari:pits=3,seeds=1,majority=no", 3, 0, [(0, 0), (1, 0)]),
    ],
)
def test_the_solver_reading_a_wari_table_finds_brute_force_values(rules_text, most, above, stores):
    rules = Ruleset.parse(rules_text)
    table = build(encode(rules), most)
    checked = 0
    for position in positions(rules, most + above, stores):
        result = solve(position, endgame_seeds=most, endgame_table=table, tt_bits=10)
        assert result.complete
        assert result.value == mover_value(position), position.board
        checked += 1
    assert checked > 100


def real_positions(rules: Ruleset, most: int):
    """Boards of up to ``most`` seeds with every split of the rest into the stores that
    leaves nobody a majority: the positions a game can reach."""
    total = rules.total_seeds
    for seeds in range(1, most + 1):
        for pits_row, mover in itertools.product(boards(rules.pits, seeds), (0, 1)):
            for south in range(total - seeds + 1):
                north = total - seeds - south
                position = Position.settled(rules, pits_row + (south, north), mover)
                if 2 * max(south, north) <= total and not position.is_over():
                    yield position


@pytest.mark.parametrize("rules_text", ["wari:pits=2,seeds=2", "wari:pits=3,seeds=1"])
def test_with_the_majority_rule_wari_tables_hold_a_value_per_store(rules_text):
    # Under wari a repetition is a draw whatever the counts, so who reaches a majority first
    # decides games the stores alone would not: the table keeps one value per store.
    rules = Ruleset.parse(rules_text)
    most = rules.total_seeds // 2
    table = build(encode(rules), most)
    checked = 0
    for position in real_positions(rules, most):
        result = solve(position, endgame_seeds=most, endgame_table=table, tt_bits=10)
        assert result.complete and result.value == mover_value(position), position
        checked += 1
    assert checked > 100


def test_oware_tables_bound_the_value_and_give_results_exactly_where_they_meet():
    # Oware's repetition rule (each keeps their row) depends on which position came back:
    # the table keeps bounds. Where they meet, the solver reads the value; elsewhere it
    # searches on, and whatever it finds must agree in result with brute force.
    rules = Ruleset.parse("oware:pits=2,seeds=2")
    table = build(encode(rules), 4)
    for position in real_positions(rules, 4):
        result = solve(position, endgame_seeds=4, endgame_table=table, tt_bits=10)
        if result.complete:
            assert sign(result.value) == sign(mover_value(position)), position


def test_hard_and_expert_play_a_best_move_from_the_table_and_hints_are_proven():
    rules = Ruleset.parse("wari:pits=2,seeds=2,majority=no")
    table = build(encode(rules), 4)
    played = 0
    for position in positions(rules, 4, [(1, 2)]):
        if len(position.legal_moves()) < 2:
            continue
        best = mover_value(position)
        for level in ("hard", "expert"):
            move = choose_move(position, level, endgame=(4, table))
            after = position.play(move.move)
            value = mover_value(after) if after.mover == position.mover else -mover_value(after)
            assert value == best == move.value, (position.board, level)
        suggestion = hint(position, endgame=(4, table))
        assert suggestion.exact and suggestion.value == best
        played += 1
    assert played > 20


def test_the_weaker_levels_do_not_read_the_table():
    rules = Ruleset.parse("wari:pits=2,seeds=2")
    table = build(encode(rules), 4)
    position = Position.settled(rules, (1, 1, 1, 1, 2, 2), 0)
    assert choose_move(position, "medium", endgame=(4, table)).nodes > 0


def test_a_game_asks_for_its_table_and_one_background_build_makes_it(tmp_path, monkeypatch):
    from bot.ai_runtime import table_cache
    from bot.ai_runtime.pool import _choose

    monkeypatch.setenv("MANCALA_ENDGAME_TABLES", "on")
    monkeypatch.setenv("MANCALA_TABLES", str(tmp_path))
    rules = Ruleset.parse("wari:seeds=1")  # 12 seeds: a table of 6, built in a moment
    seeds = table_cache.wanted(rules)
    assert seeds == 6
    assert table_cache.loaded(rules) is None
    assert table_cache.prepare(rules) == "building"
    assert table_cache.prepare(rules) == "building"  # one build, not two
    waited = 0.0
    # The file appears first, then the build lets go of its lock.
    while (
        table_cache.prepare(rules) != "ready" or table_cache.is_building(rules)
    ) and waited < 300:
        time.sleep(0.5)
        waited += 0.5
    assert table_cache.prepare(rules) == "ready"
    assert not table_cache.is_building(rules)
    seeds_read, (counts, values) = table_cache.loaded(rules)
    assert seeds_read == seeds
    assert np.array_equal(values, build(encode(rules), seeds)[1])
    # A worker's move reads it: the value is the proven one, not a search's estimate.
    position = Position.settled(rules, (0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 5, 4), 0)
    move = _choose(position, "expert", None, 0, True)
    assert move.value == mover_value(position)


def test_tables_can_be_turned_off_and_an_unwritable_directory_costs_only_the_table(
    tmp_path, monkeypatch
):
    from bot.ai_runtime import table_cache

    rules = Ruleset.parse("oware")
    monkeypatch.setenv("MANCALA_ENDGAME_TABLES", "off")
    assert table_cache.prepare(rules) == "none"
    assert table_cache.loaded(rules) is None
    monkeypatch.setenv("MANCALA_ENDGAME_TABLES", "on")
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("MANCALA_TABLES", str(blocker / "tables"))
    assert table_cache.prepare(rules) == "unavailable"
    assert table_cache.loaded(rules) is None
    assert table_cache.prepare(Ruleset.parse("kalah")) == "none"  # the solver's, not the levels'


def test_oware_bounds_prove_results_where_they_decide_them_and_the_move_keeps_it():
    from engine.ai.search import result_from_bounds

    rules = Ruleset.parse("oware:pits=2,seeds=2")
    table = build(encode(rules), 4)
    decided = 0
    for position in real_positions(rules, 4):
        found = result_from_bounds(position, (4, table))
        if found is None:
            continue
        result, move, bound = found
        truth = mover_value(position)
        after = position.play(move)
        kept = mover_value(after) if not after.is_over() else None
        if kept is None:
            n2 = 2 * rules.pits
            kept = after.board[n2 + position.mover] - after.board[n2 + 1 - position.mover]
        elif after.mover != position.mover:
            kept = -kept
        # The result and the move that keeps it are proven; the bound is a margin of the game
        # played out without the majority rule, so only its sign is checked here.
        if result == "win":
            assert truth >= 1 and kept >= 1 and bound >= 1, position
        elif result == "loss":
            assert truth <= -1 and bound <= -1, position
        else:
            assert truth == 0 == kept, position
        decided += 1
    assert decided > 50


def test_an_oware_hint_gives_the_result_the_table_proves_where_the_margin_is_open():
    # A real endgame (from a medium-level game): the solver cannot finish it (its lines
    # cycle), the table's bounds still decide it. About 10 s to build the table.
    rules = Ruleset.parse("oware")
    table = build(encode(rules), 14)
    position = Position.settled(rules, (1, 0, 0, 0, 0, 0, 5, 0, 3, 4, 0, 1, 12, 22), 0)
    suggestion = hint(position, endgame=(14, table))
    assert not suggestion.exact and suggestion.result == "loss"
    assert suggestion.move in position.legal_moves()


def test_a_result_the_bounds_prove_is_kept_by_the_move_played():
    # The depth-limited search reads an oware table's bounds as estimates, and did play moves
    # that gave away a proved win (1 of 8 oware endgames from medium-level games, issue 21).
    from engine.ai.search import keeping_result, move_bounds

    rules = Ruleset.parse("oware:pits=2,seeds=2")
    endgame = (4, build(encode(rules), 4))
    changed = 0
    for position in real_positions(rules, 4):
        bounds = move_bounds(position, endgame)
        if not bounds or len(bounds) < 2:
            continue
        best_low = max(low for low, _ in bounds.values())
        if best_low < 0:
            continue  # nothing to keep
        for move in bounds:
            kept = keeping_result(position, move, endgame)
            truth = mover_value_after(position, kept)
            assert truth >= min(best_low, 1), (position, move)
            if (bounds[move][0] >= 1) == (best_low >= 1) and bounds[move][0] >= 0:
                assert kept == move  # it already keeps the result: the search's choice stands
            changed += kept != move
        played = choose_move(position, "hard", endgame=endgame).move
        assert mover_value_after(position, played) >= min(best_low, 1), position
    assert changed > 10


def mover_value_after(position: Position, move: str) -> int:
    """Brute force's final margin for the player to move in ``position`` after ``move``."""
    after = position.play(move)
    if after.is_over():
        n2 = 2 * position.rules.pits
        return after.board[n2 + position.mover] - after.board[n2 + 1 - position.mover]
    value = mover_value(after)
    return value if after.mover == position.mover else -value


def test_a_table_read_from_disk_needs_no_second_compile(tmp_path):
    # The bot maps tables read-only from disk; numba compiled the kernel again for that array
    # type, half a minute inside the first move that read one (it ate a fresh CI run's move).
    from engine.ai import warm_up
    from engine.ai.search_kernel import negamax

    warm_up()
    compiled = len(negamax.signatures)
    rules = Ruleset.parse("wari:seeds=1")
    counts, values = build(encode(rules), 6)
    np.save(tmp_path / "table.npy", values)
    mapped = np.load(tmp_path / "table.npy", mmap_mode="r")
    position = Position.settled(rules, (0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 5, 4), 0)
    move = choose_move(position, "expert", endgame=(6, (counts, mapped)))
    assert move.value == mover_value(position)
    assert len(negamax.signatures) == compiled
    assert values.flags.writeable  # the caller's array is left as it was
