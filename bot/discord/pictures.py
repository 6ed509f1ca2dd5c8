"""What goes with a message besides text: the board's picture in an embed, a game's record
as a file, a review's evaluation graph, a ruleset's card as an embed.

>>> rules_embed(fmt.Card("wari", "About wari.", (("pits = 6", "pits a side"),))).fields[0].name
'pits = 6'
"""

from __future__ import annotations

import io

import discord

from bot.discord import formatting as fmt
from bot.i18n import _
from bot.render.board_picture import describe_board, draw_board
from bot.render.review_picture import describe_review, draw_review
from bot.service import GameService, GameView
from engine import SIDES
from engine.review import Review

BOARD_COLOUR = discord.Colour.from_rgb(122, 84, 52)  # the picture's wood, beside it


async def board_picture(service: GameService, game: GameView) -> tuple[discord.File, discord.Embed]:
    """The board as a PNG with its alt text (the words a screen reader says), shown in an
    embed under the message's text board."""
    names: dict[str, str] = {side: await service.display_name(game.player(side)) for side in SIDES}
    png = draw_board(game.position)
    picture = discord.File(
        io.BytesIO(png),
        filename="board.png",
        description=describe_board(game.position, names)[:1000],
    )
    embed = discord.Embed(colour=BOARD_COLOUR).set_image(url="attachment://board.png")
    return picture, embed


def review_graph(review: Review, game_id: int | None) -> discord.File:
    """The review's evaluation graph as a PNG with its alt text (``game_id`` None: a game
    brought as a record)."""
    return discord.File(
        io.BytesIO(draw_review(review)),
        filename=f"review-{game_id}.png" if game_id is not None else "review-record.png",
        description=describe_review(review)[:1000],
    )


async def record_file(service: GameService, game_id: int) -> discord.File:
    """The game's record, as every surface exports it, as a text file to attach."""
    record = await service.export(game_id)
    return discord.File(
        io.BytesIO(record.encode()),
        filename=f"mancala-game-{game_id}.txt",
        description=_("The moves of game {id}").format(id=game_id),
    )


def rules_embed(card: fmt.Card) -> discord.Embed:
    """A ruleset in full (``formatting.rules_card``) as an embed, a field per key."""
    embed = discord.Embed(title=card.title, description=card.description)
    for name, value in card.fields:
        embed.add_field(name=name, value=value, inline=False)
    return embed
