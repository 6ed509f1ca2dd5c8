"""Terminal play: the board, letters as moves, and a few words (``help``, ``undo``, ``resign``,
``quit``). It is one more surface of the game service, on the same database as the bots
(a SQLite file, or PostgreSQL).

Input is read in a thread, so the event loop (and the AI in its worker process) never waits on
the keyboard; it works the same on a pipe, and end of input quits, keeping the game for next
time.

>>> print(HELP.splitlines()[0])
Type a pit letter to sow it (your pits are the bottom row, A first).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from bot.service import Channel, GameService, GameView, Player, ServiceError
from bot.service.games import parse_rules
from engine.ai import kernel_knows

ME = Player("terminal", "local")
DEFAULT_RULES = "kalah"

HELP = """Type a pit letter to sow it (your pits are the bottom row, A first).
  board    show the board again
  moves    list the moves so far
  undo     take back your last move (and the AI's reply)
  hint     ask the strongest AI for a move
  resign   give up this game
  rules    the rules in play in short ('rules all': every parameter)
  quit     leave; the game is kept, and `mancala play` resumes it"""


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class TerminalGame:
    """One session at the keyboard: ``run()`` returns the exit status."""

    def __init__(self, service: GameService, stdin: TextIO, stdout: TextIO) -> None:
        self.service = service
        self.stdin = stdin
        self.out = stdout

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
        against = "yourself" if game.north == ME else await self.service.display_name(game.north)
        return f"#{game.id}: {game.rules} against {against}, move {game.ply + 1}"

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
                self.say(f"Cannot start: {err}")
                return None
            same = [g for g in unfinished if g.rules == wanted and g.north == opponent]
            if same:
                return await self._resume(same[0], unfinished)
        if unfinished and wanted is None:
            return await self._resume(unfinished[0], unfinished)
        if unfinished:
            latest = unfinished[0]
            self.say(f"You have an unfinished game {await self.describe(latest)}.")
            answer = await self.ask(
                f"Start the {wanted} game and keep it for later (n), resign "
                f"#{latest.id} and start (r), or go back to #{latest.id} "
                "(b)? [n/r/b] "
            )
            choice = (answer or "n").strip().lower()[:1]
            if choice == "b":
                return await self._resume(latest, unfinished)
            if choice == "r":
                await self.service.resign(latest.id, ME)
                self.say(f"Game #{latest.id} resigned.")
                unfinished = unfinished[1:]
        taken = {g.channel.id for g in unfinished}
        channel = next(Channel("terminal", name) for name in _channel_names() if name not in taken)
        try:
            game = await self.service.start_game(ME, opponent, rules or DEFAULT_RULES, channel)
        except ServiceError as err:
            self.say(f"Cannot start: {err}")
            return None
        who = (
            "two players at this keyboard"
            if opponent == ME
            else await self.service.display_name(opponent)
        )
        self.say(f"New game #{game.id}: {game.rules}, you (South) against {who}.")
        self.say("Type a pit letter to move, or 'help'.")
        return game

    async def _resume(self, game: GameView, unfinished: list[GameView]) -> GameView:
        self.say(f"Resuming game {await self.describe(game)}.")
        others = [g for g in unfinished if g.id != game.id]
        if others:
            listed = "; ".join([await self.describe(g) for g in others[:5]])
            self.say(f"Also unfinished: {listed}. `mancala play RULES --vs LEVEL` picks one.")
        return game

    def discard_typed_ahead(self) -> None:
        """Forget keys typed at a terminal while the AI was thinking: they were typed for a
        board that has changed since (a script's piped input is kept)."""
        if not _is_tty(self.stdin):
            return
        import select
        import termios

        try:
            pending, _, _ = select.select([self.stdin], [], [], 0)
            if pending:
                termios.tcflush(self.stdin.fileno(), termios.TCIFLUSH)
                self.say("(What you typed while the AI was thinking was ignored.)")
        except (OSError, ValueError, termios.error):
            pass

    async def run(self, rules: str | None = None, vs: str | None = None) -> int:
        game = await self.start(rules, vs)
        if game is None:
            return 2
        self.say(game.board())
        while True:
            game = await self.service.get_game(game.id)
            if game.is_over:
                self.say(f"Game over. {review_offer(game)}`mancala play` starts a new game.")
                return 0
            if game.to_move is not None and game.to_move.is_ai:
                self.say(
                    "The AI is thinking..."
                    if self.service.ai_status() == "ready"
                    else "The AI is thinking (a quick search: its full search is being "
                    "compiled in the background, once on this machine)..."
                    if kernel_knows(game.position.rules)
                    else "The AI is thinking (the plain search: this game has no compiled "
                    "search to wait for)..."
                )
                before = game.ply
                await self.service.idle()
                game = await self.service.get_game(game.id)
                if game.to_move is not None and game.to_move.is_ai and not game.is_over:
                    self.say("The AI could not move; its turn resumes next time.")
                    return 1
                # Where a move into the store earns another, the AI may have moved twice.
                self.say(f"The AI plays {', then '.join(game.moves[before:])}.")
                self.say(game.board())
                self.discard_typed_ahead()
                continue
            hotseat = game.south == game.north
            prompt = f"{game.position.to_move.title()} to move" if hotseat else "Your move"
            letters = ", ".join(game.position.legal_moves())
            line = await self.ask(f"{prompt} ({letters}; help): ")
            if line is None:
                self.say("\nGame kept; run `mancala play` to resume it.")
                return 0
            if not line:
                continue
            await self.command(game, line)

    async def command(self, game: GameView, line: str) -> None:
        word = line.lower()
        service = self.service
        try:
            if word in ("help", "h", "?"):
                self.say(HELP)
            elif word in ("quit", "exit", "q"):
                self.say("Game kept; run `mancala play` to resume it.")
                raise SystemExit(0)
            elif word == "board":
                self.say(game.board())
            elif word == "moves":
                self.say(" ".join(game.moves) or "No moves yet.")
            elif word in ("rules", "rules all"):
                self.show_rules(game.rules, full=word == "rules all")
            elif word == "undo":
                after = await service.request_undo(game.id, ME)
                self.say(f"Taken back to move {after.ply + 1}.")
                self.say(after.board())
            elif word == "hint":
                self.say("Looking for the best move (a second or two)...")
                hint = await service.hint(game.id, ME)
                self.say(f"Hint: {hint.move} ({hint.summary()}).")
            elif word == "resign":
                after = await service.resign(game.id, ME)
                self.say(after.board())
            else:
                after = await service.move(game.id, ME, line, expected_ply=game.ply)
                self.say(after.board())
        except ServiceError as err:
            self.say(f"{err}")

    def show_rules(self, rules: str, full: bool) -> None:
        """The ruleset in a few lines, or (``rules all``) every parameter, paged on a short
        terminal."""
        from engine import Ruleset

        text = Ruleset.parse(rules).describe()
        if not full:
            head = text.split("\nParameters")[0]
            count = text.count("\n  ")
            self.say(f"{head}\nType 'rules all' for all {count} parameters and their values.")
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
    return (
        f'The solver\'s review of every move:\n    mancala review {game.rules} --moves "{moves}"\n'
    )


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
) -> int:
    """Play in the terminal on the database at ``db_path`` (created on first use)."""
    # One player at one keyboard: one worker is all the fair queue would give them anyway.
    service = await GameService.open(
        db_path, tick_every=None, ai_time_limit=ai_time_limit, ai_workers=1
    )
    try:
        session = TerminalGame(service, stdin or sys.stdin, stdout or sys.stdout)
        try:
            return await session.run(rules, vs)
        except SystemExit as done:
            return int(done.code or 0)
    finally:
        await service.close()
