"""``mancala web``: the web companion, game pages on the bot's database (``bot.web``).

Settings come from ``.env`` and the environment (see ``bot.web.settings``).
"""

from __future__ import annotations

import argparse
import os

from bot.cli_args import Subparsers, add_env_option
from bot.i18n import _


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
    from bot.config import ai_options, check_database, load_env
    from bot.i18n import Language, speaking
    from bot.web.server import serve
    from bot.web.settings import WebSettings

    load_env(args.env)  # the environment wins over the file
    logs.setup()  # ConfigError for a bad LOG_LEVEL: one line, EX_CONFIG
    settings = WebSettings.from_environ(os.environ)  # ConfigError: one line
    check_database(settings.database)
    options = ai_options()  # the AI replies to moves played on the pages
    metrics.serve()  # when METRICS_PORT is set
    try:
        with speaking(Language.EN):  # not the operator's LANG: each request chooses its own
            asyncio.run(serve(settings, options))
    except OSError as err:  # the port is taken, or not ours to listen on
        print(
            _("cannot listen on {host}:{port}: {error}").format(
                host=settings.listen[0], port=settings.listen[1], error=err
            ),
            file=sys.stderr,
        )
        return 1
    return 0
