"""The Discord Activity's HTML (``bot.web.activity``): the page Discord frames, and the parts
its script puts in it once the user is signed in, in their language: the channel's game on
the game page's board and live part (``bot.web.pages.live_part``), or the offers to begin
one. Every name is escaped; the page carries no inline script or style.

>>> page = activity_page("42", mock=False)
>>> 'data-client-id="42"' in page and 'data-mock="no"' in page and "activity.js" in page
True
"""

from __future__ import annotations

from html import escape

from bot.i18n import _, current_language
from bot.service import Challenge
from bot.web.pages import GamePage, live_part

ACTION = "/activity/play"


def activity_page(client_id: str, mock: bool) -> str:
    """The page Discord frames: the script signs in, then fills ``#live``. What the script
    may have to say before the server answers in the user's language is here, in the
    browser's language."""
    lang = current_language().value
    title = escape(_("Mancala"))
    words = {
        "failed": _("Discord did not confirm who you are; please try again."),
        "nochannel": _("Open the Activity from a channel or a call to play there."),
        "offline": _("The server cannot be reached; please reopen the Activity in a moment."),
    }
    data = " ".join(f'data-{key}="{escape(text)}"' for key, text in words.items())
    signing_in = escape(_("Signing in with Discord…"))
    return (
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title>"
        '<link rel="stylesheet" href="/static/style.css">'
        '<script src="/static/activity.js" defer></script></head><body>'
        f'<main id="activity" data-client-id="{escape(client_id)}"'
        f' data-mock="{"yes" if mock else "no"}" {data}>'
        f'<div id="live"><h1>{title}</h1>'
        f'<p class="status">{signing_in}</p>'
        '<div id="said" role="status" aria-live="polite"></div></div>'
        # what changed, for a screen reader (the live part is replaced whole)
        '<p id="news" class="sr-only" role="status" aria-live="polite"></p>'
        "</main></body></html>\n"
    )


def _start(challenges: list[tuple[Challenge, str]]) -> str:
    """The ways to begin a game here: the challenges made to the user in this channel, and
    a game against the AI."""
    items = "".join(
        '<li>{} <button name="do" value="take:{}" form="play">{}</button></li>'.format(
            escape(
                _("{name} challenges you to a game of {rules}.").format(
                    name=name, rules=challenge.rules
                )
            ),
            challenge.id,
            escape(_("Accept")),
        )
        for challenge, name in challenges
    )
    listed = f'<ul class="challenges">{items}</ul>' if items else ""
    against_ai = escape(_("Play against the AI"))
    return (
        f'<form id="play" method="post" action="{ACTION}">{listed}'
        f'<button name="do" value="ai">{against_ai}</button></form>'
    )


def empty_part(challenges: list[tuple[Challenge, str]]) -> str:
    """A channel without a game: how to begin one."""
    title = escape(_("Mancala"))
    lang = current_language().value
    none = escape(_("No game is going on in this channel."))
    return (
        f'<div class="activity-empty" data-title="{title}" data-lang="{lang}">'
        f"<h1>{title}</h1>"
        f'<p class="status">{none}</p>'
        + _start(challenges)
        + '<div id="said" role="status" aria-live="polite"></div></div>'
    )


def game_part(page: GamePage, challenges: list[tuple[Challenge, str]]) -> str:
    """The channel's game, seen by the signed-in user (``page.seat``: theirs, if they play);
    a finished one with the ways to begin the next."""
    view = page.view
    title = escape(
        _("Game #{id}: {south} against {north}").format(
            id=view.id, south=page.names["south"], north=page.names["north"]
        )
    )
    events = "" if view.is_over else f' data-events="/game/{view.id}/events"'
    return (
        f'<div class="activity-game" data-game="{view.id}" data-title="{title}"'
        f' data-lang="{current_language().value}"{events}>'
        f'<h1>{title}</h1><p class="rules">{escape(view.rules)}</p>'
        + live_part(page, ACTION, f"/game/{view.id}/record.txt")
        + (_start(challenges) if view.is_over else "")
        + "</div>"
    )
