"""A game reviewed move by move by the solver: what each move kept or gave away.

``review(game)`` replays a game and calls ``review_move(position, move)`` for every ply: the
mover's value before the move (the final seed margin with best play from there), the same
mover's value after it (with best play from the position the move left, whoever moves next:
an extra turn or a relay keeps the sign, a handover flips it), the best move or moves, whether
the values are proven and a class. A ``Review`` is data: its plies, a summary per player and
``to_json()``; ``stored_json`` and ``from_stored_json`` keep it whole in a database.

>>> from engine import Game
>>> game = Game.from_moves("kalah:pits=3,seeds=2", "B A b")  # B ends in South's store
>>> done = review(game, compiled=False)
>>> [(p.ply, p.side.value, p.move, p.value_before, p.value_after, p.move_class.value)
...  for p in done.plies]  # doctest: +NORMALIZE_WHITESPACE
[(1, 'south', 'B', 4, 4, 'best'), (2, 'south', 'A', 4, 0, 'blunder'),
 (3, 'north', 'b', 0, 0, 'best')]
>>> done.plies[1].best, done.plies[1].proven, done.turning_point
(('C',), True, 2)

Values are proven by the opening book (``engine.ai.book``) where it holds the position and the
move played, else by the exact solver where it finishes within the ply's budget (``Budget``:
a node budget, which makes a review the same on every machine, and a time limit as a safety
net): always tried from the point where ``Budget.prove_seeds`` (24) or fewer seeds are left
in the pits, and with a smaller budget up to ``Budget.try_seeds`` (32), through the compiled solver with a transposition table kept from ply to ply (and
an endgame table where the caller passes one). Elsewhere, or where the proof runs out of
budget, each move is searched to a fixed depth and the values are estimates (``proven`` is
False, ``depth`` says how deep). ``compiled=False`` never touches the compiled kernel (numba
may still be compiling it): the plain-Python solver (``engine.ai.pysolve``) proves positions
of up to 16 seeds within its budget, the plain-Python search estimates the rest, and
``reduced`` says so.

The classes, by the margin the move gave away (``loss``: value before minus value after, in
seeds of final margin):

====================  ==========  =====================================================
class                 loss        why
====================  ==========  =====================================================
best                  0           it keeps the best value
good                  1 or 2      one seed: the margin moves by two for every seed that
                                  changes hands, so this is the smallest loss there is
                                  in most rules (the two totals add up to all the seeds)
inaccuracy            3 or 4      two seeds: felt in the score, rarely in the result
mistake               5 to 8      three or four seeds: a capture or a store's worth
blunder               9 or more   five seeds or more, a tenth of Kalah(6,4)'s 48
====================  ==========  =====================================================

and, whatever the margin, a move that turns a proven win into a draw or a loss, or a proven
draw into a loss, is a blunder (the result is what a game is played for; a loss of two seeds
from +2 to 0 gives away the game). The thresholds count seeds, not shares of the board, so
that a seed means the same in every rules family; on small boards the result rule is what
catches the decisive errors.

Where positions can repeat (wari, oware, al-manqala, the applet's games), a value rests on the
positions above it on the solver's path; ``tests/engine/test_review.py`` checks every proven value
against plain minimax over the path and the plain-Python solver.

Values are those of best play from each position as if it were new: a repetition of a
position played before it is not seen (the solver's path starts at the position), so in wari
and oware a move that ends the game by repeating an earlier position is valued as if play went
on.
"""

from __future__ import annotations

import enum
import json
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from engine.ai import book, loading, pysolve
from engine.ai.capabilities import kernel_knows
from engine.ai.move_proofs import MoveProver, OutOfBudget, margin_for
from engine.errors import MancalaError, excerpt
from engine.game import Game
from engine.position import Position
from engine.ruleset import Ruleset
from engine.side import SIDES, Side
from engine.translation import _, pgettext

if TYPE_CHECKING:  # numpy and numba load only when the compiled solver is wanted
    from engine.ai.encoding import Endgame
    from engine.ai.search import Searcher


class MoveClass(enum.StrEnum):
    """How good a move was, by the value it gave away (see the module's docstring)."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @property
    def label(self) -> str:
        """The class's name in the current language (its value is what JSON keeps)."""
        return {
            MoveClass.BEST: pgettext("move class", "best"),
            MoveClass.GOOD: pgettext("move class", "good"),
            MoveClass.INACCURACY: pgettext("move class", "inaccuracy"),
            MoveClass.MISTAKE: pgettext("move class", "mistake"),
            MoveClass.BLUNDER: pgettext("move class", "blunder"),
        }[self]


