"""The mails of a correspondence game: each player's own thread, subject tag and token.

Every mail about game 12 to its South player has the same subject, ``[mancala game 12
<token>] wari: Ann vs Bob``, and the reply address ``mancala+g12-<token>@host``, so a plain
Reply carries the token back and mail clients keep one thread per game. The Message-ID names
the move the board shows (``<mancala.g12.m7.<random>@host>``): a reply's In-Reply-To then
says which board the player answered, which is how a bare "C" gets its move number.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Awaitable, Callable, Sequence
from email.message import EmailMessage

from bot.i18n import N_, _, ngettext
from bot.mail.mail_language import side_words
from bot.mail.reading import IncomingMail
from bot.mail.replies import new_message
from bot.mail.tokens import Tokens, reply_address, subject_tag
from bot.service import Challenge, GameView, Player
from bot.service.offer_words import OPPONENT_OFFERS, YOU_OFFER
from bot.service.types import ChallengeStatus, OfferKind
from bot.service.vacations import when_words
from bot.web.links import game_url
from engine import SIDES, Position, Side, to_perspective

_MOVE_IN_ID = re.compile(r"<mancala\.g(\d+)\.m(\d+)\.", re.I)

# Who may hold a token: the two seats of a game, the two sides of a challenge.
CHALLENGE_ROLES = ("challenger", "opponent")

# A challenge that is no longer open.
_CHALLENGE_STATUS = {
    "accepted": N_("This challenge is accepted."),
    "declined": N_("This challenge is declined."),
    "cancelled": N_("This challenge is cancelled."),
    "expired": N_("This challenge is expired."),
}


def challenge_status_words(status: str) -> str:
    """A closed challenge's status as a sentence, in the current language."""
    found = _CHALLENGE_STATUS.get(str(status))
    return _(found) if found else _("This challenge is {status}.").format(status=status)


def move_number_from(mail: IncomingMail, game_id: int) -> int | None:
    """The move number of the board this mail answers, from its In-Reply-To (else None).

    >>> from bot.mail.reading import read_mail
    >>> mail = read_mail(b"From: a@b.c\\r\\nIn-Reply-To: <mancala.g12.m7.x1@bot>\\r\\n\\r\\nC")
    >>> move_number_from(mail, 12), move_number_from(mail, 13)
    (7, None)
    """
    found = _MOVE_IN_ID.search(mail.in_reply_to or "")
    if found and int(found.group(1)) == game_id:
        return int(found.group(2))
    return None


def seat_of(game: GameView, player: Player) -> Side:
    """The side ``player`` plays in ``game``; a mail only ever goes to one of its players."""
    side = game.side_of(player)
    if side is None:
        raise ValueError(f"{player} does not play game {game.id}")
    return Side(side)


