"""Correspondence on a human schedule by mail: vacations, the daily digest's setting and
conditional moves, in a reply to a game's mail or to a digest (docs/correspondence.md).

They act for the player whose secret token the mail carries, never for a bare From address
(a forged From could otherwise stop someone's clocks): sent without a token, they are
answered with where to send them.

>>> read_setting("Vacation on 10 days"), read_setting("digest on at 18")
(Setting(what='vacation', action='on', number=10), Setting(what='digest', action='on', number=18))
>>> read_setting("premoves clear"), read_setting("if f then C")
(Setting(what='premoves', action='off', number=None), None)
>>> read_setting("Move 7: C") is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.i18n import N_, _, ngettext
from bot.mail.mail_commands import first_line, not_done
from bot.mail.reading import IncomingMail
from bot.service import GameService, GameView, Player, ServiceError
from bot.service.premoves import Premove, parse_conditions
from bot.service.vacations import when_words
from engine import Side, from_perspective, to_perspective

_SETTING = re.compile(
    r"^\s*(vacations?|holidays?|digests?|premoves?|conditional\s+moves?|conditions)\b"
    r"[\s:,.!]*(on|start|begin|off|stop|end|clear|none|status|show|list)?\b"
    r"[\s:,.!]*(?:at\s+|for\s+)?(\d{1,2})?",
    re.I,
)
_CLEAR_PREMOVES = re.compile(r"^\s*(?:clear|drop|no)\s+(?:premoves?|conditional\s+moves?)", re.I)
_ON = ("on", "start", "begin")
_OFF = ("off", "stop", "end", "clear", "none")

TOKEN_NEEDED = N_(
    "Vacations, the digest and conditional moves are set in a reply to one of my mails about "
    "your games (or to a digest): its subject carries your secret token. A From address "
    "alone never changes anything; 'games' lists your games with their tags."
)


@dataclass(frozen=True)
class Setting:
    """What a mail asks of ``what`` (vacation, digest, premoves): ``action`` on, off or
    status; ``number``: a vacation's days, a digest's hour."""

    what: str
    action: str
    number: int | None = None


def read_setting(text: str) -> Setting | None:
    """The setting asked on the first line of ``text``, or None when it asks none."""
    line = first_line(text)
    if _CLEAR_PREMOVES.match(line):
        return Setting("premoves", "off")
    found = _SETTING.match(line)
    if found is None:
        return None
    word = found.group(1).lower()
    what = (
        "vacation"
        if word.startswith(("vacation", "holiday"))
        else "digest"
        if word.startswith("digest")
        else "premoves"
    )
    verb = (found.group(2) or "status").lower()
    action = "on" if verb in _ON else "off" if verb in _OFF else "status"
    number = int(found.group(3)) if found.group(3) else None
    return Setting(what, action, number)


def premove_words(premoves: list[Premove], side: Side) -> str:
    """A player's conditional moves as they write them (their own pits uppercase)."""
    if not premoves:
        return _("You have no conditional moves in this game.")
    pairs = "; ".join(  # notation: written as the player writes them back
        f"if {' '.join(to_perspective(m, side) for m in p.if_moves)} then "
        f"{to_perspective(p.then_move, side)}"
        for p in premoves
    )
    # TRANSLATORS: {pairs} is notation ("if f then C; if e then D"): it stays in English
    return _(
        "Your conditional moves (only you see them): {pairs}. Played the moment your "
        "opponent's move matches; all dropped after their next move."
    ).format(pairs=pairs)


class ScheduleMail:
    """Acts on vacation, digest and conditional-move mail for a player whose token spoke."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def setting(self, setting: Setting, player: Player) -> str:
        """Carry out a vacation or digest setting; the words to answer with."""
        service = self.service
        try:
            if setting.what == "vacation":
                if setting.action == "on":
                    status = await service.start_vacation(player, setting.number)
                elif setting.action == "off":
                    status = await service.stop_vacation(player)
                    return _("Welcome back: your clocks run again.") + " " + status.words()
                else:
                    status = await service.vacation(player)
                return status.words()
            if setting.action == "status":
                digest = await service.digest_setting(player)
            else:
                digest = await service.set_digest(player, setting.action == "on", setting.number)
            words = digest.words()
            if digest.on and digest.first_at is not None:
                words += " " + _("The first comes {when}.").format(when=when_words(digest.first_at))
            return words
        except ServiceError as err:
            return not_done(err)

    async def in_game(
        self, mail: IncomingMail, game: GameView, player: Player, side: Side
    ) -> tuple[GameView, str] | None:
        """A reply to a game's mail whose first line is a setting or conditional moves: the
        game and the headline to answer with; None when it is neither."""
        setting = read_setting(mail.text)
        if setting is not None and setting.what != "premoves":
            return await self.service.get_game(game.id), await self.setting(setting, player)
        if setting is not None:  # premoves: list or clear
            try:
                if setting.action == "off":
                    count = await self.service.clear_premoves(game.id, player)
                    dropped = ngettext(
                        "Dropped {count} conditional move.",
                        "Dropped {count} conditional moves.",
                        count,
                    )
                    return game, dropped.format(count=count)
                return game, premove_words(await self.service.my_premoves(game.id, player), side)
            except ServiceError as err:
                return game, not_done(err)
        if parse_conditions(first_line(mail.text)):
            return game, await self.conditions(mail.text, game, player, side)
        return None

    async def conditions(self, text: str, game: GameView, player: Player, side: Side) -> str:
        """Set the conditional moves written in ``text`` (replacing the player's others in
        the game: a mail gives the whole plan); the words to answer with."""
        pairs = [
            (
                " ".join(from_perspective(m, side) for m in condition.split()),
                from_perspective(answer, side),
            )
            for condition, answer in parse_conditions(text)
        ]
        try:
            premoves = await self.service.set_premoves(game.id, player, pairs, replace=True)
        except ServiceError as err:
            return _("Conditional moves not set: {error}").format(error=err)
        return premove_words(premoves, side)

    async def after_move(self, text: str, game: GameView, player: Player, side: Side) -> str:
        """Conditional moves on the lines after a move in the same mail; '' when none."""
        rest = text.strip().partition("\n")[2]
        if not parse_conditions(rest) or game.is_over:
            return ""
        return "\n\n" + await self.conditions(rest, game, player, side)
