"""The commands outside any one game: help, the rulesets, your games, your pings, the
leaderboard, and the server's settings. Refusals are private; the service decides.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord import formatting as fmt
from bot.discord.identities import player_of
from bot.discord.known_servers import KnownServers
from bot.discord.languages import language_of
from bot.discord.pictures import rules_embed
from bot.discord.replies import answer_privately
from bot.i18n import N_, _, ngettext, speaking
from bot.service import GameService, ServiceError
from engine import Ruleset, RulesetError

PING_ANSWERS = {
    "mention": N_("I will mention you where the game is when it is your move."),
    "dm": N_("I will tell you by direct message when it is your move."),
    "off": N_("I will not ping you when it is your move."),
}


class GeneralCommands:
    """``typed_moves``: whether the bot reads typed moves (the Message Content intent), which
    the help mentions."""

    def __init__(self, service: GameService, servers: KnownServers, typed_moves: bool) -> None:
        self.service = service
        self.servers = servers
        self.typed_moves = typed_moves

    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(fmt.help_text(self.typed_moves), ephemeral=True)

    async def rules(self, interaction: discord.Interaction, ruleset: str | None) -> None:
        """The presets in a list, or one ruleset in full."""
        if not ruleset:
            lines = [f"**{name}**: {text}" for name, text in Ruleset.presets().items()]
            lines.append(
                _("Change a preset with `name:key=value,...`; {rules} shows every key.").format(
                    rules=fmt.command("rules", ruleset="wari")
                )
            )
            await interaction.response.send_message(fmt.fit("\n".join(lines)), ephemeral=True)
            return
        try:
            card = fmt.rules_card(Ruleset.parse(ruleset))
        except RulesetError as err:
            return await answer_privately(interaction, str(err))
        await interaction.response.send_message(embed=rules_embed(card), ephemeral=True)

    async def games(self, interaction: discord.Interaction) -> None:
        me = await self.service.account_owner(player_of(interaction.user))  # as seats name them
        games = await self.service.list_games(me, include_finished=False, limit=20)
        await interaction.response.send_message(
            fmt.games_list(games, me),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def set_pings(self, interaction: discord.Interaction, mode: str) -> None:
        try:
            await self.service.set_ping_mode(player_of(interaction.user), mode)
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        await interaction.response.send_message(_(PING_ANSWERS[mode]), ephemeral=True)

    async def leaderboard(
        self,
        interaction: discord.Interaction,
        ruleset: str | None,
        everywhere: bool = False,
        opponent: discord.abc.User | None = None,
    ) -> None:
        """This server's established players (or, ``everywhere``, everyone's) best first, and
        the asker's own rating; with ``opponent``, the asker's record against them instead."""
        await self.servers.learn(interaction)
        if opponent is not None:
            return await self._record(interaction, opponent, ruleset)
        place = await self.servers.settings_for(interaction.channel_id)
        rules = ruleset or place.ruleset
        server = (
            None
            if everywhere or not interaction.guild_id
            else ("discord", str(interaction.guild_id))
        )
        try:
            ratings = await self.service.leaderboard(rules, limit=10, server=server)
            mine = await self.service.rating(player_of(interaction.user), rules)
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        scope = _("everywhere") if server is None else _("this server")
        text = (
            fmt.leaderboard_text(mine.rules, ratings, scope)
            if ratings
            else _("No established ratings of the `{rules}` family yet ({scope}).").format(
                rules=mine.rules, scope=scope
            )
        )
        you = (
            _("You: {rating} ({record})").format(
                rating=mine.shown, record=fmt.record(mine.wins, mine.losses, mine.draws)
            )
            if mine.games
            else _("You have no rated game of this family yet.")
        )
        note = " " + _(
            "A rating with ? is provisional: it is ranked after about a dozen rated games."
        )
        await interaction.response.send_message(
            fmt.fit(f"{text}\n{you}{note if mine.provisional else ''}"),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _record(
        self, interaction: discord.Interaction, opponent: discord.abc.User, ruleset: str | None
    ) -> None:
        """The asker's finished games against ``opponent``, per family of rulesets."""
        if opponent.bot:
            return await answer_privately(
                interaction, _("A record is between two people; pick a member, not a bot.")
            )
        me, them = player_of(interaction.user), player_of(opponent)
        try:
            records = await self.service.head_to_head(me, them, ruleset)
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        if not records:
            text = _("No finished games between you and {player} yet.").format(player=fmt.who(them))
        else:
            lines = [_("**You against {player}**").format(player=fmt.who(them))]
            for r in records:
                games = ngettext("{n} game", "{n} games", r.games).format(n=r.games)
                score = fmt.record(r.wins, r.losses, r.draws)
                lines.append(f"`{r.family}`: {score} ({games})")
            text = "\n".join(lines)
        await interaction.response.send_message(
            fmt.fit(text), allowed_mentions=discord.AllowedMentions.none()
        )

    async def server_settings(self, interaction: discord.Interaction, **given: Any) -> None:
        """Show this server's settings; change the ones given (Manage Server only).
        ``language`` is the user's own, on every surface: set, and answered in."""
        language = given.pop("language", None)
        if language is None:
            return await self._server_settings(interaction, given)
        try:
            chosen = await self.service.set_language(player_of(interaction.user), language)
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        with speaking(chosen or await language_of(interaction)):
            said = (
                _("From now on I speak {language} with you, on Discord and by mail.").format(
                    language=chosen.native_name
                )
                if chosen
                else _("I will speak the language of your Discord with you again.")
            )
            if all(value is None for value in given.values()):
                return await answer_privately(interaction, said)
            await self._server_settings(interaction, given, said)

    async def _server_settings(
        self, interaction: discord.Interaction, given: dict[str, Any], said: str = ""
    ) -> None:
        """The server's settings, after what was ``said`` of the user's own."""

        def after_said(text: str) -> str:
            return f"{said}\n{text}" if said else text

        if interaction.guild_id is None:
            return await answer_privately(
                interaction,
                after_said(_("Settings belong to a server; use this command in one.")),
            )
        await self.servers.learn(interaction)
        changes = {name: value for name, value in given.items() if value is not None}
        if changes and not interaction.permissions.manage_guild:
            return await answer_privately(
                interaction,
                after_said(
                    _(
                        "Changing this server's settings needs the Manage Server permission; "
                        "anyone may look."
                    )
                ),
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
            return await answer_privately(interaction, after_said(str(err)))
        head = _("Saved. This server's settings:") if changes else _("This server's settings:")
        await interaction.response.send_message(
            fmt.fit(after_said("\n".join([head, *(f"- {line}" for line in settings.describe())]))),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )
