"""``mancala playstrategy-bot``: the AI as a bot on PlayStrategy (``bot.playstrategy``), on
the same database as the other surfaces. Settings: ``.env`` and the environment,
PLAYSTRATEGY_* (``bot.playstrategy.settings``; deploy/playstrategy.md)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from bot.cli_args import Subparsers, add_env_option
from bot.i18n import _

if TYPE_CHECKING:
    from pathlib import Path

    from bot.playstrategy.settings import PlaystrategySettings


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "playstrategy-bot",
        help=_("play on PlayStrategy as a bot account (PLAYSTRATEGY_TOKEN)"),
        description=_(
            "Connect to PlayStrategy's Bot API with a bot account's token, accept the "
            "challenges the settings allow and play them with the AI. Settings: .env and the "
            "environment, PLAYSTRATEGY_*."
        ),
    )
    add_env_option(parser)
    parser.set_defaults(func=run_playstrategy)


def run_playstrategy(args: argparse.Namespace) -> int:
    import asyncio
    import os

    from bot import logs, metrics
    from bot.config import ai_options, check_database, database_path, load_env
    from bot.i18n import Language, speaking
    from bot.playstrategy.settings import PlaystrategySettings

    load_env(args.env)  # the environment wins over the file
    logs.setup()  # ConfigError for a bad LOG_LEVEL: one line, EX_CONFIG
    settings = PlaystrategySettings.from_environ(os.environ)  # ConfigError: one line
    database = check_database(database_path())
    options = ai_options()  # ConfigError for a bad MANCALA_AI_* setting, before anything opens
    metrics.serve()  # when METRICS_PORT is set
    with speaking(Language.EN):  # the chat's few words; PlayStrategy says nothing of languages
        asyncio.run(_serve(settings, database, options))
    return 0


async def _serve(
    settings: PlaystrategySettings, database: Path | str, options: dict[str, Any]
) -> None:
    import asyncio

    from bot.health import heartbeat_forever, heartbeat_path, service_status
    from bot.playstrategy import BotApi, PlaystrategyBot
    from bot.service import GameService

    async with (
        await GameService.open(database, **options) as service,
        BotApi(settings.url, settings.token) as api,
    ):
        bot = PlaystrategyBot(service, api, settings)

        async def status() -> dict[str, Any]:  # `mancala health` reads it
            return {"surfaces": {"playstrategy": bot.state}, **await service_status(service)}

        beat = asyncio.create_task(heartbeat_forever(heartbeat_path(database), status))
        try:
            await bot.run()
        finally:
            beat.cancel()
            await asyncio.gather(beat, return_exceptions=True)