# The largest loss (in seeds of final margin) of each class but the last: see the docstring.
THRESHOLDS: tuple[tuple[int, MoveClass], ...] = (
    (0, MoveClass.BEST),
    (2, MoveClass.GOOD),
    (4, MoveClass.INACCURACY),
    (8, MoveClass.MISTAKE),
)
# The classes a summary lists as mistakes, with the better move.
ERRORS = (MoveClass.INACCURACY, MoveClass.MISTAKE, MoveClass.BLUNDER)


def result_of(margin: int) -> int:
    """1 for a win, 0 for a draw, -1 for a loss: the result a final margin gives."""
    return (margin > 0) - (margin < 0)


def classify(value_before: int, value_after: int, proven: bool) -> MoveClass:
    """The class of a move from the mover's values before and after it.

    >>> classify(6, 6, True), classify(6, 4, True), classify(6, -6, False)
    (<MoveClass.BEST: 'best'>, <MoveClass.GOOD: 'good'>, <MoveClass.BLUNDER: 'blunder'>)
    >>> classify(2, 0, True), classify(2, 0, False)  # a proven win given away as a draw
    (<MoveClass.BLUNDER: 'blunder'>, <MoveClass.GOOD: 'good'>)
    """
    loss = value_before - value_after
    if proven and result_of(value_after) < result_of(value_before):
        return MoveClass.BLUNDER
    for most, kind in THRESHOLDS:
        if loss <= most:
            return kind
    return MoveClass.BLUNDER


@dataclass(frozen=True)
class Budget:
    """What one ply of a review may cost. The node budgets end the work, so a review is the
    same on every machine; ``seconds`` is a safety net for a machine far slower or busier
    than ours (a ply it cuts short is estimated instead, and says so: ``timed_out``)."""

    # The compiled solver's nodes for a ply's proof: about a second in Kalah, 5 s where
    # positions repeat (wari, oware: the path check makes nodes dearer).
    nodes: int = 4_000_000
    seconds: float = 10.0  # the proof's and, separately, the estimate's time limit
    prove_seeds: int = 24  # try to prove from this many seeds left in the pits down
    try_seeds: int = 32  # up to this many, try too, within ``try_nodes``
    try_nodes: int = 1_000_000  # (about half a second) before the ply is estimated
    depth: int = 12  # plies of an estimate (each move is searched this deep from the ply)
    estimate_nodes: int = 300_000  # the compiled search's nodes for each move's estimate
    python_nodes: int = 50_000  # the plain-Python solver's nodes for each move's proof
    python_depth: int = 6  # plies of the plain-Python search's estimate
    python_estimate_nodes: int = 20_000  # its nodes for each move's estimate


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class PlyReview:
    """One move of a game, judged. Values are seeds of final margin for the side that moved
    (``side``), with best play from the position before the move and after it."""

    ply: int  # 1 for the game's first move
    side: Side  # who moved
    move: str  # as the game record writes it
    value_before: int  # the mover's value with best play before the move
    value_after: int  # the same player's value with best play after the move played
    best: tuple[str, ...]  # every move that keeps value_before (in sowing order)
    proven: bool  # both values proven (solver or table); else estimates
    depth: int  # the estimate's depth in plies (0 where proven)
    move_class: MoveClass
    legal: int  # how many moves the mover had
    nodes: int = 0
    seconds: float = 0.0
    reduced: bool = False  # computed in plain Python: the compiled kernel was not used
    timed_out: bool = False  # the clock, not the node budget, ended the proof: not reproducible

    @property
    def loss(self) -> int:
        """What the move gave away: value_before - value_after (0 for a best move)."""
        return self.value_before - self.value_after

    @property
    def forced(self) -> bool:
        """The mover had no other move."""
        return self.legal == 1

    def to_dict(self) -> dict[str, Any]:
        """The ply as JSON-ready data (see ``Review.to_json``)."""
        return {
            "ply": self.ply,
            "side": self.side.value,
            "move": self.move,
            "best": list(self.best),
            "value_before": self.value_before,
            "value_after": self.value_after,
            "loss": self.loss,
            "proven": self.proven,
            "depth": self.depth,
            "class": self.move_class.value,
            "legal": self.legal,
        }


