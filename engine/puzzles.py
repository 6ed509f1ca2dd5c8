"""Puzzles: positions from real and self-played games where one move, and only one, is right.

A puzzle is a position whose mover has a move that keeps the result best play gives them (a
win or a draw) where every other move does not, or that wins by clearly more than any other.
Every value is proven by the plain-Python exact solver (``engine.ai.pysolve``): each legal
move's value is the mover's final seed margin with best play after it, as ``engine.review``
counts it. The rule, in the review's classes: the solution keeps the best value, at least a
draw, and every other move is a *mistake* or a *blunder* (``engine.review.classify``), so
either it worsens the result (win to draw or loss, draw to loss) or it gives away at least
``GAP`` (5) of margin.

The shipped set (``load()``, read from ``engine/data/puzzles.json``, which
``bench/mine_puzzles.py`` writes) has puzzles in Kalah, wari, oware and al-manqala, each with
its proof line (the solution, then best play to the end of the game) and, for every other
legal move, its value and refutation line (that move, then best play showing why it fails).

>>> puzzle = by_id("kalah-0001")
>>> puzzle.family, puzzle.position.rules.name, puzzle.solution in puzzle.position.legal_moves()
('kalah', 'kalah', True)
>>> check(puzzle, puzzle.solution).correct
True
>>> wrong = next(m for m in puzzle.position.legal_moves() if m != puzzle.solution)
>>> answer = check(puzzle, wrong)
>>> answer.correct, answer.line[0] == wrong, answer.value_after < puzzle.value
(False, True, True)
>>> daily(datetime.date(2025, 1, 1)) == daily(datetime.date(2025, 1, 1))
True
>>> pick(seen={puzzle.id}, family="kalah").id != puzzle.id
True

``depth`` is the plies of the proof line (the solution included): how long the play is that
proves it, which grows with what must be calculated. The grades by depth (``GRADES``): easy up
to 3 plies, medium up to 7, hard beyond. Moves are written in engine notation (South's pits
uppercase, North's lowercase; ``engine.to_perspective`` writes them as a player sees them).

``find(position)`` says whether a position is a puzzle; ``mine(games)`` finds the puzzles in
finished games, and ``self_play(rules, seed)`` plays a game to mine (seeded, reproducible,
without the compiled kernel). Values are those of each position as if new: a repetition of a
position from before the puzzle is not seen (as in the review). ``find`` keeps a position only
where the position solved as a whole agrees with its moves solved one by one, and every
position on the proof and refutation lines is proven worth the line's value (so each move on
them is a best move) and the line, replayed as a game, ends with that margin. Node budgets,
not the clock, end every proof: the same position gives the same puzzle on any machine, and
``Puzzle.nodes`` says what checking it again costs. docs/puzzles.md says more.
"""

from __future__ import annotations

import datetime
import enum
import functools
import hashlib
import json
import random
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from engine.ai import pysolve
from engine.ai.move_proofs import margin_for
from engine.errors import MancalaError, excerpt
from engine.game import Game
from engine.position import Position
from engine.ruleset import Ruleset
from engine.side import SIDES, Side
from engine.sowing import NO_TUZDYKS
from engine.translation import _, pgettext


class Grade(enum.StrEnum):
    """How hard a puzzle is, from its depth (``GRADES``)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"

    @property
    def label(self) -> str:
        """The grade's name in the current language (its value is the word commands take)."""
        if self is Grade.EASY:
            return pgettext("puzzle grade", "easy")
        if self is Grade.MEDIUM:
            return pgettext("puzzle grade", "medium")
        return pgettext("puzzle grade", "hard")


class Goal(enum.StrEnum):
    """What the solution does that no other move does."""

    WIN = "win"  # the only move that wins
    DRAW = "draw"  # the only move that does not lose
    MOST = "most"  # it wins by at least GAP more than any other move (some others win too)


# The deepest proof line (plies, the solution included) of each grade but the last.
GRADES: tuple[tuple[int, Grade], ...] = ((3, Grade.EASY), (7, Grade.MEDIUM))
# The margin every other move must give away at least, where it keeps the result: a mistake in
# the review's classes (engine.review.THRESHOLDS: 5 to 8 is a mistake; up to 4 an inaccuracy).
GAP = 5

# Each ruleset preset's family, as bot.service.ratings.FAMILIES rates them.
FAMILIES: dict[str, str] = {
    "kalah": "kalah",
    "kalah-nosweep": "kalah",
    "wari": "wari",
    "oware": "oware",
    "al-manqala": "al-manqala",
    "mankala": "applet",
    "manbula": "applet",
    "togyz-kumalak": "togyz-kumalak",
    "bestemshe": "bestemshe",
}
# What the solver may spend proving one position of a puzzle (each move's, each line step's).
FIND_NODES = 20_000
SOURCES = ("game", "self-play")
DATA_FORMAT = 1


