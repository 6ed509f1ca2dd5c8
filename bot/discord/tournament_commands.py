"""Tournaments on Discord: ``/mancala tournament ...`` and their news (docs/tournaments.md).

The commands translate for the service (``bot.service.tournaments``), which decides every
rule. A tournament created in a server's channel is placed there and organised by the
server's admins: the commands pass ``as_organiser`` when the member may Manage Server. Each
game of such a tournament is played in a thread of that channel (``make_place``, which the
service asks for each pairing), as any game with its board and buttons; the channel hears
the news (joins, each round's pairings, the final standings), and each Discord player's
pairing is posted in their game's thread, mentioning them (a bye, or a game without a
thread, by direct message).

>>> points(3.5), points(2.0), points(0.5)
('3½', '2', '½')
"""

from __future__ import annotations

import logging
from collections import OrderedDict

import discord
from discord import app_commands

from bot.discord import formatting as fmt
from bot.discord.boards import Boards
from bot.discord.choices import ruleset_choices
from bot.discord.game_threads import GameThreads
from bot.discord.handlers import TournamentHandlers, bot_of
from bot.discord.identities import channel_of, mentions, player_of
from bot.discord.known_servers import KnownServers
from bot.discord.languages import Speakers
from bot.discord.replies import answer_privately
from bot.i18n import N_, _, choose, ngettext, pgettext, speaking
from bot.service import Channel, GameService, Player, ServiceError
from bot.service.events import TournamentNews, TournamentNewsKind
from bot.service.tournaments import (
    Format,
    Pairing,
    PairingKind,
    PairingResult,
    Standing,
    TimeControl,
    TournamentStatus,
    TournamentView,
)

log = logging.getLogger(__name__)

FORMATS = [
    app_commands.Choice(name=N_("Swiss (give rounds)"), value=Format.SWISS.value),
    app_commands.Choice(name=N_("round robin"), value=Format.ROUND_ROBIN.value),
    app_commands.Choice(name=N_("double round robin"), value=Format.DOUBLE_ROUND_ROBIN.value),
    app_commands.Choice(name=N_("arena (give its length in minutes)"), value=Format.ARENA.value),
]
Choices = list[app_commands.Choice[str]]


def points(value: float) -> str:
    """Points as people write them: 3½, not 3.5."""
    whole, half = int(value), value - int(value) >= 0.5
    if half:
        return f"{whole}½" if whole else "½"
    return str(whole)


_FORMAT_NAMES = {
    Format.ROUND_ROBIN: N_("round robin"),
    Format.DOUBLE_ROUND_ROBIN: N_("double round robin"),
}


def describe(view: TournamentView) -> str:
    """A tournament in two lines: what it is, and where it stands."""
    if view.format is Format.SWISS:
        rounds = view.rounds or 0
        shape = ngettext("Swiss, {n} round", "Swiss, {n} rounds", rounds).format(n=rounds)
    elif view.format is Format.ARENA:
        minutes = view.arena_minutes or 0
        shape = ngettext("arena, {n} minute", "arena, {n} minutes", minutes).format(n=minutes)
    else:
        shape = _(_FORMAT_NAMES[view.format])
        if view.rounds:
            shape += ", " + ngettext("{n} round", "{n} rounds", view.rounds).format(n=view.rounds)
    status = {
        TournamentStatus.OPEN: (
            _("open: starts {time}").format(time=f"<t:{int(view.starts_at)}:R>")
            if view.starts_at
            else _("open: starts when an organiser says")
        ),
        TournamentStatus.RUNNING: _("round {n} under way").format(n=view.current_round),
        # TRANSLATORS: a tournament's state
        TournamentStatus.FINISHED: pgettext("tournament", "finished"),
        # TRANSLATORS: a tournament's state
        TournamentStatus.CANCELLED: pgettext("tournament", "cancelled"),
    }[view.status]
    players = len(view.players)
    return "\n".join(
        [
            _("**Tournament {id} · {name}** · {shape} · `{rules}` · {time_control}").format(
                id=view.id,
                name=view.name,
                shape=shape,
                rules=view.rules,
                time_control=view.time_control,
            ),
            ngettext("{n} player", "{n} players", players).format(n=players) + " · " + status,
        ]
    )


