"""``mancala mail``: play by email. An SMTP server by default, or one message with ``--pipe``.

Settings come from ``.env`` and the environment (see ``bot.mail.mail_settings``). With ``--pipe``
a mail server (Postfix's pipe transport, procmail...) hands over one message on standard
input; the exit status is 0 when handled, 75 (EX_TEMPFAIL) when the mail server should try
again later, and 65 (EX_DATAERR) when the message is refused (too large).
"""

from __future__ import annotations

import argparse
import os
import sys

from bot.cli_args import Subparsers, add_env_option
from bot.i18n import _


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "mail",
        help=_("play by email: run the SMTP server (or --pipe one message)"),
        description=_(
            "Play by email. Runs an SMTP server (MANCALA_MAIL_LISTEN, default "
            "127.0.0.1:8025) and sends replies through a relay (MANCALA_MAIL_RELAY, default "
            "127.0.0.1:25). With --pipe, reads one message from standard input instead. "
            "Settings: .env and the environment, MANCALA_MAIL_*."
        ),
    )
    parser.add_argument(
        "--pipe",
        action="store_true",
        help=_("handle one message from standard input (for a mail server)"),
    )
    parser.add_argument(
        "--sender",
        default=None,
        help=_(
            "with --pipe: the envelope sender (Postfix: ${sender}); empty means a bounce, "
            "which is never answered"
        ),
    )
    parser.add_argument(
        "--recipient",
        action="append",
        default=[],
        help=_("with --pipe: the envelope recipient (Postfix: ${recipient})"),
    )
    parser.add_argument(
        "--no-games",
        action="store_true",
        help=_("only position-and-move mails against the AI (no game database)"),
    )
    add_env_option(parser)
    parser.set_defaults(func=run_mail)


def run_mail(args: argparse.Namespace) -> int:
    import asyncio

    from bot import logs, metrics
    from bot.config import EX_CONFIG, ConfigError, ai_options, check_database, load_env
    from bot.i18n import Language, speaking
    from bot.mail import runner
    from bot.mail.mail_settings import MailSettings, MailSettingsError

    load_env(args.env)  # the environment wins over the file
    logs.setup()  # ConfigError for a bad LOG_LEVEL: one line, EX_CONFIG
    try:
        settings = MailSettings.from_environ(os.environ)
    except MailSettingsError as err:
        print(err, file=sys.stderr)
        return runner.EX_TEMPFAIL if args.pipe else EX_CONFIG
    try:
        if not args.no_games:
            check_database(settings.database)  # ConfigError: one line
        ai_options()  # ConfigError for a bad MANCALA_AI_* setting, before anything opens
    except ConfigError as err:
        if not args.pipe:
            raise  # the CLI prints it in one line and exits EX_CONFIG
        # The mail server treats any other status as permanent and bounces the player's
        # mail; a setting the operator can fix is worth a retry instead.
        print(err, file=sys.stderr)
        return runner.EX_TEMPFAIL
    if args.pipe:
        raw = sys.stdin.buffer.read(settings.max_bytes + 1)
        while sys.stdin.buffer.read(1 << 16):  # drain an oversized message: the mail server
            pass  # expects its whole message read before it hears the verdict
        with speaking(Language.EN):  # not the operator's LANG: each mail chooses its language
            status = asyncio.run(
                runner.pipe(
                    settings, raw, args.sender, args.recipient, with_games=not args.no_games
                )
            )
        return status
    metrics.serve()  # when METRICS_PORT is set
    try:
        with speaking(Language.EN):  # not the operator's LANG: each mail chooses its language
            asyncio.run(runner.serve(settings, with_games=not args.no_games))
    except MailSettingsError as err:
        print(err, file=sys.stderr)
        return EX_CONFIG
    except OSError as err:  # the port is taken, or not ours to listen on
        print(
            _("cannot listen on {host}:{port}: {error}").format(
                host=settings.listen[0], port=settings.listen[1], error=err
            ),
            file=sys.stderr,
        )
        return 1
    return 0
