"""A game's review in words, for the chat and the mail surfaces: a summary per player, the
turning point and the key moments, short enough for one Discord message.

The moves are written as the game record writes them (the players' own notation); the values
are final seed margins for the player who moved, with best play. The words are in the
current language (``bot.i18n.speaking``); the moves are the same in every language.

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

from bot.i18n import N_, _, ngettext
from bot.render.words import class_count, move_class, side_name
from engine import Side
from engine.review import ERRORS, MoveClass, PlyReview, Review, result_of

ORDER = (MoveClass.BLUNDER, MoveClass.MISTAKE, MoveClass.INACCURACY)
# How a turning point changed the result, by the results (1 win, 0 draw, -1 loss) before and
# after it, for the player who moved.
CHANGES = {
    (1, 0): N_("the win became a draw"),
    (1, -1): N_("the win became a loss"),
    (0, -1): N_("the draw became a loss"),
    (0, 1): N_("the draw became a win"),
    (-1, 0): N_("the loss became a draw"),
    (-1, 1): N_("the loss became a win"),
}


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def moment(ply: PlyReview) -> str:
    """One move in a line: who played what, its class, the values and the better move."""
    how = _("proven") if ply.proven else _("estimated at depth {depth}").format(depth=ply.depth)
    text = _("Move {ply}, {side} played {move}: {kind}, {before} -> {after} ({how}).").format(
        ply=ply.ply,
        side=side_name(ply.side),
        move=ply.move,
        kind=move_class(ply.move_class),
        before=signed(ply.value_before),
        after=signed(ply.value_after),
        how=how,
    )
    if ply.best and ply.move not in ply.best:
        # TRANSLATORS: joins two or more moves: "Better: C or D."
        better = _(" or ").join(ply.best)
        text += " " + _("Better: {moves}.").format(moves=better)
    return text


def key_moments(review: Review, most: int = 3) -> list[PlyReview]:
    """The moves that gave away most, worst first within each class, in game order."""
    errors = [p for p in review.plies if p.move_class in ERRORS]
    errors.sort(key=lambda p: (ORDER.index(p.move_class), -p.loss, p.ply))
    return sorted(errors[:most], key=lambda p: p.ply)


def review_summary(
    review: Review,
    names: Mapping[Side, str],
    *,
    title: str | None = None,
    moments: int = 3,
    board_at: Callable[[int], str] | None = None,
) -> str:
    """The review in a few lines: proven share, each player's accuracy and errors, the
    turning point, then up to ``moments`` key moments (each followed by ``board_at(ply)``,
    the board before that move, where given: the mail shows it). ``title`` names the game
    ("Game #7"; default "This game")."""
    total = len(review.plies)
    lines = [
        ngettext(
            "{title}, reviewed by the solver: {proven} of {n} move proven.",
            "{title}, reviewed by the solver: {proven} of {n} moves proven.",
            total,
        ).format(title=title or _("This game"), proven=review.proven, n=total)
    ]
    for side in (Side.SOUTH, Side.NORTH):
        summary = review.summaries.get(side)
        if summary is None or not summary.moves:
            continue
        accuracy = (
            _("no choices")
            if summary.accuracy is None
            # TRANSLATORS: "accuracy 50% (1 of 2 choices kept the best value)"
            else _("accuracy {percent}% ({kept} of {n} choices kept the best value)").format(
                percent=round(100 * summary.accuracy), kept=summary.kept, n=summary.choices
            )
        )
        counts = [
            class_count(kind, summary.counts[kind]) for kind in ORDER if summary.counts.get(kind)
        ]
        name = side_name(side)
        head = f"{name} ({names.get(side, name)}): {accuracy}"
        lines.append(head + (f"; {', '.join(counts)}." if counts else "."))
    if review.turning_point is not None:
        turning = review.plies[review.turning_point - 1]
        before, after = result_of(turning.value_before), result_of(turning.value_after)
        if before != after:
            change = _(CHANGES[before, after])
        else:
            change = ngettext(
                "it gave away {n} seed of margin", "it gave away {n} seeds of margin", turning.loss
            ).format(n=turning.loss)
        lines.append(
            _("Turning point: move {ply}, {side}'s {move} ({change}).").format(
                ply=turning.ply, side=side_name(turning.side), move=turning.move, change=change
            )
        )
    chosen = key_moments(review, moments)
    if chosen:
        lines.append(_("Key moments:"))
        for ply in chosen:
            lines.append(f"- {moment(ply)}")
            if board_at is not None:
                lines.append(board_at(ply.ply))
    else:
        lines.append(_("No inaccuracy, mistake or blunder: both kept the best value throughout."))
    return "\n".join(lines)
