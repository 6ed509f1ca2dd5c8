"""Tests of ``bot.discord`` (and the board picture it posts): the real discord.py client
against ``discord_fake.py``, a loopback fake of Discord's API, with the payloads checked
against Discord's limits; games with mail players; ``mancala bot``, also with the web
pages beside it (``test_discord_web.py``). ``conftest.py``:
``fake_discord``, ``clock``."""
