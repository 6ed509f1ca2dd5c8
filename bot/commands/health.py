"""``mancala health``: is the bot well? One line per check (one per running bot process);
exit 0 when all pass, else 1.

Used by the container's HEALTHCHECK and by the systemd unit (``--before-start`` in
ExecStartPre: the settings and the database, before the bot runs). See bot.health.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bot.cli_args import Subparsers, add_env_option
from bot.i18n import _


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "health",
        help=_("check the database, the running bot, the mail relay and the AI"),
        description=_(
            "Check that the games database opens and is intact, that a bot (mancala bot or "
            "mancala mail) is running with its surfaces up (one line per process), "
            "that the mail relay answers (when MANCALA_MAIL_ADDRESS is set), and the AI's "
            "state. One line per check; exit status 0 when all pass, 1 otherwise, 78 for "
            "a bad setting."
        ),
    )
    parser.add_argument(
        "--before-start",
        action="store_true",
        help=_("check the settings and the database only (before the bot runs)"),
    )
    add_env_option(parser)
    parser.set_defaults(func=run_health)


def run_health(args: argparse.Namespace) -> int:
    from bot import health, logs, metrics
    from bot.config import check_database, database_path, load_env

    load_env(args.env)
    logs.level()  # a bad LOG_LEVEL or METRICS_PORT is a ConfigError: 78, one line
    metrics.endpoint()
    database = database_path()
    if args.before_start and isinstance(database, Path) and not database.exists():
        check_database(database)  # can it be made? ConfigError (78) says why not
        created = _("{database} is created on first start").format(database=database)
        checks = [health.Check("database", True, created)]
    else:
        checks = [health.check_database(database)]
    if not args.before_start:
        checks += health.check_bots(health.heartbeat_dir(database))
        if any(
            os.environ.get(name, "").strip()
            for name in ("MANCALA_MAIL_ADDRESS", "MANCALA_MAIL_RELAY")
        ):
            from bot.mail.mail_settings import MailSettings, MailSettingsError

            try:
                relay = MailSettings.from_environ(os.environ).relay
            except MailSettingsError as err:
                checks.append(health.Check("mail relay", False, str(err)))
            else:
                checks.append(health.check_relay(*relay))
        checks.append(health.check_ai())
    for check in checks:
        print(check.line())
    sys.stdout.flush()
    return 0 if all(check.ok for check in checks) else 1
