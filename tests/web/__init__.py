"""Tests of ``bot.web``: ``test_web.py`` serves the pages to aiohttp's test client (routes,
headers, token play, live news on SQLite and PostgreSQL, ``mancala web`` as a process);
``test_web_browser.py`` plays them in Debian's Chromium and runs axe-core in them;
``test_web_links.py``: the mails' links to the pages, with the player's token, and the
surfaces' ``MANCALA_WEB_URL``."""
