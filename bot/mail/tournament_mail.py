"""Tournaments by mail: ``tournament ...`` on a mail's first line (docs/tournaments.md).

A tournament created by mail has no place: its creator organises it, and each player hears
its news in their own inbox. Each round a player gets their game's mail, the same as a
challenge's game (its subject carries their secret token: they reply with their moves), or
word of their bye; at the end, the final standings. Discord players may join one too.

The commands (``HELP``), answered within the sender's automatic replies
(``bot.mail.reply_limits``, as the games list is):

>>> read_request("tournament create swiss 5 rounds oware 3 days Autumn Swiss")
TournamentRequest(verb='create', number=None, round=None, format='swiss', rounds=5, \
rules='oware', days=3, minutes=None, name='Autumn Swiss')
>>> read_request("Tournament join 12"), read_request("tournaments")
(TournamentRequest(verb='join', number=12, round=None, format=None, rounds=None, rules=None, \
days=None, minutes=None, name=None), TournamentRequest(verb='list', number=None, round=None, \
format=None, rounds=None, rules=None, days=None, minutes=None, name=None))
>>> read_request("Move 3: C") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import EmailMessage

from bot.i18n import N_, _, ngettext
from bot.mail.game_mail import GameMailer
from bot.mail.mail_commands import DEFAULT_RULES, first_line
from bot.mail.mail_language import side_words
from bot.mail.reading import IncomingMail
from bot.mail.replies import build_reply, line_in_question, new_message
from bot.service import BadRequest, GameService, Player, ServiceError
from bot.service.events import TournamentNews, TournamentNewsKind
from bot.service.tournaments import (
    Format,
    Pairing,
    PairingKind,
    PairingResult,
    Standing,
    TimeControl,
    TournamentStatus,
    TournamentView,
)
from engine import Ruleset, RulesetError, Side

_VERB = re.compile(r"^\s*tournaments?\b[\s:,.!]*(.*)$", re.I)
_FORMATS = {
    "swiss": Format.SWISS,
    "round-robin": Format.ROUND_ROBIN,
    "roundrobin": Format.ROUND_ROBIN,
    "rr": Format.ROUND_ROBIN,
    "double-round-robin": Format.DOUBLE_ROUND_ROBIN,
    "double": Format.DOUBLE_ROUND_ROBIN,
    "arena": Format.ARENA,
}
_UNITS = {"round": "rounds", "day": "days", "minute": "minutes", "min": "minutes"}
_VERBS = ("create", "list", "join", "withdraw", "start", "cancel", "standings", "pairings")

# TRANSLATORS: the words tournament, create, list, join, withdraw, start, cancel, standings,
# pairings, swiss, round-robin, double-round-robin, rounds and days are what a mail is read
# by: keep them in English, and the right-hand column where it is.
HELP = N_(
    """Tournaments by mail (the first line of your mail):
    tournament create FORMAT [N rounds] [RULES] [N days] [NAME]
                        a new tournament, which you organise: FORMAT is swiss (give its
                        rounds), round-robin or double-round-robin; RULES default to
                        {rules}, the time to 3 days a move (1 to 14)
    tournament list     the tournaments open to join or under way
    tournament join N / withdraw N      join tournament N, or leave it
    tournament start N / cancel N       its creator starts it now, or calls it off
    tournament standings N / pairings N [ROUND]
Each round you get your game's mail: reply to it with your moves, as in any game."""
)


def help_text() -> str:
    """``HELP`` in the current language."""
    return _(HELP).format(rules=DEFAULT_RULES)


_FORMAT_WORDS = {
    Format.SWISS: N_("Swiss"),
    Format.ROUND_ROBIN: N_("round robin"),
    Format.DOUBLE_ROUND_ROBIN: N_("double round robin"),
    Format.ARENA: N_("arena"),
}


@dataclass(frozen=True)
class TournamentRequest:
    """What a tournament mail asks: ``verb`` (one of ``_VERBS``, or ``help``), the
    tournament's ``number``, a ``round``, and for ``create`` its settings."""

    verb: str
    number: int | None = None
    round: int | None = None
    format: str | None = None
    rounds: int | None = None
    rules: str | None = None
    days: int | None = None
    minutes: int | None = None
    name: str | None = None


