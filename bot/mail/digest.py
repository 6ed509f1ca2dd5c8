"""The daily digest by mail: the mail itself, and replies to it that move in several games
(docs/correspondence.md; the service decides when one is due: ``bot.service.digests``).

A digest lists every game where it is the player's move, each with its tag (the game's own
``[mancala game N <token>]``), its ``Rules:`` line, the board from the player's side and the
move it waits for. Its subject and reply address carry the digest's own tag, ``[mancala
digest DAY <token>]`` and ``mancala+dDAY-<token>@host``: the token is the player's for that
day, so a plain Reply speaks for them in each of their games. A reply plays one move per
line, ``#12 C`` (or ``game 12: C``, or ``#12 move 7: C``), in as many games as it has lines,
each at the move the digest showed (an explicit number overrides it), and ``#12 if f then C``
sets a conditional move there. Its first line may also be a setting (``digest off``).

>>> read_line("#12 C"), read_line("Game 12: move 7: c"), read_line("game 5 if f then C")
((12, 'C'), (12, 'move 7: c'), (5, 'if f then C'))
>>> read_line("Thanks!") is None
True
"""

from __future__ import annotations

import re
import secrets
from email.message import EmailMessage

from bot.i18n import _, ngettext
from bot.mail.game_mail import GameMailer, seat_of
from bot.mail.mail_commands import CommandError, parse_command
from bot.mail.mail_language import side_words
from bot.mail.reading import IncomingMail
from bot.mail.replies import build_reply, line_in_question, new_message
from bot.mail.schedule_mail import ScheduleMail, read_setting
from bot.mail.tokens import reply_address
from bot.service import GameService, GameView, Player, ServiceError
from bot.service.clock import DAY
from bot.service.events import DigestDue
from bot.service.premoves import parse_conditions
from bot.service.vacations import when_words
from engine import Side, from_perspective, to_perspective
from engine.ruleset import PIT_CLASS

_TAG = re.compile(r"\[mancala digest (\d{1,7}) ([a-z2-7]{10})\]", re.I)
_ADDRESS = re.compile(r"^[^@+]+\+d(\d{1,7})-([a-z2-7]{10})@", re.I)
_LINE = re.compile(r"^\s*(?:#|game\b\s*#?)\s*(\d{1,12})\b\s*[:.,)\-]?\s*(.*?)\s*$", re.I)
_BARE_MOVE = re.compile(rf"^\s*(?:move\b[\s#\d.:]*)?[{PIT_CLASS}][<>]?\s*[.!]?\s*$", re.I)
MOST_LINES = 50  # lines of a reply read as moves: a digest lists at most 50 games


def read_line(line: str) -> tuple[int, str] | None:
    """A reply's line about one game: (the game's number, what it says), or None."""
    found = _LINE.match(line)
    return (int(found.group(1)), found.group(2)) if found else None


def digest_tag(mail: IncomingMail) -> tuple[int, str] | None:
    """The (day, token) of the digest a mail answers, from its reply address or subject."""
    for address in mail.recipients:
        found = _ADDRESS.match(address)
        if found:
            return int(found.group(1)), found.group(2).lower()
    found = _TAG.search(mail.subject)
    return (int(found.group(1)), found.group(2).lower()) if found else None


def _token(mailer: GameMailer, day: int, player: Player) -> str:
    return mailer.tokens.token("digest", day, player.id)


def _reply_to(mailer: GameMailer, day: int, player: Player) -> str:
    return reply_address(mailer.bot_address, "digest", day, _token(mailer, day, player))


async def digest_mail(mailer: GameMailer, event: DigestDue) -> EmailMessage:
    """The digest mail of ``event`` to its recipient."""
    player, day = event.recipient, event.day
    count = len(event.games)
    first = event.games[0].id
    lines = [
        ngettext(
            "Your daily digest of {date}: {n} game waits for your move.",
            "Your daily digest of {date}: {n} games wait for your move.",
            count,
        ).format(date=when_words(day * DAY)[:10], n=count),
        "",
        # TRANSLATORS: '#{game} C', '#{game} if f then C' and 'digest off' are what a mail
        # is read by: keep them as they are
        _(
            "To play, reply to this mail with one line per game, like '#{game} C': the pit you "
            "play in that game, at the move shown below. Several lines play in several games. "
            "'#{game} if f then C' sets a conditional move there instead. 'digest off' on the "
            "first line turns the digest off."
        ).format(game=first),
    ]
    for game in event.games:
        lines += ["", *await _game_lines(mailer, game, player)]
    lines += [
        "",
        _(
            "Keep the subject: it carries your secret token for today's digest. Your opponents' "
            "moves come in the next digest, not one by one; a game's end, offers and reminders "
            "still come at once."
        ),
    ]
    tag = f"[mancala digest {day} {_token(mailer, day, player)}]"
    # TRANSLATORS: a digest's subject, after its tag
    waiting = ngettext("{n} game waits for your move", "{n} games wait for your move", count)
    message = new_message(
        player.id,
        f"{tag} {waiting.format(n=count)}",
        "\n".join(lines),
        mailer.bot_address,
        _reply_to(mailer, day, player),
        positions=[game.position for game in event.games],  # the boards' sides, for pictures
        links=[
            link
            for game in event.games
            if (link := mailer.page_link(game.id, seat_of(game, player))) is not None
        ],
    )
    del message["Message-ID"]
    domain = mailer.bot_address.rpartition("@")[2].rstrip(">").strip() or "localhost"
    message["Message-ID"] = f"<mancala.d{day}.{secrets.token_hex(6)}@{domain}>"
    return message


