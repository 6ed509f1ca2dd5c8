"""The PlayStrategy bot: the AI playing on playstrategy.org through its Bot API (Lichess's),
each game a service game like any other (``mancala playstrategy-bot``; deploy/playstrategy.md).

- ``api.py``: ``BotApi``, the HTTP client (aiohttp): the NDJSON event and game streams, and the
  verbs (accept or decline a challenge, move, chat, resign, abort, answer a draw); a 429 waits
  a minute on an injectable sleep;
- ``bridge.py``: ``PlaystrategyBot``, the surface's notifier and the loop: challenges answered
  by the operator's settings, each game mirrored in the service and checked ply by ply,
  reconnects with backoff, draws and takebacks answered by its documented rule;
- ``notation.py``: PlayStrategy's variants mapped to our rulesets, and its moves (``a1e1``)
  to and from our engine's pit letters;
- ``settings.py``: ``PlaystrategySettings``, the operator's settings from the environment.
"""

from bot.playstrategy.api import BotApi
from bot.playstrategy.bridge import PlaystrategyBot
from bot.playstrategy.settings import PlaystrategySettings

__all__ = ["BotApi", "PlaystrategyBot", "PlaystrategySettings"]
