"""Text the bot posts: boards in code blocks, challenges, lists. No Discord objects here.

Players are mentioned as ``<@id>``; the AI by its level. Every message stays under Discord's
2,000 characters.

>>> from bot.service import Player
>>> who(Player("discord", "42")), who(Player.ai("first")), who(Player("email", "ann@example.org"))
('<@42>', 'the AI (first)', 'an…@example.org (by email)')
>>> fit("x" * 3000).endswith("…")
True
"""

from __future__ import annotations

import re
from typing import NamedTuple

from bot.i18n import N_, Language, _, current_language, ngettext, pgettext
from bot.service import Challenge, GameView, Player, Rating
from bot.service.offer_words import OFFER_ANSWERED, OFFER_MADE
from bot.service.types import OfferKind
from engine import SIDES, Ruleset, result_lines
from engine.ruleset import PARAMETERS, PRESETS, format_value

MESSAGE_LIMIT = 2000  # characters in a message's content
CHOICE_LIMIT = 100  # characters in an autocomplete choice's name and value
# Embeds: title, description, fields (count, name, value), and everything together.
EMBED_TITLE, EMBED_DESCRIPTION, EMBED_FIELDS = 256, 4096, 25
FIELD_NAME, FIELD_VALUE, EMBED_TOTAL = 256, 1024, 6000

_TIME = re.compile(
    r"^\s*([0-9]{1,6}(?:\.[0-9]{1,6})?)\s*"
    r"(m|min|mins|minutes?|h|hours?|d|days?)\s*$",
    re.I,
)
_UNIT_SECONDS = {"m": 60, "h": 3600, "d": 86400}


def who(player: Player) -> str:
    """How a message names a player: a mention on Discord, the AI by level, an email player
    by a masked address (a channel is no place to publish someone's address), others by id."""
    if player.surface == "discord":
        return f"<@{player.id}>"
    if player.is_ai:
        return _("the AI ({level})").format(level=player.id)
    if player.surface == "email":
        return _("{address} (by email)").format(address=masked_address(player.id))
    return f"{player.id} ({player.surface})"


def side_name(side: str) -> str:
    """South or North, as a word in a sentence."""
    # TRANSLATORS: a side of the board (the player who sits there): "South to move"
    return pgettext("side", "North") if side == "north" else pgettext("side", "South")


_SURFACES = {
    # TRANSLATORS: how a player plays, in "waiting for their move by email"
    "email": N_("email"),
    "terminal": N_("the terminal"),
}


def surface_name(surface: str) -> str:
    """A surface players play on, as a word: "email"."""
    return _(_SURFACES[surface]) if surface in _SURFACES else surface


def command_word(word: str) -> str:
    """A command's or option's name as the reader's Discord lists it (``COMMAND_WORDS`` in
    ``translator.py``): in their language where Discord has it, else in English (Discord
    has no Kazakh)."""
    if current_language() in _NO_DISCORD_LOCALE:
        return word
    return pgettext("command", word)


_NO_DISCORD_LOCALE = {Language.KK}  # languages Discord's clients are never in


def command(path: str, **options: object) -> str:
    """A command as the reader types it, in backticks: ``command("move", pit="E")`` is
    `/mancala move pit:E` in English, `/mancala jouer case:E` in French."""
    words = " ".join(command_word(word) for word in path.split())
    given = "".join(f" {command_word(key)}:{value}" for key, value in options.items())
    return f"`/mancala {words}{given}`"


def option(key: str, value: object) -> str:
    """An option with its value, in backticks, as the reader's Discord names it."""
    return f"`{command_word(key)}: {value}`"


def masked_address(address: str) -> str:
    """An email address with most of its local part hidden, recognisable to whoever typed it.

    >>> masked_address("ann@example.org"), masked_address("bo@example.org")
    ('an…@example.org', 'b…@example.org')
    """
    local, at, domain = address.rpartition("@")
    if not at:
        return address[:2] + "…"
    shown = 2 if len(local) > 2 else 1
    return f"{local[:shown]}…@{domain}"


def on_discord(player: Player) -> bool:
    """Can this player press the bot's buttons? (The AI and email players cannot.)"""
    return player.surface == "discord"


def snowflake(text: str) -> int | None:
    """``text`` as a Discord id, if it is one: 1 to 20 ASCII digits (``str.isdigit`` alone
    passes '¹', which ``int`` refuses).

    >>> snowflake("80351110224678912"), snowflake("¹"), snowflake("9" * 30)
    (80351110224678912, None, None)
    """
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 20 else None


