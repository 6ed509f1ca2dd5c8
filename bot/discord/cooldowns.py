"""How often one Discord user may run the costly commands: the named cooldowns, in one table.

Each cooldown allows ``rate`` uses per ``per`` seconds to one Discord user (by user id, so the
same in every server and in DMs with the bot). The uses are counted in the database, through
the service (``GameService.count_hits``, ``storage.stores.limits``): every bot process on the
database shares them (two bots, or shards run as separate processes, on one PostgreSQL
database), and a restart forgets nothing. One use is one statement, which counts it and checks
it against the limit at once, so two processes can never both take the last one.

The windows are fixed, as the limit store counts: ``per`` seconds each, from the epoch on the
service's clock (a minute's from :00 to :59, five minutes' from :00, :05, ...), and the uses
come back all at once when one closes. So a user who spends all six hints at the end of one
minute may spend six more at the start of the next (at most ``2 * rate`` in ``per`` seconds,
never more); in return nobody has to remember when each user's window opened. A use counts
whether or not the service then grants it (a hint asked out of turn counts too); a refused
one counts nothing, and does not push the window back.

==========  ====  ======  ==================================================================
command     rate  per     why
==========  ====  ======  ==================================================================
hint        6     60 s    each is up to 2 s of an AI worker (``HINT_SECONDS``): one a move
                          for a player who moves every 10 s, not a worker taken from the rest
challenge   5     60 s    each posts a card pinging a member, mails an address, or starts a
                          game against the AI: more than anyone sets up by hand, and no
                          stream of pings or mails
board       10    60 s    each draws the picture and posts it in the channel for all to see,
                          taking the buttons off the last board: normal play posts boards by
                          itself, ``/mancala board`` is for a board lost in the scrollback
review      2     300 s   the solver over a whole game, many hints' worth of work (the
                          Review button of a final board shares the service's limit: one
                          review running per player, a review kept once done)
puzzle      10    60 s    a puzzle shown (a picture drawn), or an answer checked: the
                          buttons of a puzzle count here too (``puzzle_commands.py``)
==========  ====  ======  ==================================================================

Not limited: moves (by command, button or typed letter), accepting, declining and
withdrawing challenges, resigning, offers, and the private answers that cost no more than a
small read (``help``, ``rules``, ``games``, ``history``, ``leaderboard``, ``pings``,
``settings``). A limit never stands in the way of playing a game.

A refused command never reaches its callback, so nothing of the game is touched; the player
is told privately what was limited and when it is allowed again, the end of the window
(``message``), e.g. "You asked for 6 hints in the last minute, the most one player may; try
again in 12 s." The bot's
tree error handler (``MancalaBot._command_failed`` in ``client.py``) sends it and counts it
in ``mancala_errors_total{kind="CommandOnCooldown"}``.

To limit a command, name its cooldown under the command's decorator::

    @app_commands.command(description="Review one of your games")
    @cooldown("review")
    async def review(self, interaction: discord.Interaction, game: int) -> None: ...

A new kind of limit is a new row in ``COOLDOWNS`` (its ``did`` says what the player did, as
a sentence to translate, for the message), and a line in the table above.

Why not ``app_commands.checks.cooldown``: its buckets live in the decorator's memory, one
set per process, lost at a restart. Here the counts are the database's; what is discord.py's
is its ``app_commands.check`` and its ``CommandOnCooldown`` error (whose ``Cooldown`` says
the rate). The time is the service's clock (``GameService.now``, a ``ManualClock`` in tests),
the one every other limit reads, so the counters of all limits are kept and pruned on one
time.

>>> COOLDOWNS["hint"].message(11.2)
'You asked for 6 hints in the last minute, the most one player may; try again in 12 s.'
>>> COOLDOWNS["review"].message(250)
'You asked for 2 reviews in the last 5 minutes, the most one player may; try again in 4 min 10 s.'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

import discord
from discord import app_commands

from bot.i18n import _, ngettext
from bot.service import Hit

T = TypeVar("T")


@dataclass(frozen=True)
class NamedCooldown:
    """``rate`` uses per ``per`` seconds, per user. ``did``: what a user at the limit did, as
    a sentence with ``{n}`` (the rate), ``{window}`` ("in the last minute") and ``{wait}``
    ("12 s"), in the current language and the plural form for ``n``."""

    name: str
    rate: int
    per: int  # whole seconds: a window of the limit store
    did: Callable[[int], str]

    def message(self, retry_after: float) -> str:
        """What a user refused after ``rate`` uses is told: what was limited, and when it is
        allowed again (rounded up, so it is never early)."""
        return self.did(self.rate).format(
            n=self.rate, window=_window(self.per), wait=_wait(retry_after)
        )


COOLDOWNS: Mapping[str, NamedCooldown] = {
    c.name: c
    for c in (
        NamedCooldown(
            "hint",
            6,
            60,
            lambda n: ngettext(
                "You asked for {n} hint {window}, the most one player may; try again in {wait}.",
                "You asked for {n} hints {window}, the most one player may; try again in {wait}.",
                n,
            ),
        ),
        NamedCooldown(
            "challenge",
            5,
            60,
            lambda n: ngettext(
                "You made {n} challenge {window}, the most one player may; try again in {wait}.",
                "You made {n} challenges {window}, the most one player may; try again in {wait}.",
                n,
            ),
        ),
        NamedCooldown(
            "board",
            10,
            60,
            lambda n: ngettext(
                "You asked for the board {n} time {window}, the most one player may; try "
                "again in {wait}.",
                "You asked for the board {n} times {window}, the most one player may; try "
                "again in {wait}.",
                n,
            ),
        ),
        NamedCooldown(
            "review",
            2,
            300,
            lambda n: ngettext(
                "You asked for {n} review {window}, the most one player may; try again in {wait}.",
                "You asked for {n} reviews {window}, the most one player may; try again in {wait}.",
                n,
            ),
        ),
        NamedCooldown(
            "puzzle",
            10,
            60,
            lambda n: ngettext(
                "You asked for or answered {n} puzzle {window}, the most one player may; try "
                "again in {wait}.",
                "You asked for or answered {n} puzzles {window}, the most one player may; try "
                "again in {wait}.",
                n,
            ),
        ),
    )
}


class OnCooldown(app_commands.CommandOnCooldown):
    """discord.py's refusal, knowing which named cooldown refused."""

    def __init__(
        self, named: NamedCooldown, bucket: app_commands.Cooldown, retry_after: float
    ) -> None:
        super().__init__(bucket, retry_after)
        self.named = named


