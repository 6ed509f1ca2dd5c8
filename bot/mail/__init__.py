"""Mancala by email: position-and-move mails against the AI, and correspondence games.

The modules, in the order a message meets them:

- ``reading``: parse real mail (policy.default), find the newest text, spot bounces.
- ``position_mail``: the position-and-move format (rules, a board from the sender's side, a
  move) and its error messages.
- ``replies``: build threaded replies (Message-ID, In-Reply-To, References, Auto-Submitted).
- ``tokens``: the secret per-game, per-player tokens that authorize correspondence moves.
- ``bot``: decide what to answer to one message.
- ``transport``: the SMTP server (aiosmtpd) and the relay that sends replies (aiosmtplib).
- ``settings``: configuration from the environment or ``.env``.
"""
