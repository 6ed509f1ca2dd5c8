"""The addresses of the web companion's pages, for the surfaces' messages to link to.

>>> game_url("https://mancala.example/", 12)
'https://mancala.example/game/12'
>>> game_url("https://mancala.example", 12, "abcdefghij")
'https://mancala.example/game/12/play/abcdefghij'
>>> web_base({"MANCALA_WEB_URL": "https://mancala.example/"}), web_base({})
('https://mancala.example', None)
>>> web_base({"MANCALA_WEB_URL": "mancala.example"})
Traceback (most recent call last):
ValueError: MANCALA_WEB_URL is an address like https://mancala.example, not 'mancala.example'
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from bot.i18n import _
from engine.errors import excerpt

_BASE = re.compile(r"https?://[^\s/?#]+(/[^\s?#]*)?")


def game_url(base: str, game_id: int, token: str | None = None) -> str:
    """The page of game ``game_id`` under ``base`` (``MANCALA_WEB_URL``): read only, or with
    a player's ``token`` (``bot.tokens``: the same as in their mails) their page to play on.
    The token is in the path, not the query, so that it reaches the server to play with; the
    pages send no Referer, and the server's log leaves it out (``bot.web.app``)."""
    page = f"{base.rstrip('/')}/game/{int(game_id)}"
    return f"{page}/play/{token}" if token else page


def player_path(number: int) -> str:
    """A player's page, by the number the database knows them by
    (``GameService.player_number``): a number, so no address is ever in it.

    >>> player_path(7)
    '/player/7'
    """
    return f"/player/{int(number)}"


def checked_base(url: str) -> str:
    """``url`` as a base for the links, without its trailing slash; a ValueError that names
    ``MANCALA_WEB_URL`` when it is no http(s) address."""
    if not _BASE.fullmatch(url):
        raise ValueError(
            _("{name} is an address like https://mancala.example, not '{value}'").format(
                name="MANCALA_WEB_URL", value=excerpt(url)
            )
        )
    return url.rstrip("/")


def web_base(env: Mapping[str, str]) -> str | None:
    """``MANCALA_WEB_URL`` for the surfaces' messages to link to, or None when it is unset:
    then they carry no links, exactly as without the web companion."""
    url = env.get("MANCALA_WEB_URL", "").strip()
    return checked_base(url) if url else None