class HitCounter(Protocol):
    """What counts the uses: the bot's game service (in the database, shared by every process
    on it), on its own clock."""

    async def count_hits(self, hits: Sequence[Hit], now: float) -> list[bool]: ...

    def now(self) -> float: ...


class Cooldowns:
    """One bot's cooldowns, counted by ``counter`` (the bot's service): a counter per
    cooldown name, user and window."""

    def __init__(self, counter: HitCounter) -> None:
        self.counter = counter

    async def spend(self, named: NamedCooldown, user_id: int) -> None:
        """One use of ``named`` by ``user_id`` now; raises ``OnCooldown``, with the time left
        until the window closes, when it is one too many (and then counts nothing)."""
        now = self.counter.now()
        hit = Hit(f"discord:{named.name}:{user_id}", named.per, named.rate)
        (counted,) = await self.counter.count_hits([hit], now)
        if not counted:
            closes = (now // named.per + 1) * named.per  # the window's end, as the store counts
            raise OnCooldown(named, app_commands.Cooldown(named.rate, named.per), closes - now)


@runtime_checkable
class HasCooldowns(Protocol):
    """A client that keeps cooldowns (the ``MancalaBot``)."""

    @property
    def cooldowns(self) -> Cooldowns: ...


class CooldownCheck:
    """The check discord.py runs before a command limited by ``named``: one use by the
    interaction's user at the interaction's time, refused with ``OnCooldown``."""

    def __init__(self, named: NamedCooldown) -> None:
        self.named = named

    async def __call__(self, interaction: discord.Interaction) -> bool:
        client = interaction.client
        if not isinstance(client, HasCooldowns):
            raise TypeError(f"a {type(client).__name__} keeps no cooldowns: only the MancalaBot")
        await client.cooldowns.spend(self.named, interaction.user.id)
        return True

    def __repr__(self) -> str:
        return f"<cooldown {self.named.name}: {self.named.rate} per {self.named.per:g} s>"


def cooldown(name: str) -> Callable[[T], T]:
    """The decorator that applies the cooldown ``name`` of ``COOLDOWNS`` to a command (a
    name not in the table fails at import, not at the first use)."""
    return app_commands.check(CooldownCheck(COOLDOWNS[name]))


def cooldowns_of(
    command: app_commands.Command[Any, ..., Any] | app_commands.Group,
) -> list[NamedCooldown]:
    """The named cooldowns ``command`` is limited by (a group of commands, ``/mancala
    tournament``, by none of its own)."""
    checks = command.checks if isinstance(command, app_commands.Command) else []
    return [check.named for check in checks if isinstance(check, CooldownCheck)]


def refusal(error: app_commands.CommandOnCooldown, command: str) -> str:
    """The private answer to a command refused by a cooldown: a named one's words, or (for
    a cooldown set some other way) the command's name."""
    if isinstance(error, OnCooldown):
        return error.named.message(error.retry_after)
    rate = error.cooldown.rate
    return ngettext(
        "You used /{command} {n} time {window}; try again in {wait}.",
        "You used /{command} {n} times {window}; try again in {wait}.",
        rate,
    ).format(
        command=command, n=rate, window=_window(error.cooldown.per), wait=_wait(error.retry_after)
    )


def _window(seconds: float) -> str:
    """'in the last minute', 'in the last 5 minutes', 'in the last 30 seconds'."""
    for unit, size in (("hour", 3600), ("minute", 60), ("second", 1)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            if unit == "hour":
                if n == 1:
                    return _("in the last hour")
                return ngettext("in the last {n} hour", "in the last {n} hours", n).format(n=n)
            if unit == "minute":
                if n == 1:
                    return _("in the last minute")
                return ngettext("in the last {n} minute", "in the last {n} minutes", n).format(n=n)
            if n == 1:
                return _("in the last second")
            return ngettext("in the last {n} second", "in the last {n} seconds", n).format(n=n)
    return _("in the last {n} seconds").format(n=f"{seconds:g}")


def _wait(seconds: float) -> str:
    """'12 s', '4 min 10 s', '2 min': whole seconds, rounded up, at least 1."""
    whole = max(1, math.ceil(seconds))
    minutes, rest = divmod(whole, 60)
    if not minutes:
        # TRANSLATORS: a wait in seconds, as short as a clock writes it
        return _("{s} s").format(s=rest)
    if rest:
        return _("{m} min {s} s").format(m=minutes, s=rest)
    return _("{m} min").format(m=minutes)
