"""The service's events, posted where Discord players will see them.

A Discord player's own command already showed its result in the channel, so the events it
caused are not posted again: what remains are the AI's moves (as a follow-up of the player's
last interaction while that is usable, else a channel message), reminders, forfeits, expired
challenges and whatever players on other surfaces did. A Discord player in a game whose
channel is elsewhere (an email game) is told by direct message.

>>> from bot.service import Player
>>> _caused_on_discord(Player("discord", "1")), _caused_on_discord(Player.ai("first"))
(True, False)
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import discord

from bot.discord import formatting as fmt
from bot.discord.boards import Boards
from bot.discord.challenge_commands import ChallengeCommands
from bot.discord.followups import AIFollowups
from bot.discord.identities import mentions
from bot.discord.languages import Speakers
from bot.discord.tournament_commands import TournamentCommands
from bot.discord.views import challenge_view
from bot.i18n import _, ngettext, speaking
from bot.service import (
    ChallengeAnswered,
    ChallengeReceived,
    Channel,
    Event,
    Forfeit,
    GameOver,
    GameService,
    MoveMade,
    Notifier,
    OfferAnswered,
    OfferMade,
    Player,
    Reminder,
)
from bot.service.events import TournamentNews
from engine import Ruleset
from engine.ai import kernel_knows

log = logging.getLogger(__name__)


def _caused_on_discord(player: Player | None) -> bool:
    return player is not None and player.surface == "discord"


class DiscordNotifier(Notifier):
    """Posts service events for Discord players; registered by the client's setup_hook."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        boards: Boards,
        followups: AIFollowups,
        challenges: ChallengeCommands,
        tournaments: TournamentCommands | None = None,
    ) -> None:
        self.client = client
        self.tournaments = tournaments
        self.service = service
        self.boards = boards
        self.followups = followups
        self.challenges = challenges
        self.speakers = Speakers(service, boards.servers)
        # one event goes to each player concerned; a channel shows it once
        self._posted: OrderedDict[tuple[object, ...], None] = OrderedDict()

    def _first_time(self, key: tuple[object, ...]) -> bool:
        if key in self._posted:
            return False
        self._posted[key] = None
        while len(self._posted) > 1000:
            self._posted.popitem(last=False)
        return True

    async def notify(self, event: Event) -> None:
        try:
            await super().notify(event)
        except discord.HTTPException as err:  # a deleted channel, missing permissions...
            log.warning("could not post %s to Discord: %s", type(event).__name__, err)

    # -- games --------------------------------------------------------------------------------

    async def on_move(self, event: MoveMade) -> None:
        if _caused_on_discord(event.by) and event.answering is None:
            return  # a conditional move is the service's doing: it is posted
        game = event.game
        if not self._first_time(("move", game.id, game.ply)):
            return

        def note() -> str:
            if event.answering is not None:
                text = _(
                    "{player} played **{move}**, a conditional move set in answer to "
                    "**{answering}**."
                ).format(player=fmt.who(event.by), move=event.move, answering=event.answering)
            else:
                text = _("{player} played **{move}**.").format(
                    player=fmt.who(event.by), move=event.move
                )
            if event.by.is_ai and self.service.ai_status() != "ready":
                text += " " + (
                    _("(A quick search: its full search is still being compiled, once.)")
                    if kernel_knows(game.position.rules)
                    else _(
                        "(The plain search plays this game: there is no compiled search to "
                        "wait for.)"
                    )
                )
            return text

        await self._post_board(event, note, turn=True)

    async def on_offer(self, event: OfferMade) -> None:
        if not _caused_on_discord(event.by) and self._first_time(
            ("offer", event.game.id, event.game.ply, event.kind)
        ):
            await self._post_board(event, lambda: "")

    async def on_offer_answered(self, event: OfferAnswered) -> None:
        if not _caused_on_discord(event.by) and self._first_time(
            ("answer", event.game.id, event.game.ply, event.kind)
        ):
            await self._post_board(
                event, lambda: fmt.offer_answered(event.kind, fmt.who(event.by), event.accepted)
            )

    async def on_game_over(self, event: GameOver) -> None:
        game = event.game
        opponent = game.opponent_of(event.recipient)
        # a move or resignation on Discord (or the AI's last move) already showed the result
        if opponent is None or opponent.surface in ("discord", "ai"):
            return
        if self._first_time(("over", game.id)):
            await self._post_board(event, lambda: "")

    async def on_forfeit(self, event: Forfeit) -> None:
        if self._first_time(("over", event.game.id)):
            await self._post_board(
                event, lambda: _("{player} ran out of time.").format(player=fmt.who(event.loser))
            )

    async def on_tournament(self, event: TournamentNews) -> None:
        if self.tournaments is not None:  # posted as tournament_commands.py says
            await self.tournaments.post(event)

    async def on_reminder(self, event: Reminder) -> None:
        game = event.game
        if not self._first_time(("remind", game.id, game.ply, event.idle_seconds)):
            return
        hours = round(event.idle_seconds / 3600)
        with speaking(await self.speakers.for_post(game.channel, event.recipient)):
            text = ngettext(
                "{player}, your move in game {id} (waiting {n} hour).",
                "{player}, your move in game {id} (waiting {n} hours).",
                hours,
            ).format(player=fmt.who(event.recipient), id=game.id, n=hours)
            if event.forfeit_at is not None:
                text += " " + _("You forfeit {time} unless you move.").format(
                    time=f"<t:{int(event.forfeit_at)}:R>"
                )
        await self._send(event.recipient, game.channel, text, mentions(event.recipient))

    async def _post_board(
        self,
        event: MoveMade | OfferMade | OfferAnswered | GameOver,
        note: Callable[[], str],
        turn: bool = False,
    ) -> None:
        """The game's board with ``note()`` (written in the post's language): in the game's
        channel, as a follow-up of the player's interaction where the AI answers it, or by
        direct message when the game lives on another surface."""
        game = event.game
        if game.is_over:  # this board shows the result: the GameOver that follows adds nothing
            self._first_time(("over", game.id))
        if game.channel.surface != "discord":
            with speaking(await self.speakers.for_player(event.recipient)):
                text = fmt.board_message(game, note())
            return await self._direct(event.recipient, text)
        followup = await self.followups.pending(game.id)
        interaction = followup.interaction if followup is not None else None
        if interaction is not None and interaction.channel_id != int(game.channel.id):
            followup = interaction = None
        language = (
            followup.language
            if followup is not None
            else await self.speakers.for_post(game.channel, event.recipient)
        )
        with speaking(language):
            text, kwargs = await self.boards.message(game, note(), turn)
        message: discord.Message
        if interaction is not None:
            message = await interaction.followup.send(text, wait=True, **kwargs)
        else:
            channel = self.client.get_partial_messageable(int(game.channel.id))
            message = await channel.send(text, **kwargs)
        await self.boards.replace(game, int(game.channel.id), message)

    # -- challenges ---------------------------------------------------------------------------

    async def on_challenge(self, event: ChallengeReceived) -> None:
        challenge = event.challenge
        if _caused_on_discord(challenge.challenger):
            return
        with speaking(await self.speakers.for_post(challenge.channel, event.recipient)):
            text = fmt.challenge_message(challenge, Ruleset.presets())
            view = challenge_view(challenge)
        if challenge.channel.surface != "discord":
            return await self._direct(event.recipient, text)
        channel = self.client.get_partial_messageable(int(challenge.channel.id))
        extras: dict[str, Any] = {"view": view} if view is not None else {}
        await channel.send(
            text, allowed_mentions=mentions(challenge.challenger, challenge.opponent), **extras
        )

    async def on_challenge_answered(self, event: ChallengeAnswered) -> None:
        challenge = event.challenge
        with speaking(await self.speakers.for_post(challenge.channel, event.recipient)):
            await self.challenges.close_card(challenge)
            answerer = (
                challenge.challenger if challenge.status == "cancelled" else challenge.opponent
            )
            if challenge.status != "expired" and (_caused_on_discord(answerer) or answerer.is_ai):
                return  # the answer's own reply showed it; the AI accepts inside the challenge
            if not self._first_time(("challenge", challenge.id, challenge.status)):
                return
            text = fmt.challenge_message(challenge, Ruleset.presets())
            extras: dict[str, Any] = {}
            if event.game is not None and event.game.channel.surface == "discord":
                board, extras = await self.boards.message(event.game)
                extras.pop("allowed_mentions")  # this answer tells both players, below
                text += "\n" + board
            elif event.game is not None:
                text += "\n" + fmt.board_message(event.game)
        await self._send(
            event.recipient,
            challenge.channel,
            fmt.fit(text),
            mentions(challenge.challenger, challenge.opponent),
            **extras,
        )

    # -- delivery -----------------------------------------------------------------------------

    async def _send(
        self,
        recipient: Player,
        channel: Channel,
        text: str,
        allowed: discord.AllowedMentions,
        **extras: Any,
    ) -> None:
        """``text`` in ``channel`` (with ``extras``: a view, a file, an embed), or by direct
        message to a Discord player whose game lives on another surface."""
        if channel.surface != "discord":
            return await self._direct(recipient, text)
        target = self.client.get_partial_messageable(int(channel.id))
        await target.send(
            text,
            allowed_mentions=allowed,
            **{key: value for key, value in extras.items() if value is not None},
        )

    async def _direct(self, recipient: Player, text: str) -> None:
        """A direct message, for a Discord player whose game lives on another surface."""
        if recipient.surface != "discord" or not fmt.snowflake(recipient.id):
            return
        dm = await self.client.create_dm(discord.Object(int(recipient.id)))
        await dm.send(text, allowed_mentions=discord.AllowedMentions.none())
