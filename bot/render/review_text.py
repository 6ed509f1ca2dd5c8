"""A game's review in words, for the chat and the mail surfaces: a summary per player, the
turning point and the key moments, short enough for one Discord message.

The moves are written as the game record writes them (the players' own notation); the values
are final seed margins for the player who moved, with best play.

>>> from engine import Game
>>> from engine.review import review
>>> done = review(Game.from_moves("kalah:pits=3,seeds=2", "B A b"), compiled=False)
>>> print(review_summary(done, {Side.SOUTH: "Ann", Side.NORTH: "Bob"}, title="Game #7"))
Game #7, reviewed by the solver: 3 of 3 moves proven.
South (Ann): accuracy 50% (1 of 2 choices kept the best value); 1 blunder.
North (Bob): accuracy 100% (1 of 1 choices kept the best value).
Turning point: move 2, South's A (the win became a draw).
Key moments:
- Move 2, South played A: blunder, +4 -> 0 (proven). Better: C.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from engine import Side
from engine.review import ERRORS, MoveClass, PlyReview, Review, result_of

RESULT_WORDS = {1: "win", 0: "draw", -1: "loss"}
ORDER = (MoveClass.BLUNDER, MoveClass.MISTAKE, MoveClass.INACCURACY)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def moment(ply: PlyReview) -> str:
    """One move in a line: who played what, its class, the values and the better move."""
    how = "proven" if ply.proven else f"estimated at depth {ply.depth}"
    better = f" Better: {' or '.join(ply.best)}." if ply.best and ply.move not in ply.best else ""
    return (
        f"Move {ply.ply}, {ply.side.title()} played {ply.move}: {ply.move_class}, "
        f"{signed(ply.value_before)} -> {signed(ply.value_after)} ({how}).{better}"
    )


def key_moments(review: Review, most: int = 3) -> list[PlyReview]:
    """The moves that gave away most, worst first within each class, in game order."""
    errors = [p for p in review.plies if p.move_class in ERRORS]
    errors.sort(key=lambda p: (ORDER.index(p.move_class), -p.loss, p.ply))
    return sorted(errors[:most], key=lambda p: p.ply)


def review_summary(
    review: Review,
    names: Mapping[Side, str],
    *,
    title: str = "This game",
    moments: int = 3,
    board_at: Callable[[int], str] | None = None,
) -> str:
    """The review in a few lines: proven share, each player's accuracy and errors, the
    turning point, then up to ``moments`` key moments (each followed by ``board_at(ply)``,
    the board before that move, where given: the mail shows it)."""
    lines = [
        f"{title}, reviewed by the solver: {review.proven} of {len(review.plies)} moves proven."
    ]
    for side in (Side.SOUTH, Side.NORTH):
        summary = review.summaries.get(side)
        if summary is None or not summary.moves:
            continue
        accuracy = (
            "no choices"
            if summary.accuracy is None
            else f"accuracy {round(100 * summary.accuracy)}% ({summary.kept} of "
            f"{summary.choices} choices kept the best value)"
        )
        counts = [
            f"{summary.counts[kind]} {kind}{'s' * (summary.counts[kind] != 1)}"
            for kind in ORDER
            if summary.counts.get(kind)
        ]
        lines.append(
            f"{side.title()} ({names.get(side, side.title())}): {accuracy}"
            + (f"; {', '.join(counts)}." if counts else ".")
        )
    if review.turning_point is not None:
        turning = review.plies[review.turning_point - 1]
        before, after = result_of(turning.value_before), result_of(turning.value_after)
        change = (
            f"the {RESULT_WORDS[before]} became a {RESULT_WORDS[after]}"
            if before != after
            else f"it gave away {turning.loss} of margin"
        )
        lines.append(
            f"Turning point: move {turning.ply}, {turning.side.title()}'s {turning.move} "
            f"({change})."
        )
    chosen = key_moments(review, moments)
    if chosen:
        lines.append("Key moments:")
        for ply in chosen:
            lines.append(f"- {moment(ply)}")
            if board_at is not None:
                lines.append(board_at(ply.ply))
    else:
        lines.append("No inaccuracy, mistake or blunder: both kept the best value throughout.")
    return "\n".join(lines)
