"""``mancala bot``: run the Discord bot with the token from ``.env`` or the environment.

Without a token it prints what to set and how to get one, and exits with status 2:

>>> print(token_help().splitlines()[0])
No Discord token: set DISCORD_TOKEN in .env (or in the environment).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from typing import TYPE_CHECKING

from bot.cli_args import Subparsers, add_env_option
from bot.config import EX_CONFIG, check_database
from bot.i18n import _
from engine import excerpt

if TYPE_CHECKING:
    from bot.discord.client import StartSurface

NO_TOKEN_EXIT = EX_CONFIG  # a setting is missing: restarting cannot fix it


def token_help() -> str:
    """What to set and how to create a bot application, for an operator who has no token yet."""
    # TRANSLATORS: the quoted names ("New Application", "Bot"...) are the English labels of
    # Discord's developer portal, which has no other language: keep them as they are.
    return _("""No Discord token: set DISCORD_TOKEN in .env (or in the environment).

To get one:
  1. Open https://discord.com/developers/applications and press "New Application".
  2. In "Bot", press "Reset Token" and copy it into .env as
         DISCORD_TOKEN=your-token-here
     (deploy/.env.example shows every setting).
  3. Optional: to read typed moves ("E") in a game's channel, switch on
     "Message Content Intent" under "Bot" and set DISCORD_MESSAGE_CONTENT=yes.
     Without it everything works through /mancala commands and buttons.
  4. In "OAuth2 > URL Generator" tick the scopes "bot" and "applications.commands" and the
     permissions View Channels, Send Messages, Send Messages in Threads, Create Public
     Threads and Read Message History; open the URL to invite the bot.
  5. Optional, while testing: DISCORD_GUILD=<your server's id> makes the commands appear at
     once in that server (global commands can take up to an hour).

Then run: mancala bot""")


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "bot",
        help=_("run the Discord bot (token from .env: DISCORD_TOKEN)"),
        description=_(
            "Run the Discord bot. Settings come from .env in the current directory (or --env "
            "FILE) and the environment: DISCORD_TOKEN (required), DISCORD_GUILD (optional: "
            "sync commands to this server at once), DISCORD_MESSAGE_CONTENT=yes (optional: "
            "typed moves in game channels), MANCALA_DB (optional: the games database file, "
            "shared with mancala play)."
        ),
    )
    add_env_option(parser)
    parser.set_defaults(func=run_bot)


def run_bot(args: argparse.Namespace) -> int:
    from bot.config import load_env

    load_env(args.env)  # the environment wins over the file, as operators expect
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print(token_help(), file=sys.stderr)
        return NO_TOKEN_EXIT
    guild = os.environ.get("DISCORD_GUILD", "").strip()
    if guild and not (guild.isascii() and guild.isdigit()):
        print(
            _(
                "DISCORD_GUILD must be a server id (digits only), not '{guild}'; in Discord, "
                "enable Developer Mode, right-click the server and choose Copy Server ID."
            ).format(guild=excerpt(guild)),
            file=sys.stderr,
        )
        return NO_TOKEN_EXIT
    from bot import logs, metrics
    from bot.config import ConfigError, ai_options
    from bot.discord.client import run
    from bot.discord.discord_settings import Settings

    try:
        settings = Settings.from_environ(os.environ)
    except ValueError as err:  # discord_settings.DiscordSettingsError
        raise ConfigError(str(err)) from None
    check_database(settings.database)  # ConfigError: one clear line, EX_CONFIG
    ai_options()  # ConfigError for a bad MANCALA_AI_* setting, before anything opens
    logs.setup()  # LOG_LEVEL; ConfigError when it is not a level
    metrics.serve()  # when METRICS_PORT is set
    beside: list[StartSurface] = []
    if os.environ.get("MANCALA_MAIL_ADDRESS", "").strip():
        # One process for both surfaces: mixed Discord/email games are announced both ways.
        # They meet here, above both: Discord starts the mail surface without importing it.
        from bot.mail.mail_settings import MailSettings, MailSettingsError
        from bot.mail.runner import start_mail_surface

        try:
            mail_settings = MailSettings.from_environ(os.environ)
        except MailSettingsError as err:
            print(err, file=sys.stderr)
            return NO_TOKEN_EXIT
        beside.append(functools.partial(start_mail_surface, settings=mail_settings))
    if os.environ.get("MANCALA_WEB_LISTEN", "").strip():
        # The pages on Discord's own service: a move played on a page is announced to a
        # Discord opponent at once, which a separate ``mancala web`` process cannot do.
        from bot.web.server import start_web_surface
        from bot.web.settings import WebSettings

        web_settings = WebSettings.from_environ(os.environ)  # ConfigError: one line
        beside.append(functools.partial(start_web_surface, settings=web_settings))
    from bot.i18n import Language, speaking

    with speaking(Language.EN):  # not the operator's LANG: each request chooses its language
        return run(token, settings, beside)
