"""The Discord surface: ``/mancala`` commands, pit buttons, typed moves, the AI in chat.

It only translates: the game service decides who may do what.

- ``client.py``: the bot (``MancalaBot``), which builds the parts below and holds them as
  typed attributes, its ``setup_hook``, and ``serve``/``run`` (``mancala bot``, with another
  surface beside it in the same process when asked: ``SurfaceBeside``);
- ``handlers.py``: what commands and buttons call, as protocols the bot fits, and
  ``bot_of(interaction)``, the typed way to it from a command or button;
- ``command_group.py``: the ``/mancala`` group; ``choices.py``: its autocomplete answers;
  ``activity_launch.py``: ``/mancala activity``, which opens the board as an Activity;
  ``cooldowns.py``: how often one user may run its costly commands (hint, challenge, board);
- ``game_commands.py``: moves (by command, button or typed letter), the board, resigning,
  offers, hints and the record, turned into service calls and replies;
- ``general_commands.py``: help, rules, your games, pings, the leaderboard, server settings;
- ``challenge_commands.py``: challenges, accepting and declining, rematches, games in threads;
- ``puzzle_commands.py``: ``/mancala puzzle`` (today's, another, streaks, the server's
  puzzle board) and the puzzle buttons that answer;
- ``tournament_commands.py``: ``/mancala tournament ...`` (a group of its own), a
  tournament's games in threads of its channel, and its news posted there;
- ``correspondence_commands.py``: ``/mancala vacation start|stop|status`` (a group) and
  ``/mancala premove``, conditional moves;
- ``account_commands.py``: ``/mancala link ...`` (one player on Discord and by mail) and
  ``/mancala privacy export|delete`` (a player's data), two groups;
- ``boards.py``: posting a board and taking the buttons off the one it replaces;
- ``pictures.py``: the board's picture and other embeds, a game's record as a file;
- ``followups.py``: the AI's replies as follow-ups of the player's interaction;
- ``game_threads.py``: a game's own thread, archived a while after the game ends;
- ``known_servers.py``: which server a channel is on, and that server's settings;
- ``identities.py``: Discord users and channels as the service's players and channels;
- ``replies.py``: a private answer, and small helpers for sending;
- ``views.py``: the buttons and menus, whose custom ids carry game and ply;
- ``notify.py``: the service's events, posted to channels;
- ``formatting.py``: the messages' text; ``discord_settings.py``: the environment's settings;
- ``languages.py``: which language each answer and post is in (docs/languages.md), and the
  one place every command and button is answered in it; ``translator.py``: the commands'
  names, descriptions and choices in each Discord locale we speak.
"""
