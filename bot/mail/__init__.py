"""Mancala by email: position-and-move mails against the AI, and correspondence games.

The modules, in the order a message meets them:

- ``transport``: the SMTP server (aiosmtpd) that hands each message to the bot, and the
  ``Relay`` that sends replies (aiosmtplib).
- ``reading`` (with ``html_text``): parse real mail (policy.default), find the newest text,
  spot bounces and auto-replies.
- ``authentication``: reads the operator's ``Authentication-Results`` header; mail that
  failed SPF or DMARC (a forged sender) gets no reply.
- ``reply_limits``: ``ReplyLimiter``, the limits on automatic replies per address and in
  all, and on challenges mailed to addresses that never wrote (docs/limits.md).
- ``bot``: ``MailBot`` decides what to answer to one message and routes it:
- ``position_mail``: the position-and-move format (rules, a board from the sender's side or
  a PlayStrategy position string, a move) and its error messages, played against the AI in
  the shared ``AIPool``;
- ``correspondence``: games kept by the game service, read with ``mail_commands`` (the
  first line's command and ``HELP``) and authorized by ``tokens`` (a secret per seat, in
  the subject and reply address); ``game_mail`` writes their mails, and the
  ``EmailNotifier`` there sends the service's events (the opponent's moves, offers,
  reminders, forfeits) to email players; ``puzzle_mail``: puzzles asked for with 'puzzle'
  and answered by replying with the move; ``record_mail``: ``review`` with a game record
  pasted or attached (PlayStrategy's PGN, a Kazakh scoresheet, Aualé's OGN, ours), answered
  with the solver's review.
- ``account_mail``: ``link discord``, ``link CODE`` and ``privacy export|delete``: one player
  on Discord and by mail, and a player's data; the mail confirming a link asked on Discord.
- ``tournament_mail``: ``tournament create|join|start|...`` and a tournament's news (each
  round's game mails, byes, the final standings) for players by mail.
- ``schedule_mail``: vacations, the digest's setting and conditional moves, in a reply that
  carries the player's token; ``digest``: the daily digest mail, and a reply to it that moves
  in several games at once (``#12 C`` lines).
- ``mail_language``: the ``language`` command, the Content-Language of what the bot sends,
  and the sides' names every mail shares.
- ``replies``: threaded replies (Message-ID, In-Reply-To, References, Auto-Submitted), each
  with the HTML part of ``html_mail``: the text with every board in a monospace block and
  its picture inline, for phones.
- ``unsubscribe``: the ``List-Unsubscribe`` headers every mail carries, and the gate the
  relay asks before each mail (nothing to an address that said stop); ``stop_mail``: the
  ``stop`` and ``start`` commands, and the one answer a stopped address gets (docs/privacy.md).
- ``mail_settings``: the settings from the environment (``MailSettings``,
  ``MailSettingsError``); ``runner``: the assembly behind ``mancala mail`` (server) and
  ``mancala mail --pipe``, and the mail surface started inside the Discord bot's process
  (``mancala bot`` hands ``start_mail_surface`` to it: neither surface imports the other).
"""
