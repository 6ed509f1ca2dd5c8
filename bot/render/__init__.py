"""What any surface can show beside the 003 board: pictures, and a review in words.

- ``board_picture.py``: the board as a PNG and in words (alt text), a pure function of the
  position.
- ``review_picture.py``: a game's review as an evaluation graph (PNG) and its alt text.
- ``review_text.py``: a game's review in a few lines: each player's accuracy and errors, the
  turning point, the key moments.
- ``words.py``: the words around the notation in the current language: a side, a move's
  class, a puzzle's grade.
"""
