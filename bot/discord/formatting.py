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

from bot.service import Challenge, GameView, Player, Rating
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
        return f"the AI ({player.id})"
    if player.surface == "email":
        return f"{masked_address(player.id)} (by email)"
    return f"{player.id} ({player.surface})"


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
    pace = f" · {days} day{'s' if days != 1 else ''} a move" if days else ""
    return (
        f"**Game {game.id}** · `{game.rules}`{pace} · {who(game.south)} (South) vs "
        f"{who(game.north)} (North)"
    )


def away_note(game: GameView) -> str:
    """Who of the game is on vacation, until when (in each reader's own time)."""
    return "".join(
        f" {who(away.player)} is on vacation until <t:{int(away.until)}:f>: their clock "
        "stands still."
        for away in game.away
    )


def turn_line(game: GameView) -> str:
    """Whose turn it is and the last move, or the result."""
    last = f"Last move: **{game.moves[-1]}**. " if game.moves else ""
    if game.is_over:
        out = game.outcome
        if out is None:
            return "The game is over."
        names: dict[str, str] = {
            side: f"{who(game.player(side))} ({side.title()})" for side in SIDES
        }
        return last + " ".join(result_lines(out, names))
    side = game.position.to_move
    mover = game.to_move
    assert mover is not None  # a game not over has a player to move
    if mover.is_ai:
        return f"{last}{who(mover)} to move ({side.title()}): thinking…"
    # Discord shows <t:...:R> in each reader's own time, counting down ("in 3 hours").
    clock = f" Move due <t:{int(game.deadline)}:R>." if game.deadline else ""
    if game.away_until(mover) is not None:  # their clock stands still
        clock = ""
    clock += away_note(game)
    if not on_discord(mover):
        return (
            f"{last}{who(mover)} to move ({side.title()}): waiting for their move "
            f"by {mover.surface}.{clock}"
        )
    moves = ", ".join(game.position.legal_moves())
    return f"{last}{who(mover)} to move ({side.title()}): {moves}.{clock}"


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


def offer_line(game: GameView) -> str:
    """The pending offer, in the words every surface uses (``Offer.asks``), and who answers."""
    offer = game.offer
    if offer is None:
        return ""
    what = offer.asks
    answerer = game.opponent_of(offer.by)
    assert answerer is not None  # an offer's maker plays in the game
    if not on_discord(answerer):
        return f"{who(offer.by)} {what}. {who(answerer)} answers by {answerer.surface}."
    return f"{who(offer.by)} {what}. {who(answerer)}: accept or decline with the buttons."


def challenge_message(challenge: Challenge, descriptions: dict[str, str]) -> str:
    """A challenge card. ``descriptions`` maps preset names to one-line descriptions."""
    name = challenge.rules.split(":")[0]
    line = (
        f"{who(challenge.challenger)} challenges {who(challenge.opponent)} to `{challenge.rules}`"
    )
    about = descriptions.get(name)
    side = {"south": "South", "north": "North"}.get(challenge.options.side, "a random side")
    parts = [
        line + ".",
        f"> {about}" if about else "",
        f"{who(challenge.challenger)} plays {side}.",
    ]
    if challenge.status == "open" and on_discord(challenge.opponent):
        parts.append(f"{who(challenge.opponent)}: Accept or Decline below, or `/mancala accept`.")
    elif challenge.status == "open":
        parts.append(
            f"{who(challenge.opponent)} answers by {challenge.opponent.surface}: "
            f"I sent them the challenge."
        )
    else:
        parts.append(f"Challenge {challenge.status}.")
    return fit("\n".join(p for p in parts if p))


def games_list(games: list[GameView], player: Player) -> str:
    if not games:
        return "You have no games. Start one with `/mancala challenge`."
    lines = []
    for game in games:
        opponent = game.opponent_of(player)
        assert opponent is not None  # these are the player's own games
        if game.is_over:
            state = "over"
        elif game.to_move == player:
            state = "**your move**"
        else:
            state = "their move"
        where = (
            f"<#{game.channel.id}>" if game.channel.surface == "discord" else game.channel.surface
        )
        lines.append(
            f"Game {game.id} · `{game.rules}` vs {who(opponent)} · ply {game.ply} · "
            f"{state} · {where}"
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
    about = [preset.summary + ".", f"Source: {preset.source}."]
    if preset.aliases:
        about.append("Also called: " + ", ".join(preset.aliases) + ".")
    about.append("Change any key with `name:key=value,...`; the full reference is docs/rules.md.")
    fields = tuple(
        (
            f"{key} = {format_value(getattr(rules, key))}",
            fit(f"{param.meaning} ({param.allowed()})", FIELD_VALUE),
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
        "or type the letter in the channel (`E`, or `E<` to sow clockwise where the rules allow it)"
        if typed_moves
        else "or `/mancala move E`"
    )
    return fit(
        "\n".join(
            [
                "**Mancala here**",
                "`/mancala challenge` a member with a ruleset (`kalah`, `wari`, `oware`, ... or "
                "`wari:captures=2-4`); challenge me to play the AI (`level: easy` to `expert`).",
                f"Move with the pit buttons under the board, {typing}. Your pits are the bottom row, "
                "`A` to `F` from your left; North's are `a` to `f`.",
                "`/mancala board` shows the game, `/mancala hint` suggests a move (against the AI or "
                "unrated), `/mancala draw` and `/mancala undo` make offers, `/mancala resign` ends it.",
                "`/mancala accept`, `/mancala decline` and `/mancala cancel` answer or withdraw "
                "challenges; `/mancala games` lists yours; `/mancala rules NAME` explains a ruleset; "
                "`/mancala leaderboard` ranks the players.",
                "`/mancala puzzle` posts today's puzzle (`kind: next` for another, just for you): "
                "press the right pit; your streak and the server's puzzle board keep count.",
                "Slow games: `days: 3` in a challenge gives 3 days a move; `/mancala vacation "
                "start` stops your clocks (30 days a year); `/mancala premove if: f then: C` "
                "plays C for you the moment your opponent plays f.",
                "Boards come as a picture with the text board beside it; `/mancala board text: False` "
                "leaves the text out once. Server admins choose the defaults (ruleset, AI level, "
                "clock, pings, threads, the text board) with `/mancala settings`.",
            ]
        )
    )


def leaderboard_text(rules: str, ratings: list[Rating], scope: str = "everywhere") -> str:
    if not ratings:
        return f"No rated games of `{rules}` yet ({scope})."
    lines = [f"**Leaderboard · `{rules}` · {scope}**"]
    for rank, r in enumerate(ratings, 1):
        name = who(r.player) if r.player.surface != "email" else (r.display_name or "by email")
        lines.append(f"{rank}. {name} {r.rating:.0f} ({r.wins}W {r.losses}L {r.draws}D)")
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
            f"'{text[:20]}' is not a time; write a number and a unit, like 30m, "
            f"12h or 3d, or off for no clock"
        )
    seconds = float(match.group(1)) * _UNIT_SECONDS[match.group(2)[0].lower()]
    if not 60 <= seconds <= 30 * 86400:
        raise ValueError("a clock runs from 1m to 30d per move (or off)")
    return seconds


def choice_name(text: str) -> str:
    """An autocomplete choice's name, cut to Discord's 100 characters."""
    return fit(text, CHOICE_LIMIT)
