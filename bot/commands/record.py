"""``mancala record FILE --to FORMAT``: a game record written again in one of the community's
formats (``engine.records``): PlayStrategy's PGN, the Kazakh scoresheet, Aualé's OGN.

The record read may be in any of those or ours (``/mancala history``'s export, the web page's
``record.txt``); the format is found by its content. A ruleset the chosen format does not
describe is refused with the reason, and ``--to`` alone lists the formats a record's game has.

>>> from bot.cli import build_parser
>>> args = build_parser().parse_args(["record", "game.txt", "--to", "auale-ogn"])
>>> args.to
'auale-ogn'
"""

from __future__ import annotations

import argparse

from bot.cli_args import Subparsers, add_lang_option
from bot.i18n import _
from engine.records import FORMATS, MAX_RECORD_CHARS


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "record",
        help=_("write a game record in PlayStrategy's PGN, a Kazakh scoresheet or Aualé's OGN"),
        description=_(
            "Read a game record (ours, PlayStrategy's PGN, a Kazakh scoresheet or Aualé's "
            "OGN, found by its content), check every move, and write it in the format "
            "--to names. Without --to, list the formats the game can be written in."
        ),
    )
    parser.add_argument("file", metavar="FILE", help=_("the record (- reads standard input)"))
    parser.add_argument("--to", choices=FORMATS, default=None, help=_("the format to write"))
    add_lang_option(parser)
    parser.set_defaults(func=run_record)


def run_record(args: argparse.Namespace) -> int:
    from bot.commands.referee import read_text
    from engine import MancalaError
    from engine.records import convert, formats_for, read_record, record_format
    from engine.review import game_from_record

    try:
        written = read_text(args.file, MAX_RECORD_CHARS)
        if args.to is not None:
            print(convert(written, args.to), end="")
            return 0
        found = record_format(written)
        game = game_from_record(written) if found is None else read_record(written).game()
    except OSError as err:
        print(_("error: cannot read the record: {reason}").format(reason=err.strerror or err))
        return 2
    except MancalaError as err:
        print(_("error: {message}").format(message=err))
        return 2
    formats = formats_for(game.rules)
    if not formats:
        print(_("no community format describes {rules}").format(rules=game.rules))
        return 1
    print("\n".join(formats))
    return 0
