"""Tournament pairings and standings, as pure functions: no I/O, no clock, no randomness (the
same history gives the same pairings in every process). docs/tournaments.md says the rules
for players; ``bot.service.tournaments`` stores what these functions decide.

Players are numbers (their database ids) with a rating (``Entrant``); a tournament's history
is its ``Match``es, one per board of each round: a game (``south`` against ``north``), a bye
(``north`` is None) or a forfeit (a game not played because a player withdrew), each with its
``PairingResult`` once known.

- ``swiss_round``: the next round of a Swiss, by score then rating, in the manner of FIDE's
  Dutch system: within a score group the top half meets the bottom half, an odd player
  floats down to the next group; nobody meets anyone twice; sides kept within one of even
  (relaxed to two, never three in a row, only when one cannot be kept); an odd player out
  gets a bye, the lowest-ranked who has not had one.
- ``berger_rounds`` and ``round_robin``: FIDE's Berger tables, once or twice round with the
  sides swapped the second time.
- ``arena_pairs``: whoever is free, paired at once by arena points, never with the opponent
  they just played (unless only two are left in the arena).
- ``standings``: points, then Buchholz, then Sonneborn-Berger, then rating; ``arena_points``
  scores an arena (2 a win, 1 a draw, doubled on a streak).

A Swiss's first round: the top half of the field against the bottom half, the sides
alternating from board to board:

>>> field = [Entrant(n, rating) for n, rating in enumerate([1700, 1650, 1600, 1550], 1)]
>>> [(m.south, m.north) for m in swiss_round(field, [], 1).matches]
[(1, 3), (4, 2)]

Four players all round (Berger's table: number 4 is fixed, the others turn round it):

>>> berger_rounds(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]

The standings of a small round robin (1 beat 2 and 3 and lost to 4; 2 beat 3 and 4; 3 and 4
drew), worked by hand in docs/tournaments.md:

>>> games = [Match(1, 1, 2, result=SOUTH), Match(1, 3, 4, result=DRAW),
...          Match(2, 1, 3, result=SOUTH), Match(2, 2, 4, result=SOUTH),
...          Match(3, 4, 1, result=SOUTH), Match(3, 2, 3, result=SOUTH)]
>>> for row in standings(field, games):
...     print(row.rank, row.player, row.points, row.buchholz, row.sonneborn_berger)
1 1 2.0 4.0 2.5
2 2 2.0 4.0 2.0
3 4 1.5 4.5 2.25
4 3 0.5 5.5 0.75
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from engine import Side
from storage.records import PairingKind, PairingResult

SOUTH, NORTH, DRAW, NONE = (
    PairingResult.SOUTH,
    PairingResult.NORTH,
    PairingResult.DRAW,
    PairingResult.NONE,
)
STEP_BUDGET = 50_000  # pairings tried per level of a Swiss round before relaxing a rule
SIDE_LIMITS: tuple[tuple[int | None, bool], ...] = ((1, False), (2, False), (None, False))
"""A Swiss round's levels, tried in turn: the bound on a player's souths minus norths (None:
no bound) and whether a rematch is allowed. The last resort, a rematch, comes after these."""


@dataclass(frozen=True)
class Entrant:
    """A player in a tournament: their id and the rating they are ranked by."""

    id: int
    rating: float = 1500.0


@dataclass(frozen=True)
class Match:
    """One board of round ``round``: ``south`` against ``north`` (None: ``south`` has a bye),
    and its result once known (a bye's and a forfeit's at once)."""

    round: int
    south: int
    north: int | None = None
    kind: PairingKind = PairingKind.GAME
    result: PairingResult | None = None

    @property
    def players(self) -> tuple[int, ...]:
        return (self.south,) if self.north is None else (self.south, self.north)

    def opponent(self, player: int) -> int | None:
        """The other player (None for a bye)."""
        return self.north if player == self.south else self.south

    def side_of(self, player: int) -> Side:
        return Side.SOUTH if player == self.south else Side.NORTH

    def points(self, player: int) -> float | None:
        """What ``player`` scored here (1 a win, a bye or a forfeit win; 0.5 a draw; 0 a loss),
        None while the game is going on.

        >>> Match(1, 7, None, PairingKind.BYE, SOUTH).points(7)
        1.0
        >>> Match(2, 7, 8, result=DRAW).points(8), Match(2, 7, 8).points(8)
        (0.5, None)
        """
        if self.result is None:
            return None
        if self.result is DRAW:
            return 0.5
        if self.result is NONE:
            return 0.0
        return 1.0 if self.result.value == self.side_of(player).value else 0.0


@dataclass(frozen=True)
class SwissRound:
    """A Swiss round's pairings (the bye last), and what it had to give up: ``sides_within``
    is the bound on each player's souths minus norths it kept (1; 2 when 1 could not be kept,
    never three in a row on one side then; None when not even that could be), ``rematch``
    is True when no pairing without one was left (docs/tournaments.md)."""

    matches: tuple[Match, ...]
    sides_within: int | None = 1
    rematch: bool = False


class _OutOfSteps(Exception):
    """A level's search tried its ``STEP_BUDGET``: the next level is tried."""


