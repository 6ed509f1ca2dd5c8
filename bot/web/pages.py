"""The pages as HTML, rendered on the server in the current language (``bot.i18n``): a
game's page and its live part, the page of a mail's unsubscribe link, and the page for an
address that names nothing.

Every word that comes from a player (a display name) or from a request goes through
``escape``; the pages carry no inline script or style (the Content-Security-Policy forbids
them): ``/static/game.js`` and ``/static/style.css`` do the rest.

>>> "<b>" in layout("<b>", "<p>x</p>")
False
"""

from __future__ import annotations

import datetime
import functools
import re
from dataclasses import dataclass, field
from html import escape

from babel.dates import format_datetime

from bot.i18n import _, current_language
from bot.render.board_picture import describe_board
from bot.render.words import move_class, side_name
from bot.service import GameView
from bot.web.board_svg import board_svg
from bot.web.review_svg import review_svg
from engine import SIDES, Game, Position, Ruleset, Side, render, result_lines, to_perspective
from engine.records import OGN, PGN, SCORESHEET, formats_for
from engine.review import ERRORS, Review


def footer() -> str:
    """Every page's links to the pages that stand alone: the puzzle, the leaderboards."""
    links = (("/puzzle", _("Today's puzzle")), ("/leaderboard", _("Leaderboards")))
    items = " ".join(f'<a href="{href}">{escape(text)}</a>' for href, text in links)
    return f'<footer><nav aria-label="{escape(_("More pages"))}">{items}</nav></footer>'


def layout(title: str, body: str, script: str = "") -> str:
    """A whole page: ``title`` is escaped here, ``body`` is HTML already; ``script`` a file
    of ``/static/`` the page runs, if any."""
    lang = current_language().value
    scripts = f'<script src="/static/{script}" defer></script>' if script else ""
    return (
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)}</title>"
        '<link rel="stylesheet" href="/static/style.css">'
        f"{scripts}</head><body>{body}{footer()}</body></html>\n"
    )


def not_found_page() -> str:
    return layout(
        _("Not found"),
        "<main><h1>{}</h1><p>{}</p></main>".format(
            escape(_("Not found")), escape(_("There is nothing at this address."))
        ),
    )


def message_page(title: str, text: str) -> str:
    return layout(title, f"<main><h1>{escape(title)}</h1><p>{escape(text)}</p></main>")


def unsubscribe_page(shown: str, action: str, said: str = "") -> str:
    """The page of a mail's unsubscribe link (``/unsubscribe/TOKEN``): the address it stops
    (``shown``, masked) and a button that posts to ``action``; once posted, ``said``, the
    answer, and no button. Opening it stops nothing: link scanners open links."""
    title = _("Stop mail")
    if said:
        return layout(title, f"<main><h1>{escape(title)}</h1><p>{escape(said)}</p></main>")
    what = _(
        "Stop all mail from the mancala bot to {address}, for good? Your games in progress "
        "will be resigned. To get mail again later, write 'start' to the bot."
    ).format(address=shown)
    button = _("Stop all mail")
    return layout(
        title,
        f"<main><h1>{escape(title)}</h1><p>{escape(what)}</p>"
        f'<form method="post" action="{escape(action)}">'
        '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
        f"<button>{escape(button)}</button></form></main>",
    )


_FIRST = re.compile(r'^\[First "(south|north)"\]$', re.M)


def first_mover(record: str) -> Side | None:
    """Who moved first, from a game's record (``GameService.export``)."""
    found = _FIRST.search(record)
    return Side(found.group(1)) if found else None


@functools.lru_cache(maxsize=256)
def _replay(rules: str, first: Side | None, moves: tuple[str, ...]) -> tuple[Position, ...]:
    return tuple(Game.from_moves(rules, moves, first=first).positions)


@dataclass(frozen=True)
class GamePage:
    """What a game's page shows: the game, its players' names, whose page it is (the side of
    the player whose token is in the address, or None: read only), and for a finished game
    the ply stepped to (None: the end)."""

    view: GameView
    names: dict[str, str]
    seat: Side | None = None
    at: int | None = None
    first: Side | None = None  # from the record: to step through a finished game
    said: str = ""  # the answer to the player's last play, if any
    refused: bool = False
    links: dict[str, str] = field(default_factory=dict)  # side -> its player's page
    review: Review | None = None  # a finished game's review, where one is kept

    @property
    def seen_from(self) -> Side:
        return self.seat or Side.SOUTH

    @property
    def shown_ply(self) -> int:
        """The ply the page shows: the one stepped to, else the last."""
        return self.at if self.stepping and self.at is not None else len(self.view.moves)

    @property
    def stepping(self) -> bool:
        return self.view.is_over and self.at is not None and self.at < len(self.view.moves)

    def position(self) -> Position:
        if self.stepping:
            assert self.at is not None
            return _replay(self.view.rules, self.first, self.view.moves)[self.at]
        return self.view.position

    def state(self) -> str:
        """What the page shows of the game, in a word: the page asks for a new live part
        when the game's differs (``bot.web.feeds.signature``)."""
        view = self.view
        offer = f"{view.offer.kind}.{view.offer.by}" if view.offer else ""
        return f"{view.ply}.{view.status}.{offer}.{view.deadline or ''}"


