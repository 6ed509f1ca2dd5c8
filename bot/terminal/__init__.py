"""The terminal surface: play at a prompt, on the same service and database as the bots.

- ``session.py``: the prompt loop (``play``), the board after every move, and the words a
  player types (``help``, ``undo``, ``hint``, ``resign``, ``language``, ``quit``), in the
  player's language.
"""