def discord_ids(*players: Player) -> list[int]:
    """The Discord user ids among ``players``: the only people a message may ping."""
    return [int(p.id) for p in players if p.surface == "discord" and snowflake(p.id)]


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Cut ``text`` to ``limit`` characters, marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def code_block(text: str) -> str:
    # a user's text inside a code block must not close it early
    return "```\n" + text.replace("```", "'''") + "\n```"


def game_title(game: GameView) -> str:
    days = game.options.days
    pace = (
        " · " + ngettext("{n} day a move", "{n} days a move", days).format(n=days) if days else ""
    )
    return _(
        "**Game {id}** · `{rules}`{pace} · {south} ({south_side}) vs {north} ({north_side})"
    ).format(
        id=game.id,
        rules=game.rules,
        pace=pace,
        south=who(game.south),
        north=who(game.north),
        south_side=side_name("south"),
        north_side=side_name("north"),
    )


def away_note(game: GameView) -> str:
    """Who of the game is on vacation, until when (in each reader's own time)."""
    return "".join(
        " "
        + _("{player} is on vacation until {time}: their clock stands still.").format(
            player=who(away.player), time=f"<t:{int(away.until)}:f>"
        )
        for away in game.away
    )


def turn_line(game: GameView) -> str:
    """Whose turn it is and the last move, or the result."""
    last = _("Last move: **{move}**.").format(move=game.moves[-1]) + " " if game.moves else ""
    if game.is_over:
        out = game.outcome
        if out is None:
            return _("The game is over.")
        names: dict[str, str] = {
            side: f"{who(game.player(side))} ({side_name(side)})" for side in SIDES
        }
        return last + " ".join(result_lines(out, names))
    side = side_name(game.position.to_move)
    mover = game.to_move
    assert mover is not None  # a game not over has a player to move
    if mover.is_ai:
        return last + _("{player} to move ({side}): thinking…").format(player=who(mover), side=side)
    # Discord shows <t:...:R> in each reader's own time, counting down ("in 3 hours").
    clock = (
        " " + _("Move due {time}.").format(time=f"<t:{int(game.deadline)}:R>")
        if game.deadline
        else ""
    )
    if game.away_until(mover) is not None:  # their clock stands still
        clock = ""
    clock += away_note(game)
    if not on_discord(mover):
        waiting = _("{player} to move ({side}): waiting for their move by {surface}.")
        return (
            last
            + waiting.format(player=who(mover), side=side, surface=surface_name(mover.surface))
            + clock
        )
    moves = ", ".join(game.position.legal_moves())
    return (
        last
        + _("{player} to move ({side}): {moves}.").format(player=who(mover), side=side, moves=moves)
        + clock
    )


def board_message(game: GameView, note: str = "", text_board: bool = True) -> str:
    """The message under which the pit buttons sit: title, the 003 text board (unless the
    server turned it off: the picture beside it shows the board too), turn."""
    parts = [game_title(game)]
    if note:
        parts.append(note)
    if text_board:
        parts.append(code_block(game.board("south")))
    parts.append(turn_line(game))
    if game.offer and not game.is_over:
        parts.append(offer_line(game))
    return fit("\n".join(parts))


def offer_made(kind: OfferKind, player: Player) -> str:
    """ "Ann offers a draw.": an offer as the board shows it."""
    return _(OFFER_MADE[kind]).format(player=who(player))


def offer_answered(kind: str, player: str, accepted: bool) -> str:
    """ "Ann accepted the draw offer.": ``player`` as a message names them."""
    return _(OFFER_ANSWERED[OfferKind(kind), accepted]).format(player=player)


def offer_line(game: GameView) -> str:
    """The pending offer, and who answers."""
    offer = game.offer
    if offer is None:
        return ""
    answerer = game.opponent_of(offer.by)
    assert answerer is not None  # an offer's maker plays in the game
    if not on_discord(answerer):
        answer = _("{player} answers by {surface}.").format(
            player=who(answerer), surface=surface_name(answerer.surface)
        )
    else:
        answer = _("{player}: accept or decline with the buttons.").format(player=who(answerer))
    return f"{offer_made(offer.kind, offer.by)} {answer}"