@dataclass(frozen=True)
class PlayerSummary:
    """One player's moves in a review."""

    side: Side
    moves: int  # moves played
    choices: int  # of them, those with more than one legal move
    kept: int  # of those, the ones that kept the best value
    counts: dict[MoveClass, int]  # moves per class
    mistakes: tuple[PlyReview, ...]  # inaccuracies, mistakes and blunders, in order
    turning_point: int | None  # the ply of this player's move that gave the result away

    @property
    def accuracy(self) -> float | None:
        """The share of the moves with a choice that kept the best value (None: no choice)."""
        return self.kept / self.choices if self.choices else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side.value,
            "moves": self.moves,
            "choices": self.choices,
            "accuracy": None if self.accuracy is None else round(self.accuracy, 4),
            "counts": {kind.value: self.counts.get(kind, 0) for kind in MoveClass},
            "mistakes": [
                {
                    "ply": p.ply,
                    "move": p.move,
                    "better": p.best[0],
                    "best": list(p.best),
                    "loss": p.loss,
                    "class": p.move_class.value,
                }
                for p in self.mistakes
            ],
            "turning_point": self.turning_point,
        }


@dataclass(frozen=True)
class Review:
    """A whole game reviewed: each ply, a summary per player and the turning point."""

    rules: Ruleset
    plies: tuple[PlyReview, ...]
    summaries: dict[Side, PlayerSummary] = field(default_factory=dict)
    turning_point: int | None = None  # the ply after which the result was decided

    @property
    def proven(self) -> int:
        """How many plies have proven values."""
        return sum(p.proven for p in self.plies)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": str(self.rules),
            "plies": [p.to_dict() for p in self.plies],
            "summary": {side.value: s.to_dict() for side, s in self.summaries.items()},
            "turning_point": self.turning_point,
        }

    def to_json(self, indent: int | None = None) -> str:
        """The review as JSON: an object with ``rules``, ``plies`` (one object per move:
        ``ply``, ``side``, ``move``, ``best``, ``value_before``, ``value_after``, ``loss``,
        ``proven``, ``depth``, ``class``, ``legal``), ``summary`` (per side: ``accuracy``,
        ``counts``, ``mistakes`` each with its ``better`` move, ``turning_point``) and the
        game's ``turning_point``.

        >>> data = json.loads(review(Game.from_moves("kalah:pits=2,seeds=1", "A"),
        ...                          compiled=False).to_json())
        >>> ply = data["plies"][0]
        >>> ply["move"], ply["best"], ply["value_before"], ply["value_after"], ply["class"]
        ('A', ['B'], 2, -2, 'blunder')
        """
        return json.dumps(self.to_dict(), indent=indent)


Progress = Callable[[int, int], object]


def review(
    game: Game | str | Sequence[str],
    rules: Ruleset | str | None = None,
    *,
    budget: Budget = DEFAULT_BUDGET,
    compiled: bool = True,
    endgame: Endgame | None = None,
    progress: Progress | None = None,
) -> Review:
    """Review every move of ``game``: a ``Game``, or a move list (space-separated, or a
    list) played from the start of ``rules``. ``progress(done, total)`` hears each ply as it
    is reviewed. ``budget``, ``compiled`` and ``endgame`` are as ``review_move``'s.

    The plies are reviewed last first: the solver's table then holds the endings the earlier
    positions lead to (seeds in the pits only ever go), which makes their proofs cheap. Once
    a proof runs out of its budget, the plies before it (as many seeds or more) are estimated
    without trying: one failed proof a review at most.
    """
    if not isinstance(game, Game):
        if rules is None:
            raise ValueError("a move list needs its rules")
        game = Game.from_moves(rules, game)
    positions = game.positions
    total = len(game.moves)
    found: list[PlyReview] = []
    for done, ply in enumerate(range(total, 0, -1), 1):
        position = positions[ply - 1]
        judged = review_move(
            position,
            game.moves[ply - 1],
            budget=budget,
            compiled=compiled,
            endgame=endgame,
            ply=ply,
        )
        found.append(judged)
        budget = budget_before(budget, position, judged)
        if progress is not None:
            progress(done, total)
    return summarise(game.rules, list(reversed(found)))


def budget_before(budget: Budget, position: Position, judged: PlyReview) -> Budget:
    """The budget for the plies before ``judged`` (a review goes last ply first): where its
    proof ran out of budget, the earlier plies hold as many seeds or more (seeds in the pits
    only ever go), so their proofs would too, and they are estimated without trying."""
    seeds = sum(position.pits)
    if not judged.proven and seeds <= max(budget.prove_seeds, budget.try_seeds):
        return replace(budget, prove_seeds=seeds - 1, try_seeds=seeds - 1)
    return budget


