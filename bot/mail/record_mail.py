"""``review`` with a game record: the solver's review of a game played elsewhere.

A mail whose first line is ``review`` and that carries a record, pasted below that line or
attached (a .pgn, .ogn or .txt file, or any text/plain attachment), is answered with the
solver's review of the game in it: PlayStrategy's PGN, a Kazakh scoresheet, Aualé's OGN or a
record exported here, found by its content (``GameService.review_record``). A ``review``
that answers a game mail carries that game's token and reviews the stored game instead
(``correspondence``); only a mail without one comes here.

>>> review_asked("Review\\n[Variant \\"Oware\\"]")
True
>>> review_asked("review 7")
False
"""

from __future__ import annotations

import re
from email.message import EmailMessage

from bot.i18n import _
from bot.mail.game_mail import GameMailer
from bot.mail.mail_commands import first_line
from bot.mail.mail_language import side_words
from bot.mail.reading import IncomingMail, text_attachments
from bot.render.review_text import review_summary
from bot.service import GameService, Player, ServiceError
from bot.service.reviews import MAX_REVIEWED_RECORD
from engine import SIDES, render

_REVIEW = re.compile(r"^review\s*:?$", re.I)


def review_asked(text: str) -> bool:
    """Whether the mail's first line is ``review`` alone (``review 7`` names a stored game)."""
    return _REVIEW.match(first_line(text)) is not None


def pasted_record(text: str) -> str:
    """What follows the ``review`` line: the record, when it was pasted."""
    lines = text.strip().split("\n")
    return "\n".join(lines[1:]).strip()


def record_help() -> str:
    # TRANSLATORS: 'review' is the command: keep it in English
    return _(
        "To have a game reviewed, write 'review' on the first line and paste the record "
        "below it, or attach it (a .pgn, .ogn or .txt file of at most {limit} KB): "
        "PlayStrategy's PGN, a Kazakh scoresheet, Aualé's OGN, or a record exported here."
    ).format(limit=MAX_REVIEWED_RECORD // 1024)


class RecordMail:
    """Reviews the game in a mailed record through the service (its limits are the
    caller's: ``Correspondence``, as a position mail's)."""

    def __init__(self, service: GameService, mailer: GameMailer) -> None:
        self.service = service
        self.mailer = mailer

    def wants(self, mail: IncomingMail) -> bool:
        """A ``review`` mail that brings a record, pasted or attached."""
        if not review_asked(mail.text):
            return False
        return bool(pasted_record(mail.text)) or bool(
            text_attachments(mail.message, MAX_REVIEWED_RECORD)
        )

    async def handle(self, mail: IncomingMail) -> list[EmailMessage]:
        text = pasted_record(mail.text)
        if not text:
            attached = text_attachments(mail.message, MAX_REVIEWED_RECORD)[0]
            if attached.text is None:
                problem = _(
                    "your attachment {name} has {size:,} bytes; a record is read up to "
                    "{limit:,} bytes"
                ).format(
                    name=attached.filename or "?", size=attached.size, limit=MAX_REVIEWED_RECORD
                )
                return [self._reply(mail, self._failed(problem))]
            text = attached.text
        try:
            done = await self.service.review_record(text, Player("email", mail.from_address))
        except ServiceError as err:
            return [self._reply(mail, self._failed(str(err)))]
        names = {side: side_words(side) for side in SIDES}
        summary = review_summary(
            done.review,
            names,
            title=_("The game in your record"),
            moments=5,
            board_at=lambda ply: (
                "\n" + _("The board before it:") + "\n" + render(done.positions[ply - 1]) + "\n"
            ),
        )
        final = _("The final board:") + "\n" + render(done.game.position)
        return [self._reply(mail, f"{summary}\n\n{final}")]

    def _failed(self, problem: str) -> str:
        return (
            _("I could not review the record: {problem}").format(problem=problem)
            + "\n\n"
            + record_help()
        )

    def _reply(self, mail: IncomingMail, body: str) -> EmailMessage:
        return self.mailer.plain_reply(mail, mail.from_address, body)
