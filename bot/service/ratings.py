"""Glicko-2 ratings, one per player and family of rulesets (docs/ratings.md says it for players).

The arithmetic follows Glickman's "Example of the Glicko-2 system" step by step (``glicko2``);
the rest of this module is the service's policy around it:

- a **family** is a preset and its variants (``family_of``): Kalah with the classroom rules,
  wari, oware, al-manqala, and the elf.org applet's two games; parameters never change it;
- each finished rated game is its own rating period for its two players, ending when the game
  ends; the period began when the player's rating was last set (``rated_at``), so the time
  between counts: ``PERIOD`` (a week) of inactivity adds the volatility's square once to the
  deviation's (Glicko-2's step 6), applied lazily whenever a rating is read or updated
  (``current``), never above a newcomer's ``START_RD``;
- a rating is **provisional**, shown with ``?``, while its deviation is ``PROVISIONAL_RD`` or
  more; leaderboards leave provisional ratings out;
- a deviation never falls under ``MIN_RD``, so an active player's rating keeps moving.

>>> new = Glicko()
>>> won = glicko2(new, [(Glicko(1500, 350), 1.0)])
>>> round(won.rating), round(won.deviation)
(1662, 290)
>>> family_of("kalah-nosweep:seeds=3"), family_of("awale"), family_of("manbula")
(<Family.KALAH: 'kalah'>, <Family.WARI: 'wari'>, <Family.APPLET: 'applet'>)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.i18n import _
from engine import Ruleset, RulesetError
from storage.records import Established, RatingRecord

SCALE = 400 / math.log(10)  # 173.7178...: Glicko-2's scale, from Elo's 400 points per 10:1
START = 1500.0  # a newcomer's rating, deviation and volatility
START_RD = 350.0
START_VOLATILITY = 0.06
TAU = 0.5  # how much the volatility may change: Glickman suggests 0.3 to 1.2
PERIOD = 7 * 86400.0  # seconds in a rating period
PROVISIONAL_RD = 110.0  # a rating is established once its deviation is under this
MIN_RD = 50.0
CONVERGENCE = 1e-6  # the paper's epsilon for the volatility's iteration


class Family(StrEnum):
    """Rulesets rated together: a preset and every variant of it written with parameters."""

    KALAH = "kalah"
    WARI = "wari"
    OWARE = "oware"
    AL_MANQALA = "al-manqala"
    APPLET = "applet"
    TOGYZ_KUMALAK = "togyz-kumalak"
    BESTEMSHE = "bestemshe"  # its own board and its own game, as PlayStrategy rates it


FAMILIES: dict[str, Family] = {
    "kalah": Family.KALAH,
    "kalah-nosweep": Family.KALAH,  # the classroom rules are Kalah with another reading of empty
    "wari": Family.WARI,
    "oware": Family.OWARE,  # a game of its own, with its own tournaments and society
    "al-manqala": Family.AL_MANQALA,
    "mankala": Family.APPLET,
    "manbula": Family.APPLET,
    "togyz-kumalak": Family.TOGYZ_KUMALAK,  # added after schema 5: no migration knew it
    "bestemshe": Family.BESTEMSHE,
}
"""Each preset of ``engine.ruleset.PRESETS`` (by name) and its family."""


def family_of(rules: str | Ruleset) -> Family:
    """The family a ruleset is rated in; also takes a family's own name. RulesetError (with
    the engine's message) for text that is neither."""
    if isinstance(rules, str):
        word = rules.strip().lower()
        if word in Family.__members__.values():
            return Family(word)
        rules = Ruleset.parse(rules)
    try:
        return FAMILIES[rules.name]
    except KeyError:
        raise RulesetError(
            _("the ruleset {name} has no rating family").format(name=rules.name)
        ) from None


