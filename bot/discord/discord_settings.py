"""The bot's settings, read from the environment (``mancala bot`` loads ``.env`` first).

>>> s = Settings.from_environ({"DISCORD_GUILD": "123", "DISCORD_MESSAGE_CONTENT": "yes",
...                             "MANCALA_DB": "/srv/mancala/games.sqlite3"})
>>> s.guild_id, s.message_content, s.database
(123, True, '/srv/mancala/games.sqlite3')

Sharding (Discord requires it from 2,500 servers): each process serves one shard,
``DISCORD_SHARD_ID`` of ``DISCORD_SHARD_COUNT``, all on one PostgreSQL database.

>>> Settings.from_environ({"DISCORD_SHARD_COUNT": "4", "DISCORD_SHARD_ID": "2"}).shard
(2, 4)

With ``MANCALA_WEB_URL`` (the web companion's address) each board links to its game's page:

>>> Settings.from_environ({"MANCALA_WEB_URL": "https://mancala.example/"}).web_url
'https://mancala.example'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.config import database_path
from bot.i18n import _
from bot.web.links import web_base

_YES = {"1", "yes", "true", "on", "y"}


@dataclass(frozen=True)
class Settings:
    guild_id: int | None = None  # sync commands to this server at once (testing)
    message_content: bool = False  # typed moves; needs the privileged Message Content intent
    database: str = "mancala.sqlite3"  # from_environ: MANCALA_DB, else the data directory's
    sync_commands: bool = True  # push the command tree to Discord at start-up
    shard: tuple[int, int] | None = None  # (this process's shard id, the shard count)
    web_url: str | None = None  # MANCALA_WEB_URL: boards link to their game's page

    @classmethod
    def from_environ(cls, env: Mapping[str, str]) -> Settings:
        guild = env.get("DISCORD_GUILD", "").strip()
        return cls(
            guild_id=(
                int(guild) if guild.isascii() and guild.isdigit() and len(guild) <= 20 else None
            ),  # ASCII digits: isdigit() alone passes superscripts
            message_content=env.get("DISCORD_MESSAGE_CONTENT", "").strip().lower() in _YES,
            database=str(database_path(env)),  # the same file the terminal plays on
            sync_commands=env.get("DISCORD_SYNC", "yes").strip().lower() in _YES,
            shard=_shard(env),
            web_url=web_base(env),  # ValueError naming the setting, as the shard's
        )


class DiscordSettingsError(ValueError):
    """A Discord setting that cannot work; ``mancala bot`` says it in one line (exit 78)."""


def _shard(env: Mapping[str, str]) -> tuple[int, int] | None:
    count, shard = (env.get(k, "").strip() for k in ("DISCORD_SHARD_COUNT", "DISCORD_SHARD_ID"))
    if not count and not shard:
        return None
    if not all(x.isascii() and x.isdigit() and len(x) <= 5 for x in (count, shard)) or not 0 <= int(
        shard
    ) < int(count):
        raise DiscordSettingsError(
            _(
                "DISCORD_SHARD_COUNT (how many shards) and DISCORD_SHARD_ID (this process's, "
                "from 0) go together: whole numbers, the id below the count"
            )
        )
    return int(shard), int(count)
