"""``mancala web``: the web companion, game pages on the bot's database (``bot.web``).

Settings come from ``.env`` and the environment (see ``bot.web.settings``). Where the mail
surface is set up (``MANCALA_MAIL_ADDRESS``), a move played on a page is mailed to an email
opponent: the process attaches the mail surface's notifier (it sends through the relay and
listens for no mail; ``mancala mail`` does that).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.cli_args import Subparsers, add_env_option
from bot.i18n import _

if TYPE_CHECKING:
    from bot.service import GameService


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "web",
        help=_("serve the games' web pages"),
        description=_(
            "Serve the games' web pages over HTTP (MANCALA_WEB_LISTEN, default "
            "127.0.0.1:8080), on the bot's database, behind a reverse proxy with TLS. "
            "Settings: .env and the environment, MANCALA_WEB_*."
        ),
    )
    add_env_option(parser)
    parser.set_defaults(func=run_web)


def run_web(args: argparse.Namespace) -> int:
    import asyncio
    import sys

    from bot import logs, metrics
    from bot.config import EX_CONFIG, ai_options, check_database, load_env
    from bot.i18n import Language, speaking
    from bot.web.server import serve
    from bot.web.settings import WebSettings

    load_env(args.env)  # the environment wins over the file
    logs.setup()  # ConfigError for a bad LOG_LEVEL: one line, EX_CONFIG
    settings = WebSettings.from_environ(os.environ)  # ConfigError: one line
    check_database(settings.database)
    options = ai_options()  # the AI replies to moves played on the pages
    attach = None
    if os.environ.get("MANCALA_MAIL_ADDRESS", "").strip():
        from bot.mail.mail_settings import MailSettings, MailSettingsError

        try:
            mail_settings = MailSettings.from_environ(os.environ)
        except MailSettingsError as err:
            print(err, file=sys.stderr)
            return EX_CONFIG

        async def attach(service: GameService) -> Callable[[], Awaitable[None]]:
            from bot.mail.runner import open_surface

            surface = await open_surface(mail_settings, service=service)
            return surface.close  # the relay; the service is ours to close

    metrics.serve()  # when METRICS_PORT is set
    try:
        with speaking(Language.EN):  # not the operator's LANG: each request chooses its own
            asyncio.run(serve(settings, options, attach))
    except OSError as err:  # the port is taken, or not ours to listen on
        print(
            _("cannot listen on {host}:{port}: {error}").format(
                host=settings.listen[0], port=settings.listen[1], error=err
            ),
            file=sys.stderr,
        )
        return 1
    return 0
