"""A mail player's accounts and data: ``link``, ``privacy`` on a mail's first line
(docs/privacy.md). The service decides (``bot.service.identities``); this reads the words and
writes the answers, within the sender's automatic replies (``bot.mail.reply_limits``).

A From address can be forged, so nothing here acts on it alone: what changes something needs a
code that only the address's own inbox received (``link CODE`` after a link asked on Discord,
``privacy delete CODE``), and what gives something out goes to the address itself (the export,
a code). Unlinking and choosing where news goes are done on Discord, where the account proves
itself.

>>> read_request("link discord"), read_request("Link: abcd2345")
(AccountRequest(verb='link', code=None), AccountRequest(verb='confirm', code='ABCD-2345'))
>>> read_request("privacy delete ABCD-2345"), read_request("Move 3: C") is None
(AccountRequest(verb='delete', code='ABCD-2345'), True)
>>> read_request("", subject="Re: [mancala] link WXYZ-2345: your Discord account").code
'WXYZ-2345'
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from email.message import EmailMessage

from bot.i18n import N_, _
from bot.mail.game_mail import GameMailer
from bot.mail.mail_commands import first_line
from bot.mail.reading import IncomingMail
from bot.mail.replies import build_reply, new_message
from bot.service import GameService, Player, ServiceError
from bot.service.events import LinkRequested

_CODE = r"([A-HJ-NP-Z2-9]{4})-?([A-HJ-NP-Z2-9]{4})"
_LINK = re.compile(r"^\s*link\b[\s:,.!]*(.*)$", re.I)
_CODE_ALONE = re.compile(rf"^{_CODE}\b", re.I)
_SUBJECT_CODE = re.compile(rf"\[mancala\]\s+link\s+{_CODE}", re.I)
_UNLINK = re.compile(r"^\s*unlink\b", re.I)
_PRIVACY = re.compile(r"^\s*privacy\b[\s:,.!]*(export|delete)?\b[\s:,.!]*(.*)$", re.I)
EXPORT_NAME = "mancala-data.json"

# TRANSLATORS: the words in the left-hand column are commands: keep them in English
HELP = N_(
    """Your accounts and your data, by mail (the first line of your mail):
    link discord        a code to enter on Discord with /mancala link code: your Discord
                        account and this address become one player
    link CODE           link this address with the Discord account that asked for CODE
    privacy export      everything stored about you, as a JSON file
    privacy delete      a code to confirm deleting your player; then 'privacy delete CODE'