class GameMailer:
    """Builds the mails of games and challenges for email players."""

    def __init__(
        self,
        tokens: Tokens,
        bot_address: str,
        display_name: Callable[[Player], Awaitable[str]],
        web_url: str | None = None,
    ) -> None:
        self.tokens = tokens
        self.bot_address = bot_address
        self.display_name = display_name  # the service's
        self.web_url = web_url  # the web companion's address (MANCALA_WEB_URL), else None
        self._domain = bot_address.rpartition("@")[2].rstrip(">").strip() or "localhost"

    # -- tags and threads ---------------------------------------------------------------------

    def game_token(self, game_id: int, side: Side) -> str:
        return self.tokens.token("game", game_id, side)

    def page_link(self, game_id: int, side: Side) -> str | None:
        """The game's page with the player's own token (the one their mails carry), so the
        link alone lets them play there; None without a web companion."""
        if not self.web_url:
            return None
        return game_url(self.web_url, game_id, self.game_token(game_id, side))

    def page_lines(self, game_id: int, side: Side) -> list[str]:
        """The line that gives the page's link, after a blank one; none without it."""
        link = self.page_link(game_id, side)
        if link is None:
            return []
        # TRANSLATORS: {url} is the game's web page with the player's secret token in it
        return ["", _("Play on the web (a link for you alone): {url}").format(url=link)]

    def challenge_token(self, challenge_id: int, role: str) -> str:
        return self.tokens.token("challenge", challenge_id, role)

    def _thread_root(self, kind: str, ident: int, token: str) -> str:
        return f"<mancala.{kind[0]}{ident}.root.{token[:4]}@{self._domain}>"

    # -- games --------------------------------------------------------------------------------

    async def game_mail(
        self, game: GameView, player: Player, headline: str, answering: IncomingMail | None = None
    ) -> EmailMessage:
        """A mail to ``player`` about ``game``: the headline, the board from their side, and
        what they can do next."""
        side = seat_of(game, player)
        opponent = game.player(side.other)
        token = self.game_token(game.id, side)
        names = {s: await self.display_name(game.player(s)) for s in SIDES}
        # TRANSLATORS: a game mail's subject, after its tag: "wari: Ann vs Bob"
        players = _("{rules}: {south} vs {north}").format(
            rules=game.position.rules.name, south=names[Side.SOUTH], north=names[Side.NORTH]
        )
        subject = f"{subject_tag('game', game.id, token)} {players}"
        number = game.ply + 1
        letters = game.position.rules.letters
        lines = [
            headline,
            "",
            _(
                "Game {id}: {rules}. You play {side} against {opponent}; your pits are "
                "{first}-{last} on the bottom row."
            ).format(
                id=game.id,
                rules=game.rules,
                side=side_words(side),
                opponent=await self.display_name(opponent),
                first=letters[0],
                last=letters[-1],
            ),
            "",
            game.board(side),
            "",
        ]
        if game.is_over:
            # TRANSLATORS: 'review' and 'challenge ADDRESS' are commands: keep them in English
            lines.append(
                _(
                    "The game is over. Reply 'review' for the solver's review of every move, "
                    "or send 'challenge ADDRESS' to start another."
                )
            )
        elif game.to_move == player:
            legal = ", ".join(to_perspective(m, side) for m in game.position.legal_moves())
            # TRANSLATORS: 'Move {number}: {example}' is what a mail is read by: keep "Move"
            lines.append(
                _(
                    "Your move, move {number}: reply with your pit on the first line, "
                    "like 'Move {number}: {example}' (legal: {legal})."
                ).format(number=number, example=legal.split(", ")[0], legal=legal)
            )
        else:
            lines.append(
                _("Waiting for {name} (move {number}).").format(
                    name=await self.display_name(opponent), number=number
                )
            )
        lines += await self.clock_lines(game, player)
        if game.offer and not game.is_over:
            if game.offer.by == player:
                lines.append(_(YOU_OFFER[OfferKind(game.offer.kind)]))
            else:
                lines.append(_(OPPONENT_OFFERS[OfferKind(game.offer.kind)]))
        lines += self.page_lines(game.id, side)
        lines += [
            "",
            # TRANSLATORS: resign, draw, undo, end and board are commands: keep them in English
            _(
                "Other replies: resign, draw, undo, end, board. Keep the subject: it "
                "carries your secret token for this game."
            ),
        ]
        root = self._thread_root("game", game.id, token)
        return self._message(
            player,
            subject,
            "\n".join(lines),
            "game",
            game.id,
            token,
            root,
            number,
            answering,
            positions=(game.position,),  # the board's side, for its picture (Kalah's stores)
            links=[link for link in [self.page_link(game.id, side)] if link],
        )

    async def clock_lines(self, game: GameView, player: Player) -> list[str]:
        """The clock as both players see it: days a move, when the move is due, and who is
        on vacation (their clock stands still)."""
        if game.is_over:
            return []
        lines = []
        if game.options.days:
            days = game.options.days
            lines.append(
                ngettext(
                    "Time control: {n} day a move.", "Time control: {n} days a move.", days
                ).format(n=days)
            )
        mover = game.to_move
        for away in game.away:
            if away.player == player:
                lines.append(
                    _(
                        "You are on vacation until {when}: your clock stands "
                        "still (a move of yours, or 'vacation off', ends it)."
                    ).format(when=when_words(away.until))
                )
            else:
                name = await self.display_name(away.player)
                lines.append(
                    _("{name} is on vacation until {when}: their clock stands still.").format(
                        name=name, when=when_words(away.until)
                    )
                )
        if game.deadline is not None and mover is not None and game.away_until(mover) is None:
            when = when_words(game.deadline)
            if mover == player:
                due = _("Your move is due by {when}, or the game is forfeited.").format(when=when)
            else:
                due = _("{name}'s move is due by {when}, or the game is forfeited.").format(
                    name=await self.display_name(mover), when=when
                )
            lines.append(due)
        return lines

    # -- challenges ---------------------------------------------------------------------------

    async def challenge_mail(
        self,
        challenge: Challenge,
        player: Player,
        headline: str,
        answering: IncomingMail | None = None,
    ) -> EmailMessage:
        role = "challenger" if player == challenge.challenger else "opponent"
        token = self.challenge_token(challenge.id, role)
        other = challenge.opponent if role == "challenger" else challenge.challenger
        other_name = await self.display_name(other)
        if role == "challenger":
            # TRANSLATORS: a challenge mail's subject, after its tag: "wari: you challenge Bob"
            about = _("{rules}: you challenge {name}")
        else:
            # TRANSLATORS: a challenge mail's subject, after its tag: "wari: a challenge from
            # Ann"
            about = _("{rules}: a challenge from {name}")
        about = about.format(rules=challenge.rules, name=other_name)
        subject = f"{subject_tag('challenge', challenge.id, token)} {about}"
        if challenge.status == ChallengeStatus.OPEN:
            # TRANSLATORS: 'accept', 'decline' and 'cancel' are commands: keep them in English
            todo = (
                _("Reply 'accept' to play, or 'decline'.")
                if role == "opponent"
                else _("Waiting for {name} to answer; reply 'cancel' to withdraw.").format(
                    name=other_name
                )
            )
        else:
            todo = challenge_status_words(challenge.status)
        body = "\n".join(
            [
                headline,
                "",
                _("Challenge {id}: {rules}, {challenger} against {opponent}.").format(
                    id=challenge.id,
                    rules=challenge.rules,
                    challenger=await self.display_name(challenge.challenger),
                    opponent=await self.display_name(challenge.opponent),
                ),
                "",
                todo,
            ]
        )
        root = self._thread_root("challenge", challenge.id, token)
        return self._message(
            player, subject, body, "challenge", challenge.id, token, root, None, answering
        )

    def plain_reply(
        self, mail: IncomingMail, to: str, body: str, links: Sequence[str] = ()
    ) -> EmailMessage:
        """A reply to ``mail`` without a game: errors, help, the games list (``links``: the
        pages' addresses in ``body``, which its HTML makes links of)."""
        from bot.mail.replies import build_reply

        return build_reply(mail, body, self.bot_address, to=to, links=links)

    def _message(
        self,
        player: Player,
        subject: str,
        body: str,
        kind: str,
        ident: int,
        token: str,
        root: str,
        number: int | None,
        answering: IncomingMail | None,
        positions: tuple[Position, ...] = (),
        links: Sequence[str] = (),
    ) -> EmailMessage:
        references = [root]
        in_reply_to = root
        if answering is not None and answering.message_id:
            references = [root] + [r for r in answering.references if r != root]
            references.append(answering.message_id)
            in_reply_to = answering.message_id
        message = new_message(
            player.id,
            subject,
            body,
            self.bot_address,
            reply_to=reply_address(self.bot_address, kind, ident, token),
            in_reply_to=in_reply_to,
            references=references,
            positions=positions,
            links=links,
        )
        if number is not None:
            del message["Message-ID"]
            message["Message-ID"] = (
                f"<mancala.g{ident}.m{number}.{secrets.token_hex(6)}@{self._domain}>"
            )
        return message
