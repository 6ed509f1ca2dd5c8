"""Telling the players: each event goes to the notifier of the recipient's surface, in a task
of its own, so a slow or failing surface never delays or breaks a move (failures are logged).

After a change, ``after_change`` says what happened (a move, the end) and, when it is an AI's
turn, hands the game to ``ai_turn`` (the AI part's scheduler, wired by ``GameService``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any

from bot.service.events import Event, GameOver, MoveMade, Notifier
from bot.service.tasks import Tasks
from bot.service.types import GameView, Player

log = logging.getLogger(__name__)


class Announcer:
    """Tells each human player of a change through their surface's notifier; hands AI turns
    to ``ai_turn``."""

    def __init__(self, tasks: Tasks):
        self._tasks = tasks
        self.notifiers: dict[str, Notifier] = {}
        self.ai_turn: Callable[[int], None] = lambda game_id: None
        # Told of every move after its announcement (conditional moves answer it; wired by
        # GameService to bot.service.premoves): it must only schedule work.
        self.moved: Callable[[GameView], None] = lambda view: None
        # Whether an event is held back from its recipient (a move for a player who reads a
        # daily digest instead; wired to bot.service.digests).
        self.held_back: Callable[[Event], Awaitable[bool]] | None = None

    def notify(
        self,
        recipients: Iterable[Player | None],
        make: Callable[[Player], Event],
        actor: Player | None = None,
    ) -> None:
        """``make(who)`` for each human recipient but the actor (who has the return value)."""
        seen: set[Player] = set()
        for who in recipients:
            if who is None or who.is_ai or who == actor or who in seen:
                continue
            seen.add(who)
            notifier = self.notifiers.get(who.surface)
            if notifier is not None:
                self._tasks.spawn(self._deliver(notifier, make(who)), name="notify")

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run ``work`` in the background, as notifications are (``Tasks.spawn``)."""
        self._tasks.spawn(work, name=name)

    async def refuses_challenge(self, challenger: Player, opponent: Player) -> str | None:
        """The opponent's surface's reason not to deliver this challenge, if it has one."""
        notifier = self.notifiers.get(opponent.surface)
        if notifier is None or opponent.is_ai:
            return None
        return await notifier.refuses_challenge(challenger, opponent)

    def after_change(
        self,
        view: GameView,
        actor: Player | None = None,
        move: str | None = None,
        schedule_ai: bool = True,
        by: Player | None = None,
        answering: str | None = None,
    ) -> None:
        """Tell the players (``actor`` is answered by the return value instead; ``by`` made
        ``move``, the actor unless the AI did; ``answering``: a conditional move's
        condition), and let the AI move if it is its turn."""
        humans = [view.south, view.north]
        mover = by or actor
        if move is not None and mover is not None:
            self.notify(
                humans, lambda who: MoveMade(who, view, move, mover, answering), actor=actor
            )
        if view.is_over:
            self.notify(humans, lambda who: GameOver(who, view), actor=actor)
        elif view.to_move is not None and view.to_move.is_ai and schedule_ai:
            self.ai_turn(view.id)
        if move is not None:
            self.moved(view)

    async def _deliver(self, notifier: Notifier, event: Event) -> None:
        try:
            if self.held_back is not None and await self.held_back(event):
                return
            await notifier.notify(event)
        except Exception:
            log.exception("delivering %s to %s failed", type(event).__name__, event.recipient)
