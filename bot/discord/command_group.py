"""The one command group, ``/mancala``. Each command hands its options to a handler of the
bot that received it (``bot_of(interaction)``): ``game_commands``, ``general_commands``,
``challenges`` or ``puzzle_commands``. The costly ones (``hint``, ``challenge``, ``board``,
``review``, ``puzzle``) are limited per user by the named cooldowns of ``cooldowns.py``, which
discord.py checks before the command runs.

>>> group = MancalaGroup()
>>> sorted(c.name for c in group.commands)[:4]
['accept', 'activity', 'board', 'cancel']
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.discord.account_commands import LinkGroup, PrivacyGroup
from bot.discord.activity_launch import launch_activity
from bot.discord.choices import level_choices, move_choices, ruleset_choices
from bot.discord.cooldowns import cooldown
from bot.discord.correspondence_commands import VacationGroup
from bot.discord.handlers import bot_of
from bot.discord.tournament_commands import TournamentGroup
from bot.i18n import N_, Language
from bot.service.types import OfferKind
from engine import puzzles as engine_puzzles

Choices = list[app_commands.Choice[str]]

# The languages by their own names (a French speaker looks for "Français"), and "auto".
LANGUAGE_CHOICES = [
    app_commands.Choice(name=N_("auto: the language of my Discord"), value="auto"),
    *(
        app_commands.Choice(name=language.native_name, value=language.value)
        for language in Language
    ),
]

FIRST_CHOICES = [
    app_commands.Choice(name=N_("me (I move first)"), value="me"),
    app_commands.Choice(name=N_("my opponent"), value="opponent"),
    app_commands.Choice(name=N_("a coin flip"), value="random"),
]


class MancalaGroup(app_commands.Group):
    """Mancala games: challenge someone (or me, for the AI), then play with buttons."""

    def __init__(self) -> None:
        # also in a DM with the bot: a player can play the AI there, alone
        super().__init__(
            name="mancala",
            description=N_("Play mancala: Kalah, Wari, Oware and more"),
            guild_only=False,
        )
        self.add_command(TournamentGroup())  # /mancala tournament ...
        self.add_command(VacationGroup())  # /mancala vacation start|stop|status
        self.add_command(LinkGroup())  # /mancala link email|code|status|news|remove
        self.add_command(PrivacyGroup())  # /mancala privacy export|delete

    @app_commands.command(
        description=N_("Challenge someone to a game (challenge me to play the AI)")
    )
    @app_commands.describe(
        ruleset=N_("a preset like wari, or preset:key=value,... (see /mancala rules)"),
        opponent=N_("who to play: a member, or me (the bot) for the AI"),
        email=N_("or an email address, to play someone by mail (instead of opponent)"),
        level=N_("the AI's strength, when you challenge me"),
        first=N_("who moves first (default: you)"),
        clock=N_("time per move before a player forfeits, like 12h or 3d, or off"),
        thread=N_("play in a new thread of this channel"),
        days=N_("correspondence: days a move (1 to 14), a reminder when one is left"),
    )
    @app_commands.choices(first=FIRST_CHOICES)
    @cooldown("challenge")
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User | None = None,
        ruleset: app_commands.Range[str, 1, 100] | None = None,
        email: app_commands.Range[str, 3, 254] | None = None,
        level: str | None = None,
        first: str = "me",
        clock: str | None = None,
        thread: bool | None = None,
        days: app_commands.Range[int, 1, 14] | None = None,
    ) -> None:
        # left out, the ruleset, level, clock and thread are this server's (/mancala settings)
        await bot_of(interaction).challenges.challenge(
            interaction, opponent, ruleset, level, first, clock, thread, email, days
        )

    @challenge.autocomplete("ruleset")
    async def _ruleset_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> Choices:
        return ruleset_choices(current)

    @challenge.autocomplete("level")
    async def _level_autocomplete(self, interaction: discord.Interaction, current: str) -> Choices:
        return level_choices(current)

    @app_commands.command(description=N_("Accept a challenge (the newest one to you, if no id)"))
    @app_commands.describe(challenge=N_("the challenge's number, if you have several"))
    async def accept(self, interaction: discord.Interaction, challenge: int | None = None) -> None:
        await bot_of(interaction).challenges.accept(interaction, challenge)

    @app_commands.command(description=N_("Decline a challenge (the newest one to you, if no id)"))
    @app_commands.describe(challenge=N_("the challenge's number, if you have several"))
    async def decline(self, interaction: discord.Interaction, challenge: int | None = None) -> None:
        await bot_of(interaction).challenges.decline(interaction, challenge)

    @app_commands.command(description=N_("Withdraw your own challenge (the newest, if no id)"))
    @app_commands.describe(challenge=N_("the challenge's number, if you have several"))
    async def cancel(self, interaction: discord.Interaction, challenge: int | None = None) -> None:
        await bot_of(interaction).challenges.cancel(interaction, challenge)

    @app_commands.command(description=N_("How to play here: the commands and how to type moves"))
    async def help(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).general_commands.help(interaction)

    @app_commands.command(description=N_("Sow a pit in this channel's game"))
    @app_commands.describe(pit=N_("the pit's letter, like E (North's pits: either case)"))
    async def move(
        self, interaction: discord.Interaction, pit: app_commands.Range[str, 1, 3]
    ) -> None:
        await bot_of(interaction).game_commands.move(interaction, None, pit)

    @move.autocomplete("pit")
    async def _pit_autocomplete(self, interaction: discord.Interaction, current: str) -> Choices:
        return await move_choices(bot_of(interaction).service, interaction, current)

    @app_commands.command(
        description=N_("Open the board as an Activity: everyone here sees it, and plays")
    )
    async def activity(self, interaction: discord.Interaction) -> None:
        await launch_activity(interaction)

    @app_commands.command(description=N_("Show this channel's game"))
    @app_commands.describe(text=N_("the text board too (or not), whatever this server's setting"))
    @cooldown("board")
    async def board(self, interaction: discord.Interaction, text: bool | None = None) -> None:
        await bot_of(interaction).game_commands.board(interaction, text)

    @app_commands.command(description=N_("A conditional move: if they play this, play that for me"))
    @app_commands.describe(
        condition=N_("your opponent's move (or whole turn, like c f); leave out to list yours"),
        answer=N_("your move in answer"),
        clear=N_("drop your conditional moves in this game"),
        game=N_("the game's number (default: this channel's)"),
    )
    @app_commands.rename(condition="if", answer="then")
    async def premove(
        self,
        interaction: discord.Interaction,
        condition: app_commands.Range[str, 1, 30] | None = None,
        answer: app_commands.Range[str, 1, 3] | None = None,
        clear: bool = False,
        game: app_commands.Range[int, 1] | None = None,
    ) -> None:
        await bot_of(interaction).correspondence_commands.premove(
            interaction, condition, answer, clear, game
        )

    @app_commands.command(
        description=N_("Your language; this server's game settings (Manage Server to change)")
    )
    @app_commands.describe(
        language=N_("the language I speak with you, here and by mail (auto: your Discord's)"),
        ruleset=N_("the ruleset of a challenge that names none"),
        level=N_("the AI's level when a challenge names none"),
        clock=N_("time per move before forfeiting, like 12h or 3d, or off"),
        pings=N_("mention the player to move on the board, or never"),
        threads=N_("give every game a thread of its own"),
        text_board=N_("show the text board beside the picture"),
    )
    @app_commands.choices(
        pings=[
            app_commands.Choice(name=N_("mention the player to move"), value="mention"),
            app_commands.Choice(name=N_("never mention"), value="off"),
        ],
        language=LANGUAGE_CHOICES,
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        language: str | None = None,
        ruleset: app_commands.Range[str, 1, 100] | None = None,
        level: str | None = None,
        clock: app_commands.Range[str, 1, 20] | None = None,
        pings: str | None = None,
        threads: bool | None = None,
        text_board: bool | None = None,
    ) -> None:
        await bot_of(interaction).general_commands.server_settings(
            interaction,
            language=language,
            ruleset=ruleset,
            level=level,
            clock=clock,
            pings=pings,
            threads=threads,
            text_board=text_board,
        )

    @settings.autocomplete("ruleset")
    async def _settings_ruleset_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> Choices:
        return ruleset_choices(current)

    @settings.autocomplete("level")
    async def _settings_level_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> Choices:
        return level_choices(current)

    @app_commands.command(description=N_("Resign this channel's game"))
    async def resign(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).game_commands.resign(interaction)

    @app_commands.command(description=N_("Offer a draw (or accept your opponent's offer)"))
    async def draw(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).game_commands.offer(interaction, OfferKind.DRAW)

    @app_commands.command(description=N_("Ask to take back your last move (or accept the request)"))
    async def undo(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).game_commands.offer(interaction, OfferKind.UNDO)

    @app_commands.command(description=N_("The moves of this channel's game, as a record"))
    async def history(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).game_commands.history(interaction)

    @app_commands.command(
        description=N_("How to hear it is your move: a mention, a DM, or nothing")
    )
    @app_commands.describe(mode=N_("mention (in the game's channel), dm, or off"))
    @app_commands.choices(
        mode=[
            app_commands.Choice(name=N_("mention me in the game's channel"), value="mention"),
            app_commands.Choice(name=N_("a direct message"), value="dm"),
            app_commands.Choice(name=N_("no pings"), value="off"),
        ]
    )
    async def pings(self, interaction: discord.Interaction, mode: str) -> None:
        await bot_of(interaction).general_commands.set_pings(interaction, mode)

    @app_commands.command(description=N_("List your games"))
    async def games(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).general_commands.games(interaction)

    @app_commands.command(description=N_("The rulesets, or one ruleset's rules in full"))
    @app_commands.describe(ruleset=N_("a preset or preset:key=value,...; leave out for the list"))
    async def rules(
        self,
        interaction: discord.Interaction,
        ruleset: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        await bot_of(interaction).general_commands.rules(interaction, ruleset)

    @rules.autocomplete("ruleset")
    async def _rules_autocomplete(self, interaction: discord.Interaction, current: str) -> Choices:
        return ruleset_choices(current)

    @app_commands.command(description=N_("The best-rated players of a ruleset, or your record"))
    @app_commands.describe(
        ruleset=N_("a preset (default: this server's); its family is ranked"),
        everywhere=N_("everyone's ranking, not only this server's players"),
        opponent=N_("your record against this member instead of the ranking"),
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        ruleset: app_commands.Range[str, 1, 100] | None = None,
        everywhere: bool = False,
        opponent: discord.User | None = None,
    ) -> None:
        await bot_of(interaction).general_commands.leaderboard(
            interaction, ruleset, everywhere, opponent
        )

    @leaderboard.autocomplete("ruleset")
    async def _leaderboard_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> Choices:
        return ruleset_choices(current)

    @app_commands.command(
        description=N_("A private hint for your move (against the AI or unrated)")
    )
    @cooldown("hint")
    async def hint(self, interaction: discord.Interaction) -> None:
        await bot_of(interaction).game_commands.hint(interaction)

    @app_commands.command(description=N_("The solver's move-by-move review of a finished game"))
    @app_commands.describe(
        game=N_("The game's number (default: your latest finished game)"),
        record=N_("Or a game record file: PlayStrategy PGN, Kazakh scoresheet, Aualé OGN"),
        text=N_("Or a game record's text, pasted"),
    )
    @cooldown("review")
    async def review(
        self,
        interaction: discord.Interaction,
        game: app_commands.Range[int, 1] | None = None,
        record: discord.Attachment | None = None,
        text: app_commands.Range[str, 1, 6000] | None = None,
    ) -> None:
        await bot_of(interaction).game_commands.review(interaction, game, record, text)

    @app_commands.command(description=N_("Today's puzzle, another one, your streak, or the board"))
    @app_commands.describe(
        kind=N_(
            "today's puzzle here (default), another for you, your streak, or the server's board"
        ),
        family=N_("only puzzles of this family"),
        grade=N_("only puzzles of this grade (for another one)"),
    )
    @app_commands.choices(
        kind=[
            app_commands.Choice(name=N_("today's puzzle"), value="daily"),
            app_commands.Choice(name=N_("another puzzle for me"), value="next"),
            app_commands.Choice(name=N_("my streak"), value="streak"),
            app_commands.Choice(name=N_("this server's puzzle board"), value="board"),
        ],
        family=[app_commands.Choice(name=f, value=f) for f in engine_puzzles.families()],
        grade=[
            app_commands.Choice(name=N_("easy"), value="easy"),
            app_commands.Choice(name=N_("medium"), value="medium"),
            app_commands.Choice(name=N_("hard"), value="hard"),
        ],
    )
    @cooldown("puzzle")
    async def puzzle(
        self,
        interaction: discord.Interaction,
        kind: str = "daily",
        family: str | None = None,
        grade: str | None = None,
    ) -> None:
        await bot_of(interaction).puzzle_commands.puzzle(interaction, kind, family, grade)