def _history_by_player(history: Iterable[Match]) -> dict[int, list[Match]]:
    mine: dict[int, list[Match]] = defaultdict(list)
    for match in sorted(history, key=lambda m: m.round):
        for player in match.players:
            mine[player].append(match)
    return mine


class _Swiss:
    """The state a Swiss round is paired from: scores, who met whom, sides, byes."""

    def __init__(self, entrants: Sequence[Entrant], history: Sequence[Match]):
        mine = _history_by_player(history)
        self.rating = {e.id: e.rating for e in entrants}
        self.score = {
            e.id: sum(m.points(e.id) or 0.0 for m in mine.get(e.id, ())) for e in entrants
        }
        self.met: dict[int, set[int]] = {e.id: set() for e in entrants}
        self.sides: dict[int, list[Side]] = {e.id: [] for e in entrants}
        self.byes = set()
        for e in entrants:
            for m in mine.get(e.id, ()):
                if m.kind is PairingKind.BYE:
                    self.byes.add(e.id)
                other = m.opponent(e.id)
                if other is not None:
                    self.met[e.id].add(other)
                if m.kind is PairingKind.GAME:
                    self.sides[e.id].append(m.side_of(e.id))
        self.diff = {
            p: sum(1 if s is Side.SOUTH else -1 for s in sides) for p, sides in self.sides.items()
        }
        self.ranked = sorted(self.rating, key=lambda p: (-self.score[p], -self.rating[p], p))

    def allowed(self, player: int, side: Side, limit: int | None) -> bool:
        """Whether ``player`` may play ``side`` under the level's bound."""
        if limit is None:
            return True
        after = self.diff[player] + (1 if side is Side.SOUTH else -1)
        last = self.sides[player][-2:]
        return abs(after) <= limit and not (len(last) == 2 and last[0] is last[1] is side)

    def preference(self, player: int) -> tuple[Side | None, float]:
        """The side ``player`` would rather play and how much: the side they played less
        (by the difference), else the other of their last (0.5), else none (0)."""
        diff = self.diff[player]
        if diff:
            return (Side.NORTH if diff > 0 else Side.SOUTH), abs(diff)
        if self.sides[player]:
            return self.sides[player][-1].other, 0.5
        return None, 0.0

    def seat(self, p: int, q: int, limit: int | None, board: int) -> tuple[int, int] | None:
        """(south, north) for ``p`` (the higher-ranked) and ``q``, or None if the level's
        bound lets neither way round. Each gets the side they prefer; when both prefer the
        same, the stronger preference wins, then the higher rank; with no preference at all
        (a first round), the higher-ranked player is South on odd boards, North on even."""
        ways = [
            (s, n)
            for s, n in ((p, q), (q, p))
            if self.allowed(s, Side.SOUTH, limit) and self.allowed(n, Side.NORTH, limit)
        ]
        if len(ways) < 2:
            return ways[0] if ways else None
        (p_side, p_strength), (q_side, q_strength) = self.preference(p), self.preference(q)
        if p_side is None and q_side is None:
            p_south = board % 2 == 1
        elif p_side is None:
            p_south = q_side is Side.NORTH
        elif q_side is None or p_side is not q_side or p_strength >= q_strength:
            p_south = p_side is Side.SOUTH
        else:
            p_south = q_side is Side.NORTH
        return (p, q) if p_south else (q, p)

    def feasible_by_sides(self, players: Sequence[int], limit: int | None) -> bool:
        """A quick necessary condition: those who must play North can each meet someone who
        may play South, and the other way round."""
        if limit is None:
            return True
        south_only = north_only = either = 0
        for p in players:
            s, n = self.allowed(p, Side.SOUTH, limit), self.allowed(p, Side.NORTH, limit)
            if not (s or n):
                return False
            if s and n:
                either += 1
            elif s:
                south_only += 1
            else:
                north_only += 1
        return abs(south_only - north_only) <= either

    def candidates(self, p: int, rest: Sequence[int]) -> Iterator[int]:
        """``p``'s opponents in the order a Dutch pairing prefers them: in ``p``'s score
        group the one half a group below ``p`` first, then those after, then those before;
        then the lower groups in rank order."""
        same = [q for q in rest if self.score[q] == self.score[p]]
        ideal = (len(same) + 1) // 2 - 1 if same else 0
        yield from same[ideal:]
        yield from reversed(same[:ideal])
        yield from (q for q in rest if self.score[q] != self.score[p])

    def pair(
        self,
        players: Sequence[int],
        limit: int | None,
        rematch: bool,
        failed: set[frozenset[int]],
        steps: list[int],
    ) -> list[tuple[int, int]] | None:
        """(south, north) pairs for ``players`` (in rank order), or None if the level allows
        none. Depth first, the top-ranked player's best opponent first; a set of players
        found unpairable is remembered in ``failed``."""
        total = len(players)

        def solve(remaining: tuple[int, ...]) -> list[tuple[int, int]] | None:
            if not remaining:
                return []
            key = frozenset(remaining)
            if key in failed:
                return None
            p, rest = remaining[0], remaining[1:]
            board = (total - len(remaining)) // 2 + 1
            candidates = list(self.candidates(p, rest))
            if rematch:  # a rematch only where nobody new is left for p
                candidates.sort(key=lambda q: q in self.met[p])
            for q in candidates:
                steps[0] -= 1
                if steps[0] < 0:
                    raise _OutOfSteps
                if not rematch and q in self.met[p]:
                    continue
                seats = self.seat(p, q, limit, board)
                if seats is None:
                    continue
                others = solve(tuple(x for x in rest if x != q))
                if others is not None:
                    return [seats, *others]
            failed.add(key)
            return None

        if not self.feasible_by_sides(players, limit):
            return None
        return solve(tuple(players))


