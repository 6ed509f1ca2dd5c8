"""Exceptions of the engine. Each message is fit to show a user as it is."""


class MancalaError(ValueError):
    """Base of every error the engine raises on bad input."""


class RulesetError(MancalaError):
    """A ruleset string or parameter is malformed, unknown, out of range or contradictory."""


class IllegalMove(MancalaError):
    """A move that the rules do not allow in this position; the message says why."""


class PositionError(MancalaError):
    """A written position could not be read; the message names the line and what is accepted."""
