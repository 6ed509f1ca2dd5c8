"""Tests of ``bot.mail``: reading real clients' mail (``data/``), replies in plain text and
HTML, correspondence, tournaments, puzzles and Togyz by mail, abuse limits, hostile mail, the
pipe mode, and mail through a real Postfix (``postfix_server.py``). ``mail_support.py``: a
loopback mailbox and a raw sender; ``conftest.py``: ``table``, the mail surface on a fresh
service."""