def pairing_line(pairing: Pairing, place: str = "") -> str:
    """One board of a round, with its result once known."""
    if pairing.north is None:
        return _("Bye: {player} (1 point)").format(player=fmt.who(pairing.south))
    south, north = fmt.who(pairing.south), fmt.who(pairing.north)
    if pairing.kind is PairingKind.FORFEIT:
        if pairing.result is PairingResult.NONE:
            return _("{south} – {north}: not played").format(south=south, north=north)
        winner = pairing.south if pairing.result is PairingResult.SOUTH else pairing.north
        return _("{south} – {north}: {winner} wins by forfeit").format(
            south=south, north=north, winner=fmt.who(winner)
        )
    score = {
        PairingResult.SOUTH: " · 1–0",
        PairingResult.NORTH: " · 0–1",
        PairingResult.DRAW: " · ½–½",
    }.get(pairing.result or PairingResult.NONE, "")
    line = _("Board {board}: {south} ({south_side}) – {north} · game {game}").format(
        board=pairing.board,
        south=south,
        south_side=fmt.side_name("south"),
        north=north,
        game=pairing.game_id,
    )
    return f"{line}{place}{score}"


def standings_lines(standings: list[Standing] | tuple[Standing, ...], arena: bool) -> list[str]:
    lines = []
    for s in standings:
        gone = " " + _("(withdrew)") if s.withdrawn else ""
        # Buchholz and Sonneborn-Berger (SB): the tie-breaks' names, as tournaments write them
        ties = "" if arena else f" · Buchholz {points(s.buchholz)} · SB {s.sonneborn_berger:g}"
        score = fmt.record(s.wins, s.losses, s.draws)
        lines.append(f"{s.rank}. {fmt.who(s.player)}{gone}: {points(s.points)}{ties} · {score}")
    return lines


class TournamentGroup(app_commands.Group):
    """``/mancala tournament``: create, join, withdraw, start, cancel, pairings, standings,
    list."""

    def __init__(self) -> None:
        super().__init__(
            name="tournament", description=N_("Swiss, round-robin and arena tournaments")
        )

    @app_commands.command(description=N_("Create a tournament in this channel (Manage Server)"))
    @app_commands.describe(
        name=N_("the tournament's name"),
        format=N_("Swiss, round robin (once or twice round) or arena"),
        ruleset=N_("a preset like oware (default: this server's)"),
        rounds=N_("a Swiss's rounds (1 to 20)"),
        minutes=N_("live: minutes a move (1 to 60)"),
        days=N_("correspondence: days a move (1 to 14; the default, 3)"),
        length=N_("an arena's length in minutes (10 to 1440)"),
        start_in=N_("start by itself after this long, like 2h or 1d (default: when you say)"),
    )
    @app_commands.choices(format=FORMATS)
    async def create(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 64],
        format: str,
        ruleset: app_commands.Range[str, 1, 100] | None = None,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        minutes: app_commands.Range[int, 1, 60] | None = None,
        days: app_commands.Range[int, 1, 14] | None = None,
        length: app_commands.Range[int, 10, 1440] | None = None,
        start_in: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        await _handler(interaction).create(
            interaction, name, format, ruleset, rounds, minutes, days, length, start_in
        )

    @create.autocomplete("ruleset")
    async def _ruleset_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> Choices:
        return ruleset_choices(current)

    @app_commands.command(description=N_("Join a tournament"))
    @app_commands.describe(tournament=N_("the tournament's number"))
    async def join(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1]
    ) -> None:
        await _handler(interaction).join(interaction, tournament)

    @app_commands.command(description=N_("Leave a tournament (once it runs: for good)"))
    @app_commands.describe(tournament=N_("the tournament's number"))
    async def withdraw(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1]
    ) -> None:
        await _handler(interaction).withdraw(interaction, tournament)

    @app_commands.command(description=N_("Start a tournament now (its organisers)"))
    @app_commands.describe(tournament=N_("the tournament's number"))
    async def start(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1]
    ) -> None:
        await _handler(interaction).start(interaction, tournament)

    @app_commands.command(description=N_("Call a tournament off (its organisers)"))
    @app_commands.describe(tournament=N_("the tournament's number"))
    async def cancel(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1]
    ) -> None:
        await _handler(interaction).cancel(interaction, tournament)

    @app_commands.command(description=N_("A round's pairings (default: the round under way)"))
    @app_commands.describe(tournament=N_("the tournament's number"), round=N_("the round's number"))
    async def pairings(
        self,
        interaction: discord.Interaction,
        tournament: app_commands.Range[int, 1],
        round: app_commands.Range[int, 1] | None = None,
    ) -> None:
        await _handler(interaction).pairings(interaction, tournament, round)

    @app_commands.command(description=N_("The standings, with their tie-breaks"))
    @app_commands.describe(tournament=N_("the tournament's number"))
    async def standings(
        self, interaction: discord.Interaction, tournament: app_commands.Range[int, 1]
    ) -> None:
        await _handler(interaction).standings(interaction, tournament)

    @app_commands.command(name="list", description=N_("The tournaments open to join or under way"))
    async def list_them(self, interaction: discord.Interaction) -> None:
        await _handler(interaction).list_open(interaction)