def read_request(text: str) -> TournamentRequest | None:
    """The tournament request on the first line of ``text``, or None when it is not one."""
    found = _VERB.match(first_line(text))
    if found is None:
        return None
    words = found.group(1).split()
    if not words:
        return TournamentRequest("list")
    verb, rest = words[0].lower(), words[1:]
    if verb in ("help", "commands"):
        return TournamentRequest("commands")
    if verb not in _VERBS:
        return TournamentRequest("help")
    if verb != "create":
        numbers = [int(w.lstrip("#")) for w in rest if w.lstrip("#").isdigit() and len(w) < 12]
        return TournamentRequest(
            verb,
            number=numbers[0] if numbers else None,
            round=numbers[1] if len(numbers) > 1 else None,
        )
    settings: dict[str, int] = {}
    form = rules = None
    name: list[str] = []
    i = 0
    while i < len(rest):
        word, unit = rest[i], rest[i + 1].lower().rstrip("s") if i + 1 < len(rest) else ""
        if word.isdigit() and len(word) < 6 and unit in _UNITS:
            settings[_UNITS[unit]] = int(word)
            i += 2
            continue
        if form is None and word.lower() in _FORMATS:
            form = _FORMATS[word.lower()].value
        elif rules is None and _is_rules(word):
            rules = word
        else:
            name.append(word)
        i += 1
    return TournamentRequest(
        "create",
        format=form,
        rounds=settings.get("rounds"),
        rules=rules,
        days=settings.get("days"),
        minutes=settings.get("minutes"),
        name=" ".join(name) or None,
    )


def _is_rules(word: str) -> bool:
    try:
        Ruleset.parse(word)
    except RulesetError:
        return False
    return True


def points(value: float) -> str:
    """Points as people write them: 3½, not 3.5."""
    whole = int(value)
    if value - whole >= 0.5:
        return f"{whole}½" if whole else "½"
    return str(whole)


