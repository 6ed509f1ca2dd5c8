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
from collections.abc import Awaitable, Callable
from email.message import EmailMessage

from bot.mail.reading import IncomingMail
from bot.mail.replies import new_message
from bot.mail.tokens import Tokens, reply_address, subject_tag
from bot.service import Challenge, GameView, Player
from bot.service.types import ChallengeStatus
from bot.service.vacations import when_words
from engine import SIDES, Side, to_perspective

_MOVE_IN_ID = re.compile(r"<mancala\.g(\d+)\.m(\d+)\.", re.I)

# Who may hold a token: the two seats of a game, the two sides of a challenge.
CHALLENGE_ROLES = ("challenger", "opponent")


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
    ) -> None:
        self.tokens = tokens
        self.bot_address = bot_address
        self.display_name = display_name  # the service's
        self._domain = bot_address.rpartition("@")[2].rstrip(">").strip() or "localhost"

    # -- tags and threads ---------------------------------------------------------------------

    def game_token(self, game_id: int, side: Side) -> str:
        return self.tokens.token("game", game_id, side)

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
        subject = (
            f"{subject_tag('game', game.id, token)} {game.position.rules.name}: "
            f"{names[Side.SOUTH]} vs {names[Side.NORTH]}"
        )
        number = game.ply + 1
        letters = game.position.rules.letters
        lines = [
            headline,
            "",
            f"Game {game.id}: {game.rules}. You play {side.title()} against "
            f"{await self.display_name(opponent)}; your pits are {letters[0]}-{letters[-1]} "
            "on the bottom row.",
            "",
            game.board(side),
            "",
        ]
        if game.is_over:
            lines.append(
                "The game is over. Reply 'review' for the solver's review of every move, "
                "or send 'challenge ADDRESS' to start another."
            )
        elif game.to_move == player:
            legal = ", ".join(to_perspective(m, side) for m in game.position.legal_moves())
            lines.append(
                f"Your move, move {number}: reply with your pit on the first line, "
                f"like 'Move {number}: {legal.split(', ')[0]}' (legal: {legal})."
            )
        else:
            lines.append(f"Waiting for {await self.display_name(opponent)} (move {number}).")
        lines += await self.clock_lines(game, player)
        if game.offer and not game.is_over:
            if game.offer.by == player:
                lines.append(f"You offer {game.offer.noun}.")
            else:
                lines.append(f"Your opponent {game.offer.asks}; reply 'accept' or 'decline'.")
        lines += [
            "",
            "Other replies: resign, draw, undo, end, board. Keep the subject: it "
            "carries your secret token for this game.",
        ]
        root = self._thread_root("game", game.id, token)
        return self._message(
            player, subject, "\n".join(lines), "game", game.id, token, root, number, answering
        )

    async def clock_lines(self, game: GameView, player: Player) -> list[str]:
        """The clock as both players see it: days a move, when the move is due, and who is
        on vacation (their clock stands still)."""
        if game.is_over:
            return []
        lines = []
        if game.options.days:
            days = game.options.days
            lines.append(f"Time control: {days} day{'s' if days != 1 else ''} a move.")
        mover = game.to_move
        for away in game.away:
            if away.player == player:
                lines.append(
                    f"You are on vacation until {when_words(away.until)}: your clock stands "
                    "still (a move of yours, or 'vacation off', ends it)."
                )
            else:
                name = await self.display_name(away.player)
                lines.append(
                    f"{name} is on vacation until {when_words(away.until)}: their clock "
                    "stands still."
                )
        if game.deadline is not None and mover is not None and game.away_until(mover) is None:
            whose = "Your" if mover == player else f"{await self.display_name(mover)}'s"
            lines.append(
                f"{whose} move is due by {when_words(game.deadline)}, or the game is forfeited."
            )
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
        subject = (
            f"{subject_tag('challenge', challenge.id, token)} {challenge.rules}: "
            f"{'you challenge' if role == 'challenger' else 'a challenge from'} "
            f"{other_name}"
        )
        if challenge.status == ChallengeStatus.OPEN:
            todo = (
                "Reply 'accept' to play, or 'decline'."
                if role == "opponent"
                else f"Waiting for {other_name} to answer; reply 'cancel' to withdraw."
            )
        else:
            todo = f"This challenge is {challenge.status}."
        body = "\n".join(
            [
                headline,
                "",
                f"Challenge {challenge.id}: {challenge.rules}, "
                f"{await self.display_name(challenge.challenger)} against "
                f"{await self.display_name(challenge.opponent)}.",
                "",
                todo,
            ]
        )
        root = self._thread_root("challenge", challenge.id, token)
        return self._message(
            player, subject, body, "challenge", challenge.id, token, root, None, answering
        )

    def plain_reply(self, mail: IncomingMail, to: str, body: str) -> EmailMessage:
        """A reply to ``mail`` without a game: errors, help, the games list."""
        from bot.mail.replies import build_reply

        return build_reply(mail, body, self.bot_address, to=to)

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
        )
        if number is not None:
            del message["Message-ID"]
            message["Message-ID"] = (
                f"<mancala.g{ident}.m{number}.{secrets.token_hex(6)}@{self._domain}>"
            )
        return message