def _handler(interaction: discord.Interaction) -> TournamentHandlers:
    return bot_of(interaction).tournament_commands


class TournamentCommands:
    """The tournament commands, translated for the service; and the places and news of
    tournaments (``make_place``, ``post``)."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        boards: Boards,
        servers: KnownServers,
        threads: GameThreads,
    ) -> None:
        self.client = client
        self.service = service
        self.boards = boards
        self.servers = servers
        self.threads = threads
        self.speakers = Speakers(service, servers)
        self._posted: OrderedDict[tuple[object, ...], None] = OrderedDict()

    # -- commands -------------------------------------------------------------------------

    async def create(
        self,
        interaction: discord.Interaction,
        name: str,
        format: str,
        ruleset: str | None,
        rounds: int | None,
        minutes: int | None,
        days: int | None,
        length: int | None,
        start_in: str | None,
    ) -> None:
        await self.servers.learn(interaction)
        me = player_of(interaction.user)
        try:
            if minutes is not None and days is not None:
                raise ValueError(_("give minutes a move or days a move, not both"))
            if minutes is not None or format == Format.ARENA.value:
                pace = TimeControl.live(minutes if minutes is not None else 5)
            else:
                pace = TimeControl.correspondence(days if days is not None else 3)
            starts_at = None
            if start_in is not None:
                seconds = fmt.parse_duration(start_in)
                starts_at = self.service.now() + seconds if seconds else None
            rules = ruleset or (await self.servers.settings_for(interaction.channel_id)).ruleset
            in_server = interaction.guild_id is not None
            await self.service.set_display_name(me, interaction.user.display_name)
            view = await self.service.create_tournament(
                me,
                name,
                format,
                rules,
                pace,
                rounds=rounds,
                arena_minutes=length,
                starts_at=starts_at,
                place=channel_of(interaction.channel_id) if in_server else None,
                server=str(interaction.guild_id) if in_server else None,
                as_organiser=in_server and interaction.permissions.manage_guild,
            )
        except (ValueError, ServiceError) as err:
            return await answer_privately(interaction, str(err))
        await interaction.response.send_message(
            fmt.fit(
                describe(view)
                + "\n"
                + _("Join with {join}.").format(
                    join=fmt.command("tournament join", tournament=view.id)
                )
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def join(self, interaction: discord.Interaction, tournament_id: int) -> None:
        me = player_of(interaction.user)
        try:
            await self.service.set_display_name(me, interaction.user.display_name)
            view = await self.service.join_tournament(tournament_id, me)
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        await answer_privately(interaction, _("You are in.") + "\n" + describe(view))

    async def withdraw(self, interaction: discord.Interaction, tournament_id: int) -> None:
        try:
            view = await self.service.withdraw_from_tournament(
                tournament_id, player_of(interaction.user)
            )
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        await answer_privately(interaction, _("You are out of tournament {id}.").format(id=view.id))

    async def start(self, interaction: discord.Interaction, tournament_id: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)  # threads take a moment
        try:
            view = await self.service.start_tournament(
                tournament_id, player_of(interaction.user), self._organiser(interaction)
            )
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        # TRANSLATORS: a tournament was started
        await answer_privately(interaction, _("Started.") + "\n" + describe(view))

    async def cancel(self, interaction: discord.Interaction, tournament_id: int) -> None:
        try:
            view = await self.service.cancel_tournament(
                tournament_id, player_of(interaction.user), self._organiser(interaction)
            )
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        # TRANSLATORS: a tournament was cancelled
        await answer_privately(interaction, _("Cancelled.") + "\n" + describe(view))

    async def pairings(
        self, interaction: discord.Interaction, tournament_id: int, round_no: int | None
    ) -> None:
        try:
            view = await self.service.tournament(tournament_id)
            pairings = await self.service.tournament_pairings(tournament_id, round_no)
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        shown = round_no or view.current_round
        head = (
            describe(view) + "\n" + _("**Round {n}**").format(n=shown) if shown else describe(view)
        )
        lines = [await self._line(p) for p in pairings] or [_("No pairings yet.")]
        await answer_privately(interaction, "\n".join([head, *lines]))

    async def standings(self, interaction: discord.Interaction, tournament_id: int) -> None:
        try:
            view = await self.service.tournament(tournament_id)
            table = await self.service.tournament_standings(tournament_id)
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        lines = standings_lines(table, view.format is Format.ARENA) or [_("Nobody has joined yet.")]
        await answer_privately(interaction, "\n".join([describe(view), *lines]))

    async def list_open(self, interaction: discord.Interaction) -> None:
        try:
            shown = [
                *await self.service.list_tournaments(TournamentStatus.OPEN, limit=10),
                *await self.service.list_tournaments(TournamentStatus.RUNNING, limit=10),
            ]
        except ServiceError as err:
            return await answer_privately(interaction, str(err))
        here = str(interaction.guild_id) if interaction.guild_id else None
        shown = [t for t in shown if t.server in (None, here)]
        text = "\n".join(describe(t) for t in shown) or _("No tournament is open or under way.")
        await answer_privately(interaction, text)

    @staticmethod
    def _organiser(interaction: discord.Interaction) -> bool:
        return interaction.guild_id is not None and interaction.permissions.manage_guild

    async def _line(self, pairing: Pairing) -> str:
        place = ""
        if pairing.game_id is not None:
            game = await self.service.get_game(pairing.game_id)
            if game.channel.surface == "discord":
                place = f" <#{game.channel.id}>"
        return pairing_line(pairing, place)

    # -- places and news ------------------------------------------------------------------

    async def make_place(self, tournament: TournamentView, pairing: Pairing) -> Channel | None:
        """A thread of the tournament's channel for one of its games (the service asks, once
        per game); None where the channel is out of reach (the game is played without)."""
        if tournament.place is None or tournament.place.surface != "discord":
            return None
        channel_id = fmt.snowflake(tournament.place.id)
        channel = self.client.get_channel(channel_id) if channel_id else None
        if not isinstance(channel, discord.TextChannel):
            return None
        with speaking(choose(None, str(channel.guild.preferred_locale))):
            name = _("{name} · round {round} · board {board}").format(
                name=tournament.name, round=pairing.round, board=pairing.board
            )
        thread = await channel.create_thread(
            name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
        self.servers.note(thread.id, channel.guild.id)
        self.threads.add(thread.id)
        return channel_of(thread.id)

    def _first_time(self, key: tuple[object, ...]) -> bool:
        if key in self._posted:
            return False
        self._posted[key] = None
        while len(self._posted) > 1000:
            self._posted.popitem(last=False)
        return True

    async def post(self, event: TournamentNews) -> None:
        """A tournament's news: in its channel (``in_place``), in its server's language; else
        for one Discord player: their game's board in its thread (in its server's language),
        mentioning the players, or a direct message (in the player's)."""
        view = event.tournament
        if event.in_place:
            return await self._post_in_place(event)
        if event.kind is not TournamentNewsKind.ROUND_STARTED:
            if view.place is not None and view.place.surface == "discord":
                return  # the channel has it
            with speaking(await self.speakers.for_player(event.recipient)):
                text = self._news_text(event)
            return await self._direct(event.recipient, text)
        pairing = event.pairing
        if pairing is None or pairing.game_id is None:
            with speaking(await self.speakers.for_player(event.recipient)):
                text = self._news_text(event)
                if pairing is not None:
                    text += "\n" + pairing_line(pairing)
            return await self._direct(event.recipient, text)
        game = await self.service.get_game(pairing.game_id)
        if game.channel.surface != "discord":
            with speaking(await self.speakers.for_player(event.recipient)):
                note = _("{name}, round {round}: your game is number {id}.").format(
                    name=view.name, round=event.round, id=game.id
                )
                text = fmt.board_message(game, note)
            return await self._direct(event.recipient, text)
        if not self._first_time(("game", game.id)):
            return  # the other player's copy of the news posted it
        with speaking(await self.speakers.for_post(game.channel, event.recipient)):
            note = _("**{name}**, round {round}").format(name=view.name, round=event.round)
            text, extras = await self.boards.message(game, note, turn=True)
        extras["allowed_mentions"] = mentions(game.south, game.north)
        thread = self.client.get_partial_messageable(int(game.channel.id))
        message = await thread.send(text, **extras)
        await self.boards.replace(game, int(game.channel.id), message)

    async def _post_in_place(self, event: TournamentNews) -> None:
        view = event.tournament
        if view.place is None or view.place.surface != "discord":
            return
        channel_id = fmt.snowflake(view.place.id)
        key = ("place", view.id, event.kind, event.round, event.player)
        if channel_id is None or not self._first_time(key):
            return
        with speaking(await self.speakers.for_post(view.place, None)):
            text = self._news_text(event)
            if event.kind is TournamentNewsKind.ROUND_STARTED:
                text += "\n" + "\n".join([await self._line(p) for p in event.pairings])
            elif event.standings:
                arena = view.format is Format.ARENA
                text += "\n" + "\n".join(standings_lines(event.standings, arena))
        channel = self.client.get_partial_messageable(channel_id)
        await channel.send(fmt.fit(text), allowed_mentions=discord.AllowedMentions.none())

    @staticmethod
    def _news_text(event: TournamentNews) -> str:
        view = event.tournament
        title = _("**Tournament {id} · {name}**").format(id=view.id, name=view.name)
        if event.kind is TournamentNewsKind.JOINED and event.player is not None:
            players = len(view.players)
            return ngettext(
                "{player} joined {title} ({n} player).",
                "{player} joined {title} ({n} players).",
                players,
            ).format(player=fmt.who(event.player), title=title, n=players)
        if event.kind is TournamentNewsKind.WITHDRAWN and event.player is not None:
            return _("{player} withdrew from {title}.").format(
                player=fmt.who(event.player), title=title
            )
        if event.kind is TournamentNewsKind.ROUND_STARTED:
            return _("{title}: round {round} begins.").format(title=title, round=event.round)
        if event.kind is TournamentNewsKind.FINISHED:
            return _("{title} is over. Final standings:").format(title=title)
        return _("{title} was cancelled.").format(title=title)

    async def _direct(self, recipient: Player, text: str) -> None:
        user_id = fmt.snowflake(recipient.id) if recipient.surface == "discord" else None
        if user_id is None:
            return
        dm = await self.client.create_dm(discord.Object(user_id))
        await dm.send(fmt.fit(text), allowed_mentions=discord.AllowedMentions.none())