def summarise(rules: Ruleset, plies: Sequence[PlyReview]) -> Review:
    """A ``Review`` of these plies (in order): each player's summary and the turning point."""
    summaries = {}
    for side in SIDES:
        mine = [p for p in plies if p.side == side]
        counts: dict[MoveClass, int] = {}
        for p in mine:
            counts[p.move_class] = counts.get(p.move_class, 0) + 1
        choices = [p for p in mine if not p.forced]
        summaries[side] = PlayerSummary(
            side,
            len(mine),
            len(choices),
            sum(p.loss == 0 for p in choices),
            counts,
            tuple(p for p in mine if p.move_class in ERRORS),
            _turning_point(mine),
        )
    return Review(rules, tuple(plies), summaries, _turning_point(plies))


# The layout of ``stored_json``: a reader gives up on any other (a review is then made again).
STORED_FORMAT = 1


def stored_json(review: Review) -> str:
    """The review as a database keeps it (``from_stored_json`` reads it back to an equal
    ``Review``): the rules and every field of every ply, those ``to_json`` leaves out
    (nodes, seconds, reduced, timed_out) included. The summaries and the turning point are
    left out: they are ``summarise``'s of the plies, computed again on reading.

    >>> done = review(Game.from_moves("kalah:pits=3,seeds=2", "B A b"), compiled=False)
    >>> from_stored_json(stored_json(done)) == done
    True
    """
    plies = []
    for ply in review.plies:
        data = {f.name: getattr(ply, f.name) for f in fields(PlyReview)}
        data.update(side=ply.side.value, best=list(ply.best), move_class=ply.move_class.value)
        plies.append(data)
    return json.dumps(
        {"format": STORED_FORMAT, "rules": str(review.rules), "plies": plies},
        separators=(",", ":"),
    )


def from_stored_json(text: str) -> Review:
    """The review ``stored_json`` wrote. ValueError for anything else (another layout, a
    damaged row)."""
    try:
        data = json.loads(text)
        if data["format"] != STORED_FORMAT:
            raise ValueError(f"a stored review of layout {data['format']!r}")
        plies = [
            PlyReview(
                **{
                    **ply,
                    "side": Side(ply["side"]),
                    "best": tuple(ply["best"]),
                    "move_class": MoveClass(ply["move_class"]),
                }
            )
            for ply in data["plies"]
        ]
        return summarise(Ruleset.parse(data["rules"]), plies)
    except (KeyError, TypeError, AttributeError, MancalaError) as err:
        raise ValueError(f"not a stored review: {excerpt(str(err), 80)}") from None


def _turning_point(plies: Sequence[PlyReview]) -> int | None:
    """The last move that changed the result best play leads to (after it the result was
    decided); where none did, the move that gave away the most (None if none gave anything)."""
    changed = [p for p in plies if result_of(p.value_after) != result_of(p.value_before)]
    if changed:
        return changed[-1].ply
    worst = max(plies, key=lambda p: p.loss, default=None)
    return worst.ply if worst is not None and worst.loss > 0 else None


