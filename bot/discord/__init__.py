"""The Discord surface: ``/mancala`` commands, pit buttons, typed moves, the AI in chat.

It only translates: the game service decides who may do what.

- ``client.py``: the bot, its ``setup_hook`` and ``serve``/``run`` (``mancala bot``);
- ``commands.py``: the ``/mancala`` group; ``choices.py``: its autocomplete answers;
- ``actions.py``: moves, offers, boards and lists, turned into service calls and replies;
- ``challenges.py``: challenges, accepting and declining, games in threads;
- ``views.py``: the buttons and menus, whose custom ids carry game and ply;
- ``notify.py``: the service's events, posted to channels;
- ``formatting.py``: the messages' text; ``settings.py``: the environment's settings.
"""
