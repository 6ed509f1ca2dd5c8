"""The engine's Togyz Kumalak and Bestemshe against a second implementation, move for move.

No independent implementation installs from a package registry here that plays the
federation's rules (the gym-togyzkumalak package allows a tuzdyk in the ninth pit, skips the
same-number rule and ends the game without counting), so the second implementation is
``tests/engine/togyz_reference.py``: deliberately plain, written from the rules text in
docs/rules.md.
``bench/togyz_diff.py`` plays as many games as asked against it and, given its path, against
an independent program (yernarsha/togyz_py).
"""

import pytest

from engine import Ruleset
from tests.engine.togyz_reference import Plain, compare


@pytest.mark.slow  # about 25 s for the 10,000 games of Togyz Kumalak
@pytest.mark.parametrize(
    "name, make, games",
    [
        ("togyz-kumalak", lambda: Plain(9, 9, True), 10_000),
        ("bestemshe", lambda: Plain(5, 5, False), 2_000),
    ],
)
def test_random_games_agree_move_for_move(name, make, games):
    tally = compare(Ruleset.parse(name), make, games, seed=35)
    assert tally.divergences == []
    assert tally.finished == games  # every game played to its end by both
    assert set(tally.ends) == {"majority", "no_move"}
    assert tally.winners.get("south") and tally.winners.get("north")
    if name == "togyz-kumalak":
        assert tally.tuzdyks > games  # most games see tuzdyks made
    else:
        assert tally.tuzdyks == 0


class NinthPitTuzdyk(Plain):
    """The reference with one rule broken, as some implementations have it: a tuzdyk may be
    made in the opponent's ninth pit."""

    def play(self, number: int) -> None:
        n = self.n
        before = self.tuzdyk[self.turn]
        me = self.turn
        super().play(number)
        you = 1 - me
        if before is None and self.tuzdyk[me] is None and self.row[you][n - 1] == 3:
            # the last stone made 3 in the ninth pit (or another stone did: close enough
            # to break agreement, which is all this is for)
            self.tuzdyk[me] = n - 1
            self.kazan[me] += 3
            self.row[you][n - 1] = 0


def test_the_comparison_can_fail():
    tally = compare(Ruleset.parse("togyz-kumalak"), lambda: NinthPitTuzdyk(9, 9, True), 200, 1)
    assert tally.divergences
    assert "tuzdyks" in tally.divergences[0] or "kazans" in tally.divergences[0]
