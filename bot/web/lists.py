"""A tournament's page (standings, crosstable, each round's pairings linking to their games),
the leaderboards and a player's page (with each family's rating history), as HTML in the current language; every name escaped,
every player's name linking to their page where the caller gives it one.

>>> points(3.5), points(0.5), points(2.0)
('3½', '½', '2')
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from bot.i18n import _
from bot.service import GameView, Player, Rating, RatingStep
from bot.service.tournaments import Format, Pairing, Standing, TournamentView
from bot.web.history_svg import history_svg
from bot.web.pages import layout
from engine import Side
from storage.records import PairingKind, PairingResult

# A cell of the crosstable: a won, lost or drawn game, as tournaments write it
_SCORE = {"won": "1", "lost": "0", "drawn": "½"}


def points(value: float) -> str:
    """Points as tournaments write them: 3½, not 3.5."""
    whole, half = int(value), value - int(value) >= 0.5
    if half:
        return f"{whole}½" if whole else "½"
    return str(whole)


def _table(caption: str, head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table; ``head`` is escaped here, the rows' cells are HTML already."""
    header = "".join(f'<th scope="col">{escape(cell)}</th>' for cell in head)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return (
        f'<div class="table"><table><caption>{escape(caption)}</caption>'
        f"<thead><tr>{header}</tr></thead><tbody>{body}</tbody></table></div>"
    )


def _results(pairings: Sequence[Pairing]) -> dict[tuple[Player, Player], list[str]]:
    """Each player's scores against each opponent, in the order played."""
    found: dict[tuple[Player, Player], list[str]] = defaultdict(list)
    for pairing in pairings:
        if pairing.north is None or pairing.result in (None, PairingResult.NONE):
            continue
        south, north = pairing.south, pairing.north
        if pairing.result is PairingResult.DRAW:
            found[south, north].append(_SCORE["drawn"])
            found[north, south].append(_SCORE["drawn"])
        else:
            won = pairing.result is PairingResult.SOUTH
            found[south, north].append(_SCORE["won" if won else "lost"])
            found[north, south].append(_SCORE["lost" if won else "won"])
    return found


def tournament_page(
    view: TournamentView,
    standings: Sequence[Standing],
    rounds: Sequence[tuple[int, Sequence[Pairing]]],
    names: dict[Player, str],
    links: dict[Player, str] | None = None,
) -> str:
    """The page of a tournament: ``rounds`` is each round's number and pairings (an arena's
    games as one), ``names`` every player's name as the page shows it, ``links`` their
    pages."""

    def name(player: Player | None, linked: bool = True) -> str:
        if player is None:
            return ""
        shown = escape(names.get(player, str(player)))
        link = (links or {}).get(player) if linked else None
        return f'<a href="{escape(link)}">{shown}</a>' if link else shown

    title = _("Tournament #{id}: {name}").format(id=view.id, name=view.name)
    arena = view.format is Format.ARENA
    parts = [
        f"<h1>{escape(title)}</h1>",
        f'<p class="rules">{escape(view.rules)} · {escape(str(view.time_control))}</p>',
    ]
    if standings:
        head = [_("Rank"), _("Player"), _("Points"), _("Won"), _("Drawn"), _("Lost")]
        if not arena:  # the tie-breaks' names, as tournaments write them
            head += ["Buchholz", "SB"]
        rows = []
        for s in standings:
            row = [str(s.rank), name(s.player), points(s.points)]
            row += [str(s.wins), str(s.draws), str(s.losses)]
            if not arena:
                row += [points(s.buchholz), f"{s.sonneborn_berger:g}"]
            rows.append(row)
        parts.append(_table(_("Standings"), head, rows))
        players = [s.player for s in standings]
        results = _results([p for _round, pairings in rounds for p in pairings])
        if not arena and len(players) <= 40:  # wider than that, no screen shows it
            cross = []
            for row_no, player in enumerate(players, 1):
                cells = [str(row_no), name(player)]
                for other in players:
                    if other == player:
                        cells.append('<span aria-hidden="true">×</span>')
                    else:
                        cells.append(" ".join(results.get((player, other), [])))
                cross.append(cells)
            head = ["#", _("Player")] + [str(n) for n in range(1, len(players) + 1)]
            parts.append(_table(_("Crosstable"), head, cross))
    for number, pairings in rounds:
        if not pairings:
            continue
        items = []
        for pairing in pairings:
            if pairing.north is None or pairing.kind is PairingKind.BYE:
                bye = escape(_("a bye"))
                items.append(f"<li>{name(pairing.south)}: {bye}</li>")
                continue
            score = {
                PairingResult.SOUTH: "1–0",
                PairingResult.NORTH: "0–1",
                PairingResult.DRAW: "½–½",
            }.get(pairing.result or PairingResult.NONE, "")
            if pairing.game_id is not None:  # the game's link holds the names: no links inside
                match = f"{name(pairing.south, False)} – {name(pairing.north, False)}"
                match = f'<a href="/game/{pairing.game_id}">{match}</a>'
            else:
                match = f"{name(pairing.south)} – {name(pairing.north)}"
            items.append(f"<li>{match} {escape(score)}</li>")
        heading = _("Games") if arena else _("Round {n}").format(n=number)
        parts.append(f'<h2>{escape(heading)}</h2><ol class="pairings">{"".join(items)}</ol>')
    return layout(title, "<main>" + "".join(parts) + "</main>")


