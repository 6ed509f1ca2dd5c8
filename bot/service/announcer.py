"""Telling the players: each event goes to the notifier of the recipient's surface, in a task
of its own, so a slow or failing surface never delays or breaks a move (failures are logged).

After a change, ``after_change`` says what happened (a move, the end) and, when it is an AI's
turn, says so on the hooks (``Hooks.ai_turn_due``: the AI part moves); each move is told to
``Hooks.moved`` too, and each delivery first asks ``Hooks.held_back`` (``bot.service.hooks``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from bot.service.events import Event, GameOver, MoveMade, Notifier
from bot.service.hooks import Hooks
from bot.service.tasks import Tasks
from bot.service.types import GameView, Player

log = logging.getLogger(__name__)


class Announcer:
    """Tells each human player of a change through their surface's notifier; says on the
    hooks when the AI is to move."""

    def __init__(self, tasks: Tasks, hooks: Hooks):
        self._tasks = tasks
        self._hooks = hooks
        self.notifiers: dict[str, Notifier] = {}

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
            self._hooks.ai_turn_due.emit(view.id)
        if move is not None:
            self._hooks.moved.emit(view)

    async def _deliver(self, notifier: Notifier, event: Event) -> None:
        try:
            if await self._hooks.held_back(event):
                return
            await notifier.notify(event)
        except Exception:
            log.exception("delivering %s to %s failed", type(event).__name__, event.recipient)
