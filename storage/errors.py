"""The errors storage raises, whichever engine is underneath."""


class StorageError(Exception):
    """A storage failure that is not the user's doing."""


class StorageUnavailable(StorageError):
    """The database cannot be reached just now (a restart, a network cut). Nothing the call
    meant to write can be counted on, nor on not being written: the caller tells its user to
    try again, and a retry finds out (a move sent again for the same ply is refused as
    already played if it did land)."""


class ChannelTaken(StorageError):
    """A game is already active in that channel (the unique index refused a second one)."""
