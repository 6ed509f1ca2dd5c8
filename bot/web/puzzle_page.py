"""A puzzle's page as HTML in the current language: the board from the mover's side, whose
move it is, the goal, the moves to answer with (a pit's click or letter picks its button,
``/static/puzzle.js``), and after an answer the verdict with its line and the solution.

A page's visitor is nobody the service knows, so an answer here is practice: checked by the
service (``GameService.practise_puzzle``) and recorded nowhere; the page says where an
answer counts for a streak.
"""

from __future__ import annotations

from html import escape

from bot.i18n import _
from bot.render.board_picture import describe_board
from bot.render.words import grade_word, side_name
from bot.service.puzzles import describe_value, verdict
from bot.web.board_svg import board_svg
from bot.web.pages import layout
from engine import render, to_perspective
from engine.puzzles import Answer, Puzzle


def puzzle_page(
    puzzle: Puzzle,
    action: str,
    daily: bool = False,
    answer: Answer | None = None,
    refused: str = "",
) -> str:
    """The page of ``puzzle`` (``daily``: today's), answers posted to ``action``; ``answer``
    the visitor's checked answer, ``refused`` the service's reason for refusing one."""
    side = puzzle.side
    title = _("Today's puzzle") if daily else _("Puzzle {id}").format(id=puzzle.id)
    goal = _("{side} to move: one move keeps {value} with best play. Find it!").format(
        side=side_name(side), value=describe_value(puzzle.value)
    )
    buttons = "".join(
        '<button class="move" name="move" value="{0}">{0}</button>'.format(
            escape(to_perspective(move, side))
        )
        for move in puzzle.position.legal_moves()
    )
    said = ""
    if refused:
        said = f'<p class="said refused">{escape(refused)}</p>'
    elif answer is not None:
        kind = "right" if answer.correct else "wrong"
        said = f'<p class="said {kind}">{escape(verdict(answer, side))}</p>'
        if not answer.correct:
            solution = _("The solution: {move}.").format(move=to_perspective(puzzle.solution, side))
            said += f'<p class="solution">{escape(solution)}</p>'
    practice = _(
        "Practice: an answer here is checked and recorded nowhere. For your streak, answer "
        "with /mancala puzzle on Discord or 'puzzle' by mail: only your first answer counts."
    )
    about = f"{puzzle.id} · {puzzle.family} · {grade_word(puzzle.grade.value)}"
    body = (
        f'<main id="puzzle"><h1>{escape(title)}</h1><p class="rules">{escape(about)}</p>'
        f'<p class="status">{escape(goal)}</p>'
        '<div class="boards">'
        f'<figure class="picture">{board_svg(puzzle.position, side, label=describe_board(puzzle.position))}</figure>'
        f'<pre class="text-board" aria-hidden="true">{escape(render(puzzle.position, side))}</pre>'
        "</div>"
        f'<div id="said" role="status" aria-live="polite">{said}</div>'
        f'<form id="answer" method="post" action="{escape(action)}">'
        f'<p class="prompt">{escape(_("Your answer: click a pit, or type its letter."))}</p>'
        f'<div class="moves-to-play">{buttons}</div></form>'
        f'<p class="practice">{escape(practice)}</p></main>'
    )
    return layout(title, body, script="puzzle.js")