@dataclass(frozen=True)
class Glicko:
    """A rating on the usual scale (1500 to start), its deviation (RD) and its volatility."""

    rating: float = START
    deviation: float = START_RD
    volatility: float = START_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - START) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the paper's Illinois iteration on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def glicko2(
    player: Glicko,
    results: Sequence[tuple[Glicko, float]],
    tau: float = TAU,
    periods: float = 1.0,
    max_deviation: float | None = None,
) -> Glicko:
    """The player's rating after a rating period of ``results`` (each an opponent and the
    player's score against them: 1 win, 0.5 draw, 0 loss), by Glickman's steps 2 to 8.

    ``periods`` is how many rating periods the player's deviation grows for in step 6 (the
    paper's one; the service passes the time since the player was last rated, so games close
    together add little), and ``max_deviation`` caps that growth. With no results, only the
    deviation grows."""
    phi, sigma = player.phi, player.volatility
    cap = math.inf if max_deviation is None else max_deviation / SCALE
    if not results:
        grown = min(math.sqrt(phi * phi + periods * sigma * sigma), cap)
        return Glicko(player.rating, grown * SCALE, sigma)
    mu = player.mu
    info = 0.0  # 1 / v
    improvement = 0.0  # sum of g(phi_j) (s_j - E), Delta / v
    for opponent, score in results:
        g = _g(opponent.phi)
        e = _expected(mu, opponent.mu, opponent.phi)
        info += g * g * e * (1 - e)
        improvement += g * (score - e)
    v = 1 / info
    new_sigma = _volatility(sigma, phi, v, v * improvement, tau)
    phi_star = min(math.sqrt(phi * phi + periods * new_sigma * new_sigma), cap)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko(START + SCALE * new_mu, SCALE * new_phi, new_sigma)


# -- the service's policy ---------------------------------------------------------------------


def elapsed_periods(since: float, now: float) -> float:
    """Rating periods from ``since`` to ``now`` (none for a clock that went back)."""
    return max(0.0, now - since) / PERIOD


def current(record: RatingRecord | None, now: float) -> Glicko:
    """A stored rating as of ``now``: its deviation grown for the time since it was set."""
    if record is None:
        return Glicko()
    stored = Glicko(record.rating, record.deviation, record.volatility)
    return glicko2(
        stored, (), periods=elapsed_periods(record.rated_at, now), max_deviation=START_RD
    )


def is_provisional(deviation: float) -> bool:
    return deviation >= PROVISIONAL_RD


def established(now: float) -> Established:
    """What a leaderboard shows at ``now``: ratings whose deviation, grown for the time since
    they were set (``current``), is under ``PROVISIONAL_RD``. Storage grows it by the same
    step: the square of the deviation gains volatility² × SCALE² for each ``PERIOD``."""
    return Established(now=now, growth=SCALE * SCALE / PERIOD, deviation_below=PROVISIONAL_RD)


def updated_ratings(
    family: Family,
    south_id: int,
    north_id: int,
    winner: str,
    south: RatingRecord | None,
    north: RatingRecord | None,
    now: float,
) -> list[RatingRecord]:
    """The two players' ratings after a finished game (``winner``: south, north or draw),
    each computed from both players' ratings before it.

    >>> [(r.player_id, r.family, round(r.rating), round(r.deviation), r.wins, r.losses) for r in
    ...  updated_ratings(Family.WARI, 1, 2, "south", None, None, now=0.0)]
    [(1, 'wari', 1662, 290, 1, 0), (2, 'wari', 1338, 290, 0, 1)]
    """
    score = {"south": 1.0, "north": 0.0, "draw": 0.5}[winner]
    before = {south_id: (south, current(south, now)), north_id: (north, current(north, now))}
    out = []
    for me, other, mine in ((south_id, north_id, score), (north_id, south_id, 1.0 - score)):
        record = before[me][0]
        periods = elapsed_periods(record.rated_at, now) if record else 0.0
        start = Glicko(record.rating, record.deviation, record.volatility) if record else Glicko()
        after = glicko2(start, [(before[other][1], mine)], periods=periods, max_deviation=START_RD)
        out.append(
            RatingRecord(
                player_id=me,
                family=str(family),
                rating=after.rating,
                deviation=min(max(after.deviation, MIN_RD), START_RD),
                volatility=after.volatility,
                rated_at=now,
                games=(record.games if record else 0) + 1,
                wins=(record.wins if record else 0) + (mine == 1.0),
                losses=(record.losses if record else 0) + (mine == 0.0),
                draws=(record.draws if record else 0) + (mine == 0.5),
            )
        )
    return out


@dataclass(frozen=True)
class HeadToHead:
    """One player's record against another in one family (finished games, rated or not)."""

    family: Family
    wins: int
    losses: int
    draws: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws
