"""Terminal play: the board, letters as moves, and a few words (``help``, ``undo``, ``resign``,
``language``, ``quit``). It is one more surface of the game service, on the same database as the bots
(a SQLite file, or PostgreSQL).

Input is read in a thread, so the event loop (and the AI in its worker process) never waits on
the keyboard; it works the same on a pipe, and end of input quits, keeping the game for next
time.

The session speaks the player's language (``language fr``, ``mancala play --lang fr``, else
LC_ALL, LC_MESSAGES or LANG); the board, its letters and the words typed (``help``, ``undo``)
are the same in every language.

>>> print(HELP.splitlines()[0])
Type a pit letter to sow it (your pits are the bottom row, A first).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from bot.i18n import N_, Language, _, ngettext, speaking
from bot.render.words import side_name
from bot.service import Channel, GameService, GameView, Player, ServiceError
from bot.service.games import parse_rules
from engine.ai import kernel_knows

ME = Player("terminal", "local")
DEFAULT_RULES = "kalah"

# TRANSLATORS: the words at the start of each line (board, moves, undo, hint, resign, rules,
# language, quit) are what the player types: keep them in English, and keep the columns.
HELP = N_("""Type a pit letter to sow it (your pits are the bottom row, A first).
  board    show the board again
  moves    list the moves so far
  undo     take back your last move (and the AI's reply)
  hint     ask the strongest AI for a move
  resign   give up this game
  rules    the rules in play in short ('rules all': every parameter)
  language the language I talk in: language fr, de, es, pt, ru, kk, en or auto
  quit     leave; the game is kept, and `mancala play` resumes it""")


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class TerminalGame:
    """One session at the keyboard: ``run()`` returns the exit status."""

    def __init__(
        self,
        service: GameService,
        stdin: TextIO,
        stdout: TextIO,
        language: Language = Language.EN,
        env_lang: str | None = None,
    ) -> None:
        self.service = service
        self.stdin = stdin
        self.out = stdout
        self.language = language  # what the session speaks: ``language fr`` changes it
        self.env_lang = env_lang  # LC_ALL, LC_MESSAGES or LANG: the hint without a setting

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def ask(self, prompt: str) -> str | None:
        """A line from the keyboard or pipe, or None at the end of input."""
        self.out.write(prompt)
        self.out.flush()
        line = await asyncio.get_running_loop().run_in_executor(None, self.stdin.readline)
        if line and not _is_tty(self.stdin):
            self.out.write(line if line.endswith("\n") else line + "\n")  # a readable transcript
        return None if line == "" else line.strip()

    async def describe(self, game: GameView) -> str:
        """ "#3: kalah against medium, move 12" """
        if game.north == ME:
            return _("#{id}: {rules} against yourself, move {number}").format(
                id=game.id, rules=game.rules, number=game.ply + 1
            )
        return _("#{id}: {rules} against {opponent}, move {number}").format(
            id=game.id,
            rules=game.rules,
            opponent=await self.service.display_name(game.north),
            number=game.ply + 1,
        )

    async def start(self, rules: str | None, vs: str | None) -> GameView | None:
        """Resume an unfinished game, or start one; None (after a message) on bad input.

        With nothing asked for, the latest unfinished game goes on. Asked for a game (rules or
        an opponent) that differs from every unfinished one, the player chooses: start it and
        keep the others for later, resign the latest and start it, or go back to that one."""
        unfinished = [g for g in await self.service.list_games(ME) if not g.is_over]
        unfinished.sort(key=lambda g: -g.last_move_at)
        opponent = ME if vs == "human" else Player.ai(vs)
        wanted = None
        if rules or vs:
            try:
                wanted = str(parse_rules(rules or DEFAULT_RULES))
            except ServiceError as err:
                self.say(_("Cannot start: {error}").format(error=err))
                return None
            same = [g for g in unfinished if g.rules == wanted and g.north == opponent]
            if same:
                return await self._resume(same[0], unfinished)
        if unfinished and wanted is None:
            return await self._resume(unfinished[0], unfinished)
        if unfinished:
            latest = unfinished[0]
            self.say(
                _("You have an unfinished game {game}.").format(game=await self.describe(latest))
            )
            # TRANSLATORS: n, r and b are the keys the player types: keep them as they are
            question = _(
                "Start the {rules} game and keep it for later (n), resign #{id} and start (r), "
                "or go back to #{id} (b)? [n/r/b] "
            )
            answer = await self.ask(question.format(rules=wanted, id=latest.id))
            choice = (answer or "n").strip().lower()[:1]
            if choice == "b":
                return await self._resume(latest, unfinished)
            if choice == "r":
                await self.service.resign(latest.id, ME)
                self.say(_("Game #{id} resigned.").format(id=latest.id))
                unfinished = unfinished[1:]
        taken = {g.channel.id for g in unfinished}
        channel = next(Channel("terminal", name) for name in _channel_names() if name not in taken)
        try:
            game = await self.service.start_game(ME, opponent, rules or DEFAULT_RULES, channel)
        except ServiceError as err:
            self.say(_("Cannot start: {error}").format(error=err))
            return None
        if opponent == ME:
            self.say(
                _("New game #{id}: {rules}, two players at this keyboard.").format(
                    id=game.id, rules=game.rules
                )
            )
        else:
            self.say(
                _("New game #{id}: {rules}, you (South) against {opponent}.").format(
                    id=game.id, rules=game.rules, opponent=await self.service.display_name(opponent)
                )
            )
        # TRANSLATORS: 'help' is what the player types: keep it in English
        self.say(_("Type a pit letter to move, or 'help'."))
        return game

    async def _resume(self, game: GameView, unfinished: list[GameView]) -> GameView:
        self.say(_("Resuming game {game}.").format(game=await self.describe(game)))
        others = [g for g in unfinished if g.id != game.id]
        if others:
            listed = "; ".join([await self.describe(g) for g in others[:5]])
            self.say(
                _("Also unfinished: {games}. `mancala play RULES --vs LEVEL` picks one.").format(
                    games=listed
                )
            )
        return game

    def discard_typed_ahead(self) -> None:
        """Forget keys typed at a terminal while the AI was thinking: they were typed for a
        board that has changed since (a script's piped input is kept)."""
        if not _is_tty(self.stdin):
            return
        import select
        import termios

        try:
            pending = select.select([self.stdin], [], [], 0)[0]
            if pending:
                termios.tcflush(self.stdin.fileno(), termios.TCIFLUSH)
                self.say(_("(What you typed while the AI was thinking was ignored.)"))
        except (OSError, ValueError, termios.error):
            pass

    async def run(self, rules: str | None = None, vs: str | None = None) -> int:
        with speaking(self.language):
            game = await self.start(rules, vs)
            if game is None:
                return 2
            self.say(game.board())
        while True:
            # each turn in the language of the moment: ``language fr`` changes it
            with speaking(self.language):
                status, game = await self.turn(game)
            if status is not None:
                return status

    async def turn(self, game: GameView) -> tuple[int | None, GameView]:
        """One turn: the AI's move, or a line the player types; an exit status at the end."""
        game = await self.service.get_game(game.id)
        if game.is_over:
            self.say(
                _("Game over. {review}`mancala play` starts a new game.").format(
                    review=review_offer(game)
                )
            )
            return 0, game
        if game.to_move is not None and game.to_move.is_ai:
            self.say(
                _("The AI is thinking...")
                if self.service.ai_status() == "ready"
                else _(
                    "The AI is thinking (a quick search: its full search is being "
                    "compiled in the background, once on this machine)..."
                )
                if kernel_knows(game.position.rules)
                else _(
                    "The AI is thinking (the plain search: this game has no compiled "
                    "search to wait for)..."
                )
            )
            before = game.ply
            await self.service.idle()
            game = await self.service.get_game(game.id)
            if game.to_move is not None and game.to_move.is_ai and not game.is_over:
                self.say(_("The AI could not move; its turn resumes next time."))
                return 1, game
            # Where a move into the store earns another, the AI may have moved twice.
            # TRANSLATORS: joins the AI's moves when it moved twice: "The AI plays C, then F."
            moves = _(", then ").join(game.moves[before:])
            self.say(_("The AI plays {moves}.").format(moves=moves))
            self.say(game.board())
            self.discard_typed_ahead()
            return None, game
        hotseat = game.south == game.north
        if hotseat:
            prompt = _("{side} to move").format(side=side_name(game.position.to_move))
        else:
            prompt = _("Your move")
        letters = ", ".join(game.position.legal_moves())
        # the "; help" stays: it is what the player types, in every language
        line = await self.ask(f"{prompt} ({letters}; help): ")
        if line is None:
            self.say("\n" + _("Game kept; run `mancala play` to resume it."))
            return 0, game
        if line:
            await self.command(game, line)
        return None, game

    async def command(self, game: GameView, line: str) -> None:
        word = line.lower()
        service = self.service
        try:
            if word in ("help", "h", "?"):
                self.say(_(HELP))
            elif word in ("quit", "exit", "q"):
                self.say(_("Game kept; run `mancala play` to resume it."))
                raise SystemExit(0)
            elif word == "board":
                self.say(game.board())
            elif word == "moves":
                self.say(" ".join(game.moves) or _("No moves yet."))
            elif word in ("rules", "rules all"):
                self.show_rules(game.rules, full=word == "rules all")
            elif word == "language" or word.startswith("language "):
                await self.set_language(line[len("language") :].strip())
            elif word == "undo":
                after = await service.request_undo(game.id, ME)
                self.say(_("Taken back to move {number}.").format(number=after.ply + 1))
                self.say(after.board())
            elif word == "hint":
                self.say(_("Looking for the best move (a second or two)..."))
                hint = await service.hint(game.id, ME)
                self.say(
                    _("Hint: {move} ({summary}).").format(move=hint.move, summary=hint.summary())
                )
            elif word == "resign":
                after = await service.resign(game.id, ME)
                self.say(after.board())
            else:
                after = await service.move(game.id, ME, line, expected_ply=game.ply)
                self.say(after.board())
        except ServiceError as err:
            self.say(f"{err}")

    async def set_language(self, text: str) -> None:
        """``language fr``: remember the player's language and speak it from now on;
        ``language`` alone says which it is, ``language auto`` forgets the setting."""
        if not text:
            # TRANSLATORS: 'language' is what the player types: keep it in English
            message = _("Language: {language}. To change it, type 'language' and one of: {codes}.")
            self.say(message.format(language=self.language.native_name, codes=_language_codes()))
            return
        await self.service.set_language(ME, text)  # BadRequest: not a language we speak
        self.language = await self.service.language_for(ME, self.env_lang)
        with speaking(self.language):
            self.say(_("Language set: {language}.").format(language=self.language.native_name))

    def show_rules(self, rules: str, full: bool) -> None:
        """The ruleset in a few lines, or (``rules all``) every parameter, paged on a short
        terminal."""
        from engine import Ruleset

        text = Ruleset.parse(rules).describe()
        if not full:
            # The parameters are the indented lines, after a line that introduces them.
            lines = text.splitlines()
            first = next((i for i, line in enumerate(lines) if line.startswith("  ")), len(lines))
            head = "\n".join(lines[: max(1, first - 1)])
            count = sum(line.startswith("  ") for line in lines)
            # TRANSLATORS: 'rules all' is what the player types: keep it in English
            more = ngettext(
                "Type 'rules all' for the {n} parameter and its value.",
                "Type 'rules all' for all {n} parameters and their values.",
                count,
            )
            self.say(head + "\n" + more.format(n=count))
            return
        if _is_tty(self.out) and _is_tty(self.stdin):
            import pydoc

            pydoc.pager(text)
        else:
            self.say(text)


def review_offer(game: GameView) -> str:
    """The command that reviews ``game`` move by move, where its moves replay from the
    ruleset's start (a game whose first mover was drawn otherwise has no such line)."""
    from engine import Game

    if not game.moves or Game.from_moves(game.rules, list(game.moves)).position != game.position:
        return ""
    moves = " ".join(game.moves)
    command = f'mancala review {game.rules} --moves "{moves}"'  # a command: as it is
    return _("The solver's review of every move:") + f"\n    {command}\n"


def _language_codes() -> str:
    return ", ".join(f"{language.value} ({language.native_name})" for language in Language)


def _channel_names() -> Iterator[str]:
    """Terminal games each have a channel: "local" first, as before, then local-2, ..."""
    yield "local"
    number = 2
    while True:
        yield f"local-{number}"
        number += 1


async def play(
    rules: str | None,
    vs: str | None,
    db_path: str | Path,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    ai_time_limit: float | None = None,
    lang: str | None = None,
    env_lang: str | None = None,
) -> int:
    """Play in the terminal on the database at ``db_path`` (created on first use).

    ``lang`` (``--lang``) is the player's language setting, remembered for next time
    (``auto`` forgets it); without a setting the session speaks ``env_lang`` (LC_ALL,
    LC_MESSAGES or LANG) where it is a language we speak, else English."""
    # One player at one keyboard: one worker is all the fair queue would give them anyway.
    service = await GameService.open(
        db_path, tick_every=None, ai_time_limit=ai_time_limit, ai_workers=1
    )
    try:
        out = stdout or sys.stdout
        if lang is not None:
            try:
                await service.set_language(ME, lang)
            except ServiceError as err:
                with speaking(await service.language_for(ME, env_lang)):
                    out.write(f"{err}\n")
                return 2
        language = await service.language_for(ME, lang, env_lang)
        session = TerminalGame(service, stdin or sys.stdin, out, language, env_lang)
        try:
            return await session.run(rules, vs)
        except SystemExit as done:
            return int(done.code or 0)
    finally:
        await service.close()
