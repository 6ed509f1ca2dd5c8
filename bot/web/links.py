"""The addresses of the web companion's pages, for the surfaces' messages to link to.

>>> game_url("https://mancala.example/", 12)
'https://mancala.example/game/12'
>>> game_url("https://mancala.example", 12, "abcdefghij")
'https://mancala.example/game/12/play/abcdefghij'
"""

from __future__ import annotations


def game_url(base: str, game_id: int, token: str | None = None) -> str:
    """The page of game ``game_id`` under ``base`` (``MANCALA_WEB_URL``): read only, or with
    a player's ``token`` (``bot.tokens``: the same as in their mails) their page to play on.
    The token is in the path, not the query, so that it reaches the server to play with; the
    pages send no Referer, and the server's log leaves it out (``bot.web.app``)."""
    page = f"{base.rstrip('/')}/game/{int(game_id)}"
    return f"{page}/play/{token}" if token else page
