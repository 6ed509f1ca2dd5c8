"""What a Discord user can do, translated into service calls and replies.

Slash commands, buttons and typed letters all end up here. Each method reads the request,
calls the service, and answers: boards in public, errors privately (ephemeral). Nothing here
decides a rule; the service raises a ``ServiceError`` whose message is shown as it is.

>>> player_of(discord.Object(42))
Player(surface='discord', id='42')
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time

import discord

from bot.discord import formatting as fmt
from bot.discord.views import board_view
from bot.render.board_picture import describe_board, draw_board
from bot.service import (
    Channel,
    GameView,
    NotFound,
    Player,
    ServiceError,
)
from bot.service.surface_defaults import FINISHED_PLACE_KEPT
from engine import Ruleset, RulesetError

FOLLOWUP_WAIT = 10.0  # seconds an AI reply waits for the board it answers to be posted
BOARD_COLOUR = discord.Colour.from_rgb(122, 84, 52)  # the picture's wood, beside it
log = logging.getLogger(__name__)

FOLLOWUP_LIFETIME = 14 * 60  # seconds; an interaction token lasts 15 minutes


def player_of(user: discord.abc.Snowflake) -> Player:
    return Player("discord", str(user.id))


def channel_of(channel_id: int) -> Channel:
    return Channel("discord", str(channel_id))


def mentions(*players: Player) -> discord.AllowedMentions:
    """Pings for these players only: never @everyone, roles, or anyone named in user text."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(i) for i in fmt.discord_ids(*players)],
    )


