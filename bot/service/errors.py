"""Typed errors of the game service. Every message is fit to show a user as it is.

A surface catches ``ServiceError`` around each call and shows ``str(err)``; the subclasses let
it choose a tone (for example, an ephemeral reply for ``NotYourTurn``). The service writes each
message when it raises it, in the language the surface is speaking for the request
(``bot.i18n.speaking``): a surface calls the service inside ``speaking(language)``.

>>> from bot.service.errors import NotYourTurn, ServiceError
>>> err = NotYourTurn("it is North's turn")
>>> isinstance(err, ServiceError), str(err)
(True, "it is North's turn")
"""

from __future__ import annotations


class ServiceError(Exception):
    """Base of every error the service raises on a user's request; ``str(err)`` is the message.
    ``GameService`` counts each one that reaches a surface (``mancala_errors_total``)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(ServiceError):
    """No such game, challenge or player (or it is not visible to the asker)."""


class UnknownPuzzle(NotFound):
    """No puzzle has that id (``engine.puzzles``)."""


class NotAllowed(ServiceError):
    """The player may not do this: not a player of this game, not the challenged player, ..."""


class NotYourTurn(NotAllowed):
    """A move or AI request while it is the other player's turn."""


class StaleMove(ServiceError):
    """The move names a ply that is no longer current: it was sent for an older board."""


class DuplicateMove(StaleMove):
    """The very same move was already applied at that ply; it is not applied twice."""


class IllegalMove(ServiceError):
    """The engine refused the move; the message says why and what is accepted."""


class BadRules(ServiceError):
    """The ruleset string is malformed or unknown; the message lists what is accepted."""


class BadRequest(ServiceError):
    """Any other malformed input: an unknown AI level, a bad option value, a bad player id."""


class ChannelBusy(ServiceError):
    """The channel already holds an active game (a channel holds at most one)."""


class GameFinished(ServiceError):
    """The game is over; nothing more can be played or offered in it."""


class ChallengeClosed(ServiceError):
    """The challenge was already accepted, declined, cancelled, or has expired."""


class NoOffer(ServiceError):
    """There is no pending draw, end or undo offer to accept or decline (or it is your own)."""


class NoHint(ServiceError):
    """The AI could not suggest a move here (it failed, or cannot play this position)."""


class NoReview(ServiceError):
    """The AI could not review the game just now (it failed); asking again may work."""


class TournamentClosed(ServiceError):
    """The tournament is past what was asked: joining after its start, starting it twice,
    withdrawing once it is over (``bot.service.tournaments``)."""


class TooFewPlayers(ServiceError):
    """A tournament cannot start with the players it has (the message says how many it
    needs)."""


class TooMuchAIWork(ServiceError):
    """The player is past a cap on the AI's work for them (``bot.service.ai_limits``): too many
    games against the AI at once, or too many requests waiting for it. Nothing was done;
    the request can be made again once the AI has caught up."""


class Unavailable(ServiceError):
    """The game database cannot be reached just now (it may be restarting); nothing was
    acknowledged, so the request can simply be made again."""


class ServiceClosed(ServiceError):
    """The service has been closed (the bot is shutting down)."""
