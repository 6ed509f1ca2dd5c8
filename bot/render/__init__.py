"""Pictures of a position that any surface can attach beside the 003 board.

- ``board_picture.py``: the board as a PNG and in words (alt text), a pure function of the
  position.
"""
