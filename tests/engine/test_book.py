"""The opening book (engine.ai.book, bench/build_book.py): what a build proves is what plain
minimax says, the shipped book re-proves on a sample and holds together, and hard, expert,
hints, solves and reviews read it."""

import random

import pytest

from bot.cli import main
from engine import Game, Position, Ruleset
from engine.ai import book, choose_move, hint, solve
from engine.ai.search import Searcher
from engine.review import review_move

SMALL = ["kalah:pits=3,seeds=2", "kalah:pits=3,seeds=3,capture_needs_opposite=yes"]
PLIES = 3


def built(text: str, plies: int) -> dict:
    """A book built as bench/build_book.py builds one, read back from its file's text."""
    rules = Ruleset.parse(text)
    order, leaves = book.opening_tree(rules, plies)
    searcher = Searcher(rules, 16)
    done = {book.book_board(p): book.prove(p, searcher) for p in leaves}
    entries = book.derive(order, done)
    return book.parse_book(book.write_book({text: (plies, entries)}, "a test book"))


def plies_of(rules: Ruleset, plies: int) -> list[list[Position]]:
    """The positions of each of the first ``plies`` plies (and the start), stores and all (not
    one per board), the finished ones left out."""
    found, layer = [], [Position.initial(rules)]
    for _ in range(plies + 1):
        found.append([p for p in layer if not p.is_over()])
        layer = [p.play(m) for p in found[-1] for m in p.legal_moves()]
    return found


class Minimax:
    """Plain minimax (as tests/engine/minimax.py's), its memo kept from one position to the
    next."""

    def __init__(self) -> None:
        self.memo: dict = {}

    def value(self, position: Position) -> int:
        key = position.key()
        if key not in self.memo:
            self.memo[key] = max(self.moves(position).values())
        return self.memo[key]

    def moves(self, position: Position) -> dict[str, int]:
        """Every move's value for the mover."""
        values = {}
        for move in position.legal_moves():
            child = position.play(move)
            if child.is_over():
                value = child.stores[position.mover] - child.stores[1 - position.mover]
            else:
                value = self.value(child) if child.mover == position.mover else -self.value(child)
            values[move] = value
        return values


@pytest.mark.parametrize("text", SMALL)
def test_a_built_book_gives_the_value_and_every_best_move_plain_minimax_gives(text, monkeypatch):
    made = built(text, PLIES)
    monkeypatch.setattr(book, "_books", lambda: made)
    rules = Ruleset.parse(text)
    exact = Minimax()
    checked = 0
    layers = plies_of(rules, PLIES + 1)
    for position in [p for layer in layers[:-1] for p in layer]:
        entry = book.lookup(position)
        assert entry is not None, position
        values = exact.moves(position)
        best = max(values.values())
        assert entry.value == best == exact.value(position)
        assert entry.best == tuple(m for m in position.legal_moves() if values[m] == best)
        for move, value in entry.values.items():
            assert values[move] == value, (position, move)
        checked += 1
    assert checked > 20
    # Deeper than the book goes: not held (but where a board comes back by another path).
    assert any(book.lookup(position) is None for position in layers[-1])


def test_the_book_holds_nothing_for_other_rules():
    for text in ("kalah:pits=4,seeds=3", "oware", "kalah:seeds=4,replay=no"):
        assert book.lookup(Position.initial(Ruleset.parse(text))) is None


def shipped() -> list[tuple[str, int]]:
    return book.covered_rules()


def test_the_shipped_book_covers_kalah_6_4_and_6_3_under_both_capture_rules():
    keys = {book.play_key(Ruleset.parse(text)) for text, _plies in shipped()}
    for text in (
        "kalah",
        "kalah:capture_needs_opposite=yes",
        "kalah:seeds=3",
        "kalah:seeds=3,capture_needs_opposite=yes",
    ):
        assert book.play_key(Ruleset.parse(text)) in keys, text


@pytest.mark.parametrize("text,plies", shipped())
def test_every_board_of_the_shipped_book_follows_from_its_last_ply(text, plies):
    """Each board up to the book's last ply is there, and each one before it has the best
    value over its moves and exactly the moves that keep it: the book holds together."""
    rules = Ruleset.parse(text)
    held = book._books()[book.play_key(rules)]
    order, leaves = book.opening_tree(rules, plies)
    assert {board for board, _position in order} == set(held)
    last = {book.book_board(p): held[book.book_board(p)] for p in leaves}
    assert book.derive(order, last) == held
    for board, (_value, best) in held.items():
        assert best and all(0 <= pit < rules.pits for pit in best), board


