"""Saying what a user waits for: a live line on a terminal, a line every few seconds in a log.

Anything that can take more than about a second (compiling the AI, a solve, building an
endgame table, a hint) runs inside ``waiting(...)``. On a terminal the line is redrawn twice a
second with the time so far, the estimate when one is known and the latest news
(``update``); when the output is a pipe or a log, a line is written every ``log_every``
seconds instead, so a solve never runs silent. The line talks in the language of the code
that waits (``bot.i18n.speaking``), though a thread draws it.

>>> import io
>>> out = io.StringIO()
>>> with waiting("Building the table", out, estimate=60) as wait:
...     wait.update("3 of 20 layers")  # done within a second: nothing to show
>>> out.getvalue()
''
"""

from __future__ import annotations

import contextvars
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from bot.i18n import _

SPINNER = "|/-\\"


class Waiting:
    """The state of one wait; ``update(news)`` changes what the line says after the time."""

    def __init__(
        self,
        what: str,
        stream: TextIO,
        estimate: float | None,
        log_every: float,
        poll: Callable[[], str] | None = None,
    ) -> None:
        self.poll = poll  # poll() -> news, asked before each line is drawn
        self.what = what
        self.stream = stream
        self.estimate = estimate
        self.log_every = log_every
        self.news = ""
        self.started = time.monotonic()
        self._live = _is_tty(stream)
        self._stop = threading.Event()
        self._shown = False

    def update(self, news: str) -> None:
        self.news = news

    def _head(self) -> str:
        if not self.estimate:
            return self.what
        return _("{what} (about {seconds} s)").format(
            what=self.what, seconds=f"{self.estimate:.0f}"
        )

    def _line(self, tick: int) -> str:
        if self.poll is not None:
            self.news = self.poll()
        elapsed = time.monotonic() - self.started
        news = f" {self.news}" if self.news else ""
        spin = f"{SPINNER[tick % len(SPINNER)]} " if self._live else ""
        return f"{spin}{self._head()}: {elapsed:.0f} s{news}"

    def _run(self, after: float) -> None:
        if self._stop.wait(after):
            return
        tick = 0
        while True:
            self._shown = True
            if self._live:
                self.stream.write("\r\x1b[K" + self._line(tick))
            else:
                self.stream.write(self._line(tick) + "\n")
            self.stream.flush()
            tick += 1
            if self._stop.wait(0.5 if self._live else self.log_every):
                return

    def finish(self, ok: bool) -> None:
        self._stop.set()
        if not self._shown:
            return
        elapsed = f"{time.monotonic() - self.started:.0f}"
        if ok:
            end = _("done in {seconds} s.").format(seconds=elapsed)
        else:
            end = _("stopped after {seconds} s.").format(seconds=elapsed)
        prefix = "\r\x1b[K" if self._live else ""
        self.stream.write(f"{prefix}{self._head()}: {end}\n")
        self.stream.flush()


@contextmanager
def waiting(
    what: str,
    stream: TextIO | None = None,
    estimate: float | None = None,
    after: float = 1.0,
    log_every: float = 10.0,
    poll: Callable[[], str] | None = None,
) -> Iterator[Waiting]:
    """Show ``what`` is being waited for, from ``after`` seconds on (nothing for a quick
    wait), until the block ends; ``poll()``, if given, says the latest news each time."""
    wait = Waiting(what, stream or sys.stderr, estimate, log_every, poll)
    # The line is drawn by a thread, in the language of the code that waits (a thread starts
    # with no context of its own).
    context = contextvars.copy_context()
    thread = threading.Thread(target=context.run, args=(wait._run, after), daemon=True)
    thread.start()
    ok = False
    try:
        yield wait
        ok = True
    finally:
        wait.finish(ok)
        thread.join()


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
