"""A player's accounts and data on Discord: ``/mancala link`` and ``/mancala privacy``
(docs/privacy.md). Every answer is private. The service decides (``bot.service.identities``).

- ``/mancala link email address:`` mails the address a code; a reply from it links them.
- ``/mancala link code code:`` enters a code that ``link discord`` by mail answered with.
- ``/mancala link status``, ``link news to:`` (where news of your games goes), ``link remove
  surface:`` (split an account off again).
- ``/mancala privacy export`` sends everything stored about you as a JSON file;
  ``/mancala privacy delete`` gives a code, and ``privacy delete code:`` deletes.
"""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot.discord import formatting as fmt
from bot.discord.handlers import AccountHandlers, bot_of
from bot.discord.identities import player_of
from bot.discord.replies import answer_privately
from bot.i18n import N_, _
from bot.service import GameService, Player, ServiceError
from bot.service.identities import DELETE_SECONDS, Linked

EXPORT_NAME = "mancala-data.json"

SURFACE_CHOICES = [
    app_commands.Choice(name=N_("Discord account"), value="discord"),
    app_commands.Choice(name=N_("mail address"), value="email"),
]


def account_words(player: Player) -> str:
    """An account as a private answer names it: a mention, or the address."""
    return f"<@{player.id}>" if player.surface == "discord" else f"`{player.id}`"


def linked_words(linked: Linked) -> str:
    if len(linked.accounts) < 2:
        return _("You have no linked account: link a mail address with {command}.").format(
            command=fmt.command("link email")
        )
    return _(
        "One player: {accounts}, with one rating per game family, one language and one list "
        "of games. News of your games goes to {news}."
    ).format(
        accounts=", ".join(account_words(a) for a in linked.accounts),
        news=account_words(linked.player),
    )


class LinkGroup(app_commands.Group):
    """``/mancala link``: email, code, status, news, remove."""

    def __init__(self) -> None:
        super().__init__(name="link", description=N_("Be one player on Discord and by mail"))

    @app_commands.command(description=N_("Link a mail address: I mail it a code to confirm"))
    @app_commands.describe(address=N_("your mail address, like ann@example.org"))
    async def email(
        self, interaction: discord.Interaction, address: app_commands.Range[str, 3, 254]
    ) -> None:
        await _handler(interaction).link(interaction, "email", address)

    @app_commands.command(description=N_("Enter the code that 'link discord' by mail gave you"))
    @app_commands.describe(code=N_("the code, like ABCD-2345"))
    async def code(
        self, interaction: discord.Interaction, code: app_commands.Range[str, 1, 20]
    ) -> None:
        await _handler(interaction).link(interaction, "code", code)

    @app_commands.command(description=N_("Your linked accounts"))
    async def status(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).link(interaction, "status", None)

    @app_commands.command(description=N_("Where news of your games goes"))
    @app_commands.describe(to=N_("the account that gets your news"))
    @app_commands.choices(to=SURFACE_CHOICES)
    async def news(self, interaction: discord.Interaction, to: str) -> None:
        await _handler(interaction).link(interaction, "news", to)

    @app_commands.command(description=N_("Unlink an account: it starts again with nothing"))
    @app_commands.describe(surface=N_("the account to unlink"))
    @app_commands.choices(surface=SURFACE_CHOICES)
    async def remove(self, interaction: discord.Interaction, surface: str) -> None:
        await _handler(interaction).link(interaction, "remove", surface)


class PrivacyGroup(app_commands.Group):
    """``/mancala privacy``: export, delete."""

    def __init__(self) -> None:
        super().__init__(name="privacy", description=N_("Your data: export it, or delete it"))

    @app_commands.command(description=N_("Everything stored about you, as a JSON file"))
    async def export(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).privacy(interaction, "export", None)

    @app_commands.command(description=N_("Delete your player: asks for a code first"))
    @app_commands.describe(code=N_("the code this command gave you, to confirm"))
    async def delete(
        self, interaction: discord.Interaction, code: app_commands.Range[str, 1, 20] | None = None
    ) -> None:
        await _handler(interaction).privacy(interaction, "delete", code)


def _handler(interaction: discord.Interaction) -> AccountHandlers:
    return bot_of(interaction).account_commands


class AccountCommands:
    """Linking and privacy, translated for the service."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def link(self, interaction: discord.Interaction, action: str, value: str | None) -> None:
        me = player_of(interaction.user)
        service = self.service
        try:
            if action == "email":
                asked = await service.ask_link(me, "email", value)
                text = _(
                    "I mailed a code to {address}. Reply to that mail within an hour, from "
                    "that address: your Discord account and the address then become one "
                    "player."
                ).format(address=f"`{asked.account.id if asked.account else value}`")
            elif action == "code":
                text = (
                    _("Linked.") + " " + linked_words(await service.confirm_link(me, value or ""))
                )
            elif action == "news":
                text = linked_words(await service.send_news_to(me, value or ""))
            elif action == "remove":
                left = await service.unlink(me, value or "")
                text = _(
                    "Unlinked: that account starts again as a new player. Your games, ratings "
                    "and settings stay with {account}."
                ).format(account=account_words(left.player))
            else:
                text = linked_words(await service.linked_accounts(me))
        except ServiceError as err:
            text = str(err)
        await answer_privately(interaction, text)

    async def privacy(
        self, interaction: discord.Interaction, action: str, code: str | None
    ) -> None:
        me = player_of(interaction.user)
        try:
            if action == "export":
                await interaction.response.defer(ephemeral=True, thinking=True)
                exported = await self.service.export_player(me)
                file = discord.File(io.BytesIO(exported.encode()), filename=EXPORT_NAME)
                await interaction.followup.send(
                    _(
                        "Everything stored about you: your accounts, games and moves, ratings, "
                        "tournaments and settings."
                    ),
                    file=file,
                    ephemeral=True,
                )
                return
            if code:
                deleted = await self.service.delete_player(me, code)
                text = _(
                    "Deleted: your accounts, name, settings and ratings are gone. {resigned} "
                    "games in progress were resigned; your {kept} games stay in your "
                    "opponents' records as played by a deleted player."
                ).format(resigned=deleted.resigned, kept=deleted.kept)
            else:
                asked = await self.service.ask_delete(me)
                text = _(
                    "This deletes your player for good: your accounts (this one and any linked "
                    "address), name, settings and ratings. Your games in progress are resigned; "
                    "your games stay in your opponents' records as played by a deleted player. "
                    "To go on, within {minutes} minutes: {command}"
                ).format(
                    minutes=int(DELETE_SECONDS // 60),
                    command=fmt.command("privacy delete", code=asked),
                )
        except ServiceError as err:
            text = str(err)
        await answer_privately(interaction, text)
