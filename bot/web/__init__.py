"""The web companion: each game's page on the bot's database, live, and playable from a
mail player's token link; a finished game's review; the puzzles, to practise. ``mancala web`` serves it (``bot/commands/web.py``); docs/web.md
says how to deploy it behind a reverse proxy.

- ``links.py``: ``game_url(base, game_id, token=None)``, the address a message links to,
  ``player_path`` a player's page, ``web_base`` the surfaces' ``MANCALA_WEB_URL``;
- ``settings.py``: ``WebSettings``, from the environment (``MANCALA_WEB_*``);
- ``app.py``: the routes, the security headers, the access log without tokens, the limit
  on plays per address (aiohttp);
- ``pages.py``: a game's page as HTML, in the request's language, every name escaped, with
  a finished game's review where the service keeps one; every page's layout and footer;
- ``lists.py``: a tournament's page, the leaderboards and a player's page (ratings with
  their history), the same way;
- ``puzzle_page.py``: a puzzle's page (today's, or one by id), answered as practice;
- ``board_svg.py``: the board as an inline SVG in the pictures' look, with their alt text;
- ``review_svg.py``: a review's evaluation graph as an inline SVG in the review picture's
  look, with its alt text, the ply shown marked;
- ``history_svg.py``: a player's rating history in a family as a small inline SVG line,
  labelled with the history in words;
- ``feeds.py``: news of each game with a page open, for the pages' event streams;
- ``server.py``: the process: the service, the application and its socket; or the pages
  beside another surface in its process (``start_web_surface``, for ``mancala bot``);
- ``activity.py``: the Discord Activity (the channel's game in Discord's frame): its
  routes, the sign-in by the OAuth2 code exchange, its plays as a Discord player, its
  settings (``MANCALA_DISCORD_CLIENT_ID``, ``MANCALA_DISCORD_CLIENT_SECRET``);
  ``activity_page.py`` its HTML; its script, ``static/activity.js``, is built from
  ``activity/`` (the repository's top) with npm and shipped built;
- ``static/``: ``game.js`` (live news, plays by click and by key, stepping through a
  finished game), ``puzzle.js`` (a puzzle's answer by click and by key) and ``style.css``;
  the pages work without the scripts too.

It uses the service's public verbs only, like every surface.
"""

from bot.web.links import game_url

__all__ = ["game_url"]
