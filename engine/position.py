"""The position type: pits, stores, the player to move, and the verbs of play.

>>> from engine import Ruleset, Position
>>> pos = Position.initial(Ruleset.parse("wari"))
>>> pos.legal_moves()
['A', 'B', 'C', 'D', 'E', 'F']
>>> after = pos.play("E")
>>> after.pits
(4, 4, 4, 4, 0, 5, 5, 5, 5, 4, 4, 4)
>>> after.to_move, after.last_move
(<Side.NORTH: 'north'>, 'E')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from engine.errors import IllegalMove, excerpt
from engine.inputs import normalise
from engine.outcome import Outcome, Termination
from engine.ruleset import Ruleset
from engine.side import SIDES, Side
from engine.sowing import CCW, CW, NO_TUZDYKS, Tuzdyks, apply_move
from engine.translation import _, side_name

Move = tuple[int, int]  # (pit index 0..2n-1, direction CCW or CW)
Board = tuple[int, ...]  # the 2n pits, then South's store, then North's
Key = tuple[Board, int, Tuzdyks]  # what makes a position the same for repetition
# Terminations that name a side: a finished position keeps that side as the one to move.
_NAMES_THE_MOVER = (
    Termination.NO_MOVE,
    Termination.CANNOT_FEED,
    Termination.RESIGNATION,
    Termination.TIME,
)
MAX_MOVE = 40  # characters of a move as typed: a letter, a direction, a little space


def move_name(rules: Ruleset, move: Move) -> str:
    """The letter of a move: South's pits uppercase, North's lowercase, '<' for clockwise."""
    pit, direction = move
    n = rules.pits
    letter = rules.letters[pit] if pit < n else rules.letters[pit - n].lower()
    return letter + ("<" if direction == CW else "")


@lru_cache(maxsize=256)
def _move_lookup(rules: Ruleset) -> tuple[dict[str, Move], dict[str, Move]]:
    """For each mover, every accepted spelling of a move -> (pit, direction)."""
    n = rules.pits
    lookups: tuple[dict[str, Move], dict[str, Move]] = ({}, {})
    for mover in (0, 1):
        for i, letter in enumerate(rules.letters):
            for suffix, direction in (("", CCW), (">", CCW), ("<", CW)):
                if direction == CW and rules.direction != "choice":
                    continue
                if rules.choose == "own":
                    own = i + (n if mover else 0)
                    lookups[mover][letter + suffix] = (own, direction)
                    lookups[mover][letter.lower() + suffix] = (own, direction)
                else:
                    lookups[mover][letter + suffix] = (i, direction)
                    lookups[mover][letter.lower() + suffix] = (i + n, direction)
    return lookups


class Position:
    """An immutable position. Build one with ``initial``, ``play`` or ``parse_position``.

    ``pits`` runs counter-clockwise from South's A: A..F, then a..f. ``stores`` is
    (south, north): store contents, or captured seeds where the ruleset has no stores.
    A finished position has already been settled by the ruleset's end rules, so its stores are
    the final totals (``outcome()`` gives the result).
    """

    __slots__ = ("rules", "_board", "_mover", "last_move", "_end", "_legal", "_hash", "_tuzdyks")

    def __init__(
        self,
        rules: Ruleset,
        board: Board,
        mover: int,
        last_move: str | None = None,
        end: Termination | None = None,
        legal: tuple[Move, ...] | None = None,
        tuzdyks: Tuzdyks = NO_TUZDYKS,
    ) -> None:
        self.rules = rules
        self._board = board
        self._mover = mover
        self.last_move = last_move
        self._end = end
        self._legal = legal
        self._hash: int | None = None
        self._tuzdyks = tuzdyks

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def initial(
        cls, rules: Ruleset, first: Side | str | None = None, rng: random.Random | None = None
    ) -> Position:
        """The starting position. ``first`` (a side, or "random") overrides the ruleset;
        ``first=random`` flips a coin (with ``rng`` if given, for replayable games)."""
        first = first or rules.first
        if first == "random":
            first = (rng or random).choice(SIDES)
        if first not in SIDES:
            raise ValueError(f"first must be south, north or random, not '{excerpt(first)}'")
        board = (rules.seeds,) * (2 * rules.pits) + (0, 0)
        return cls.settled(rules, board, Side(first).row)

    @classmethod
    def settled(
        cls,
        rules: Ruleset,
        board: Board,
        mover: int,
        last_move: str | None = None,
        grand_slam_by: int | None = None,
        tuzdyks: Tuzdyks = NO_TUZDYKS,
    ) -> Position:
        """A position with the end rules applied: if the game is over, the board is swept.

        ``grand_slam_by`` names the player whose move was a grand slam under take_all;
        ``tuzdyks`` the (South's, North's) tuzdyk pits, where the ruleset has them."""
        n = rules.pits
        if (
            rules.leftover == "no_move"
            and rules.choose == "own"
            and grand_slam_by is None
            and not any(board[mover * n : mover * n + n])
        ):
            # Togyz Kumalak's atsyrau comes first, a majority or not: the player to move has
            # no stone, and the stones left go to their owner (PlayStrategy and the
            # world-champion program's author count them so).
            stuck, swept = _no_move_end(rules, board, mover)
            return cls(rules, swept, mover, last_move, stuck, (), tuzdyks)
        end, board = _settle(rules, board, grand_slam_by)
        pos = cls(rules, board, mover, last_move, end, None, tuzdyks)
        if end is None:
            pos._legal = _legal_moves(rules, board, mover, tuzdyks)
            if not pos._legal:  # the player to move has no move at all
                end, board = _no_move_end(rules, board, mover)
                pos = cls(rules, board, mover, last_move, end, (), tuzdyks)
        return pos

    # -- what it is ---------------------------------------------------------------------------

    @property
    def pits(self) -> tuple[int, ...]:
        return self._board[: 2 * self.rules.pits]

    @property
    def stores(self) -> tuple[int, int]:
        return self._board[-2], self._board[-1]

    @property
    def to_move(self) -> Side:
        return SIDES[self._mover]

    @property
    def board(self) -> tuple[int, ...]:
        """pits + stores as one tuple of 2n+2 counts (the layout the search uses)."""
        return self._board

    @property
    def mover(self) -> int:
        """0 for South, 1 for North."""
        return self._mover

    @property
    def tuzdyks(self) -> Tuzdyks:
        """(South's tuzdyk, North's): the pit index each has made theirs, or None (Togyz
        Kumalak; always (None, None) where the ruleset has no tuzdyks)."""
        return self._tuzdyks

    def key(self) -> Key:
        """What makes a position the same for repetition: pits, stores, player to move and
        the tuzdyks."""
        return self._board, self._mover, self._tuzdyks

    def _identity(self) -> tuple[Ruleset, Board, int | None, Tuzdyks]:
        # Once the game is over nobody is to move, so the mover no longer tells positions apart.
        return self.rules, self._board, None if self._end else self._mover, self._tuzdyks

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and self._identity() == other._identity()

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._identity())
        return self._hash

    def __repr__(self) -> str:
        tuzdyks = f", tuzdyks={self._tuzdyks}" if self._tuzdyks != NO_TUZDYKS else ""
        return (
            f"Position({str(self.rules)!r}, pits={self.pits}, stores={self.stores}, "
            f"to_move={self.to_move.value!r}{tuzdyks})"
        )

    # -- verbs --------------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self._end is not None

    def outcome(self) -> Outcome | None:
        """The result once the game is over (None while it goes on)."""
        if self._end is None:
            return None
        by = self.to_move if self._end in _NAMES_THE_MOVER else None
        return Outcome.of(self._end, self.stores, by=by, cycle=self.rules.cycle)

    def finished(self, termination: Termination) -> Position:
        """This board as the end of the game, for ``termination`` (a repetition or an agreed
        end: the caller settles the board first, see ``settle_by_cycle``)."""
        return Position(
            self.rules, self._board, self._mover, self.last_move, termination, (), self._tuzdyks
        )

    def legal_moves(self) -> list[str]:
        """The moves allowed now, in sowing order (the pit farthest from the mover's store
        first); empty exactly when the game is over."""
        return [move_name(self.rules, m) for m in self._legal or ()]

    def parse_move(self, text: str) -> Move:
        """Read a move written as a pit letter (``E``, ``e``, ``E<`` for clockwise where the
        ruleset lets the mover choose); raise IllegalMove saying what is accepted."""
        if not isinstance(text, str):
            raise IllegalMove(_("a move is a pit letter, not {text}").format(text=excerpt(text)))
        spelled = text[:MAX_MOVE].strip()
        move = _move_lookup(self.rules)[self._mover].get(spelled)
        if move is None and len(text) <= MAX_MOVE:  # full-width letters, a typographic '<'
            move = _move_lookup(self.rules)[self._mover].get(normalise(spelled).strip())
        if move is None:
            letters = self.rules.letters
            first, last = letters[0], letters[-1]
            hint = (
                _("a pit letter {first}-{last}").format(first=first, last=last)
                if self.rules.choose == "own"
                else _(
                    "a pit letter: {first}-{last} for South's row, "
                    "{north_first}-{north_last} for North's"
                ).format(first=first, last=last, north_first=first.lower(), north_last=last.lower())
            )
            if self.rules.direction == "choice":
                hint = _(
                    "{hint}, optionally followed by > (counter-clockwise) or < (clockwise)"
                ).format(hint=hint)
            raise IllegalMove(
                _("'{text}' is not a move; a move is {hint}").format(
                    text=excerpt(text, 20), hint=hint
                )
            )
        return move

    def play(self, move: str) -> Position:
        """The position after ``move``; raise IllegalMove with the reason if it is not allowed."""
        outcome = self.outcome()
        if outcome is not None:
            raise IllegalMove(
                _("the game is over ({reason}); no more moves").format(reason=outcome.reason)
            )
        parsed = self.parse_move(move)
        if parsed not in (self._legal or ()):
            raise IllegalMove(self._why_illegal(parsed))
        return self._play(parsed)

    def _play(self, move: Move) -> Position:
        rules = self.rules
        pit, direction = move
        result = apply_move(rules, self._board, self._mover, pit, direction, self._tuzdyks)
        n2 = 2 * rules.pits
        mover = self._mover
        if not (rules.replay and result.last == n2 + mover):
            mover = 1 - mover
        slam_by = self._mover if result.slam and rules.grand_slam == "take_all" else None
        return Position.settled(
            rules, tuple(result.board), mover, move_name(rules, move), slam_by, result.tuzdyks
        )

    def _why_illegal(self, move: Move) -> str:
        rules = self.rules
        n = rules.pits
        pit = move[0]
        name = move_name(rules, move)
        legal = ", ".join(self.legal_moves())
        if rules.choose == "own" and pit // n != self._mover:
            # TRANSLATORS: {side} is South or North, the player to move
            return _("{move} is not {side}'s pit; legal moves: {legal}").format(
                move=name, side=side_name(self.to_move), legal=legal
            )
        if pit in self._tuzdyks:
            owner = SIDES[self._tuzdyks.index(pit)]
            # TRANSLATORS: {side} is South or North; a tuzdyk is a pit captured for good
            return _("{move} is {side}'s tuzdyk: nobody sows from it; legal moves: {legal}").format(
                move=name, side=side_name(owner), legal=legal
            )
        if self._board[pit] == 0:
            return _("pit {move} is empty; legal moves: {legal}").format(move=name, legal=legal)
        opp_lo = n if self._mover == 0 else 0
        if rules.must_feed != "off" and not any(self._board[opp_lo : opp_lo + n]):
            # TRANSLATORS: "must_feed={value}" is the rule as a ruleset writes it: keep it
            return _(
                "{move} does not feed the opponent, whose row is empty "
                "(must_feed={value}); legal moves: {legal}"
            ).format(move=name, value=rules.must_feed, legal=legal)
        if rules.grand_slam == "forbidden":
            return _(
                "{move} would capture all the opponent's seeds (grand slam); legal: {legal}"
            ).format(move=name, legal=legal)
        return _("{move} is not allowed here; legal moves: {legal}").format(move=name, legal=legal)


def tuzdyk_problem(rules: Ruleset, tuzdyks: Tuzdyks) -> str | None:
    """What is wrong with ``tuzdyks`` (South's, North's) as written for ``rules``, or None: a
    tuzdyk lies in the opponent's row, never in its last pit, and the two never share a
    number; rulesets without the tuzdyk rule have none. For the readers of written positions
    (play only ever makes allowed ones)."""
    if tuzdyks == NO_TUZDYKS:
        return None
    if not rules.tuzdyk:
        return _("{rules} has no tuzdyks (tuzdyk=no)").format(rules=rules.name)
    n = rules.pits
    for owner, pit in enumerate(tuzdyks):
        if pit is None:
            continue
        mine, theirs = side_name(SIDES[owner]), side_name(SIDES[1 - owner])
        if not 0 <= pit < 2 * n or pit // n == owner:
            # TRANSLATORS: {side} and {other} are South and North
            return _("{side}'s tuzdyk must be a pit of {other}'s row").format(
                side=mine, other=theirs
            )
        if pit % n == n - 1:
            # TRANSLATORS: {side} and {other} are South and North
            return _("{side}'s tuzdyk cannot be {other}'s last pit").format(side=mine, other=theirs)
    south, north = tuzdyks
    if south is not None and north is not None and south % n == north % n:
        return _("the two tuzdyks cannot be pits of the same number")
    return None


def _candidates(rules: Ruleset, board: Board, mover: int) -> list[Move]:
    n = rules.pits
    pits: Sequence[int]
    if rules.choose == "own":
        pits = range(mover * n, mover * n + n)
    else:  # own row first, then the opponent's, each in sowing order
        pits = [*range(mover * n, mover * n + n), *range((1 - mover) * n, (1 - mover) * n + n)]
    directions = (CCW, CW) if rules.direction == "choice" else (CCW,)
    return [(p, d) for p in pits if board[p] for d in directions]


def _legal_moves(
    rules: Ruleset, board: Board, mover: int, tuzdyks: Tuzdyks = NO_TUZDYKS
) -> tuple[Move, ...]:
    moves = _candidates(rules, board, mover)  # a tuzdyk holds nothing: never a move
    n = rules.pits
    opp_lo = n if mover == 0 else 0
    if rules.must_feed != "off" and moves and not any(board[opp_lo : opp_lo + n]):
        if rules.must_feed == "reach":
            moves = [m for m in moves if apply_move(rules, board, mover, *m, tuzdyks).reached]
        else:
            moves = [
                m
                for m in moves
                if any(apply_move(rules, board, mover, *m, tuzdyks).board[opp_lo : opp_lo + n])
            ]
    if rules.grand_slam == "forbidden" and rules.captures and moves:
        fair = [m for m in moves if not apply_move(rules, board, mover, *m, tuzdyks).slam]
        moves = fair or moves  # every move a grand slam: they are played capturing nothing
    return tuple(moves)


def _settle(
    rules: Ruleset, board: Board, grand_slam_by: int | None
) -> tuple[Termination | None, Board]:
    """Apply the end rules that follow a move; return (why it ended or None, board)."""
    n = rules.pits
    n2 = 2 * n
    if grand_slam_by is not None:  # 003: game over, and the mover gets all remaining stones
        return Termination.GRAND_SLAM, _sweep(board, n, taker_of_everything=grand_slam_by)
    if rules.majority and max(board[n2], board[n2 + 1]) * 2 > rules.total_seeds:
        return Termination.MAJORITY, _sweep_leftover(rules, board)
    south_empty = not any(board[:n])
    north_empty = not any(board[n:n2])
    if rules.end == "either_empty" and (south_empty or north_empty):
        return Termination.ROW_EMPTY, _sweep_leftover(rules, board)
    if rules.end == "all_empty" and south_empty and north_empty:
        return Termination.ALL_EMPTY, board
    return None, board


def _no_move_end(rules: Ruleset, board: Board, mover: int) -> tuple[Termination, Board]:
    """The player to move has no legal move: a failure to feed, or an empty row."""
    n = rules.pits
    opp_lo = n if mover == 0 else 0
    own_lo = mover * n
    if (
        rules.must_feed != "off"
        and not any(board[opp_lo : opp_lo + n])
        and any(board[own_lo : own_lo + n])
    ):
        policy = rules.cannot_feed
        if policy == "owners":
            return Termination.CANNOT_FEED, _sweep(board, n)
        taker = mover if policy == "mover" else 1 - mover
        return Termination.CANNOT_FEED, _sweep(board, n, taker_of_everything=taker)
    # leftover=no_move (Togyz Kumalak's atsyrau): the seeds left go to the owner of their row
    # here, and only here.
    return Termination.NO_MOVE, _sweep(board, n) if rules.leftover != "none" else board


def _sweep_leftover(rules: Ruleset, board: Board) -> Board:
    """The seeds left at an end other than a player's having no move: to the row's owner under
    leftover=owner; they stay on the board otherwise (uncounted, as the totals are final)."""
    return _sweep(board, rules.pits) if rules.leftover == "owner" else board


def _sweep(board: Board, n: int, taker_of_everything: int | None = None) -> Board:
    """Empty the pits into the stores: each row to its owner, or everything to one player."""
    south, north = sum(board[:n]), sum(board[n : 2 * n])
    stores = [board[2 * n], board[2 * n + 1]]
    if taker_of_everything is None:
        stores[0] += south
        stores[1] += north
    else:
        stores[taker_of_everything] += south + north
    return (0,) * (2 * n) + tuple(stores)


def settle_by_cycle(rules: Ruleset, board: Board) -> Board:
    """The board after a repetition or an agreed end, by the ruleset's ``cycle`` policy."""
    n = rules.pits
    if rules.cycle == "owners":
        return _sweep(board, n)
    if rules.cycle == "split":
        left = sum(board[: 2 * n])
        half = left // 2
        # An odd seed stays unclaimed on the board: keep it in the first non-empty pit.
        odd = [0] * (2 * n)
        if left % 2:
            odd[next(i for i in range(2 * n) if board[i])] = 1
        return tuple(odd) + (board[2 * n] + half, board[2 * n + 1] + half)
    return board  # draw: nothing moves, and the result is a draw whatever the counts
