"""The bot's settings, read from the environment (``mancala bot`` loads ``.env`` first).

>>> s = Settings.from_environ({"DISCORD_GUILD": "123", "DISCORD_MESSAGE_CONTENT": "yes",
...                             "MANCALA_DB": "/srv/mancala/games.sqlite3"})
>>> s.guild_id, s.message_content, s.database
(123, True, '/srv/mancala/games.sqlite3')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from bot.config import database_path

_YES = {"1", "yes", "true", "on", "y"}


@dataclass(frozen=True)
class Settings:
    guild_id: int | None = None  # sync commands to this server at once (testing)
    message_content: bool = False  # typed moves; needs the privileged Message Content intent
    database: str = "mancala.sqlite3"  # from_environ: MANCALA_DB, else the data directory's
    sync_commands: bool = True  # push the command tree to Discord at start-up

    @classmethod
    def from_environ(cls, env: Mapping[str, str]) -> Settings:
        guild = env.get("DISCORD_GUILD", "").strip()
        return cls(
            guild_id=(int(guild) if guild.isascii() and guild.isdigit() and len(guild) <= 20
                      else None),  # ASCII digits: isdigit() alone passes superscripts
            message_content=env.get("DISCORD_MESSAGE_CONTENT", "").strip().lower() in _YES,
            database=str(database_path(env)),  # the same file the terminal plays on
            sync_commands=env.get("DISCORD_SYNC", "yes").strip().lower() in _YES,
        )