_SIDE_TAKEN = {
    "south": N_("{player} plays South."),
    "north": N_("{player} plays North."),
}
_CHALLENGE_STATUS = {
    "accepted": N_("Challenge accepted."),
    "declined": N_("Challenge declined."),
    "cancelled": N_("Challenge cancelled."),
    "expired": N_("Challenge expired."),
}


def challenge_message(challenge: Challenge, descriptions: dict[str, str]) -> str:
    """A challenge card. ``descriptions`` maps preset names to one-line descriptions."""
    name = challenge.rules.split(":")[0]
    challenger, opponent = who(challenge.challenger), who(challenge.opponent)
    line = _("{challenger} challenges {opponent} to `{rules}`.").format(
        challenger=challenger, opponent=opponent, rules=challenge.rules
    )
    about = descriptions.get(name)
    side = _SIDE_TAKEN.get(challenge.options.side, N_("{player} plays a random side."))
    parts = [line, f"> {about}" if about else "", _(side).format(player=challenger)]
    if challenge.status == "open" and on_discord(challenge.opponent):
        parts.append(
            _("{player}: Accept or Decline below, or {accept}.").format(
                player=opponent, accept=command("accept")
            )
        )
    elif challenge.status == "open":
        parts.append(
            _("{player} answers by {surface}: I sent them the challenge.").format(
                player=opponent, surface=surface_name(challenge.opponent.surface)
            )
        )
    else:
        status = _CHALLENGE_STATUS.get(challenge.status)
        parts.append(_(status) if status else challenge.status)
    return fit("\n".join(p for p in parts if p))


def record(wins: int, losses: int, draws: int) -> str:
    """Wins, losses and draws, short: "3W 1L 0D"."""
    # TRANSLATORS: wins, losses and draws, as short as a scoreboard writes them
    return _("{wins}W {losses}L {draws}D").format(wins=wins, losses=losses, draws=draws)


def games_list(games: list[GameView], player: Player) -> str:
    if not games:
        return _("You have no games. Start one with {challenge}.").format(
            challenge=command("challenge")
        )
    lines = []
    for game in games:
        opponent = game.opponent_of(player)
        assert opponent is not None  # these are the player's own games
        if game.is_over:
            # TRANSLATORS: a game's state in the list of your games
            state = pgettext("game", "over")
        elif game.to_move == player:
            state = _("**your move**")
        else:
            state = _("their move")
        where = (
            f"<#{game.channel.id}>"
            if game.channel.surface == "discord"
            else surface_name(game.channel.surface)
        )
        lines.append(
            _("Game {id} · `{rules}` vs {opponent} · ply {ply} · {state} · {where}").format(
                id=game.id,
                rules=game.rules,
                opponent=who(opponent),
                ply=game.ply,
                state=state,
                where=where,
            )
        )
    return fit("\n".join(lines))


class Card(NamedTuple):
    """What an embed shows, as plain data: ``fields`` are (name, value) pairs."""

    title: str
    description: str
    fields: tuple[tuple[str, str], ...]

    def size(self) -> int:
        """Characters as Discord counts them against an embed's 6,000."""
        return (
            len(self.title) + len(self.description) + sum(len(n) + len(v) for n, v in self.fields)
        )


def rules_card(rules: Ruleset) -> Card:
    """A ruleset in full as an embed: what it is, then one field per key with its value,
    meaning and allowed values (a code block of the same ran past 2,000 characters).

    >>> card = rules_card(Ruleset.parse("wari:captures=2-4"))
    >>> [name for name, _ in card.fields if name.startswith("captures")]
    ['captures = 2-4']
    >>> card.title, len(card.fields) == len(PARAMETERS), card.size() <= EMBED_TOTAL
    ('wari: captures=2-4', True, True)
    """
    preset = PRESETS[rules.name]
    title = rules.describe().splitlines()[0]  # the ruleset with what it changes
    about = [_(preset.summary) + ".", _("Source: {source}.").format(source=_(preset.source))]
    if preset.aliases:
        about.append(_("Also called: {names}.").format(names=", ".join(preset.aliases)))
    about.append(
        _("Change any key with `name:key=value,...`; the full reference is docs/rules.md.")
    )
    fields = tuple(
        (
            f"{key} = {format_value(getattr(rules, key))}",
            fit(f"{_(param.meaning)} ({param.allowed()})", FIELD_VALUE),
        )
        for key, param in PARAMETERS.items()
    )
    return Card(
        fit(title, EMBED_TITLE), fit("\n".join(about), EMBED_DESCRIPTION), fields[:EMBED_FIELDS]
    )