To unlink an account, or choose where news of your games goes, use /mancala link on Discord."""
)


@dataclass(frozen=True)
class AccountRequest:
    """``verb``: link (ask for a code), confirm (a link code), unlink, export, delete (with
    ``code``: confirm it), help."""

    verb: str
    code: str | None = None


def _code(found: re.Match[str] | None) -> str | None:
    return f"{found.group(1)}-{found.group(2)}".upper() if found else None


def read_request(text: str, subject: str = "") -> AccountRequest | None:
    """The account request on the first line of ``text`` (or a link code in the subject of a
    reply to the link mail), or None when it makes none."""
    line = first_line(text)
    if _UNLINK.match(line):
        return AccountRequest("unlink")
    linked = _LINK.match(line)
    if linked:
        rest = linked.group(1).strip()
        if rest.lower().startswith("discord"):
            return AccountRequest("link")
        code = _code(_CODE_ALONE.match(rest))
        return AccountRequest("confirm", code) if code else AccountRequest("help")
    privacy = _PRIVACY.match(line)
    if privacy:
        verb = (privacy.group(1) or "help").lower()
        return AccountRequest(verb, _code(_CODE_ALONE.match(privacy.group(2).strip())))
    code = _code(_SUBJECT_CODE.search(subject))
    return AccountRequest("confirm", code) if code else None


def help_text() -> str:
    return _(HELP)


class AccountMail:
    """Account and privacy commands by mail, and the mail a link asked on Discord sends."""

    def __init__(self, service: GameService, mailer: GameMailer):
        self.service = service
        self.mailer = mailer

    def wants(self, mail: IncomingMail) -> bool:
        return read_request(mail.text, mail.subject) is not None

    async def handle(self, mail: IncomingMail) -> list[EmailMessage]:
        """The reply to an account mail (its limits are the caller's)."""
        request = read_request(mail.text, mail.subject) or AccountRequest("help")
        me = Player("email", mail.from_address)
        service = self.service
        try:
            if request.verb == "link":
                asked = await service.ask_link(me, "discord")
                text = _(
                    "Your code: {code}\n\nOn Discord, enter /mancala link code:{code} within an "
                    "hour: that Discord account and this address then become one player, with "
                    "one rating, one language and one list of games. Nobody else can use the "
                    "code from another address."
                ).format(code=asked.code)
            elif request.verb == "confirm" and request.code:
                linked = await service.confirm_link(me, request.code)
                text = await self._linked_words(linked.accounts, linked.player)
            elif request.verb == "unlink":
                text = _(
                    "Unlink on Discord, with /mancala link remove: there your account proves "
                    "itself, and a From address alone could be forged."
                )
            elif request.verb == "export":
                exported = await service.export_player(me)
                reply = self._reply(
                    mail,
                    _(
                        "Attached: {name}, everything stored about you (your accounts, games "
                        "and moves, ratings, tournaments and settings), as JSON."
                    ).format(name=EXPORT_NAME),
                )
                reply.add_attachment(
                    exported.encode(), maintype="application", subtype="json", filename=EXPORT_NAME
                )
                return [reply]
            elif request.verb == "delete" and request.code:
                deleted = await service.delete_player(me, request.code)
                text = _(
                    "Deleted: your accounts, name, settings and ratings are gone. {resigned} "
                    "games in progress were resigned; your {kept} games stay in your opponents' "
                    "records as played by a deleted player. I will not write to you again "
                    "unless you write first."
                ).format(resigned=deleted.resigned, kept=deleted.kept)
            elif request.verb == "delete":
                code = await service.ask_delete(me)
                text = _(
                    "This deletes your player for good: your accounts (this address and any "
                    "linked Discord account), name, settings and ratings. Your games in "
                    "progress are resigned, and your games stay in your opponents' records as "
                    "played by a deleted player.\n\nTo go on, reply within 15 minutes with "
                    "this first line:\nprivacy delete {code}"
                ).format(code=code)
            else:
                text = help_text()
        except ServiceError as err:
            text = str(err)
        return [self._reply(mail, text)]

    async def _linked_words(self, accounts: tuple[Player, ...], news: Player) -> str:
        names = ", ".join(_account(a) for a in accounts)
        return _(
            "Linked: {accounts} are one player now, with one rating per game family (the "
            "better established of the two), one language and one list of games. News of "
            "your games goes to {news}; change it on Discord with /mancala link news."
        ).format(accounts=names, news=_account(news))

    def _reply(self, mail: IncomingMail, body: str) -> EmailMessage:
        return build_reply(mail, body, self.mailer.bot_address, to=mail.from_address)


def _account(player: Player) -> str:
    """An account as a mail names it: the address, or "Discord account 1234"."""
    if player.surface == "email":
        return player.id
    return _("Discord account {id}").format(id=player.id)


async def link_mail(mailer: GameMailer, event: LinkRequested) -> EmailMessage:
    """The mail asking the address in ``event`` to confirm a link asked on Discord."""
    until = dt.datetime.fromtimestamp(event.expires_at, dt.UTC).strftime("%Y-%m-%d %H:%M")
    name = await mailer.display_name(event.asked_by)
    body = _(
        "{name} asked on Discord to link their account with this address, to play as one "
        "player by mail and on Discord.\n\nTo link them, reply to this mail (its subject "
        "carries the code) before {until} UTC, or write to me with this first line:\n"
        "link {code}\n\nIf it was not you, do nothing: nothing changes, and the code "
        "expires."
    ).format(name=name, until=until, code=event.code)
    subject = _("[mancala] link {code}: link your Discord account?").format(code=event.code)
    if "[mancala] link " + event.code not in subject:  # a translation lost the code
        subject = f"[mancala] link {event.code}"
    return new_message(event.recipient.id, subject, body, mailer.bot_address)