class TournamentMail:
    """Tournament commands by mail (the mails of their news: ``TournamentWords.news``)."""

    def __init__(self, service: GameService, mailer: GameMailer):
        self.service = service
        self.mailer = mailer
        self.words = TournamentWords(mailer)

    def wants(self, mail: IncomingMail) -> bool:
        """Whether ``mail``'s first line is a tournament command."""
        return read_request(mail.text) is not None

    async def handle(self, mail: IncomingMail) -> list[EmailMessage]:
        """The reply to a tournament mail (its limits are the caller's: ``Correspondence``)."""
        request = read_request(mail.text) or TournamentRequest("help")
        me = Player("email", mail.from_address)
        service = self.service
        try:
            if request.verb == "commands":
                return [self._reply(mail, help_text())]
            if request.verb == "help":
                head = line_in_question(first_line(mail.text))
                text = f"{head}\n\n{_('I could not read that.')}\n\n{help_text()}"
                return [self._reply(mail, text)]
            if request.verb == "list":
                shown = [
                    *await service.list_tournaments(TournamentStatus.OPEN, limit=10),
                    *await service.list_tournaments(TournamentStatus.RUNNING, limit=10),
                ]
                text = "\n\n".join([await self._describe(t) for t in shown])
                return [self._reply(mail, text or _("No tournament is open or under way."))]
            if request.verb == "create":
                return [await self._create(mail, me, request)]
            if request.number is None:
                ask = _("Which tournament? Write its number.")
                return [self._reply(mail, f"{ask}\n\n{help_text()}")]
            number = request.number
            if request.verb == "join":
                view = await service.join_tournament(number, me)
                text = _("You are in.") + f"\n\n{await self._describe(view)}"
            elif request.verb == "withdraw":
                view = await service.withdraw_from_tournament(number, me)
                text = _("You are out of tournament {id}.").format(id=view.id)
            elif request.verb == "start":
                view = await service.start_tournament(number, me)
                started = _("Started: each player has their game's mail.")
                text = f"{started}\n\n{await self._describe(view)}"
            elif request.verb == "cancel":
                view = await service.cancel_tournament(number, me)
                text = _("Cancelled.") + f"\n\n{await self._describe(view)}"
            elif request.verb == "standings":
                view = await service.tournament(number)
                table = await service.tournament_standings(number)
                text = "\n".join([await self._describe(view), "", *await self._table(view, table)])
            else:
                view = await service.tournament(number)
                pairings = await service.tournament_pairings(number, request.round)
                lines = [await self._pairing(p) for p in pairings] or [_("No pairings yet.")]
                text = "\n".join([await self._describe(view), "", *lines])
        except ServiceError as err:
            return [self._reply(mail, str(err))]
        return [self._reply(mail, text)]

    async def _create(
        self, mail: IncomingMail, me: Player, request: TournamentRequest
    ) -> EmailMessage:
        if request.minutes is not None and request.days is not None:
            raise BadRequest(_("give days a move or minutes a move, not both"))
        pace = (
            TimeControl.live(request.minutes)
            if request.minutes is not None
            else TimeControl.correspondence(request.days if request.days is not None else 3)
        )
        form = request.format or ""
        view = await self.service.create_tournament(
            me,
            request.name or _tournament_name(form),
            form,
            request.rules or DEFAULT_RULES,
            pace,
            rounds=request.rounds,
        )
        # TRANSLATORS: 'tournament join {id}' and 'tournament start {id}' are commands
        how = _(
            "Players join by mail with 'tournament join {id}' (or on Discord, /mancala "
            "tournament join). Start it with 'tournament start {id}' when everyone is in."
        ).format(id=view.id)
        return self._reply(mail, f"{await self._describe(view)}\n\n{how}")

    def _reply(self, mail: IncomingMail, body: str) -> EmailMessage:
        return build_reply(mail, body, self.mailer.bot_address, to=mail.from_address)

    async def _describe(self, view: TournamentView) -> str:
        return await self.words.describe(view)

    async def _pairing(self, pairing: Pairing) -> str:
        return await self.words.pairing(pairing)

    async def _table(
        self, view: TournamentView, standings: list[Standing] | tuple[Standing, ...]
    ) -> list[str]:
        return await self.words.table(view, standings)


