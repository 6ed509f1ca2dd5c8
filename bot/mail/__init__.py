"""Mancala by email: position-and-move mails against the AI, and correspondence games.

The modules, in the order a message meets them:

- ``transport``: the SMTP server (aiosmtpd) and the relay that sends replies (aiosmtplib).
- ``reading`` (with ``html_text``): parse real mail (policy.default), find the newest text,
  spot bounces and auto-replies.
- ``bot``: decide what to answer to one message, and route it:
- ``position_mail``: the position-and-move format (rules, a board from the sender's side, a
  move) and its error messages, played against ``opponent`` (the AI in a worker process);
- ``correspondence``: games stored by the service, read with ``commands`` and authorized by
  ``tokens``; ``game_mail`` writes their mails, and the ``EmailNotifier`` there sends the
  service's events (the opponent's moves, reminders, forfeits) to email players.
- ``replies``: threaded replies (Message-ID, In-Reply-To, References, Auto-Submitted).
- ``settings`` and ``runner``: configuration from the environment, and the assembly behind
  ``mancala mail`` (server) and ``mancala mail --pipe``.
"""