async def _game_lines(mailer: GameMailer, game: GameView, player: Player) -> list[str]:
    side = seat_of(game, player)
    name = await mailer.display_name(game.player(side.other))
    number = game.ply + 1
    legal = ", ".join(to_perspective(m, side) for m in game.position.legal_moves())
    game_words = _("Game {id}").format(id=game.id)
    lines = [
        f"-------- {game_words} [mancala game {game.id} {mailer.game_token(game.id, side)}]",
        f"Rules: {game.rules}",
        _("You play {side} against {name}; move {number} is yours.").format(
            side=side_words(side), name=name, number=number
        ),
    ]
    if game.moves:
        lines.append(
            _("{name} played {move}.").format(name=name, move=to_perspective(game.moves[-1], side))
        )
    lines += await mailer.clock_lines(game, player)
    lines += [
        "",
        game.board(side),
        "",
        _("Move {number}: reply '#{game} {example}' (legal: {legal}).").format(
            number=number, game=game.id, example=legal.split(", ")[0], legal=legal
        ),
        *mailer.page_lines(game.id, side),
    ]
    return lines


class DigestMail:
    """Answers the replies to digests."""

    def __init__(self, service: GameService, mailer: GameMailer, schedule: ScheduleMail) -> None:
        self.service = service
        self.mailer = mailer
        self.schedule = schedule

    # -- replies to it -------------------------------------------------------------------------

    def wants(self, mail: IncomingMail) -> bool:
        return digest_tag(mail) is not None

    def player_of(self, mail: IncomingMail) -> Player | None:
        """The player the mail's digest token speaks for (its From address, checked by the
        token), or None."""
        found = digest_tag(mail)
        if found is None or not mail.from_address:
            return None
        day, token = found
        if self.mailer.tokens.check("digest", day, mail.from_address, token):
            return Player("email", mail.from_address)
        return None

    async def handle(self, mail: IncomingMail, player: Player) -> list[EmailMessage]:
        """Play the reply's lines; one mail back saying what was done, game by game."""
        found = digest_tag(mail)
        assert found is not None  # player_of found it
        day = found[0]
        lines = [line.strip() for line in mail.text.split("\n") if line.strip()][:MOST_LINES]
        answers: list[str] = []
        setting = read_setting(mail.text)
        if setting is not None and setting.what != "premoves" and lines:
            answers.append(await self.schedule.setting(setting, player))
            lines = lines[1:]
        listing = await self.service.digest_listing(player, day) or {}
        boards: dict[int, GameView] = {}
        for line in lines:
            read = read_line(line)
            if read is None:
                if _BARE_MOVE.match(line):
                    ask = _("Which game is it for? Write the game's number first, like '#12 C'.")
                    answers.append(f"{line_in_question(line)}\n{ask}")
                continue  # words for the opponent, thanks...: not for me
            game_id, rest = read
            text, game = await self._line(player, listing, game_id, rest)
            answers.append(f"{line_in_question(line)}\n{text}")
            if game is not None:
                boards[game.id] = game
        if not answers:
            answers.append(
                _(
                    "I found no move in your reply. Write one line per game, like '#12 C' "
                    "(the game's number, then your pit)."
                )
            )
        body = "\n\n".join(answers)
        for game in boards.values():
            side = seat_of(game, player)
            title = _("Game {id}").format(id=game.id)
            body += f"\n\n-------- {title}: {game.rules}\n\n{game.board(side)}"
        body += "\n\n" + _(
            "Reply to this mail for more moves from today's digest; each game's own mail "
            "takes its other commands (resign, draw, undo, board)."
        )
        return [
            build_reply(
                mail,
                body,
                self.mailer.bot_address,
                to=player.id,
                reply_to=_reply_to(self.mailer, day, player),
                positions=[game.position for game in boards.values()],
            )
        ]

    async def _line(
        self, player: Player, listing: dict[int, int], game_id: int, rest: str
    ) -> tuple[str, GameView | None]:
        """Act on one line about game ``game_id``: the answer, and the game after it."""
        try:
            game = await self.service.get_game(game_id)
            found = game.side_of(player)
            if found is None:
                return _("Game {id} is not one of yours.").format(id=game_id), None
            side = Side(found)
            if parse_conditions(rest):
                return await self.schedule.conditions(rest, game, player, side), None
            try:
                command = parse_command(rest)
            except CommandError as err:
                return str(err), None
            if command is None or command.verb != "move" or command.move is None:
                return (
                    _(
                        "Write a pit for game {id}, like '#{id} C'; its other commands "
                        "go in a reply to its own mail."
                    ).format(id=game_id),
                    None,
                )
            number = command.number or (listing[game_id] + 1 if game_id in listing else None)
            if number is None:
                return (
                    _(
                        "Game {id} was not in this digest: write the move number of the "
                        "board you saw, like '#{id} move {number}: {move}'."
                    ).format(id=game_id, number=game.ply + 1, move=command.move),
                    None,
                )
            game = await self.service.move(
                game.id, player, from_perspective(command.move, side), expected_ply=number - 1
            )
            played = to_perspective(game.moves[-1], side)
            return _("Game {id}: you played {move} (move {number}).").format(
                id=game_id, move=played, number=number
            ), game
        except ServiceError as err:
            return _("Game {id}: not done: {error}").format(id=game_id, error=err), None
