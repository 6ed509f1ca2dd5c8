"""Challenges on Discord: making one, and answering it by button or command.

A challenge against the bot itself is a game against the AI, which starts at once. A
challenge to an email address goes out by mail (when this process also runs the mail
surface): that player answers and moves by mail, the game lives in this channel. A channel
that already has a game (or a player who asks) gets the new game in a thread of its own.

>>> game_options("opponent", "12h").side, game_options("me", "12h").forfeit_after
('north', 43200.0)
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

import discord

from bot.discord import formatting as fmt
from bot.discord.boards import Boards
from bot.discord.game_threads import GameThreads
from bot.discord.identities import channel_of, mentions, player_of
from bot.discord.known_servers import KnownServers
from bot.discord.replies import answer_privately, or_missing, quietly
from bot.discord.views import challenge_view
from bot.i18n import N_, _
from bot.service import (
    BadRequest,
    Challenge,
    ChallengeClosed,
    GameOptions,
    GameService,
    Player,
    ServiceError,
)
from engine import Ruleset

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Card:
    """Where a challenge's card is, while it has buttons."""

    channel_id: int
    message_id: int


class ChallengeCommands:
    """Challenge, accept, decline, cancel, rematch: translated for the service, answered
    with ``boards``. ``mail_address`` is the bot's own email address when this process also
    runs the mail surface; None refuses challenges to addresses."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        boards: Boards,
        servers: KnownServers,
        threads: GameThreads,
        mail_address: str | None = None,
    ) -> None:
        self.client = client
        self.service = service
        self.boards = boards
        self.servers = servers
        self.threads = threads
        self.mail_address = mail_address
        # challenge id -> its card, while it has buttons
        self.cards: dict[int, Card] = {}

    def remember_card(
        self, challenge: Challenge, channel_id: int, message: discord.abc.Snowflake
    ) -> None:
        if challenge_view(challenge) is not None:
            self.cards[challenge.id] = Card(channel_id, message.id)

    async def close_card(self, challenge: Challenge) -> None:
        """Show an answered, cancelled or expired challenge's card in its new state, without
        its buttons (best effort: a press on a stale button is refused and closes it too)."""
        place = self.cards.pop(challenge.id, None)
        if place is None:
            return
        channel = self.client.get_partial_messageable(place.channel_id)
        try:
            await channel.get_partial_message(place.message_id).edit(
                content=fmt.challenge_message(challenge, Ruleset.presets()),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as err:
            log.debug("could not close the card of challenge %s: %s", challenge.id, err)

    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.abc.User | None,
        ruleset: str | None,
        level: str | None = None,
        first: str = "me",
        clock: str | None = None,
        thread: bool | None = None,
        email: str | None = None,
        days: int | None = None,
    ) -> None:
        """``opponent`` (a member, or the bot for the AI) or ``email`` (an address) is the
        player challenged; exactly one of them. ``days`` a move set the clock (over
        ``clock``)."""
        me = player_of(interaction.user)
        await self.servers.learn(interaction)
        place = await self.servers.settings_for(interaction.channel_id)  # what the server set
        ruleset = ruleset or place.ruleset
        thread = place.threads if thread is None else thread
        try:
            them = self._opponent(
                opponent, email, level or place.level, in_dm=interaction.guild_id is None
            )
            options = game_options(first, clock)
        except ValueError as err:
            return await answer_privately(interaction, str(err))
        if clock is None and place.clock is not None:
            options = replace(options, forfeit_after=place.clock)
        if days is not None:  # a correspondence clock: the service sets it from the days
            options = replace(options, days=days, forfeit_after=None)
        them_name = opponent.display_name if opponent is not None else fmt.masked_address(them.id)
        here = channel_of(interaction.channel_id)
        thread_channel = None
        if isinstance(interaction.channel, discord.TextChannel) and (
            thread or await self.service.active_game(here) is not None
        ):
            # a busy channel (or a player who asked) gets the game in its own thread
            name = _("{rules}: {challenger} vs {opponent}").format(
                rules=ruleset.split(":")[0],
                challenger=interaction.user.display_name,
                opponent=them_name,
            )
            try:
                thread_channel = await interaction.channel.create_thread(
                    name=name[:100],
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=1440,
                )
            except discord.HTTPException as err:
                return await answer_privately(
                    interaction,
                    _(
                        "I could not open a thread here ({error}); ask a moderator for the "
                        "Create Public Threads permission."
                    ).format(error=err.text),
                )
            here = channel_of(thread_channel.id)
            self.servers.note(thread_channel.id, interaction.guild_id)
            self.threads.add(thread_channel.id)
        try:
            await self.service.set_display_name(me, interaction.user.display_name)
            if opponent is not None and not them.is_ai:
                # an email player's name comes from their own mail's From, by the mail surface
                await self.service.set_display_name(them, opponent.display_name)
            challenge = await self.service.challenge(me, them, ruleset, here, options)
        except ServiceError as err:
            if thread_channel is not None:
                await quietly(thread_channel.delete())
            return await answer_privately(interaction, str(err))
        await self._announce(interaction, challenge, thread_channel)
        if them.surface == "email":  # the card masks the address: confirm it privately
            await interaction.followup.send(
                _(
                    "I am mailing challenge {id} to {address}; they answer by replying to that "
                    "mail, and their moves will appear here."
                ).format(id=challenge.id, address=them.id),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    def _opponent(
        self,
        opponent: discord.abc.User | None,
        email: str | None,
        level: str | None,
        in_dm: bool = False,
    ) -> Player:
        """The player challenged; ValueError says what is wrong with the options."""
        if in_dm and opponent is None and email is None:
            return Player.ai(level)  # in a DM with the bot, a game is a game against it
        if in_dm and (email is not None or (opponent is not None and opponent.id != self._bot_id)):
            raise ValueError(
                _("Here, in our DM, you play me (the AI). Challenge people in a server's channel.")
            )
        if opponent is None:
            if email is None:
                raise ValueError(
                    _(
                        "Whom do you challenge? Give {opponent} (a member, or me to play the "
                        "AI) or {email} (an address, to play someone by mail)."
                    ).format(
                        opponent=fmt.command_word("opponent"),
                        email=fmt.command_word("email"),
                    )
                )
            if self.mail_address is None:
                raise ValueError(_(EMAIL_PLAY_OFF).format(opponent=fmt.command_word("opponent")))
            try:
                them = self.service.email_player(email)
            except BadRequest as err:
                raise ValueError(f"{str(err)[:1].upper()}{str(err)[1:]}.") from None
        elif email is not None:
            raise ValueError(
                _("Give {opponent} or {email}, not both: one opponent per challenge.").format(
                    opponent=fmt.command_word("opponent"),
                    email=fmt.command_word("email"),
                )
            )
        elif opponent.id == self._bot_id:
            return Player.ai(level)
        elif opponent.bot:
            raise ValueError(
                _("{name} is a bot; challenge a person, or me to play the AI.").format(
                    name=opponent.display_name
                )
            )
        else:
            them = player_of(opponent)
        if level is not None:
            raise ValueError(
                _(
                    "{level} is for games against me (the AI); leave it out to play a person."
                ).format(level=fmt.command_word("level"))
            )
        return them

    @property
    def _bot_id(self) -> int:
        user = self.client.user
        assert user is not None, "the bot is logged in before any command reaches it"
        return user.id

    async def _announce(
        self, interaction: discord.Interaction, challenge: Challenge, thread: discord.Thread | None
    ) -> None:
        allowed = mentions(challenge.opponent)  # the one asked; the challenger is answered
        if challenge.game_id is not None:  # against the AI the game starts at once
            game = await self.service.get_game(challenge.game_id)
            if thread is None:
                return await self.boards.show(interaction, game)
            await interaction.response.send_message(
                _("{game}: playing in {thread}.").format(
                    game=fmt.game_title(game), thread=thread.mention
                ),
                allowed_mentions=allowed,
            )
            self.servers.note(thread.id, interaction.guild_id)
            text, extras = await self.boards.message(
                game, turn=True, actor=player_of(interaction.user)
            )
            message = await thread.send(text, **extras)
            return await self.boards.replace(game, thread.id, message)
        text = fmt.challenge_message(challenge, Ruleset.presets())
        view = challenge_view(challenge)
        if thread is None:
            sent = await interaction.response.send_message(
                text, view=or_missing(view), allowed_mentions=allowed
            )
            reply = sent.resource  # the message Discord made of the reply
            if isinstance(reply, discord.InteractionMessage) and interaction.channel_id:
                self.remember_card(challenge, interaction.channel_id, reply)
            return
        await interaction.response.send_message(
            _("{challenger} challenges {opponent}: see {thread}.").format(
                challenger=fmt.who(challenge.challenger),
                opponent=fmt.who(challenge.opponent),
                thread=thread.mention,
            ),
            allowed_mentions=allowed,
        )
        card = await thread.send(text, view=or_missing(view), allowed_mentions=allowed)
        self.remember_card(challenge, thread.id, card)

    async def _challenge_for(
        self, interaction: discord.Interaction, challenge_id: int | None, made_by_me: bool = False
    ) -> int | None:
        """The challenge a command answers: the given id, or the newest open one to the user
        (``made_by_me``: the newest one the user made), this channel's first."""
        if challenge_id is not None:
            return challenge_id
        me = player_of(interaction.user)
        here = channel_of(interaction.channel_id)
        mine = [
            c
            for c in await self.service.open_challenges(me)
            if (c.challenger if made_by_me else c.opponent) == me
        ]
        mine.sort(key=lambda c: (c.channel != here, -c.created_at))
        if not mine:
            await answer_privately(
                interaction,
                _("You have no open challenge to withdraw.")
                if made_by_me
                else _("Nobody has challenged you; nothing to answer."),
            )
            return None
        return mine[0].id

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """The final board's Rematch button: the service makes the challenge (sides swapped),
        announced like any other."""
        try:
            challenge = await self.service.rematch(game_id, player_of(interaction.user))
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        await self._announce(interaction, challenge, None)

    async def cancel(self, interaction: discord.Interaction, challenge_id: int | None) -> None:
        """The challenger withdraws their challenge; its card says so, without buttons."""
        challenge_id = await self._challenge_for(interaction, challenge_id, made_by_me=True)
        if challenge_id is None:
            return
        try:
            challenge = await self.service.cancel(challenge_id, player_of(interaction.user))
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        await self.close_card(challenge)
        await interaction.response.send_message(
            fmt.challenge_message(challenge, Ruleset.presets()), ephemeral=True
        )

    async def accept(
        self, interaction: discord.Interaction, challenge_id: int | None, from_card: bool = False
    ) -> None:
        challenge_id = await self._challenge_for(interaction, challenge_id)
        if challenge_id is None:
            return
        try:
            game = await self.service.accept(challenge_id, player_of(interaction.user))
        except ServiceError as err:
            return await self._refused(interaction, challenge_id, err, from_card)
        if from_card:  # the card stays, saying it was accepted, without its buttons
            self.cards.pop(challenge_id, None)
            card = interaction.message.content if interaction.message else ""
            await interaction.response.edit_message(
                content=fmt.fit(card + "\n" + _("**Accepted.**")), view=None
            )
        else:
            await self.close_card(await self.service.get_challenge(challenge_id))
        if game.channel.id != str(interaction.channel_id):
            channel = self.client.get_partial_messageable(int(game.channel.id))
            text, extras = await self.boards.message(
                game, turn=True, actor=player_of(interaction.user)
            )
            message = await channel.send(text, **extras)
            await self.boards.replace(game, int(game.channel.id), message)
            if not from_card:
                await interaction.response.send_message(
                    _("Accepted: the game is in {channel}.").format(
                        channel=f"<#{game.channel.id}>"
                    ),
                    ephemeral=True,
                )
            return
        await self.boards.show(interaction, game, _("Challenge accepted."), turn=True)

    async def decline(
        self, interaction: discord.Interaction, challenge_id: int | None, from_card: bool = False
    ) -> None:
        challenge_id = await self._challenge_for(interaction, challenge_id)
        if challenge_id is None:
            return
        try:
            challenge = await self.service.decline(challenge_id, player_of(interaction.user))
        except ServiceError as err:
            return await self._refused(interaction, challenge_id, err, from_card)
        text = fmt.challenge_message(challenge, Ruleset.presets())
        allowed = mentions(challenge.opponent)  # the one asked; the challenger is answered
        if from_card:
            self.cards.pop(challenge_id, None)
            await interaction.response.edit_message(
                content=text, view=None, allowed_mentions=allowed
            )
        else:
            await self.close_card(challenge)
            await interaction.response.send_message(text, allowed_mentions=allowed)

    async def _refused(
        self,
        interaction: discord.Interaction,
        challenge_id: int,
        err: ServiceError,
        from_card: bool,
    ) -> None:
        """Say why; a press on the card of a challenge no longer open closes that card."""
        if from_card and isinstance(err, ChallengeClosed):
            challenge = await self.service.get_challenge(challenge_id)
            self.cards.pop(challenge_id, None)
            await interaction.response.edit_message(
                content=fmt.challenge_message(challenge, Ruleset.presets()),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        await answer_privately(interaction, str(err))


EMAIL_PLAY_OFF = N_(
    "Email play is not enabled on this bot: its operator enables it by setting "
    "MANCALA_MAIL_ADDRESS (the bot's own email address) and restarting it. "
    "Challenge a member with {opponent} meanwhile."
)


def game_options(first: str, clock: str | None) -> GameOptions:
    """Game options from the command's: who moves first (South moves first; "random" leaves
    sides and the first move to the ruleset and a coin), and the clock per move."""
    choices = {"me": ("south", "south"), "opponent": ("north", "south"), "random": ("random", None)}
    if first not in choices:
        raise ValueError(
            _("{first} is me, opponent or random, not '{value}'").format(
                first=fmt.command_word("first"), value=first[:20]
            )
        )
    side, first_mover = choices[first]
    per_move = None if clock is None else fmt.parse_duration(clock)
    # The service sets the reminder from the clock.
    return GameOptions(side=side, first=first_mover, forfeit_after=per_move)