class PuzzleNotFound(MancalaError):
    """No puzzle by that id, or none of that family or grade; the message says what there is."""


def grade_of(depth: int) -> Grade:
    """The grade of a proof ``depth`` plies long.

    >>> grade_of(3), grade_of(7), grade_of(8)
    (<Grade.EASY: 'easy'>, <Grade.MEDIUM: 'medium'>, <Grade.HARD: 'hard'>)
    """
    for most, grade in GRADES:
        if depth <= most:
            return grade
    return Grade.HARD


def _result(margin: int) -> int:
    return (margin > 0) - (margin < 0)


def family_of(rules: Ruleset) -> str:
    """The family of a ruleset: kalah, wari, oware, al-manqala, applet, togyz-kumalak or
    bestemshe."""
    return FAMILIES[rules.name]


@dataclass(frozen=True)
class Refutation:
    """A wrong move: its value for the mover and the line that shows it (the move first)."""

    move: str
    value: int
    line: tuple[str, ...]


@dataclass(frozen=True)
class Puzzle:
    """A position with one right move; see the module's docstring."""

    id: str  # stable across releases: "kalah-0001", "oware-0042"
    position: Position  # position.mover is the solver's side
    solution: str  # the one right move, in engine notation
    value: int  # the mover's proven final margin with best play after the solution
    line: tuple[str, ...]  # the proof line: the solution, then best play to the end
    depth: int  # plies of the proof line: what the grade is from
    grade: Grade
    source: str  # "game" or "self-play"
    refutations: tuple[Refutation, ...] = ()  # every other legal move, in sowing order
    nodes: int = 0  # the solver's nodes for all its proofs: what checking it again costs

    @property
    def family(self) -> str:
        return family_of(self.position.rules)

    @property
    def goal(self) -> Goal:
        """What to tell the solver to look for."""
        result = _result(self.value)
        if all(_result(r.value) < result for r in self.refutations):
            return Goal.WIN if result > 0 else Goal.DRAW
        return Goal.MOST

    @property
    def side(self) -> Side:
        """The side the solver plays."""
        return self.position.to_move

    def refutation(self, move: str) -> Refutation | None:
        return next((r for r in self.refutations if r.move == move), None)

    def to_json(self) -> dict[str, Any]:
        """The puzzle as ``engine/data/puzzles.json`` holds it (``tuzdyks``, each side's
        tuzdyk as ``Position.tuzdyks`` gives it, only where one has been made)."""
        pos = self.position
        made = {"tuzdyks": list(pos.tuzdyks)} if pos.tuzdyks != NO_TUZDYKS else {}
        return {
            "id": self.id,
            "rules": str(pos.rules),
            "pits": list(pos.pits),
            "stores": list(pos.stores),
            **made,
            "to_move": pos.to_move.value,
            "solution": self.solution,
            "value": self.value,
            "line": list(self.line),
            "depth": self.depth,
            "grade": self.grade.value,
            "source": self.source,
            "others": [
                {"move": r.move, "value": r.value, "line": list(r.line)} for r in self.refutations
            ],
            "nodes": self.nodes,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        rules = Ruleset.parse(data["rules"])
        board = tuple(data["pits"]) + tuple(data["stores"])
        south, north = data.get("tuzdyks", NO_TUZDYKS)
        position = Position.settled(rules, board, Side(data["to_move"]).row, tuzdyks=(south, north))
        return cls(
            id=data["id"],
            position=position,
            solution=data["solution"],
            value=data["value"],
            line=tuple(data["line"]),
            depth=data["depth"],
            grade=Grade(data["grade"]),
            source=data["source"],
            refutations=tuple(
                Refutation(r["move"], r["value"], tuple(r["line"])) for r in data["others"]
            ),
            nodes=data.get("nodes", 0),
        )


@dataclass(frozen=True)
class Answer:
    """What a move given as the answer to a puzzle was worth."""

    puzzle: Puzzle
    move: str  # the move given, in engine notation
    correct: bool
    line: tuple[str, ...]  # right: the proof line; wrong: the refutation line
    value_after: int  # the mover's proven final margin after the move given


# -- the shipped set ------------------------------------------------------------------------


@functools.cache
def load() -> tuple[Puzzle, ...]:
    """The shipped puzzles, in id order (read once)."""
    text = (resources.files("engine") / "data" / "puzzles.json").read_text(encoding="utf-8")
    return tuple(Puzzle.from_json(item) for item in json.loads(text)["puzzles"])


@functools.cache
def _by_id() -> dict[str, Puzzle]:
    return {p.id: p for p in load()}


def by_id(puzzle_id: str) -> Puzzle:
    """The shipped puzzle ``puzzle_id`` (any case, spaces around ignored)."""
    found = _by_id().get(str(puzzle_id).strip().lower())
    if found is None:
        raise PuzzleNotFound(
            # TRANSLATORS: {count} is how many puzzles there are, {families} their families
            _(
                "there is no puzzle '{id}'; ids look like kalah-0001 ({count} puzzles: {families})"
            ).format(id=excerpt(puzzle_id, 20), count=len(load()), families=", ".join(families()))
        )
    return found


@functools.cache
def families() -> tuple[str, ...]:
    """The families the shipped set has puzzles of (read once: surfaces ask per word)."""
    return tuple(sorted({p.family for p in load()}))


def _pool(family: str | None, grade: Grade | str | None = None) -> list[Puzzle]:
    puzzles = list(load())
    if family is not None:
        word = str(family).strip().lower()
        word = Ruleset.aliases().get(word, word)
        word = FAMILIES.get(word, word)  # a preset's name (or alias) means its family
        puzzles = [p for p in puzzles if p.family == word]
        if not puzzles:
            raise PuzzleNotFound(
                _("there are no puzzles of '{family}'; families: {families}").format(
                    family=excerpt(family, 20), families=", ".join(families())
                )
            )
    if grade is not None:
        try:
            wanted = Grade(str(grade).strip().lower())
        except ValueError:
            raise PuzzleNotFound(
                # TRANSLATORS: {grades} are the words a player types: easy, medium, hard
                _("'{grade}' is not a grade; grades: {grades}").format(
                    grade=excerpt(grade, 20), grades=", ".join(g.value for g in Grade)
                )
            ) from None
        puzzles = [p for p in puzzles if p.grade == wanted]
        if not puzzles:
            raise PuzzleNotFound(
                # TRANSLATORS: {grade} is easy, medium or hard; {family} a game (kalah, wari...)
                _("there are no {grade} puzzles of {family}").format(
                    grade=wanted.label, family=family
                )
            )
    return puzzles


def _order(puzzles: Iterable[Puzzle], salt: str) -> list[Puzzle]:
    """A fixed shuffle: the same on every machine and in every process (no ``hash()``)."""
    return sorted(puzzles, key=lambda p: hashlib.sha256(f"{salt}:{p.id}".encode()).digest())


def daily(day: datetime.date, family: str | None = None) -> Puzzle:
    """The puzzle of ``day``: the same everywhere that day, a new one each day until the
    family's (or the whole set's) puzzles have all been shown, then round again."""
    order = _order(_pool(family), "daily")
    return order[day.toordinal() % len(order)]


def pick(
    seen: Collection[str],
    family: str | None = None,
    grade: Grade | str | None = None,
    seed: int = 0,
) -> Puzzle:
    """A puzzle whose id is not in ``seen`` (of ``family`` and ``grade`` if given), the same
    for the same arguments; once every one has been seen, any of them again."""
    order = _order(_pool(family, grade), f"pick:{seed}")
    return next((p for p in order if p.id not in seen), order[0])


def check(puzzle: Puzzle, move: str) -> Answer:
    """Judge ``move`` as the answer to ``puzzle``: IllegalMove (the engine's message) if it is
    not a legal move there."""
    after = puzzle.position.play(move)  # IllegalMove says why
    played = after.last_move
    assert played is not None
    if played == puzzle.solution:
        return Answer(puzzle, played, True, puzzle.line, puzzle.value)
    found = puzzle.refutation(played)
    if found is None:  # a set written without refutations: prove it now (a small board)
        found = _refute(puzzle.position, played, FIND_NODES)
        if found is None:
            raise MancalaError(
                _("the solver could not prove the value of {move} here").format(move=played)
            )
    return Answer(puzzle, played, False, found.line, found.value)


# -- finding puzzles --------------------------------------------------------------------------


class _Budget:
    """Node budgets of a puzzle's proofs: each proof's, and all of them together."""

    def __init__(self, per_proof: int, total: int | None) -> None:
        self.per_proof = per_proof
        self.left = total
        self.spent = 0

    def value(self, position: Position, mover: int) -> int | None:
        """The proven final margin for ``mover`` with best play from ``position``, or None
        where the proof does not finish within budget."""
        if position.is_over():
            return margin_for(position, mover)
        limit = self.per_proof if self.left is None else min(self.per_proof, self.left)
        if limit <= 0:
            return None
        solved = pysolve.solve(position, node_limit=limit)
        self.spent += solved.nodes
        if self.left is not None:
            self.left -= solved.nodes
        if not solved.complete:
            return None
        value = int(solved.value)
        return value if position.mover == mover else -value

    def best(self, position: Position) -> tuple[str, int] | None:
        """A best move (the solver's) and the value for the player to move."""
        limit = self.per_proof if self.left is None else min(self.per_proof, self.left)
        if limit <= 0:
            return None
        solved = pysolve.solve(position, node_limit=limit)
        self.spent += solved.nodes
        if self.left is not None:
            self.left -= solved.nodes
        return (solved.move, int(solved.value)) if solved.complete else None


def move_values(position: Position, node_limit: int = FIND_NODES) -> dict[str, int] | None:
    """Each legal move's proven value for the mover (final margin with best play after it),
    or None where a proof needs more than ``node_limit`` nodes."""
    return _move_values(position, _Budget(node_limit, None))


def _move_values(position: Position, budget: _Budget) -> dict[str, int] | None:
    values: dict[str, int] = {}
    for move in position.legal_moves():
        value = budget.value(position.play(move), position.mover)
        if value is None:
            return None
        values[move] = value
    return values


def unique_best(values: dict[str, int]) -> str | None:
    """The solution, if these move values make a puzzle (see the module's docstring).

    >>> unique_best({"A": 4, "B": -2}), unique_best({"A": 6, "B": 2}), unique_best({"A": 0})
    ('A', None, None)
    """
    if len(values) < 2:
        return None
    best = max(values, key=values.__getitem__)
    top = values[best]
    if top < 0:
        return None
    result = _result(top)
    for move, value in values.items():
        if move != best and _result(value) == result and top - value < GAP:
            return None
    return best


def _line(position: Position, first: str, value: int, budget: _Budget) -> tuple[str, ...] | None:
    """``first`` then best play to the end, each next move the solver's best, or None unless
    every position on it is proven worth ``value`` to the mover (solved as new: where
    positions repeat, that is not always so) and, replayed as a game (repetitions seen), it
    ends with that margin."""
    mover = position.mover
    line = [first]
    here = position.play(first)
    while not here.is_over():
        if len(line) >= MAX_LINE:
            return None
        found = budget.best(here)
        if found is None:
            return None
        move, worth = found
        if (worth if here.mover == mover else -worth) != value:
            return None
        line.append(move)
        here = here.play(move)
    game = Game.from_moves(position.rules, line, position=position)
    if not game.is_over() or margin_for(game.position, mover) != value:
        return None
    return tuple(line)


MAX_LINE = 200  # plies of a proof line at most


def _refute(position: Position, move: str, node_limit: int) -> Refutation | None:
    budget = _Budget(node_limit, None)
    value = budget.value(position.play(move), position.mover)
    if value is None:
        return None
    line = _line(position, move, value, budget)
    return None if line is None else Refutation(move, value, line)


def find(
    position: Position,
    node_limit: int = FIND_NODES,
    source: str = "self-play",
    puzzle_id: str = "",
    total_nodes: int | None = None,
) -> Puzzle | None:
    """The puzzle ``position`` makes, or None: not a puzzle, or not proven within
    ``node_limit`` nodes a proof (and ``total_nodes`` for all the proofs of the puzzle: each
    move's value, each step of its proof line and of every refutation line). Its id is
    ``puzzle_id`` (the miner numbers them).

    >>> start = Position.initial(Ruleset.parse("kalah:pits=3,seeds=2"))
    >>> found = find(start)
    >>> found.solution, found.value, found.line, found.grade.value
    ('B', 4, ('B', 'C', 'a', 'c', 'B', 'b', 'B', 'c'), 'hard')
    >>> [(r.move, r.value) for r in found.refutations]
    [('A', -8), ('C', 0)]
    """
    if position.is_over() or len(position.legal_moves()) < 2:
        return None
    budget = _Budget(node_limit, total_nodes)
    values = _move_values(position, budget)
    if values is None:
        return None
    solution = unique_best(values)
    if solution is None:
        return None
    # The position solved as a whole agrees (where positions repeat, the position itself is
    # on the path of that search and not of its children's).
    whole = budget.best(position)
    if whole is None or whole != (solution, values[solution]):
        return None
    line = _line(position, solution, values[solution], budget)
    if line is None:
        return None
    refutations = []
    for move in position.legal_moves():
        if move != solution:
            refuted = _line(position, move, values[move], budget)
            if refuted is None:
                return None
            refutations.append(Refutation(move, values[move], refuted))
    return Puzzle(
        id=puzzle_id,
        position=position,
        solution=solution,
        value=values[solution],
        line=line,
        depth=len(line),
        grade=grade_of(len(line)),
        source=source,
        refutations=tuple(refutations),
        nodes=budget.spent,
    )


def mine(
    games: Iterable[Game | Sequence[Position]],
    source: str = "game",
    max_seeds: int | None = None,
    node_limit: int = FIND_NODES,
    seen: set[tuple[Ruleset, tuple[int, ...], int]] | None = None,
    total_nodes: int | None = None,
    last_plies: int | None = None,
) -> Iterator[Puzzle]:
    """The puzzles in ``games`` (each a ``Game`` or its positions), game by game, ply by ply:
    every position with at most ``max_seeds`` seeds in the pits (among the last
    ``last_plies`` positions before the end, if given) that ``find`` calls a puzzle within
    its budgets, each position once (``seen`` is updated, and may carry over between calls).

    >>> game = Game.from_moves("kalah:pits=3,seeds=2", "B C a c")
    >>> [(p.position.to_move.value, p.solution, p.value) for p in mine([game])]
    [('south', 'B', 4), ('south', 'C', 4), ('south', 'B', 4)]
    """
    seen = set() if seen is None else seen
    if source not in SOURCES:
        raise ValueError(f"source is one of {', '.join(SOURCES)}, not '{excerpt(source)}'")
    for game in games:
        positions = game.positions if isinstance(game, Game) else game
        if last_plies is not None:
            positions = positions[-last_plies - 1 :]
        for position in positions:
            if max_seeds is not None and sum(position.pits) > max_seeds:
                continue
            key = (position.rules, position.board, position.mover)
            if key in seen:
                continue
            seen.add(key)
            found = find(position, node_limit, source, total_nodes=total_nodes)
            if found is not None:
                yield found


def self_play(
    rules: Ruleset | str,
    seed: int,
    depths: Sequence[int] = (1, 2, 3),
    blunders: float = 0.1,
    max_plies: int = 400,
) -> Game:
    """A game between two seeded players, each looking ``depth`` plies ahead (one of
    ``depths``, drawn per player) and valuing what it sees by the seeds in the stores, playing
    a random move instead in a share ``blunders`` of its turns: people's mistakes are what
    make puzzles. The same seed plays the same game.

    >>> self_play("kalah:pits=3,seeds=2", seed=1).is_over()
    True
    """
    rules = Ruleset.parse(rules) if isinstance(rules, str) else rules
    rng = random.Random(seed)
    depth = {side: rng.choice(depths) for side in SIDES}
    game = Game(rules)
    while not game.is_over() and len(game.moves) < max_plies:
        position = game.position
        moves = position.legal_moves()
        if rng.random() < blunders:
            game.play(rng.choice(moves))
            continue
        scored = [
            (_look(position.play(m), position.mover, depth[position.to_move] - 1), m) for m in moves
        ]
        top = max(value for value, _ in scored)
        game.play(rng.choice([m for value, m in scored if value == top]))
    return game


def _look(position: Position, mover: int, depth: int) -> int:
    """Plain minimax ``depth`` plies on: ``mover``'s store margin (final margin at the end)."""
    if position.is_over() or depth <= 0:
        return margin_for(position, mover)
    values = (_look(position.play(m), mover, depth - 1) for m in position.legal_moves())
    return max(values) if position.mover == mover else min(values)


def to_json(puzzles: Iterable[Puzzle]) -> str:
    """The text of ``engine/data/puzzles.json`` for ``puzzles``."""
    head = {
        "format": DATA_FORMAT,
        "gap": GAP,
        "grades": {grade.value: most for most, grade in GRADES},
    }
    # One puzzle a line: a re-mined set reads as a diff of the puzzles added.
    lines = ",\n".join(json.dumps(p.to_json(), ensure_ascii=False) for p in puzzles)
    return json.dumps(head)[:-1] + ', "puzzles": [\n' + lines + "\n]}\n"


def renumbered(puzzle: Puzzle, number: int) -> Puzzle:
    """``puzzle`` with the id ``<family>-<number, 4 digits>``."""
    return replace(puzzle, id=f"{puzzle.family}-{number:04d}")


__all__ = [
    "Answer",
    "FAMILIES",
    "GAP",
    "GRADES",
    "Goal",
    "Grade",
    "Puzzle",
    "PuzzleNotFound",
    "Refutation",
    "by_id",
    "check",
    "daily",
    "families",
    "find",
    "grade_of",
    "load",
    "mine",
    "move_values",
    "pick",
    "renumbered",
    "self_play",
    "to_json",
    "unique_best",
]