class TournamentWords:
    """Tournaments in words for mail, and the mails of their news (``news``)."""

    def __init__(self, mailer: GameMailer):
        self.mailer = mailer

    async def describe(self, view: TournamentView) -> str:
        form = _(_FORMAT_WORDS[view.format]) if view.format in _FORMAT_WORDS else view.format
        if view.format is Format.ARENA:
            # TRANSLATORS: an arena tournament's length: "arena, 60 minutes"
            shape = ngettext(
                "{format}, {n} minute", "{format}, {n} minutes", view.arena_minutes or 0
            ).format(format=form, n=view.arena_minutes)
        elif view.rounds or view.format is Format.SWISS:
            # TRANSLATORS: a tournament's format and length: "Swiss, 5 rounds"
            shape = ngettext(
                "{format}, {n} round", "{format}, {n} rounds", view.rounds or 0
            ).format(format=form, n=view.rounds)
        else:
            shape = str(form)
        status = {
            TournamentStatus.OPEN: _("open to join"),
            TournamentStatus.RUNNING: _("round {n} under way").format(n=view.current_round),
            TournamentStatus.FINISHED: _("finished"),
            TournamentStatus.CANCELLED: _("cancelled"),
        }[view.status]
        count = len(view.players)
        # TRANSLATORS: "Tournament 3: Autumn Swiss (Swiss, 5 rounds, wari, 3 days a move),
        # 8 players, open to join."
        return ngettext(
            "Tournament {id}: {name} ({shape}, {rules}, {pace}), {n} player, {status}.",
            "Tournament {id}: {name} ({shape}, {rules}, {pace}), {n} players, {status}.",
            count,
        ).format(
            id=view.id,
            name=view.name,
            shape=shape,
            rules=view.rules,
            pace=view.time_control,
            n=count,
            status=status,
        )

    async def _name(self, player: Player) -> str:
        return await self.mailer.display_name(player)

    async def pairing(self, pairing: Pairing) -> str:
        south = await self._name(pairing.south)
        if pairing.north is None:
            return _("Bye: {name} (1 point)").format(name=south)
        north = await self._name(pairing.north)
        if pairing.kind is PairingKind.FORFEIT:
            if pairing.result is PairingResult.NONE:
                return _("{south} - {north}: not played").format(south=south, north=north)
            winner = south if pairing.result is PairingResult.SOUTH else north
            return _("{south} - {north}: {winner} wins by forfeit").format(
                south=south, north=north, winner=winner
            )
        score = {
            PairingResult.SOUTH: ", 1-0",
            PairingResult.NORTH: ", 0-1",
            PairingResult.DRAW: ", " + _("draw"),
        }.get(pairing.result or PairingResult.NONE, "")
        # TRANSLATORS: "Board 2: Ann (South) - Bob, game 14, 1-0"; the score may follow
        board = _("Board {board}: {south} ({side}) - {north}, game {game}").format(
            board=pairing.board,
            south=south,
            side=side_words(Side.SOUTH),
            north=north,
            game=pairing.game_id,
        )
        return board + score

    async def table(
        self, view: TournamentView, standings: list[Standing] | tuple[Standing, ...]
    ) -> list[str]:
        lines = []
        for s in standings:
            ties = (
                ""
                if view.format is Format.ARENA
                else f", Buchholz {points(s.buchholz)}, Sonneborn-Berger {s.sonneborn_berger:g}"
            )
            name = await self._name(s.player)
            if s.withdrawn:
                name = _("{name} (withdrew)").format(name=name)
            # TRANSLATORS: a line of the standings: "1. Ann: 3½, Buchholz 7 (3 won, 1 drawn,
            # 0 lost)"; {ties} is the tie-breaks or nothing
            lines.append(
                _(
                    "{rank}. {name}: {points}{ties} ({wins} won, {draws} drawn, {losses} lost)"
                ).format(
                    rank=s.rank,
                    name=name,
                    points=points(s.points),
                    ties=ties,
                    wins=s.wins,
                    draws=s.draws,
                    losses=s.losses,
                )
            )
        return lines

    # -- news -----------------------------------------------------------------------------

    async def news(self, event: TournamentNews) -> EmailMessage | None:
        """The mail telling an email player of a tournament's news: their game's mail when a
        round starts (reply to it with moves), else a mail of its own; None for news that is
        not theirs (a place's)."""
        if event.in_place or event.recipient.surface != "email":
            return None
        view = event.tournament
        title = _("{name} (tournament {id})").format(name=view.name, id=view.id)
        if event.kind is TournamentNewsKind.ROUND_STARTED and event.game is not None:
            headline = _("{title}, round {round}: your game begins.").format(
                title=title, round=event.round
            )
            return await self.mailer.game_mail(event.game, event.recipient, headline)
        if event.kind is TournamentNewsKind.ROUND_STARTED:
            if event.pairing is None:
                body = _("{title}, round {round}: you rest this round.").format(
                    title=title, round=event.round
                )
            else:
                body = _("{title}, round {round}: {pairing}.").format(
                    title=title, round=event.round, pairing=await self.pairing(event.pairing)
                )
        elif event.kind is TournamentNewsKind.FINISHED:
            table = await self.table(view, event.standings)
            over = _("{title} is over. The final standings:").format(title=title)
            body = "\n".join([over, "", *table])
        elif event.kind is TournamentNewsKind.CANCELLED:
            body = _("{title} was cancelled.").format(title=title)
        else:
            return None
        subject = f"[mancala tournament {view.id}] {view.name}"
        return new_message(event.recipient.id, subject, body, self.mailer.bot_address)


def _tournament_name(form: str) -> str:
    """The name of a tournament created without one: "Swiss tournament"."""
    words = _(_FORMAT_WORDS[Format(form)]) if form in {f.value for f in Format} else ""
    if not words:
        return _("a tournament")
    # TRANSLATORS: a tournament's name when its creator gave none: "Swiss tournament"
    return _("{format} tournament").format(format=words)
