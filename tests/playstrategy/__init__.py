"""Tests of the PlayStrategy bot (``bot.playstrategy``) against ``fake_api``, a loopback fake
of the Bot API written from Lichess's documentation of it: whole games in each variant,
challenges, reconnects, 429."""