class Actions:
    """The bot's answers to users. ``client`` posts; ``service`` decides."""

    def __init__(self, client: discord.Client, service):
        self.client = client
        self.service = service
        # the last board message of each game, so a new board can strip the old one's buttons
        # game id -> (channel id, message id, ply) of the board with live buttons
        self.last_board: dict[int, tuple[int, int, int]] = {}
        # channel (or thread) id -> its server's id, learnt from interactions: a board posted
        # later for an event (a move by mail, the AI) follows the server's settings too
        self.server_of: dict[int, int] = {}
        # threads made for one game each: archived a while after it ends
        self.game_threads: set[int] = set()
        self.archive_after = FINISHED_PLACE_KEPT
        self._archiving: set[asyncio.Task] = set()
        # the latest interaction of a game against the AI: its reply is posted as a follow-up
        # game id -> the interaction whose follow-up carries the AI's reply, since when, and
        # set once its own board is posted (an AI that answers at once waits for that)
        self.ai_followup: dict[int, tuple[discord.Interaction, float, asyncio.Event]] = {}

    # -- replies ------------------------------------------------------------------------------

    async def error(self, interaction: discord.Interaction, text: str) -> None:
        """A private answer, whether or not the interaction was answered already."""
        text = fmt.fit(text)
        none = discord.AllowedMentions.none()
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=none)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=none)

    async def learn_server(self, interaction: discord.Interaction) -> None:
        """Which server a channel is on, and that the user plays there (the service keeps
        the server's own leaderboard)."""
        if interaction.guild_id and interaction.channel_id:
            self.server_of[interaction.channel_id] = interaction.guild_id
            await self.service.note_server_player(
                "discord", str(interaction.guild_id), player_of(interaction.user)
            )

    async def place(self, channel_id: int | str | None):
        """The settings of the server a channel is on (the defaults where it is unknown)."""
        server = self.server_of.get(int(channel_id)) if channel_id else None
        return await self.service.server_settings("discord", str(server or 0))

    async def board_post(
        self,
        game: GameView,
        note: str = "",
        turn: bool = False,
        actor: Player | None = None,
        text_board: bool | None = None,
    ) -> tuple[str, dict]:
        """A board message's text and extras, as the game's server wants them; ``text_board``
        overrides the server's choice for one request."""
        place = await self.place(game.channel.id if game.channel.surface == "discord" else None)
        show_text = place.text_board if text_board is None else text_board
        return (
            fmt.board_message(game, note, show_text),
            await self.board_extras(game, turn, actor, place),
        )

    async def show_board(
        self,
        interaction: discord.Interaction,
        game: GameView,
        note: str = "",
        from_board: bool = False,
        turn: bool = False,
        text_board: bool | None = None,
    ) -> None:
        """Post the board with its buttons; a click on a board first strips that board.
        ``turn``: a move or a new game gave the player to move the turn (they may be pinged;
        a board someone only looks at pings nobody)."""
        posted = asyncio.Event()
        if (game.south.is_ai or game.north.is_ai) and not game.is_over:
            self.ai_followup[game.id] = (interaction, time.monotonic(), posted)
        try:
            await self._post_board(interaction, game, note, from_board, turn, text_board)
        finally:
            posted.set()

    async def _post_board(
        self,
        interaction: discord.Interaction,
        game: GameView,
        note: str,
        from_board: bool,
        turn: bool,
        text_board: bool | None,
    ) -> None:
        await self.learn_server(interaction)
        text, kwargs = await self.board_post(
            game, note, turn, player_of(interaction.user), text_board
        )
        if from_board and not interaction.response.is_done():
            await interaction.response.edit_message(view=None)
            message = await interaction.followup.send(text, wait=True, **kwargs)
        elif interaction.response.is_done():
            message = await interaction.followup.send(text, wait=True, **kwargs)
        else:
            callback = await interaction.response.send_message(text, **kwargs)
            message = callback.resource
        clicked = interaction.message.id if from_board and interaction.message else None
        if clicked is not None and self.last_board.get(game.id, (0, None, 0))[1] == clicked:
            del self.last_board[game.id]  # the clicked board lost its buttons above
        await self.replace_board(game, interaction.channel_id, message)

    async def board_extras(
        self, game: GameView, turn: bool = False, actor: Player | None = None, place=None
    ) -> dict:
        """What goes with a board message: who may be pinged (the service says whom, and
        whom to tell by direct message instead, under the server's settings ``place``), the
        buttons, the picture, and on the final board the game's record as a file."""
        ping = await self.service.ping_for_turn(game, actor, place) if turn else None
        if ping is not None and ping.direct is not None:
            await self.tell_directly(
                ping.direct, f"Your move in game {game.id} (`{game.rules}`): <#{game.channel.id}>."
            )
        pinged = ping.mention if ping is not None and ping.mention is not None else None
        extras: dict = {
            "allowed_mentions": mentions(pinged) if pinged else discord.AllowedMentions.none()
        }
        view = board_view(game)
        if view is not None:
            extras["view"] = view
        picture, embed = await self.board_picture(game)
        extras["embed"] = embed
        extras["files"] = [picture]
        if game.is_over:
            extras["files"].append(await self.record_file(game.id))
        return extras

    async def board_picture(self, game: GameView) -> tuple[discord.File, discord.Embed]:
        """The board as a PNG with its alt text (the words a screen reader says), shown in an
        embed under the message's text board."""
        names = {
            side: await self.service.display_name(game.player(side)) for side in ("south", "north")
        }
        png = draw_board(game.position)
        picture = discord.File(
            io.BytesIO(png),
            filename="board.png",
            description=describe_board(game.position, names)[:1000],
        )
        embed = discord.Embed(colour=BOARD_COLOUR).set_image(url="attachment://board.png")
        return picture, embed

    async def tell_directly(self, player, text: str) -> None:
        """A direct message to a Discord player (best effort: their DMs may be closed)."""
        if player.surface != "discord" or not fmt.snowflake(player.id):
            return
        try:
            dm = await self.client.create_dm(discord.Object(int(player.id)))
            await dm.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as err:
            log.info("could not send a direct message to %s: %s", player.id, err)

    async def record_file(self, game_id: int) -> discord.File:
        """The game's record, as every surface exports it, as a text file to attach."""
        record = await self.service.export(game_id)
        return discord.File(
            io.BytesIO(record.encode()),
            filename=f"mancala-game-{game_id}.txt",
            description=f"The moves of game {game_id}",
        )

    async def history(self, interaction: discord.Interaction) -> None:
        """This channel's game's moves in the 003 notation, privately; as a file if long."""
        game = await self.game_here(interaction)
        if game is None:
            return
        record = await self.service.export(game.id)
        block = fmt.code_block(record.strip())
        if len(block) <= fmt.MESSAGE_LIMIT:
            return await interaction.response.send_message(block, ephemeral=True)
        await interaction.response.send_message(
            f"The record of game {game.id} ({len(game.moves)} moves):",
            ephemeral=True,
            file=await self.record_file(game.id),
        )

    async def replace_board(
        self, game: GameView, channel_id: int | None, message: discord.abc.Snowflake | None
    ) -> None:
        """Remember ``message`` as the game's board and take the buttons off the previous one
        (best effort: a click on an old board is refused by its ply anyway)."""
        game_id = game.id
        previous = self.last_board.get(game_id)
        if previous and previous[2] > game.ply:
            return  # a newer board is up already: the AI answered before this reply went out
        if message is not None and channel_id is not None:
            self.last_board[game_id] = (channel_id, message.id, game.ply)
        if previous and (message is None or previous[1] != message.id):
            channel = self.client.get_partial_messageable(previous[0])
            try:
                await channel.get_partial_message(previous[1]).edit(view=None)
            except discord.HTTPException as err:
                log.debug("could not strip the old board of game %s: %s", game_id, err)
        if game.is_over:  # nothing will be pressed or followed up any more
            self.last_board.pop(game_id, None)
            self.ai_followup.pop(game_id, None)
            if channel_id in self.game_threads:
                self.game_threads.discard(channel_id)
                self._archiving.add(asyncio.create_task(self.archive_later(channel_id)))

    async def archive_later(self, thread_id: int) -> None:
        """Archive a finished game's thread after ``archive_after`` seconds (it reopens by
        itself if anyone writes in it)."""
        try:
            await asyncio.sleep(self.archive_after)
            thread = self.client.get_channel(thread_id) or await self.client.fetch_channel(
                thread_id
            )
            if isinstance(thread, discord.Thread) and not thread.archived:
                await thread.edit(archived=True)
        except discord.HTTPException as err:
            log.info("could not archive thread %s: %s", thread_id, err)
        finally:
            self._archiving.discard(asyncio.current_task())

    async def pending_followup(self, game_id: int) -> discord.Interaction | None:
        """The interaction whose follow-up should carry the AI's reply, if still usable, once
        the board it answers is posted."""
        interaction, since, posted = self.ai_followup.get(game_id, (None, 0.0, None))
        if interaction is None or time.monotonic() - since > FOLLOWUP_LIFETIME:
            return None
        try:
            await asyncio.wait_for(posted.wait(), FOLLOWUP_WAIT)
        except TimeoutError:
            return None
        return interaction

    async def game_here(self, interaction: discord.Interaction) -> GameView | None:
        game = await self.service.active_game(channel_of(interaction.channel_id))
        if game is None:
            await self.error(
                interaction,
                "There is no game in this channel. "
                "`/mancala games` lists yours; "
                "`/mancala challenge` starts one.",
            )
        return game

    # -- play ---------------------------------------------------------------------------------

    async def move(
        self,
        interaction: discord.Interaction,
        game_id: int | None,
        move: str,
        ply: int | None = None,
        from_board: bool = False,
    ) -> None:
        if game_id is None:
            game = await self.game_here(interaction)
            if game is None:
                return
            game_id = game.id
        try:
            game = await self.service.move(
                game_id, player_of(interaction.user), move, expected_ply=ply
            )
        except ServiceError as err:
            return await self.error(interaction, str(err))
        await self.show_board(interaction, game, from_board=from_board, turn=True)

    async def server_settings(self, interaction: discord.Interaction, **given) -> None:
        """Show this server's settings; change the ones given (Manage Server only)."""
        if interaction.guild_id is None:
            return await self.error(
                interaction, "Settings belong to a server; use this command in one."
            )
        await self.learn_server(interaction)
        changes = {name: value for name, value in given.items() if value is not None}
        if changes and not interaction.permissions.manage_guild:
            return await self.error(
                interaction,
                "Changing this server's settings needs the "
                "Manage Server permission; anyone may look.",
            )
        try:
            if "clock" in changes:
                changes["clock"] = fmt.parse_duration(changes["clock"])
            if changes:
                settings = await self.service.set_server_settings(
                    "discord", str(interaction.guild_id), **changes
                )
            else:
                settings = await self.service.server_settings("discord", str(interaction.guild_id))
        except (ValueError, ServiceError) as err:
            return await self.error(interaction, str(err))
        head = "Saved. This server's settings:" if changes else "This server's settings:"
        await interaction.response.send_message(
            fmt.fit("\n".join([head, *(f"- {line}" for line in settings.describe())])),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def board(self, interaction: discord.Interaction, text: bool | None = None) -> None:
        game = await self.game_here(interaction)
        if game is not None:
            await self.show_board(interaction, game, text_board=text)

    async def resign(self, interaction: discord.Interaction) -> None:
        game = await self.game_here(interaction)
        if game is None:
            return
        try:
            game = await self.service.resign(game.id, player_of(interaction.user))
        except ServiceError as err:
            return await self.error(interaction, str(err))
        await self.show_board(interaction, game, f"{interaction.user.mention} resigned.")

    async def offer(self, interaction: discord.Interaction, kind: str) -> None:
        """Offer a draw (or ask to take back a move); the service decides whether that
        agrees to the opponent's own offer, or is granted at once."""
        game = await self.game_here(interaction)
        if game is None:
            return
        me = player_of(interaction.user)
        try:
            game = await self.service.offer(game.id, me, kind)
        except ServiceError as err:
            return await self.error(interaction, str(err))
        agreed = game.offer is None
        await self.show_board(
            interaction, game, f"{interaction.user.mention}: {kind} agreed." if agreed else ""
        )

    async def answer_offer(
        self, interaction: discord.Interaction, game_id: int, ply: int, accept: bool
    ) -> None:
        me = player_of(interaction.user)
        try:
            game = await self.service.get_game(game_id)
            if game.offer is None or game.ply != ply:
                return await self.error(interaction, "That offer is no longer open.")
            kind = game.offer.kind
            if accept:
                game = await self.service.accept_offer(game_id, me)
            else:
                game = await self.service.decline_offer(game_id, me)
        except ServiceError as err:
            return await self.error(interaction, str(err))
        verb = "accepted" if accept else "declined"
        await self.show_board(
            interaction,
            game,
            f"{interaction.user.mention} {verb} the {kind} offer.",
            from_board=True,
        )

    async def hint(self, interaction: discord.Interaction) -> None:
        """The service's hint for the player to move, privately. A refusal (not your turn, a
        rated game between people) is the answer; once allowed, the reply is deferred while
        the AI thinks."""
        game = await self.game_here(interaction)
        if game is None:
            return
        try:
            hint = await self.service.hint(
                game.id,
                player_of(interaction.user),
                thinking=lambda: interaction.response.defer(ephemeral=True, thinking=True),
            )
        except ServiceError as err:
            return await self.error(interaction, str(err))
        await interaction.followup.send(
            f"Hint: **{hint.move}** ({hint.summary()}).", ephemeral=True
        )

    def close(self) -> None:
        """Stop pending thread archivings (Discord archives idle threads itself after a day);
        the service owns the AI's worker processes."""
        for task in list(self._archiving):
            task.cancel()

    # -- looking ------------------------------------------------------------------------------

    async def games(self, interaction: discord.Interaction) -> None:
        me = player_of(interaction.user)
        games = await self.service.list_games(me, include_finished=False, limit=20)
        await interaction.response.send_message(
            fmt.games_list(games, me),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def rules(self, interaction: discord.Interaction, ruleset: str | None) -> None:
        if not ruleset:
            lines = [f"**{name}**: {text}" for name, text in Ruleset.presets().items()]
            lines.append(
                "Change a preset with `name:key=value,...`; `/mancala rules wari` shows every key."
            )
            return await interaction.response.send_message(
                fmt.fit("\n".join(lines)), ephemeral=True
            )
        try:
            card = fmt.rules_card(Ruleset.parse(ruleset))
        except RulesetError as err:
            return await self.error(interaction, str(err))
        embed = discord.Embed(title=card.title, description=card.description)
        for name, value in card.fields:
            embed.add_field(name=name, value=value, inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def set_pings(self, interaction: discord.Interaction, mode: str) -> None:
        try:
            await self.service.set_ping_mode(player_of(interaction.user), mode)
        except ServiceError as err:
            return await self.error(interaction, str(err))
        said = {
            "mention": "I will mention you where the game is when it is your move.",
            "dm": "I will tell you by direct message when it is your move.",
            "off": "I will not ping you when it is your move.",
        }[mode]
        await interaction.response.send_message(said, ephemeral=True)

    async def help(self, interaction: discord.Interaction) -> None:
        typed = self.client.settings.message_content  # typed moves need that intent
        await interaction.response.send_message(fmt.help_text(typed), ephemeral=True)

    async def leaderboard(
        self, interaction: discord.Interaction, ruleset: str | None, everywhere: bool = False
    ) -> None:
        """This server's players (or, ``everywhere``, everyone's) best first."""
        await self.learn_server(interaction)
        place = await self.place(interaction.channel_id)
        rules = ruleset or place.ruleset
        server = (
            None
            if everywhere or not interaction.guild_id
            else ("discord", str(interaction.guild_id))
        )
        try:
            ratings = await self.service.leaderboard(rules, limit=10, server=server)
            rules = str(Ruleset.parse(rules))
        except (ServiceError, RulesetError) as err:
            return await self.error(interaction, str(err))
        scope = "everywhere" if server is None else "this server"
        await interaction.response.send_message(
            fmt.leaderboard_text(rules, ratings, scope),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # -- typed moves --------------------------------------------------------------------------

    async def typed_move(self, message: discord.Message) -> None:
        """A player typed a pit letter in their game's channel (needs Message Content)."""
        game = await self.service.active_game(channel_of(message.channel.id))
        me = player_of(message.author)
        if game is None or game.side_of(me) is None:
            return  # chat that merely looks like a move
        try:
            game = await self.service.move(
                game.id, me, message.content.strip(), expected_ply=game.ply
            )
        except NotFound:
            return
        except ServiceError as err:
            # a typed message has no private answer: reply briefly and tidy up after
            await message.reply(
                fmt.fit(str(err)), delete_after=20, allowed_mentions=discord.AllowedMentions.none()
            )
            return
        if message.guild is not None:
            self.server_of[message.channel.id] = message.guild.id
        text, extras = await self.board_post(game, turn=True, actor=player_of(message.author))
        sent = await message.channel.send(text, **extras)
        await self.replace_board(game, message.channel.id, sent)


def or_missing(view: discord.ui.View | None):
    """discord.py wants MISSING, not None, for "no view" when sending."""
    return discord.utils.MISSING if view is None else view


async def quietly(coro) -> None:
    with contextlib.suppress(discord.HTTPException):
        await coro
