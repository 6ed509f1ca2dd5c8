"""Autocomplete answers: rulesets (checked as typed), AI levels, and the legal moves.

Discord shows at most 25 choices of at most 100 characters each.
"""

from __future__ import annotations

import discord

from bot.discord import formatting as fmt
from bot.discord.identities import channel_of, player_of
from bot.service import GameService
from engine import Ruleset, RulesetError


def ruleset_choices(current: str) -> list[discord.app_commands.Choice[str]]:
    """Presets with their descriptions; a typed ``name:key=value`` is checked as you type.

    >>> [c.value for c in ruleset_choices("wa")]
    ['wari']
    >>> ruleset_choices("wari:captures=9-9-x")[0].name[:31]
    '✗ captures=9-9-x is not allowed'
    """
    typed = current.strip()
    if ":" in typed:
        try:
            canonical = str(Ruleset.parse(typed))
        except RulesetError as err:
            return [
                discord.app_commands.Choice(name=fmt.choice_name(f"✗ {err}"), value=typed[:100])
            ]
        return [
            discord.app_commands.Choice(
                name=fmt.choice_name(f"✓ {canonical}"), value=canonical[:100]
            )
        ]
    wanted = typed.lower()
    names = dict(Ruleset.presets())
    names.update(
        {alias: f"= {target}: {names[target]}" for alias, target in Ruleset.aliases().items()}
    )
    return [
        discord.app_commands.Choice(name=fmt.choice_name(f"{name}: {text}"), value=name)
        for name, text in names.items()
        if name.startswith(wanted)
    ][:25]


def level_choices(current: str) -> list[discord.app_commands.Choice[str]]:
    from engine.ai import LEVELS

    return [
        discord.app_commands.Choice(name=level, value=level)
        for level in LEVELS
        if level.startswith(current.strip().lower())
    ][:25]


async def move_choices(
    service: GameService, interaction: discord.Interaction, current: str
) -> list[discord.app_commands.Choice[str]]:
    """The legal moves of the channel's game, offered only to the player to move."""
    game = await service.active_game(channel_of(interaction.channel_id))
    if game is None or game.to_move != player_of(interaction.user):
        return []
    typed = current.strip()
    return [
        discord.app_commands.Choice(name=m, value=m)
        for m in game.position.legal_moves()
        if m.startswith(typed)
    ][:25]