def _when(seconds: float) -> str:
    moment = datetime.datetime.fromtimestamp(seconds, datetime.UTC)
    shown = format_datetime(moment, "medium", tzinfo=datetime.UTC, locale=current_language().value)
    return f'<time datetime="{moment.isoformat()}">{escape(shown)} UTC</time>'


def _player_line(page: GamePage) -> str:
    view, names = page.view, page.names
    items = []
    for side in SIDES:
        mover = not view.is_over and view.position.to_move == side
        you = " " + escape(_("(you)")) if page.seat == side else ""
        mark = ' class="to-move"' if mover else ""
        name = escape(names[side])
        if side in page.links:
            name = f'<a href="{escape(page.links[side])}">{name}</a>'
        items.append(
            f"<li{mark}><span class=side>{escape(side_name(side))}</span> "
            f"<strong>{name}</strong>{you}</li>"
        )
    return f'<ul class="players">{"".join(items)}</ul>'


def _status(page: GamePage) -> str:
    view, names = page.view, page.names
    if view.is_over and view.outcome is not None and not page.stepping:
        return " ".join(escape(line) for line in result_lines(view.outcome, names))
    position = page.position()
    if page.stepping or position.is_over():
        outcome = position.outcome()
        if outcome is not None:
            return " ".join(escape(line) for line in result_lines(outcome, names))
    who = names[position.to_move]
    text = escape(_("{name} to move.").format(name=who))
    if not page.stepping and view.deadline is not None:
        text += " " + _("Deadline: {when}.").format(when=_when(view.deadline))
    return text


def _offer(page: GamePage) -> str:
    view = page.view
    if view.offer is None or view.is_over:
        return ""
    maker = view.side_of(view.offer.by)
    name = page.names[maker] if maker else str(view.offer.by)
    text = f'<p class="offer">{escape(name)} {escape(view.offer.asks)}</p>'
    if page.seat is not None and maker is not None and maker != page.seat:
        accept, decline = escape(_("Accept")), escape(_("Decline"))
        text += (
            '<div class="actions">'
            f'<button name="do" value="accept" form="play">{accept}</button> '
            f'<button name="do" value="decline" form="play">{decline}</button>'
            "</div>"
        )
    return text


def _moves(page: GamePage) -> str:
    view = page.view
    if not view.moves:
        return ""
    items = []
    judged = {p.ply: p.move_class for p in page.review.plies} if page.review else {}
    for ply, move in enumerate(view.moves, 1):
        word = escape(move)
        if view.is_over:
            current = ' aria-current="step"' if ply == page.shown_ply else ""
            word = f'<a href="?ply={ply}" data-ply="{ply}"{current}>{word}</a>'
        kind = judged.get(ply)
        if kind is not None:
            error = " error" if kind in ERRORS else ""
            word += f' <span class="class {kind.value}{error}">{escape(move_class(kind))}</span>'
        items.append(f"<li>{word}</li>")
    title = escape(_("Moves"))
    return (
        f'<h2 id="moves-title">{title}</h2>'
        f'<ol class="moves" aria-labelledby="moves-title">{"".join(items)}</ol>'
    )


def _steps(page: GamePage) -> str:
    view = page.view
    if not view.is_over:
        return ""
    total = len(view.moves)
    at = page.shown_ply

    def step(to: int, label: str, arrow: str, key: str) -> str:
        if 0 <= to <= total and to != at:
            return (
                f'<a class="step" href="?ply={to}" data-ply="{to}" data-key="{key}" '
                f'aria-label="{escape(label)}">{arrow}</a>'
            )
        return f'<span class="step off" aria-hidden="true">{arrow}</span>'

    where = escape(_("Move {n} of {total}").format(n=at, total=total))
    return (
        '<nav class="steps" aria-label="{}" data-at="{}" data-total="{}">'.format(
            escape(_("Step through the game")), at, total
        )
        + step(at - 1, _("Previous move"), "←", "ArrowLeft")
        + f'<span class="where" role="status">{where}</span>'
        + step(at + 1, _("Next move"), "→", "ArrowRight")
        + "</nav>"
    )


def _review(page: GamePage) -> str:
    """A finished game's evaluation graph, the ply shown marked; or how to ask for one (the
    service reviews a game for a player who asks: a page's visitor is nobody it knows)."""
    view = page.view
    if not view.is_over or not view.moves:
        return ""
    title = escape(_("Review"))
    if page.review is None:
        how = _(
            "This game has not been reviewed yet. Ask for the solver's review with "
            "/mancala review {id} on Discord, or reply 'review' to the game's last mail; "
            "it then shows here."
        ).format(id=view.id)
        return f'<h2 id="review-title">{title}</h2><p class="no-review">{escape(how)}</p>'
    return (
        f'<h2 id="review-title">{title}</h2>'
        f'<figure class="review">{review_svg(page.review, page.shown_ply)}</figure>'
    )