def swiss_round(entrants: Sequence[Entrant], history: Sequence[Match], round_no: int) -> SwissRound:
    """The pairings of Swiss round ``round_no`` for ``entrants`` (the players still in) after
    ``history`` (every match so far, withdrawn players' too).

    The rules, in the order they give way (docs/tournaments.md): nobody meets anyone twice;
    a bye at most once per player, to the lowest-ranked who has not had one; each player's
    souths and norths within one of each other (then within two, never three in a row on one
    side, then unbounded); then score groups, the top half of each against its bottom half.
    A rematch happens only when no pairing without one exists (with at least twice as many
    players as rounds, one always does).

    >>> field = [Entrant(n) for n in range(1, 6)]
    >>> first = swiss_round(field, [], 1)
    >>> [(m.south, m.north, m.kind.value) for m in first.matches]
    [(1, 3, 'game'), (4, 2, 'game'), (5, None, 'bye')]
    """
    state = _Swiss(entrants, history)
    ranked = state.ranked
    odd = len(ranked) % 2 == 1
    levels: list[tuple[int | None, bool]] = [*SIDE_LIMITS, (None, True)]
    for limit, rematch in levels:
        byes: list[int | None] = [None]
        if odd:
            byes = [p for p in reversed(ranked) if p not in state.byes] or list(reversed(ranked))
        failed: set[frozenset[int]] = set()
        steps = [STEP_BUDGET]
        try:
            for bye in byes:
                pairs = state.pair([p for p in ranked if p != bye], limit, rematch, failed, steps)
                if pairs is None:
                    continue
                matches = [Match(round_no, s, n) for s, n in pairs]
                if bye is not None:
                    matches.append(Match(round_no, bye, None, PairingKind.BYE, SOUTH))
                return SwissRound(tuple(matches), limit, rematch)
        except _OutOfSteps:
            continue
    raise AssertionError("unreachable: the last level pairs anyone with anyone")


