"""Playing the game in a channel: moves (by command, button or typed letter), the board,
resigning, offers and their answers, hints, the record.

Each method reads the request, calls the service, and answers: boards in public, refusals
privately (ephemeral). Nothing here decides a rule; the service raises a ``ServiceError``
whose message is shown as it is.
"""

from __future__ import annotations

import time

import discord

from bot.discord import formatting as fmt
from bot.discord.boards import Boards
from bot.discord.identities import channel_of, player_of
from bot.discord.known_servers import KnownServers
from bot.discord.pictures import record_file, review_graph
from bot.discord.replies import answer_privately
from bot.i18n import N_, _, ngettext, speaking
from bot.render.review_text import review_summary
from bot.service import GameService, GameView, NotFound, Player, ServiceError
from bot.service.reviews import MAX_REVIEWED_RECORD
from bot.service.types import OfferKind
from engine import SIDES, Side, excerpt
from engine.review import Review
from engine.translation import side_name

# what the board says when an offer is agreed to at once (both asked, or the AI said yes)
_AGREED = {
    OfferKind.DRAW: N_("{player}: draw agreed."),
    OfferKind.END: N_("{player}: agreed end."),
    OfferKind.UNDO: N_("{player}: take-back agreed."),
}


class GameCommands:
    """The commands and buttons of a game in progress. ``boards`` posts; ``service`` decides."""

    def __init__(self, service: GameService, boards: Boards, servers: KnownServers) -> None:
        self.service = service
        self.boards = boards
        self.servers = servers

    async def game_here(self, interaction: discord.Interaction) -> GameView | None:
        """This channel's game; None (having said so) when there is none."""
        game = await self.service.active_game(channel_of(interaction.channel_id))
        if game is None:
            await answer_privately(
                interaction,
                _(
                    "There is no game in this channel. {games} lists yours; {challenge} starts one."
                ).format(games=fmt.command("games"), challenge=fmt.command("challenge")),
            )
        return game

    async def move(
        self,
        interaction: discord.Interaction,
        game_id: int | None,
        move: str,
        ply: int | None = None,
        from_board: bool = False,
    ) -> None:
        """``/mancala move`` (``game_id`` None: this channel's game) or a pit button or menu
        of the board at ``ply``."""
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
            return await answer_privately(interaction, str(err))
        await self.boards.show(
            interaction, game, self._ai_late(game), from_board=from_board, turn=True
        )

    def _ai_late(self, game: GameView) -> str:
        """The service's note when the AI's reply will come after Discord's deadline."""
        late = self.service.ai_reply_after(game)
        return "" if late is None else f"*{late}*"

    async def typed_move(self, message: discord.Message) -> None:
        """A player typed a pit letter in their game's channel (needs Message Content)."""
        game = await self.service.active_game(channel_of(message.channel.id))
        me = player_of(message.author)
        if game is None or game.side_of(await self.service.account_owner(me)) is None:
            return  # chat that merely looks like a move
        # no interaction, no locale: the player's setting, the language their Discord last
        # showed us, the server's
        server = str(message.guild.preferred_locale) if message.guild is not None else None
        hints = (self.servers.user_locales.get(me.id), server)
        with speaking(await self.service.language_for(me, *hints)):
            await self._typed_move(message, game, me)

    async def _typed_move(self, message: discord.Message, game: GameView, me: Player) -> None:
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
            self.servers.note(message.channel.id, message.guild.id)
        text, extras = await self.boards.message(game, self._ai_late(game), turn=True, actor=me)
        sent = await message.channel.send(text, **extras)
        await self.boards.replace(game, message.channel.id, sent)

    async def board(self, interaction: discord.Interaction, text: bool | None = None) -> None:
        game = await self.game_here(interaction)
        if game is not None:
            await self.boards.show(interaction, game, text_board=text)

    async def resign(self, interaction: discord.Interaction) -> None:
        game = await self.game_here(interaction)
        if game is None:
            return
        try:
            game = await self.service.resign(game.id, player_of(interaction.user))
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        await self.boards.show(
            interaction, game, _("{player} resigned.").format(player=interaction.user.mention)
        )

    async def offer(self, interaction: discord.Interaction, kind: OfferKind) -> None:
        """Offer a draw (or ask to take back a move); the service decides whether that
        agrees to the opponent's own offer, or is granted at once."""
        game = await self.game_here(interaction)
        if game is None:
            return
        me = player_of(interaction.user)
        try:
            game = await self.service.offer(game.id, me, kind)
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        agreed = game.offer is None
        note = _(_AGREED[kind]).format(player=interaction.user.mention) if agreed else ""
        await self.boards.show(interaction, game, note)

    async def answer_offer(
        self, interaction: discord.Interaction, game_id: int, ply: int, accept: bool
    ) -> None:
        """An offer button of the board at ``ply``: accept or decline."""
        me = player_of(interaction.user)
        try:
            game = await self.service.get_game(game_id)
            if game.offer is None or game.ply != ply:
                return await answer_privately(interaction, _("That offer is no longer open."))
            kind = game.offer.kind
            if accept:
                game = await self.service.accept_offer(game_id, me)
            else:
                game = await self.service.decline_offer(game_id, me)
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        await self.boards.show(
            interaction,
            game,
            fmt.offer_answered(kind, interaction.user.mention, accept),
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
            return await answer_privately(interaction, str(err))
        await interaction.followup.send(
            _("Hint: **{move}** ({why}).").format(move=hint.move, why=hint.summary()),
            ephemeral=True,
        )

    async def review(
        self,
        interaction: discord.Interaction,
        game_id: int | None,
        record: discord.Attachment | None = None,
        text: str | None = None,
    ) -> None:
        """``/mancala review`` or a final board's button: the solver's review of a finished
        game, or of the game in a record attached or pasted (``record``, ``text``), posted in
        the channel with its evaluation graph. A refusal is private; once allowed, the reply
        is deferred and says how far the review got every few seconds."""
        started = [0.0, 0.0]  # when the review started, when progress was last shown

        async def thinking() -> None:
            await interaction.response.defer(thinking=True)
            started[0] = started[1] = time.monotonic()

        async def progress(done: int, total: int) -> None:
            now = time.monotonic()
            if done < total and now - started[1] >= (1.0 if started[1] == started[0] else 3.0):
                started[1] = now
                await interaction.edit_original_response(
                    content=_("Reviewing: {done} of {total} moves done...").format(
                        done=done, total=total
                    )
                )

        by = player_of(interaction.user)
        if record is not None or text:
            if game_id is not None or (record is not None and text):
                return await answer_privately(
                    interaction, _("Give one of a game's number, a record file or a record's text.")
                )
            written = text or await self._record_text(interaction, record)
            if written is None:
                return None
            try:
                brought = await self.service.review_record(
                    written, by, progress=progress, thinking=thinking
                )
            except ServiceError as err:
                return await answer_privately(
                    interaction,
                    _("I could not review the record: {problem}").format(problem=err),
                )
            names = {side: side_name(side) for side in SIDES}
            title = _("The game in your record ({rules})").format(rules=brought.game.rules)
            return await self._post_review(interaction, brought.review, names, title, None)
        try:
            reviewed = await self.service.review(game_id, by, progress=progress, thinking=thinking)
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        game = reviewed.game
        names = {side: await self.service.display_name(game.player(side)) for side in SIDES}
        title = _("Game #{id} ({rules})").format(id=game.id, rules=game.rules)
        await self._post_review(interaction, reviewed.review, names, title, game.id)

    async def _record_text(
        self, interaction: discord.Interaction, record: discord.Attachment | None
    ) -> str | None:
        """The text of an attached record, or None after saying privately why not: too big
        (by the size Discord gives, before anything is fetched), or not to be fetched."""
        if record is None:
            return None
        if record.size > MAX_REVIEWED_RECORD:
            await answer_privately(
                interaction,
                _(
                    "Your file {name} has {size:,} bytes; a record is read up to {limit:,} bytes."
                ).format(
                    name=discord.utils.escape_markdown(excerpt(record.filename, 60)),
                    size=record.size,
                    limit=MAX_REVIEWED_RECORD,
                ),
            )
            return None
        try:
            data = await record.read()
        except discord.HTTPException:
            await answer_privately(
                interaction, _("I could not fetch your file from Discord; try again.")
            )
            return None
        try:
            return data[: MAX_REVIEWED_RECORD + 1].decode("utf-8-sig")
        except UnicodeDecodeError:  # an older editor's file: every byte reads as Latin-1
            return data[: MAX_REVIEWED_RECORD + 1].decode("latin-1")

    async def _post_review(
        self,
        interaction: discord.Interaction,
        review: Review,
        names: dict[Side, str],
        title: str,
        game_id: int | None,
    ) -> None:
        text = fmt.fit(review_summary(review, names, title=title, moments=5))
        graph = review_graph(review, game_id)
        none = discord.AllowedMentions.none()
        if interaction.response.is_done():
            await interaction.edit_original_response(
                content=text, attachments=[graph], allowed_mentions=none
            )
        else:  # kept from an earlier review: no wait, no deferral
            await interaction.response.send_message(text, file=graph, allowed_mentions=none)

    async def history(self, interaction: discord.Interaction) -> None:
        """This channel's game's moves in the 003 notation, privately; as a file if long."""
        game = await self.game_here(interaction)
        if game is None:
            return
        record = await self.service.export(game.id)
        block = fmt.code_block(record.strip())
        if len(block) <= fmt.MESSAGE_LIMIT:
            await interaction.response.send_message(block, ephemeral=True)
            return
        moves = len(game.moves)
        await interaction.response.send_message(
            ngettext(
                "The record of game {id} ({n} move):", "The record of game {id} ({n} moves):", moves
            ).format(id=game.id, n=moves),
            ephemeral=True,
            file=await record_file(self.service, game.id),
        )