# Kalah(6,4)'s values from the start, as the solver proves them from there in one search
# (bench/solve_kalah.py; CMancala's solver finds +8 for the standard capture too, see
# docs/performance.md): the book derives them from its last ply's proofs instead.
@pytest.mark.parametrize("text,value", [("kalah", 10), ("kalah:capture_needs_opposite=yes", 8)])
def test_the_shipped_book_gives_kalah_6_4_its_known_value(text, value):
    entry = book.lookup(Position.initial(Ruleset.parse(text)))
    assert entry is not None and entry.value == value


SAMPLE = 3  # boards of each Kalah(6,3) book re-proven (a second or two each)


@pytest.mark.parametrize("text", ["kalah:seeds=3", "kalah:seeds=3,capture_needs_opposite=yes"])
def test_a_sample_of_the_shipped_book_is_proven_again(text):
    rules = Ruleset.parse(text)
    held = book._books()[book.play_key(rules)]
    order, _leaves = book.opening_tree(rules, dict(shipped())[text])
    searcher = Searcher(rules, 22)
    for board, position in random.Random(47).sample(order, SAMPLE):
        assert book.prove(position, searcher) == held[board], board


def game_start(text: str, moves: str = "") -> Position:
    return Game.from_moves(text, moves).position


def test_hard_and_expert_play_a_best_move_from_the_book_at_once():
    position = game_start("kalah:seeds=3", "A")
    entry = book.lookup(position)
    assert entry is not None
    for level in ("hard", "expert"):
        for compiled in (True, False):
            played = choose_move(position, level, compiled=compiled)
            assert played.move in entry.best
            assert (played.value, played.nodes, played.reduced) == (entry.value, 0, False)
    medium = choose_move(position, "medium")
    assert medium.nodes > 0  # the weaker levels still search


def test_the_seed_picks_among_the_best_moves():
    rules = Ruleset.parse("kalah:seeds=3")
    order, _leaves = book.opening_tree(rules, 2)
    position = next(p for _board, p in order if len(book.lookup(p).best) > 1)
    best = book.lookup(position).best
    picked = {choose_move(position, "expert", seed=seed).move for seed in range(len(best))}
    assert picked == set(best)


def test_hint_and_solve_answer_from_the_book_with_a_proof():
    position = game_start("kalah:seeds=3,capture_needs_opposite=yes", "B")
    entry = book.lookup(position)
    assert entry is not None
    given = hint(position, compiled=False)
    assert (given.move, given.value, given.exact, given.reduced) == (
        entry.best[0],
        entry.value,
        True,
        False,
    )
    solved = solve(position)
    assert (solved.move, solved.value, solved.complete, solved.nodes) == (
        entry.best[0],
        entry.value,
        True,
        0,
    )


def test_the_review_shows_the_opening_moves_as_proven():
    position = game_start("kalah:seeds=3")
    entry = book.lookup(position)
    assert entry is not None
    worst = min(entry.values, key=entry.values.__getitem__)
    for move in (entry.best[0], worst):
        judged = review_move(position, move, compiled=False)
        assert judged.proven and not judged.reduced and judged.depth == 0
        assert judged.value_before == entry.value
        assert judged.value_after == entry.values[move]
        assert judged.best == entry.best


def test_mancala_solve_answers_from_the_book_with_every_best_move(capsys):
    entry = book.lookup(game_start("kalah:seeds=3"))
    assert entry is not None
    assert main(["solve", "kalah:seeds=3", "--no-line"]) == 0
    out = capsys.readouterr().out
    assert f"value {entry.value:+d} for South (proven)" in out
    assert "opening book" in out and " ".join(entry.best) in out


def test_mancala_hint_answers_from_the_book_without_the_compiler(capsys, monkeypatch):
    from bot.ai_runtime import kernel_cache

    def no_compile() -> None:
        raise AssertionError("a hint from the book waited for the compiler")

    monkeypatch.setattr(kernel_cache, "is_ready", lambda: False)
    monkeypatch.setattr(kernel_cache, "compile_now", no_compile)
    entry = book.lookup(game_start("kalah", "C"))
    assert entry is not None
    assert main(["hint", "kalah", "--moves", "C"]) == 0
    out = capsys.readouterr().out
    assert f"hint: {entry.best[0]} (value {entry.value:+d} for South, proven, from the" in out