def review_move(
    position: Position,
    move: str,
    budget: Budget = DEFAULT_BUDGET,
    compiled: bool = True,
    endgame: Endgame | None = None,
    ply: int = 1,
) -> PlyReview:
    """Judge ``move`` in ``position``: picklable arguments and result, so the bot can run
    each ply in its AI worker processes. ``ply`` is the number the result carries.
    ``endgame``: (max_seeds, table), an endgame table for these rules (as
    ``engine.ai.choose_move`` takes), whose boards are then proven at once. A process keeps
    the compiled solver's table from one call to the next (for the same rules), so plies of
    one game reviewed in one worker, last first, reuse each other's proofs.
    IllegalMove if ``move`` is not legal there.

    >>> from engine import Ruleset
    >>> start = Position.initial(Ruleset.parse("kalah:pits=3,seeds=2"))
    >>> judged = review_move(start, "A", compiled=False)
    >>> judged.value_before, judged.value_after, judged.best, judged.move_class.value
    (4, -8, ('B',), 'blunder')
    """
    after = position.play(move)  # IllegalMove says why
    played = after.last_move
    assert played is not None
    compiled = compiled and kernel_knows(position.rules)  # else in plain Python (reduced)
    if compiled:
        loading.load_kernel()  # before the clock starts: loading or compiling is not reviewing
    started = time.perf_counter()
    exact: _Values | None = None
    timed_out = False
    nodes = 0
    seeds = sum(position.pits)
    entry = book.lookup(position)
    from_book = entry is not None and played in entry.values
    if entry is not None and from_book:
        # Proven in the opening book: a move it holds no value for is at least not best.
        exact = {move: entry.values.get(move, entry.value - 1) for move in position.legal_moves()}
    elif seeds <= max(budget.prove_seeds, budget.try_seeds):
        if compiled:
            most = budget.nodes if seeds <= budget.prove_seeds else budget.try_nodes
            exact, nodes, timed_out = _prove(position, played, most, budget.seconds, endgame)
        else:
            exact, nodes = _prove_in_python(position, budget)
    depth = 0
    if exact is None:
        if compiled:
            exact, spent, depth = _estimate(position, budget)
        else:
            exact, spent, depth = _estimate_in_python(position, budget)
        nodes += spent
    values, proven = exact, depth == 0
    best_value = max(values.values())
    before, value_after = best_value, values[played]
    best = tuple(m for m in position.legal_moves() if values[m] == best_value)
    return PlyReview(
        ply=ply,
        side=position.to_move,
        move=played,
        value_before=before,
        value_after=value_after,
        best=best,
        proven=proven,
        depth=depth,
        move_class=classify(before, value_after, proven),
        legal=len(values),
        nodes=nodes,
        seconds=time.perf_counter() - started,
        reduced=not compiled and not from_book,
        timed_out=timed_out,
    )


# Each legal move -> its value for the mover. A proof fills in exact values for every move
# that keeps the best value and for the move played, and for the others an upper bound below
# the best (enough to say they are not best, and never the move played).
_Values = dict[str, int]


def _prove_in_python(position: Position, budget: Budget) -> tuple[_Values | None, int]:
    """Every move's exact value by the plain-Python solver, or None where a proof needs more
    than its budget (or the board holds more than pysolve.QUICK_SEEDS seeds)."""
    if sum(position.pits) > pysolve.QUICK_SEEDS:
        return None, 0
    values: _Values = {}
    nodes = 0
    for move in position.legal_moves():
        child = position.play(move)
        if child.is_over():
            values[move] = margin_for(child, position.mover)
            continue
        solved = pysolve.solve(child, node_limit=budget.python_nodes, time_limit=budget.seconds)
        nodes += solved.nodes
        if not solved.complete:
            return None, nodes
        value = int(solved.value)
        values[move] = value if child.mover == position.mover else -value
    return values, nodes


def _estimate_in_python(position: Position, budget: Budget) -> tuple[_Values, int, int]:
    """Every move's value by the plain-Python search, ``python_depth`` plies from the ply."""
    from engine.ai.pysearch import search  # loads numba (not its compiler): only when wanted

    def one(child: Position) -> tuple[float, int, int]:
        found = search(
            child,
            budget.python_depth - 1,
            budget.python_estimate_nodes,
            budget.seconds / max(len(position.legal_moves()), 1),
        )
        return found.value, found.depth, found.nodes

    return _estimated(position, one, budget.python_depth)


def _estimated(
    position: Position, search: Callable[[Position], tuple[float, int, int]], depth: int
) -> tuple[_Values, int, int]:
    """Every move's value for the mover, searching each child with ``search`` (value, depth,
    nodes); the depth of the shallowest, counted from the ply."""
    values: _Values = {}
    nodes = 0
    reached = depth
    for move in position.legal_moves():
        child = position.play(move)
        if child.is_over():
            values[move] = margin_for(child, position.mover)
            continue
        value, searched, spent = search(child)
        nodes += spent
        reached = min(reached, searched + 1)
        values[move] = round(value if child.mover == position.mover else -value)
    return values, nodes, max(reached, 1)


# The compiled solver, kept between calls: (rules, table seeds) -> searcher. One at a time: its
# transposition table is 2**TT_BITS entries of 16 bytes (64 MB).
TT_BITS = 22
_searchers: dict[tuple[Ruleset, int], Searcher] = {}