def _play(page: GamePage, action: str) -> str:
    view = page.view
    if page.seat is None or view.is_over:
        return ""
    buttons = []
    if view.position.to_move == page.seat:
        for move in view.position.legal_moves():
            shown = escape(to_perspective(move, page.seat))
            buttons.append(
                f'<button class="move" name="move" value="{shown}" form="play">{shown}</button>'
            )
        prompt = _("Your move: click a pit, or type its letter.")
    else:
        prompt = _("Waiting for your opponent's move.")
    extra = []
    if view.offer is None:
        draw = escape(_("Offer a draw"))
        extra.append(f'<button name="do" value="draw" form="play">{draw}</button>')
    resign, sure = escape(_("Resign")), escape(_("Resign this game?"))
    extra.append(
        f'<button name="do" value="resign" form="play" class="resign" '
        f'data-confirm="{sure}">{resign}</button>'
    )
    return (
        f'<form id="play" method="post" action="{escape(action)}">'
        f'<input type="hidden" name="ply" value="{view.ply}">'
        f'<p class="prompt">{escape(prompt)}</p>'
        f'<div class="moves-to-play">{"".join(buttons)}</div>'
        f'<div class="actions">{" ".join(extra)}</div></form>'
    )


def live_part(page: GamePage, action: str, record: str) -> str:
    """The part of a game's page that changes as the game goes on (the event stream asks for
    it anew); ``action`` is where plays are posted, ``record`` the record's address."""
    view = page.view
    position = page.position()
    outcome = view.outcome if view.is_over and not page.stepping else None
    label = describe_board(position, page.names)
    if outcome is not None and not position.is_over():  # resigned, agreed, lost on time
        label += " " + " ".join(result_lines(outcome, page.names))
    said = ""
    if page.said:
        kind = "refused" if page.refused else "done"
        said = escape(page.said)
        said = f'<p class="said {kind}">{said}</p>'
    picture = board_svg(position, page.seen_from, page.names, label, outcome is not None)
    download = escape(_("Download the record"))
    playable = page.seat is not None and not view.is_over and view.position.to_move == page.seat
    return (
        f'<div class="state" data-state="{escape(page.state())}" data-ply="{view.ply}"'
        f' data-playable="{"yes" if playable else "no"}"></div>'
        + _player_line(page)
        + f'<p class="status">{_status(page)}</p>'
        + _offer(page)
        + '<div class="boards">'
        + f'<figure class="picture">{picture}</figure>'
        + f'<pre class="text-board" aria-hidden="true">{escape(render(position, page.seen_from, outcome))}</pre>'
        + "</div>"
        + _steps(page)
        + f'<div id="said" role="status" aria-live="polite">{said}</div>'
        + _play(page, action)
        + _moves(page)
        + _review(page)
        + f'<p class="record"><a href="{escape(record)}" download>{download}</a>'
        + _community_records(page, record)
        + "</p>"
    )


def _format_names() -> dict[str, str]:
    return {
        PGN: _("PlayStrategy PGN"),
        SCORESHEET: _("Kazakh scoresheet"),
        OGN: _("Aualé OGN"),
    }


def _community_records(page: GamePage, record: str) -> str:
    """Links to a finished game's record in each community format its ruleset has
    (``engine.records``), beside the download of ours; ``record`` is ours's address."""
    if not page.view.is_over:
        return ""
    formats = formats_for(Ruleset.parse(page.view.rules))
    if not formats:
        return ""
    base = record.rsplit("/", 1)[0] + "/record/"
    names = _format_names()
    links = ", ".join(
        f'<a href="{escape(base + name)}" download>{escape(names[name])}</a>' for name in formats
    )
    # TRANSLATORS: {formats} is a list of links such as "PlayStrategy PGN, Kazakh scoresheet"
    return " " + escape(_("also as {formats}")).replace("{formats}", links)


def game_page(page: GamePage, action: str, record: str, events: str, part: str) -> str:
    view = page.view
    title = _("Game #{id}: {south} against {north}").format(
        id=view.id, south=page.names[Side.SOUTH], north=page.names[Side.NORTH]
    )
    live = view.status != "over"
    body = (
        f'<main id="game" data-game="{view.id}" data-part="{escape(part)}"'
        + (f' data-events="{escape(events)}"' if live else "")
        + f'><h1>{escape(title)}</h1><p class="rules">{escape(view.rules)}</p>'
        + f'<div id="live">{live_part(page, action, record)}</div>'
        # where the script says what changed, for a screen reader (the live part is
        # replaced whole, and a region replaced whole is not read out)
        + '<p id="news" class="sr-only" role="status" aria-live="polite"></p></main>'
    )
    return layout(title, body, script="game.js")
