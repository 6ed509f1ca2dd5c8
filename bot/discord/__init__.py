"""The Discord surface: ``/mancala`` commands, pit buttons, typed moves, the AI in chat.

It only translates: the game service decides who may do what. ``client.py`` holds the bot and
its ``setup_hook``; ``commands.py`` the ``/mancala`` group; ``views.py`` the buttons;
``actions.py`` turns requests into service calls; ``notify.py`` posts the service's events;
``formatting.py`` writes the messages. ``mancala bot`` (bot/commands/discord.py) runs it.
"""