def help_text(typed_moves: bool) -> str:
    """A short guide: starting a game, moving, and the other commands.

    >>> len(help_text(True)) <= MESSAGE_LIMIT
    True
    """
    typing = (
        _(
            "or type the letter in the channel (`E`, or `E<` to sow clockwise where the rules allow it)"
        )
        if typed_moves
        else _("or {move}").format(move=command("move", pit="E"))
    )
    c = command
    lines = [
        _("**Mancala here**"),
        _(
            "{challenge} a member with a ruleset (`kalah`, `wari`, `oware`, ... or "
            "`wari:captures=2-4`); challenge me to play the AI ({level} to `expert`)."
        ).format(challenge=c("challenge"), level=option("level", "easy")),
        _(
            "Move with the pit buttons under the board, {typing}. Your pits are the bottom row, "
            "`A` to `F` from your left; North's are `a` to `f`."
        ).format(typing=typing),
        _(
            "{board} shows the game, {hint} suggests a move (against the AI or unrated), "
            "{draw} and {undo} make offers, {resign} ends it."
        ).format(
            board=c("board"), hint=c("hint"), draw=c("draw"), undo=c("undo"), resign=c("resign")
        ),
        _(
            "{accept}, {decline} and {cancel} answer or withdraw challenges; {games} lists "
            "yours; {rules} explains a ruleset; {leaderboard} ranks the players."
        ).format(
            accept=c("accept"),
            decline=c("decline"),
            cancel=c("cancel"),
            games=c("games"),
            rules=c("rules", ruleset="wari"),
            leaderboard=c("leaderboard"),
        ),
        _(
            "{puzzle} posts today's puzzle ({next} for another, just for you): press the right "
            "pit; your streak and the server's puzzle board keep count."
        ).format(puzzle=c("puzzle"), next=option("kind", _("another puzzle for me"))),
        _(
            "Slow games: {days} in a challenge gives 3 days a move; {vacation} stops your "
            "clocks (30 days a year); {premove} plays C for you the moment your opponent plays f."
        ).format(
            days=option("days", 3),
            vacation=c("vacation start"),
            premove=c("premove", **{"if": "f", "then": "C"}),
        ),
        _(
            "Boards come as a picture with the text board beside it; {board} leaves the text "
            "out once. Server admins choose the defaults (ruleset, AI level, clock, pings, "
            "threads, the text board) with {settings}; {language} sets the language I speak "
            "with you."
        ).format(
            board=c("board", text="False"),
            settings=c("settings"),
            language=c("settings", language="…"),
        ),
    ]
    return fit("\n".join(lines))


def leaderboard_text(rules: str, ratings: list[Rating], scope: str) -> str:
    """A ruleset family's best players; ``scope`` says whose ("this server", "everywhere")."""
    if not ratings:
        return _("No rated games of `{rules}` yet ({scope}).").format(rules=rules, scope=scope)
    lines = [_("**Leaderboard · `{rules}` · {scope}**").format(rules=rules, scope=scope)]
    for rank, r in enumerate(ratings, 1):
        name = who(r.player) if r.player.surface != "email" else (r.display_name or _("by email"))
        lines.append(f"{rank}. {name} {r.rating:.0f} ({record(r.wins, r.losses, r.draws)})")
    return fit("\n".join(lines))


def parse_duration(text: str) -> float:
    """Seconds from ``30m``, ``12h``, ``3d`` (or ``off``: 0); ValueError says what is accepted.

    >>> parse_duration("12h"), parse_duration("3 days"), parse_duration("off")
    (43200.0, 259200.0, 0.0)
    """
    if text.strip().lower() in ("off", "none", "0", "no"):
        return 0.0
    match = _TIME.match(text)
    if not match:
        raise ValueError(
            # TRANSLATORS: 30m, 12h, 3d and off are written as they are, in any language
            _(
                "'{text}' is not a time; write a number and a unit, like 30m, 12h or 3d, "
                "or off for no clock"
            ).format(text=text[:20])
        )
    seconds = float(match.group(1)) * _UNIT_SECONDS[match.group(2)[0].lower()]
    if not 60 <= seconds <= 30 * 86400:
        raise ValueError(_("a clock runs from 1m to 30d per move (or off)"))
    return seconds


def choice_name(text: str) -> str:
    """An autocomplete choice's name, cut to Discord's 100 characters."""
    return fit(text, CHOICE_LIMIT)