def _searcher(rules: Ruleset, endgame: Endgame | None) -> Searcher:
    # numba loads only when the compiled solver is wanted
    from engine.ai.search import Searcher

    key = (rules, endgame[0] if endgame is not None else 0)
    found = _searchers.get(key)
    if found is None:
        _searchers.clear()
        found = Searcher(rules, TT_BITS)
        if endgame is not None:
            found.use_endgame_table(*endgame)
        _searchers[key] = found
    return found


def forget() -> None:
    """Drop the solver's table this process keeps between calls (64 MB)."""
    _searchers.clear()


def _prove(
    position: Position, played: str, most: int, seconds: float, endgame: Endgame | None
) -> tuple[_Values | None, int, bool]:
    """The compiled solver's values for the moves of ``position`` (see ``_Values``), the
    nodes spent, and whether the clock stopped it; None where the budget ran out."""
    # numba loads only when the compiled solver is wanted
    from engine.ai.search import deadline
    from engine.ai.search_kernel import ABORTED, NODES, STOP, TRUNCATED

    searcher = _searcher(position.rules, endgame)
    stats = searcher.stats
    start = int(stats[NODES])
    values: _Values | None
    with deadline(stats, seconds):
        try:
            values = MoveProver(searcher, start + most).values(position, played)
        except OutOfBudget:
            values = None
        timed_out = bool(stats[STOP])
    spent = int(stats[NODES]) - start
    stats[ABORTED] = 0
    if stats[TRUNCATED]:
        # A line cut at the kernel's longest ply left a guess in the table as if proven: no
        # later proof from this table could be trusted.
        forget()
        values = None
    return values, spent, timed_out


def _estimate(position: Position, budget: Budget) -> tuple[_Values, int, int]:
    """Every move's value by the compiled search, ``budget.depth`` plies from the ply."""
    # numba loads only when the compiled solver is wanted
    from engine.ai.search import iterate

    searcher = _searcher(position.rules, None)

    def one(child: Position) -> tuple[float, int, int]:
        found = iterate(
            child,
            budget.depth - 1,
            budget.estimate_nodes,
            budget.seconds / max(len(position.legal_moves()), 1),
            searcher=searcher,
        )
        return found.value, found.depth, found.nodes

    return _estimated(position, one, budget.depth)


# -- game records ----------------------------------------------------------------------------

_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
MAX_RECORD = 200_000  # characters of a record: far more than any game's


class RecordError(MancalaError):
    """A game record could not be read; the message says what was wrong."""


def game_from_record(text: str) -> Game:
    """Replay a game record as ``/mancala history`` exports it: tag lines such as
    ``[Rules "wari"]`` and ``[First "north"]``, then the moves, space-separated.

    >>> record = '[Game "7"]\\n[Rules "kalah:pits=3,seeds=2"]\\n[First "south"]\\n\\nC a b\\n'
    >>> game_from_record(record).moves
    ['C', 'a', 'b']
    """
    if len(text) > MAX_RECORD:
        raise RecordError(
            _("a game record has at most {limit:,} characters").format(limit=MAX_RECORD)
        )
    tags: dict[str, str] = {}
    moves: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("["):
            match = _TAG.match(line)
            if match is None:
                raise RecordError(
                    # TRANSLATORS: keep [Rules "wari"] as it is: it is how a record is written
                    _("line {line}: '{text}' is not a tag like [Rules \"wari\"]").format(
                        line=number, text=excerpt(line)
                    )
                )
            tags[match.group(1).lower()] = match.group(2)
        else:
            moves.extend(line.split())
    if "rules" not in tags:
        # TRANSLATORS: keep [Rules "kalah"] as it is: it is how a record is written
        raise RecordError(_('a game record names its rules in a tag: [Rules "kalah"]'))
    first = tags.get("first") or None
    if first is not None and first not in SIDES:
        raise RecordError(
            # TRANSLATORS: First is a tag of a record; south and north its values: keep them
            _("the First tag is south or north, not '{value}'").format(value=excerpt(first))
        )
    return Game.from_moves(tags["rules"], _played(moves), first=first)


def _played(words: Iterable[str]) -> list[str]:
    """The moves of a record's body (a result such as ``*`` at the end is not a move)."""
    return [word for word in words if word not in ("*", "1-0", "0-1", "1/2-1/2")]


__all__ = [
    "DEFAULT_BUDGET",
    "Budget",
    "MoveClass",
    "PlayerSummary",
    "PlyReview",
    "RecordError",
    "Review",
    "THRESHOLDS",
    "classify",
    "forget",
    "game_from_record",
    "result_of",
    "review",
    "review_move",
    "summarise",
]
