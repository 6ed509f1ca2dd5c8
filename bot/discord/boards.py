"""Posting a game's board, and taking the buttons off the one it replaces.

A board message is the text (title, text board, turn), the picture in an embed, the pit or
offer buttons, and on the final board the game's record as a file. Only a game's newest
board keeps its buttons; a click on an older one is refused by its ply anyway.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord import formatting as fmt
from bot.discord.followups import AIFollowups
from bot.discord.game_threads import GameThreads
from bot.discord.identities import mentions, player_of
from bot.discord.known_servers import KnownServers
from bot.discord.languages import Speakers
from bot.discord.pictures import board_picture, record_file
from bot.discord.views import board_view
from bot.i18n import N_, _, speaking
from bot.service import GameService, GameView, Player
from bot.service.servers import ServerSettings
from bot.web.links import game_url

log = logging.getLogger(__name__)


EMBED_TITLE_LIMIT = 256  # Discord's, in characters


def link_to_page(embed: discord.Embed, game: GameView, web_url: str) -> None:
    """Make the board's embed title a link to the game's page under ``web_url``: a title,
    not a button, so the rows of pits and offers keep all of Discord's room. No token: the
    channel is public, and a Discord player plays here, not on the page."""
    title = _("Game #{id} ({rules})").format(id=game.id, rules=game.rules)
    embed.title = title if len(title) <= EMBED_TITLE_LIMIT else title[: EMBED_TITLE_LIMIT - 1] + "…"
    embed.url = game_url(web_url, game.id)


@dataclass(frozen=True)
class PostedBoard:
    """Where a game's board with live buttons is, and the ply it shows."""

    channel_id: int
    message_id: int
    ply: int


class Boards:
    """Board messages: composed with the server's settings, posted, and the previous one of
    the game stripped of its buttons."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        servers: KnownServers,
        followups: AIFollowups,
        threads: GameThreads,
        web_url: str | None = None,
    ) -> None:
        self.client = client
        self.service = service
        self.servers = servers
        self.followups = followups
        self.threads = threads
        self.web_url = web_url  # the web companion's address (MANCALA_WEB_URL), else None
        self.speakers = Speakers(service, servers)
        # game id -> its board with live buttons, so a new board can strip the old one's
        self.last_board: dict[int, PostedBoard] = {}

    async def message(
        self,
        game: GameView,
        note: str = "",
        turn: bool = False,
        actor: Player | None = None,
        text_board: bool | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """A board message's text and extras (the keywords of ``send``), as the game's server
        wants them; ``text_board`` overrides the server's choice for one request."""
        place = await self.servers.settings_for(
            game.channel.id if game.channel.surface == "discord" else None
        )
        show_text = place.text_board if text_board is None else text_board
        return (
            fmt.board_message(game, note, show_text),
            await self.extras(game, turn, actor, place),
        )

    async def show(
        self,
        interaction: discord.Interaction,
        game: GameView,
        note: str = "",
        from_board: bool = False,
        turn: bool = False,
        text_board: bool | None = None,
    ) -> None:
        """Post the board with its buttons in answer to ``interaction``; a click on a board
        first strips that board. ``turn``: a move or a new game gave the player to move the
        turn (they may be pinged; a board someone only looks at pings nobody)."""
        followup = self.followups.expect(game, interaction)
        try:
            await self._answer(interaction, game, note, from_board, turn, text_board)
        finally:
            if followup is not None:
                followup.posted.set()

    async def _answer(
        self,
        interaction: discord.Interaction,
        game: GameView,
        note: str,
        from_board: bool,
        turn: bool,
        text_board: bool | None,
    ) -> None:
        await self.servers.learn(interaction)
        text, kwargs = await self.message(game, note, turn, player_of(interaction.user), text_board)
        message: discord.abc.Snowflake | None
        if from_board and not interaction.response.is_done():
            await interaction.response.edit_message(view=None)
            message = await interaction.followup.send(text, wait=True, **kwargs)
        elif interaction.response.is_done():
            message = await interaction.followup.send(text, wait=True, **kwargs)
        else:
            callback = await interaction.response.send_message(text, **kwargs)
            message = (
                callback.resource
                if isinstance(callback.resource, discord.InteractionMessage)
                else None
            )
        clicked = interaction.message.id if from_board and interaction.message else None
        previous = self.last_board.get(game.id)
        if clicked is not None and previous is not None and previous.message_id == clicked:
            del self.last_board[game.id]  # the clicked board lost its buttons above
        await self.replace(game, interaction.channel_id, message)

    async def extras(
        self,
        game: GameView,
        turn: bool = False,
        actor: Player | None = None,
        place: ServerSettings | None = None,
    ) -> dict[str, Any]:
        """What goes with a board message: who may be pinged (the service says whom, and
        whom to tell by direct message instead, under the server's settings ``place``), the
        buttons, the picture, and on the final board the game's record as a file."""
        ping = await self.service.ping_for_turn(game, actor, place) if turn else None
        if ping is not None and ping.direct is not None:
            await self.tell_directly(
                ping.direct,
                N_("Your move in game {id} (`{rules}`): {channel}."),
                id=game.id,
                rules=game.rules,
                channel=f"<#{game.channel.id}>",
            )
        pinged = ping.mention if ping is not None and ping.mention is not None else None
        extras: dict[str, Any] = {
            "allowed_mentions": mentions(pinged) if pinged else discord.AllowedMentions.none()
        }
        view = board_view(game)
        if view is not None:
            extras["view"] = view
        picture, embed = await board_picture(self.service, game)
        if self.web_url:
            link_to_page(embed, game, self.web_url)
        extras["embed"] = embed
        extras["files"] = [picture]
        if game.is_over:
            extras["files"].append(await record_file(self.service, game.id))
        return extras

    async def tell_directly(self, player: Player, message: str, **fields: object) -> None:
        """A direct message to a Discord player (best effort: their DMs may be closed):
        ``message`` (marked with ``N_``) with its ``fields``, in the player's language."""
        if player.surface != "discord" or not fmt.snowflake(player.id):
            return
        with speaking(await self.speakers.for_player(player)):
            text = _(message).format(**fields)
        try:
            dm = await self.client.create_dm(discord.Object(int(player.id)))
            await dm.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as err:
            log.info("could not send a direct message to %s: %s", player.id, err)

    async def replace(
        self, game: GameView, channel_id: int | None, message: discord.abc.Snowflake | None
    ) -> None:
        """Remember ``message`` as the game's board and take the buttons off the previous one
        (best effort: a click on an old board is refused by its ply anyway)."""
        game_id = game.id
        previous = self.last_board.get(game_id)
        if previous and previous.ply > game.ply:
            return  # a newer board is up already: the AI answered before this reply went out
        if message is not None and channel_id is not None:
            self.last_board[game_id] = PostedBoard(channel_id, message.id, game.ply)
        if previous and (message is None or previous.message_id != message.id):
            channel = self.client.get_partial_messageable(previous.channel_id)
            try:
                await channel.get_partial_message(previous.message_id).edit(view=None)
            except discord.HTTPException as err:
                log.debug("could not strip the old board of game %s: %s", game_id, err)
        if game.is_over:  # nothing will be pressed or followed up any more
            self.last_board.pop(game_id, None)
            self.followups.forget(game_id)
            self.threads.game_over_in(channel_id)
