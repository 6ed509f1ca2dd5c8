"""Correspondence games by mail, on the game service: mail in (``Correspondence``) and the
service's events out (``EmailNotifier``).

The service decides everything; this module only translates. A mail acts for a player of a
game or challenge only when it carries that seat's secret token (in the reply address or the
subject): the From header alone never authorizes anything but starting a challenge or listing
one's own games, whose answers go to the From address itself.

Mail carrying a seat's token is game mail and never limited; every other answer (help, the
games list, refusals, a new challenge) is an automatic reply, limited per address and in all
(``bot.mail.reply_limits``). A challenge to an address that has never written to the bot is
limited per sender per day.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Sequence
from email.message import EmailMessage
from typing import TypeVar

from bot import metrics
from bot.i18n import N_, Language, _, choose, current_language, ngettext, speaking
from bot.mail.account_mail import AccountMail, link_mail
from bot.mail.digest import DigestMail, digest_mail
from bot.mail.game_mail import CHALLENGE_ROLES, GameMailer, move_number_from, seat_of
from bot.mail.mail_commands import (
    Command,
    CommandError,
    first_line,
    help_text,
    not_done,
    parse_command,
)
from bot.mail.mail_language import language_words, mark_language, read_language
from bot.mail.mail_settings import MailSettings
from bot.mail.puzzle_mail import PuzzleMail
from bot.mail.reading import IncomingMail
from bot.mail.record_mail import RecordMail
from bot.mail.replies import line_in_question
from bot.mail.reply_limits import Refusal, ReplyKind, ReplyLimiter, count_refusal, limited
from bot.mail.schedule_mail import TOKEN_NEEDED, ScheduleMail, read_setting
from bot.mail.tokens import Tokens, find_tags, find_unverified_ids
from bot.mail.tournament_mail import TournamentMail, TournamentWords
from bot.mail.transport import PermanentMailError, Relay, TransientMailError
from bot.render.review_text import review_summary
from bot.service import (
    Challenge,
    ChallengeAnswered,
    ChallengeReceived,
    Channel,
    Forfeit,
    GameOptions,
    GameOver,
    GameService,
    GameView,
    MoveMade,
    Notifier,
    OfferAnswered,
    OfferMade,
    Player,
    PlayerLeft,
    Reminder,
    ServiceError,
)
from bot.service.events import DigestDue, LinkRequested, TournamentNews
from bot.service.offer_words import (
    GRANTED,
    OFFER_ANSWERED_HEADLINE,
    OFFER_ASKS,
    OFFER_MADE_HEADLINE,
    YOU_ACCEPTED,
    YOU_OFFERED,
)
from bot.service.types import OfferKind
from engine import SIDES, Side, from_perspective, render, to_perspective
from engine.errors import excerpt

log = logging.getLogger(__name__)
Seat = TypeVar("Seat", bound=str)  # a game's Side, or a challenge's role

_OPEN_VERBS = ("challenge", "games", "help")  # need no token: they act for the From address
_RULES_LINE = re.compile(r"^\s*(rules?|ruleset|variant)\s*[:=]", re.I | re.M)  # a position mail
_UNTAGGED_MOVE = N_(
    "I did not play {move}: this mail carries no game's tag, so I cannot tell "
    "which game it is for (and a From address alone never authorizes a move). "
    "Reply to my latest mail about your game: its subject and reply address "
    "carry the tag."
)
_REFUSED = N_(
    "I did not act on your mail: it does not carry the secret token of {what}. "
    "Reply to my latest mail about it (its subject and reply address carry your "
    "token); a From address alone never authorizes a move."
)
# A challenge that was answered, as its challenger hears it.
_CHALLENGE_ANSWERED = {
    "declined": N_("Your challenge to {name} is declined."),
    "cancelled": N_("Your challenge to {name} is cancelled."),
    "expired": N_("Your challenge to {name} is expired."),
}


def _stranger_refusal(limiter: ReplyLimiter, refusal: Refusal, address: str) -> str:
    """Why a challenge to ``address``, which never wrote to the bot, was not sent."""
    hours = max(1, round(limiter.resets_in() / 3600))
    limit = limiter.limits.stranger_challenges
    if refusal is Refusal.STRANGER_CHALLENGES:
        why = ngettext(
            "{address} has never written to me, and you have challenged {n} such address "
            "today, as many as I allow one sender in a day",
            "{address} has never written to me, and you have challenged {n} such addresses "
            "today, as many as I allow one sender in a day",
            limit,
        ).format(address=address, n=limit)
    elif refusal is Refusal.STRANGER_LIMIT:
        why = ngettext(
            "{address} has never written to me and has had {n} challenge from me today, "
            "as many as I send such an address in a day",
            "{address} has never written to me and has had {n} challenges from me today, "
            "as many as I send such an address in a day",
            limit,
        ).format(address=address, n=limit)
    else:  # the limits in all
        why = _("I have sent as much automatic mail as I may for now")
    # TRANSLATORS: {why} is one of the reasons above; 'help' is a command
    return ngettext(
        "I did not send your challenge: {why}. You can again after 00:00 UTC (in about "
        "{n} hour), or ask them to write to me first (a mail saying 'help' will do): then "
        "they can be challenged at once.",
        "I did not send your challenge: {why}. You can again after 00:00 UTC (in about "
        "{n} hours), or ask them to write to me first (a mail saying 'help' will do): then "
        "they can be challenged at once.",
        hours,
    ).format(why=why, n=hours)


class EmailNotifier(Notifier):
    """Sends the service's events to email players, each in their game's thread.

    It delivers a challenge to an address that never wrote to the bot only within
    ``limiter``'s limits on challenges to strangers, whoever sends it (by mail or from
    Discord): see ``refuses_challenge``."""

    def __init__(
        self,
        mailer: GameMailer,
        relay: Relay,
        limiter: ReplyLimiter | None = None,
        has_written: Callable[[Player], Awaitable[bool]] | None = None,
        language_of: Callable[[Player], Awaitable[Language]] | None = None,
    ) -> None:
        self.mailer = mailer
        self.relay = relay
        self.limiter = limiter or ReplyLimiter()
        self.has_written = has_written
        self.language_of = language_of  # the service's language_for: each recipient's own

    async def refuses_challenge(self, challenger: Player, recipient: Player) -> str | None:
        """Count a challenge to an address that never wrote to the bot, or say why it will
        not be mailed: the address said stop (docs/privacy.md), or the limits
        (``ReplyLimiter.take_stranger_challenge``: per challenger, per stranger, and the
        limits in all)."""
        gate = self.relay.gate
        if gate is not None and await gate.stopped(recipient.id):
            return _("{address} asked me to stop mailing it: I cannot send it a challenge.").format(
                address=recipient.id
            )
        if self.limiter.has_written(recipient.id) or (
            self.has_written is not None and await self.has_written(recipient)
        ):
            return None
        sender = challenger.id if challenger.surface == "email" else str(challenger)
        refusal = await self.limiter.take_stranger_challenge(sender, recipient.id)
        if refusal is None:
            return None
        count_refusal(refusal, sender)
        return _stranger_refusal(self.limiter, refusal, recipient.id)

    retry_delays = (2.0, 10.0)  # seconds; a relay that blinks should not cost a player a move

    async def _send(self, message: EmailMessage) -> None:
        mark_language(message)  # each event's mail is written in its recipient's language
        for delay in (*self.retry_delays, None):
            try:
                if await self.relay.send(message):
                    metrics.MAIL.labels(direction="out").inc()
                return
            except PermanentMailError as err:
                log.warning("mail to %s refused for good: %s", message["To"], err)
                return
            except TransientMailError as err:
                if delay is None:
                    log.error("gave up telling %s (%s): %s", message["To"], message["Subject"], err)
                    return
                await asyncio.sleep(delay)

    async def _name(self, player: Player) -> str:
        return await self.mailer.display_name(player)

    async def _language(self, player: Player) -> Language:
        """The language ``player`` reads their mail in (a mail to someone who did not ask
        for it goes in their language, not in the language of whoever made it happen)."""
        if self.language_of is None:
            return Language.EN
        try:
            return await self.language_of(player)
        except ServiceError:  # a player the service refuses to record: English
            return Language.EN

    async def on_challenge(self, event: ChallengeReceived) -> None:
        with speaking(await self._language(event.recipient)):
            who = await self._name(event.challenge.challenger)
            await self._send(
                await self.mailer.challenge_mail(
                    event.challenge,
                    event.recipient,
                    _("{name} challenges you to a game of {rules}.").format(
                        name=who, rules=event.challenge.rules
                    ),
                )
            )

    async def on_challenge_answered(self, event: ChallengeAnswered) -> None:
        with speaking(await self._language(event.recipient)):
            challenge = event.challenge
            who = await self._name(challenge.opponent)
            if event.game is not None:
                headline = _("{name} accepted your challenge: the game begins.").format(name=who)
                await self._send(await self.mailer.game_mail(event.game, event.recipient, headline))
                return
            found = _CHALLENGE_ANSWERED.get(str(challenge.status))
            headline = (
                _(found).format(name=who)
                if found
                else _("Your challenge to {name} is {status}.").format(
                    name=who, status=challenge.status
                )
            )
            await self._send(await self.mailer.challenge_mail(challenge, event.recipient, headline))

    async def on_move(self, event: MoveMade) -> None:
        with speaking(await self._language(event.recipient)):
            side = seat_of(event.game, event.recipient)
            move = to_perspective(event.move, side)
            name = await self._name(event.by)
            headline = _("{name} played {move}.").format(name=name, move=move)
            if event.answering is not None:  # a conditional move the service played
                answered = " ".join(to_perspective(m, side) for m in event.answering.split())
                headline = (
                    _("Your conditional move {move} was played, answering {answered}.")
                    if event.by == event.recipient
                    else _("{name} played {move} (a conditional move set in answer to {answered}).")
                ).format(name=name, move=move, answered=answered)
            await self._send(await self.mailer.game_mail(event.game, event.recipient, headline))

    async def on_digest(self, event: DigestDue) -> None:
        with speaking(await self._language(event.recipient)):
            await self._send(await digest_mail(self.mailer, event))

    async def on_offer(self, event: OfferMade) -> None:
        with speaking(await self._language(event.recipient)):
            made = OFFER_MADE_HEADLINE[OfferKind(event.kind)]
            headline = _(made).format(name=await self._name(event.by))
            await self._send(await self.mailer.game_mail(event.game, event.recipient, headline))

    async def on_offer_answered(self, event: OfferAnswered) -> None:
        with speaking(await self._language(event.recipient)):
            answered = OFFER_ANSWERED_HEADLINE[OfferKind(event.kind), event.accepted]
            headline = _(answered).format(name=await self._name(event.by))
            await self._send(await self.mailer.game_mail(event.game, event.recipient, headline))

    async def on_game_over(self, event: GameOver) -> None:
        with speaking(await self._language(event.recipient)):
            outcome = event.game.outcome
            headline = (
                _("Game over: {reason}.").format(reason=outcome.reason)
                if outcome
                else _("Game over: the game ended.")
            )
            await self._send(await self.mailer.game_mail(event.game, event.recipient, headline))

    async def on_player_left(self, event: PlayerLeft) -> None:
        with speaking(await self._language(event.recipient)):
            who = await self._name(event.leaver)
            headline = _(
                "Game over: {name} resigned, as they asked me to stop mailing them "
                "(all their games end)."
            ).format(name=who)
            await self._send(await self.mailer.game_mail(event.game, event.recipient, headline))

    async def on_forfeit(self, event: Forfeit) -> None:
        with speaking(await self._language(event.recipient)):
            loser = await self._name(event.loser)
            headline = _("Game over: {name} did not move in time.").format(name=loser)
            await self._send(await self.mailer.game_mail(event.game, event.recipient, headline))

    async def on_link_requested(self, event: LinkRequested) -> None:
        with speaking(await self._language(event.recipient)):
            await self._send(await link_mail(self.mailer, event))

    async def on_tournament(self, event: TournamentNews) -> None:
        if event.in_place or event.recipient.surface != "email":
            return  # not a mail's news (and no language to look up)
        with speaking(await self._language(event.recipient)):
            message = await TournamentWords(self.mailer).news(event)
            if message is not None:
                await self._send(message)

    async def on_reminder(self, event: Reminder) -> None:
        with speaking(await self._language(event.recipient)):
            days = f"{event.idle_seconds / 86400:.1f}"
            if current_language() is not Language.EN:  # the others write 1,5
                days = days.replace(".", ",")
            text = _("Reminder: it has been your move for {days} days.").format(days=days)
            if event.forfeit_at is not None:
                text += " " + _("Without a move the game will be forfeited.")
            await self._send(await self.mailer.game_mail(event.game, event.recipient, text))


def attach_email(
    service: GameService, settings: MailSettings, relay: Relay, limiter: ReplyLimiter | None = None
) -> EmailNotifier:
    """Register the email notifier on ``service``; any process running the service (the
    Discord bot's too) calls this so email players hear about their games. ``limiter``
    (default: ``settings.limits`` on the wall clock) bounds the challenges mailed to
    strangers."""
    mailer = GameMailer(
        Tokens(settings.token_secret()),
        settings.bot_address,
        service.display_name,
        web_url=settings.web_url,
    )

    async def has_written(player: Player) -> bool:
        """Whether the email ``player`` ever wrote to the bot, as the database knows: as a
        player of any game (accepting a challenge by mail is writing), or as the challenger
        of an open challenge. (Mail since this process started: the limiter knows.)"""
        if await service.list_games(player, include_finished=True, limit=1):
            return True
        return any(c.challenger == player for c in await service.open_challenges(player))

    notifier = EmailNotifier(
        mailer,
        relay,
        limiter or ReplyLimiter(settings.limits, counter=service),
        has_written,
        language_of=service.language_for,
    )
    service.add_notifier("email", notifier)
    service.set_mail_address(settings.bot_address)  # so nobody challenges the bot itself
    return notifier


class Correspondence:
    """Acts on correspondence mail through the service; returns the replies to send."""

    def __init__(
        self, service: GameService, notifier: EmailNotifier, limiter: ReplyLimiter | None = None
    ) -> None:
        self.service = service
        self.mailer = notifier.mailer
        self.tokens = notifier.mailer.tokens
        self.limiter = limiter or ReplyLimiter(counter=service)
        self.puzzles = PuzzleMail(service, notifier.mailer.bot_address)
        self.tournaments = TournamentMail(service, notifier.mailer)
        self.schedule = ScheduleMail(service)  # vacations, the digest, conditional moves
        self.digests = DigestMail(service, notifier.mailer, self.schedule)
        self.accounts = AccountMail(service, notifier.mailer)  # link, privacy
        self.records = RecordMail(service, notifier.mailer)  # review with a game's record

    async def wants(self, mail: IncomingMail) -> bool:
        """Is this mail about a stored game (rather than a position-and-move mail)? A bare
        move ("Move 5: D") from someone with games in progress is: it lost its game's tag."""
        if find_tags(mail.subject, mail.recipients) or find_unverified_ids(mail.subject):
            return True
        if self.puzzles.wants(mail) or self.tournaments.wants(mail) or self.accounts.wants(mail):
            return True
        if self.records.wants(mail):
            return True
        if self.digests.wants(mail) or read_setting(mail.text) is not None:
            return True
        if read_language(mail.text) is not None:
            return True
        try:
            command = parse_command(mail.text)
        except CommandError:
            return first_line(mail.text).lower().startswith("challenge")
        if command is not None and command.verb == "move" and not _RULES_LINE.search(mail.text):
            return bool(await self.service.list_games(Player("email", mail.from_address)))
        return command is not None and command.verb in _OPEN_VERBS

    async def handle(self, mail: IncomingMail) -> list[EmailMessage]:
        """The replies to a correspondence mail: game mail when it carries a seat's token
        (never limited), else an automatic reply within the sender's limits."""
        tags = find_tags(mail.subject, mail.recipients)
        wanted = read_language(mail.text)
        if wanted is not None:
            return await self._language_command(mail, wanted)
        if not tags and self.digests.wants(mail):
            player = self.digests.player_of(mail)
            if player is not None:  # the digest's token: game mail, never limited
                await self._remember_name(player, mail)
                return await self.digests.handle(mail, player)
        # Without a seat's token, each kind of mail within the sender's limits: puzzles and a
        # record's review are play (a position mail's budget: they ask the AI); accounts and
        # tournaments are answered as the games list is.
        kinds = (
            (self.puzzles, ReplyKind.PLAY),
            (self.records, ReplyKind.PLAY),
            (self.accounts, ReplyKind.AUTOMATIC),
            (self.tournaments, ReplyKind.AUTOMATIC),
        )
        for handler, reply_kind in kinds:
            if not tags and handler.wants(mail):
                return await limited(
                    self.limiter,
                    mail.from_address,
                    reply_kind,
                    lambda: handler.handle(mail),  # noqa: B023 (awaited within the loop)
                    lambda text: self.mailer.plain_reply(mail, mail.from_address, text),
                )
        command = _command_or_error(mail)
        for kind, ident, token in tags:  # a seat's token: game mail, never limited
            if kind == "game":
                side = self._seat("game", ident, token, SIDES)
                if side:
                    if isinstance(command, CommandError):
                        return [self._command_error(mail, command)]
                    return await self._in_game(mail, command, ident, side)
            else:
                role = self._seat("challenge", ident, token, CHALLENGE_ROLES)
                if role:
                    if isinstance(command, CommandError):
                        return [self._command_error(mail, command)]
                    return await self._in_challenge(mail, command, ident, role)

        async def answer() -> list[EmailMessage]:
            return await self._untrusted(mail, tags)

        return await limited(
            self.limiter,
            mail.from_address,
            ReplyKind.AUTOMATIC,
            answer,
            lambda text: self.mailer.plain_reply(mail, mail.from_address, text),
        )

    # -- whose mail it is, and their language ---------------------------------------------

    async def speaker(self, mail: IncomingMail) -> tuple[Player, GameView | Challenge | None]:
        """Whom the mail speaks for: the seat whose token it carries (with that game or
        challenge), the digest's player, else its From address (with nothing)."""
        for kind, ident, token in find_tags(mail.subject, mail.recipients):
            try:
                if kind == "game":
                    side = self._seat("game", ident, token, SIDES)
                    if side:
                        game = await self.service.get_game(ident)
                        return game.player(side), game
                else:
                    role = self._seat("challenge", ident, token, CHALLENGE_ROLES)
                    if role:
                        challenge = await self.service.get_challenge(ident)
                        who = challenge.challenger if role == "challenger" else challenge.opponent
                        return who, challenge
            except ServiceError:  # a game that is gone: the mail is answered as untrusted
                continue
        if self.digests.wants(mail):
            player = self.digests.player_of(mail)
            if player is not None:
                return player, None
        return Player("email", mail.from_address), None

    async def language_of(self, mail: IncomingMail) -> Language:
        """The language to answer ``mail`` in: its writer's setting, else the mail's
        Content-Language, else the language its client quoted the bot in, else English."""
        hints = (mail.content_language, mail.attribution_language)
        try:
            player, _about = await self.speaker(mail)
            return await self.service.language_for(player, *hints)
        except ServiceError:  # an address the service will not record: the hints alone
            return choose(None, *hints)

    async def _language_command(self, mail: IncomingMail, wanted: str) -> list[EmailMessage]:
        """``language fr`` sets the writer's language (``auto`` forgets it), ``language``
        alone says it; answered in the language the writer reads from now on. With a seat's
        token it is game mail, in the game's thread; else an automatic reply to From."""
        player, about = await self.speaker(mail)
        hints = (mail.content_language, mail.attribution_language)

        async def answer() -> list[EmailMessage]:
            if player == Player("email", mail.from_address):
                await self._remember_name(player, mail)
            try:
                chosen = (
                    await self.service.set_language(player, wanted)
                    if wanted
                    else await self.service.language_setting(player)
                )
            except ServiceError as err:
                text = f"{line_in_question(first_line(mail.text))}\n\n{not_done(err)}"
                return [self.mailer.plain_reply(mail, mail.from_address, text)]
            with speaking(await self.service.language_for(player, *hints)):
                text = language_words(chosen)
                if isinstance(about, GameView):
                    reply = await self.mailer.game_mail(
                        await self.service.get_game(about.id), player, text, mail
                    )
                elif isinstance(about, Challenge):
                    reply = await self.mailer.challenge_mail(about, player, text, mail)
                else:
                    reply = self.mailer.plain_reply(mail, player.id, text)
                return [mark_language(reply)]

        if about is not None or self.digests.player_of(mail) is not None:
            return await answer()  # a token spoke: game mail, never limited
        return await limited(
            self.limiter,
            mail.from_address,
            ReplyKind.AUTOMATIC,
            answer,
            lambda text: self.mailer.plain_reply(mail, mail.from_address, text),
        )

    async def _untrusted(
        self, mail: IncomingMail, tags: list[tuple[str, int, str]]
    ) -> list[EmailMessage]:
        """The answer to a mail that acts for no seat: only its From address speaks."""
        player = Player("email", mail.from_address)
        if not tags and read_setting(mail.text) is not None:  # settings need a token
            return [self.mailer.plain_reply(mail, mail.from_address, _(TOKEN_NEEDED))]
        command = _command_or_error(mail)
        if isinstance(command, CommandError):
            return [self._command_error(mail, command)]
        try:
            if command is not None and command.verb in _OPEN_VERBS:
                return await self._open_command(mail, command, player)
            if (
                command is not None
                and command.verb == "move"
                and not tags
                and not find_unverified_ids(mail.subject)
            ):  # names no game at all
                text = f"{line_in_question(first_line(mail.text))}\n\n" + _(_UNTAGGED_MOVE).format(
                    move=command.move
                )
                listed, links = await self._games_list(player)
                return [
                    self.mailer.plain_reply(mail, mail.from_address, f"{text}\n\n{listed}", links)
                ]
        except ServiceError as err:
            return [self.mailer.plain_reply(mail, mail.from_address, str(err))]
        named = tags[:1] or [(k, i, "") for k, i in find_unverified_ids(mail.subject)][:1]
        if named and named[0][0] == "game":
            what = _("game {id}").format(id=named[0][1])
        elif named:
            what = _("challenge {id}").format(id=named[0][1])
        elif self.digests.wants(mail):
            what = _("your digest (it is made for the address it was sent to)")
        else:
            what = _("a game")
        return [
            self.mailer.plain_reply(
                mail, mail.from_address, _(_REFUSED).format(what=what) + "\n\n" + help_text()
            )
        ]

    def _command_error(self, mail: IncomingMail, err: CommandError) -> EmailMessage:
        """The line in question, quoted, then what is wrong and what is accepted."""
        return self.mailer.plain_reply(
            mail,
            mail.from_address,
            f"{line_in_question(first_line(mail.text))}\n\n{err}\n\n{help_text()}",
        )

    def _seat(self, kind: str, ident: int, token: str, seats: Sequence[Seat]) -> Seat | None:
        """The seat among ``seats`` whose token ``token`` is, if any."""
        return next((s for s in seats if self.tokens.check(kind, ident, s, token)), None)

    # -- mail that acts for a seat of a game ------------------------------------------------

    async def _remember_name(self, player: Player, mail: IncomingMail) -> None:
        """Call an email player by the name in their From (only once their token or their
        own From address speaks for them), so boards and leaderboards show 'Ann Example'."""
        if player.surface == "email" and mail.from_name:
            await self.service.set_display_name(player, mail.from_name)

    async def _in_game(
        self, mail: IncomingMail, command: Command | None, game_id: int, side: Side
    ) -> list[EmailMessage]:
        game = await self.service.get_game(game_id)
        player = game.player(side)
        await self._remember_name(player, mail)
        if command is None:  # a setting, or conditional moves?
            scheduled = await self.schedule.in_game(mail, game, player, side)
            if scheduled is not None:
                return [await self.mailer.game_mail(scheduled[0], player, scheduled[1], mail)]
        if command is None:
            return [
                await self.mailer.game_mail(
                    game,
                    player,
                    _("I could not read '{line}' as a move or command.").format(
                        line=excerpt(first_line(mail.text))
                    )
                    + "\n\n"
                    + help_text(),
                    mail,
                )
            ]
        try:
            game, headline = await self._act(mail, command, game, player, side)
            if command.verb == "move":  # conditional moves on the lines after it
                headline += await self.schedule.after_move(mail.text, game, player, side)
        except ServiceError as err:
            game = await self.service.get_game(game_id)
            headline = not_done(err)
        return [await self.mailer.game_mail(game, player, headline, mail)]

    async def _act(
        self, mail: IncomingMail, command: Command, game: GameView, player: Player, side: Side
    ) -> tuple[GameView, str]:
        service, verb = self.service, command.verb
        if verb == "move":
            assert command.move is not None  # parse_command names the pit of every move
            number = command.number or move_number_from(mail, game.id)
            if number is None:
                return game, _(
                    "Which move is {move} for? Write it with the move "
                    "number of the board you saw, like 'Move {number}: {move}'."
                ).format(move=command.move, number=game.ply + 1)
            move = from_perspective(command.move, side)
            game = await service.move(game.id, player, move, expected_ply=number - 1)
            read = (
                _("I read your move as {move} (your line: '{line}').").format(
                    move=command.move, line=command.read_from
                )
                + " "
                if command.read_from
                else ""
            )
            played = _("You played {move} (move {number}).").format(
                move=to_perspective(game.moves[-1], side), number=number
            )
            return game, read + played
        if verb == "resign":
            return await service.resign(game.id, player), _("You resigned.")
        if verb in OFFER_ASKS:  # draw, end, undo: the mail commands are the offers' kinds
            kind = OfferKind(verb)
            theirs = game.offer is not None and game.offer.by != player
            game = await service.offer(game.id, player, kind)  # theirs too: agreed
            if game.offer is None:
                return game, _(YOU_ACCEPTED[kind] if theirs else GRANTED[kind])
            return game, _(YOU_OFFERED[kind])
        if verb == "accept":
            return await service.accept_offer(game.id, player), _("You accepted the offer.")
        if verb == "decline":
            return await service.decline_offer(game.id, player), _("You declined the offer.")
        if verb == "board":
            return game, _("The board:")
        if verb == "review":
            reviewed = await service.review(game.id, player)
            names = {s: await service.display_name(game.player(s)) for s in SIDES}
            text = review_summary(
                reviewed.review,
                names,
                title=_("Game {id}").format(id=game.id),
                moments=5,
                board_at=lambda ply: (
                    "\n"
                    + _("The board before it:")
                    + "\n"
                    + render(reviewed.positions[ply - 1], side)
                    + "\n"
                ),
            )
            return reviewed.game, text + "\n\n" + _("The final board:")
        # TRANSLATORS: {verb} is a mail command (challenge, cancel...): it stays in English
        refused = _("'{verb}' does not apply to a game in progress.").format(verb=verb)
        return game, f"{refused}\n\n{help_text()}"

    # -- mail that acts for a side of a challenge --------------------------------------------

    async def _in_challenge(
        self, mail: IncomingMail, command: Command | None, challenge_id: int, role: str
    ) -> list[EmailMessage]:
        challenge = await self.service.get_challenge(challenge_id)
        player = challenge.challenger if role == "challenger" else challenge.opponent
        await self._remember_name(player, mail)
        verb = command.verb if command else None
        try:
            if verb == "accept" and role == "opponent":
                game = await self.service.accept(challenge_id, player)
                return [
                    await self.mailer.game_mail(
                        game, player, _("You accepted: the game begins."), mail
                    )
                ]
            if verb == "decline" and role == "opponent":
                challenge = await self.service.decline(challenge_id, player)
                headline = _("You declined the challenge.")
            elif verb == "cancel" and role == "challenger":
                challenge = await self.service.cancel(challenge_id, player)
                headline = _("You withdrew your challenge.")
            elif challenge.game_id is not None:  # answered by mail to the old thread
                game = await self.service.get_game(challenge.game_id)
                return [
                    await self.mailer.game_mail(
                        game,
                        player,
                        _("This challenge became game {id}: reply to this mail to play it.").format(
                            id=game.id
                        ),
                        mail,
                    )
                ]
            else:
                # TRANSLATORS: 'accept', 'decline' and 'cancel' are commands: keep them in English
                headline = (
                    _("For this challenge, reply 'accept or decline'.")
                    if role == "opponent"
                    else _("For this challenge, reply 'cancel'.")
                )
        except ServiceError as err:
            challenge = await self.service.get_challenge(challenge_id)
            headline = not_done(err)
        return [await self.mailer.challenge_mail(challenge, player, headline, mail)]

    # -- mail that acts for its From address ------------------------------------------------

    async def _open_command(
        self, mail: IncomingMail, command: Command, player: Player
    ) -> list[EmailMessage]:
        if command.verb == "help":
            return [self.mailer.plain_reply(mail, mail.from_address, help_text())]
        if command.verb == "games":
            listed, links = await self._games_list(player)
            return [self.mailer.plain_reply(mail, mail.from_address, listed, links)]
        await self._remember_name(player, mail)
        assert command.opponent is not None and command.rules is not None  # as parsed
        opponent = self._opponent(command.opponent)
        channel = Channel("email", f"{mail.from_address}/{secrets.token_hex(8)}")
        # To an address that never wrote, the email notifier may refuse (NotAllowed)
        challenge = await self.service.challenge(
            player,
            opponent,
            command.rules,
            channel,
            GameOptions(side=command.side or "south", days=command.days)
            if command.side or command.days
            else None,
        )
        if challenge.game_id is not None:  # the AI accepts at once
            game = await self.service.get_game(challenge.game_id)
            return [
                await self.mailer.game_mail(
                    game, player, _("The AI accepted: the game begins."), mail
                )
            ]
        return [
            await self.mailer.challenge_mail(
                challenge,
                player,
                _("Challenge sent to {name}.").format(
                    name=await self.service.display_name(opponent)
                ),
                mail,
            )
        ]

    def _opponent(self, text: str) -> Player:
        if text == "ai":
            return Player.ai()  # the service's default level
        if text.startswith("ai:") or text.startswith("discord:"):
            return Player.parse(text)
        return self.service.email_player(text)

    async def _games_list(self, player: Player) -> tuple[str, list[str]]:
        """The player's games and open challenges, each with its tag; with a web companion,
        each game's page too, with the player's own token (as their game mails link it).
        The text, and the pages' addresses in it."""
        player = await self.service.account_owner(player)  # as seats name them
        games = await self.service.list_games(player)
        challenges = await self.service.open_challenges(player)
        if not games and not challenges:
            none = _("You have no games and no open challenges.")
            return none + " " + help_text().split("\n")[0], []
        # TRANSLATORS: 'board' is a command: keep it in English
        lines = [_("Your games (write 'board' in a mail with the tag in its subject):")]
        links: list[str] = []
        for game in games:
            side = seat_of(game, player)
            token = self.mailer.game_token(game.id, side)
            turn = _("your move") if game.to_move == player else _("waiting")
            opponent = await self.service.display_name(game.player(side.other))
            # TRANSLATORS: a line of the games list, after the game's tag: "wari against
            # Bob, move 7, your move"
            about = _("{rules} against {opponent}, move {number}, {turn}").format(
                rules=game.rules, opponent=opponent, number=game.ply + 1, turn=turn
            )
            lines.append(f"  [mancala game {game.id} {token}] {about}")
            link = self.mailer.page_link(game.id, side)
            if link is not None:  # under its game, indented: a mail client links it
                lines.append(f"    {link}")
                links.append(link)
        for challenge in challenges:
            role = "challenger" if challenge.challenger == player else "opponent"
            token = self.mailer.challenge_token(challenge.id, role)
            other = challenge.opponent if role == "challenger" else challenge.challenger
            name = await self.service.display_name(other)
            about = (
                _("{rules}, to {name}") if role == "challenger" else _("{rules}, from {name}")
            ).format(rules=challenge.rules, name=name)
            lines.append(f"  [mancala challenge {challenge.id} {token}] {about}")
        return "\n".join(lines), links


def _command_or_error(mail: IncomingMail) -> Command | CommandError | None:
    """The mail's command, None when its first line is none, or the error reading it."""
    try:
        return parse_command(mail.text)
    except CommandError as err:
        return err


__all__ = ["Correspondence", "EmailNotifier", "attach_email"]