def leaderboard_page(
    family: str,
    families: Sequence[str],
    ratings: Sequence[Rating],
    links: dict[Player, str] | None = None,
) -> str:
    """The best established ratings of one family, with links to the others', and to the
    players' pages (``links``)."""

    def name(rating: Rating) -> str:
        shown = escape(rating.display_name or str(rating.player))
        link = (links or {}).get(rating.player)
        return f'<a href="{escape(link)}">{shown}</a>' if link else shown

    title = _("Leaderboard: {rules}").format(rules=family)
    others = " · ".join(
        f'<a href="/leaderboard/{escape(f)}"{" aria-current=page" if f == family else ""}>'
        f"{escape(f)}</a>"
        for f in families
    )
    rows = [
        [
            str(rank),
            name(rating),
            escape(rating.shown),
            str(rating.games),
        ]
        for rank, rating in enumerate(ratings, 1)
    ]
    if rows:
        table = _table(title, [_("Rank"), _("Player"), _("Rating"), _("Games")], rows)
    else:
        table = "<p>{}</p>".format(escape(_("No established ratings yet.")))
    label = escape(_("Leaderboards"))
    nav = f'<nav aria-label="{label}"><p>{others}</p></nav>'
    return layout(title, f"<main><h1>{escape(title)}</h1>{nav}{table}</main>")


@dataclass(frozen=True)
class PlayedGame:
    """A game on a player's page: the game, the player's side in it, and their opponent as
    the page names and links them (None: no page to link to)."""

    view: GameView
    side: Side
    opponent: str
    opponent_link: str | None


def _result(game: PlayedGame) -> str:
    outcome = game.view.outcome
    if not game.view.is_over or outcome is None:
        return _("In play")
    if outcome.winner == game.side:
        return _("Won")
    return _("Drawn") if outcome.winner == "draw" else _("Lost")


def _history_table(family: str, steps: Sequence[RatingStep]) -> str:
    """The history game by game, newest first, each game linking to its page: the words
    behind the line, folded away."""
    rows = [
        [
            f'<a href="/game/{step.game_id}">#{step.game_id}</a>',
            escape(time.strftime("%Y-%m-%d", time.gmtime(step.at))),
            f"{step.rating:.0f}",
            f"±{step.deviation:.0f}",
        ]
        for step in reversed(steps)
    ]
    # TRANSLATORS: a table of a player's ratings game by game; {rules}: kalah, wari...
    caption = _("Rating history: {rules}").format(rules=family)
    head = [_("Game"), _("Date"), _("Rating"), _("Deviation")]
    summary = escape(_("Game by game"))
    return f"<details><summary>{summary}</summary>{_table(caption, head, rows)}</details>"


def player_page(
    name: str,
    ratings: Sequence[Rating],
    games: Sequence[PlayedGame],
    histories: Mapping[str, Sequence[RatingStep]] | None = None,
) -> str:
    """A player's page: their rating in each family they played rated games in, with its
    history (``histories``: each family's ratings after its last rated games, oldest first)
    as a line and game by game, and their recent games, each linking to its page and to the
    opponent's."""
    histories = histories or {}
    parts = [f"<h1>{escape(name)}</h1>"]
    rated = [r for r in ratings if r.games]
    if rated:
        head = [_("Rules"), _("Rating"), _("Games"), _("Won"), _("Drawn"), _("Lost"), _("History")]
        rows = [
            [
                f'<a href="/leaderboard/{escape(r.rules)}">{escape(r.rules)}</a>',
                escape(r.shown),
                str(r.games),
                str(r.wins),
                str(r.draws),
                str(r.losses),
                history_svg(r.rules, histories[r.rules]) if histories.get(r.rules) else "",
            ]
            for r in rated
        ]
        parts.append(_table(_("Ratings"), head, rows))
        for r in rated:
            if histories.get(r.rules):
                parts.append(_history_table(r.rules, histories[r.rules]))
    else:
        parts.append("<p>{}</p>".format(escape(_("No rated games yet."))))
    rows = []
    for game in games:
        opponent = escape(game.opponent)
        if game.opponent_link:
            opponent = f'<a href="{escape(game.opponent_link)}">{opponent}</a>'
        rows.append(
            [
                f'<a href="/game/{game.view.id}">#{game.view.id}</a>',
                escape(game.view.rules),
                opponent,
                escape(_result(game)),
            ]
        )
    head = [_("Game"), _("Rules"), _("Opponent"), _("Result")]
    parts.append(_table(_("Recent games"), head, rows))
    return layout(name, "<main>" + "".join(parts) + "</main>")