def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    """FIDE's Berger tables for ``n`` players (``n`` even, numbered 1 to n): each round's
    pairs (first named, South, then North). Round r: player n meets a = (r-1)·n/2 mod (n-1)
    + 1 (a is South in odd rounds), and a+k meets a-k (mod n-1) on the other boards.

    >>> berger_rounds(6)[0], berger_rounds(6)[1]
    ([(1, 6), (2, 5), (3, 4)], [(6, 4), (5, 3), (1, 2)])
    """
    if n < 2 or n % 2:
        raise ValueError(f"Berger tables are for an even number of players, not {n}")
    m = n - 1
    rounds = []
    for r in range(1, n):
        a = ((r - 1) * (n // 2)) % m + 1
        pairs = [(a, n) if r % 2 else (n, a)]
        for k in range(1, n // 2):
            pairs.append(((a + k - 1) % m + 1, (a - k - 1) % m + 1))
        rounds.append(pairs)
    return rounds


def round_robin(seeds: Sequence[int], double: bool = False) -> list[list[tuple[int, int]]]:
    """Every round's (south, north) pairs of a round robin of ``seeds`` (ids in seed order:
    the first is Berger's number 1), twice round when ``double`` with the sides swapped the
    second time. With an odd number, each round one player rests (no pair: a rest scores
    nothing and counts in no tie-break; every player rests as often).

    >>> round_robin([10, 20, 30])
    [[(20, 30)], [(10, 20)], [(30, 10)]]
    >>> round_robin([10, 20], double=True)
    [[(10, 20)], [(20, 10)]]
    """
    players: list[int | None] = [*seeds]
    if len(players) % 2:
        players.append(None)  # whoever meets it rests
    table = berger_rounds(len(players)) if len(players) >= 2 else []
    once = [
        [
            (s, n)
            for s, n in ((players[a - 1], players[b - 1]) for a, b in pairs)
            if s is not None and n is not None
        ]
        for pairs in table
    ]
    if double:
        return once + [[(n, s) for s, n in pairs] for pairs in once]
    return once


def arena_points(history: Iterable[Match]) -> dict[int, int]:
    """Arena points, as PlayStrategy's and Lichess's arenas count them: 2 a win, 1 a draw, 0 a
    loss; after two wins in a row, every game is worth double (4 a win, 2 a draw) until one
    is not won. Games still going on count nothing yet.

    >>> w = [Match(r, 1, 2, result=SOUTH) for r in (1, 2, 3)] + [Match(4, 1, 2, result=DRAW)]
    >>> arena_points(w + [Match(5, 1, 2, result=SOUTH)])
    {1: 12, 2: 1}
    """
    points: dict[int, int] = {}
    streak: dict[int, int] = {}
    for match in sorted(history, key=lambda m: m.round):
        for player in match.players:
            points.setdefault(player, 0)
            scored = match.points(player)
            if scored is None:
                continue
            double = 2 if streak.get(player, 0) >= 2 else 1
            points[player] += int(scored * 2) * double
            streak[player] = streak.get(player, 0) + 1 if scored == 1.0 else 0
    return points


def arena_pairs(
    free: Sequence[Entrant], history: Sequence[Match], round_no: int, alone: bool = False
) -> list[Match]:
    """Pair the arena's ``free`` players (in no game now) as wave ``round_no``: by arena
    points then rating, each with the next below them, but never with the opponent they
    just played unless ``alone`` (only two players are left in the arena); whoever has no
    partner waits for the next game to end. Sides: who played South more plays North (then
    who was South last), else the higher-ranked is South.

    >>> free = [Entrant(1, 1600), Entrant(2, 1500), Entrant(3, 1400)]
    >>> [(m.south, m.north) for m in arena_pairs(free, [Match(1, 2, 1, result=SOUTH)], 2)]
    [(3, 2)]
    """
    points = arena_points(history)
    mine = _history_by_player(history)
    last: dict[int, int | None] = {}
    diff: dict[int, int] = {}
    for e in free:
        games = [m for m in mine.get(e.id, ()) if m.kind is PairingKind.GAME]
        last[e.id] = games[-1].opponent(e.id) if games else None
        diff[e.id] = sum(1 if m.south == e.id else -1 for m in games)
    order = sorted(free, key=lambda e: (-points.get(e.id, 0), -e.rating, e.id))
    waiting = [e.id for e in order]
    matches: list[Match] = []
    while len(waiting) >= 2:
        p = waiting.pop(0)
        q = next((x for x in waiting if last[p] != x and last[x] != p), None)
        if q is None:
            if not alone:
                continue  # p waits for someone new
            q = waiting[0]
        waiting.remove(q)
        was_south = {x: bool(mine.get(x)) and mine[x][-1].south == x for x in (p, q)}
        if diff[p] != diff[q]:
            p_south = diff[p] < diff[q]
        elif was_south[p] != was_south[q]:
            p_south = was_south[q]
        else:
            p_south = True
        south, north = (p, q) if p_south else (q, p)
        matches.append(Match(round_no, south, north))
    return matches


@dataclass(frozen=True)
class Line:
    """A player's line in the standings (``standings``): their rank (shared by players level
    on every key), points, tie-breaks, rating and record of games played."""

    rank: int
    player: int
    points: float
    buchholz: float
    sonneborn_berger: float
    rating: float
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0


def standings(
    entrants: Sequence[Entrant], history: Sequence[Match], arena: bool = False
) -> list[Line]:
    """The standings of ``entrants`` (everyone who took part, withdrawn players too) after
    ``history``, best first: by points (``arena_points`` when ``arena``), then Buchholz, then
    Sonneborn-Berger, then rating.

    - Points: 1 a win, ½ a draw, 0 a loss; a bye and a forfeit win 1, a forfeit loss 0.
    - Buchholz: the sum of the opponents' points; Sonneborn-Berger: the sum of the points of
      the opponents beaten and half those of the opponents drawn with (both from the points
      of games, not arena points).
    - A pairing without a game (a bye, a forfeit either way) counts in both as a game against
      a virtual opponent with the player's own points, as FIDE's tie-break rules count
      unplayed games: a bye neither helps nor hurts the tie-breaks.
    - Games still going on count nowhere yet.
    """
    mine = _history_by_player(history)
    score = {e.id: sum(m.points(e.id) or 0.0 for m in mine.get(e.id, ())) for e in entrants}
    for matches in mine.values():  # opponents who are not entrants (none, normally)
        for m in matches:
            for p in m.players:
                score.setdefault(p, sum(x.points(p) or 0.0 for x in mine.get(p, ())))
    points: dict[int, float] = {}
    if arena:
        points = {p: float(v) for p, v in arena_points(history).items()}
    keys = []
    lines: dict[int, Line] = {}
    for e in entrants:
        buchholz = berger = 0.0
        games = wins = draws = losses = 0
        for m in mine.get(e.id, ()):
            got = m.points(e.id)
            if got is None:
                continue
            other = m.opponent(e.id)
            opposition = (
                score[e.id] if m.kind is not PairingKind.GAME or other is None else score[other]
            )
            buchholz += opposition
            berger += got * opposition
            if m.kind is PairingKind.GAME:
                games += 1
                wins += got == 1.0
                draws += got == 0.5
                losses += got == 0.0
        mine_points = points.get(e.id, 0.0) if arena else score[e.id]
        key = (mine_points, buchholz, berger, e.rating)
        keys.append((key, e.id))
        lines[e.id] = Line(
            0, e.id, mine_points, buchholz, berger, e.rating, games, wins, draws, losses
        )
    keys.sort(key=lambda item: (tuple(-k for k in item[0]), item[1]))
    ranked: list[Line] = []
    for position, (key, player) in enumerate(keys, 1):
        rank = ranked[-1].rank if ranked and keys[position - 2][0] == key else position
        line = lines[player]
        ranked.append(
            Line(
                rank,
                player,
                line.points,
                line.buchholz,
                line.sonneborn_berger,
                line.rating,
                line.games,
                line.wins,
                line.draws,
                line.losses,
            )
        )
    return ranked
