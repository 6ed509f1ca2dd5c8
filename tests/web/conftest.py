"""The web tests' shared fixtures: ``browser``, Chromium driven by Playwright (defined with
the game pages' browser tests, tests/web/test_web_browser.py), for the Activity's too."""

from tests.web.test_web_browser import browser  # noqa: F401 (a fixture, found by its name)
