"""Terminal play: the board, letters as moves, and a few words (``help``, ``undo``, ``resign``,
``quit``). It is one more surface of the game service, on the same SQLite file as the bots.

Input is read in a thread, so the event loop (and the AI in its worker process) never waits on
the keyboard; it works the same on a pipe, and end of input quits, keeping the game for next
time.

>>> print(HELP.splitlines()[0])
Type a pit letter to sow it (your pits are the bottom row, A first).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TextIO

from bot.service import Channel, GameService, GameView, Player, ServiceError

ME = Player("terminal", "local")
HERE = Channel("terminal", "local")
DEFAULT_RULES = "kalah"

HELP = """Type a pit letter to sow it (your pits are the bottom row, A first).
  board    show the board again
  moves    list the moves so far
  undo     take back your last move (and the AI's reply)
  hint     ask the strongest AI for a move
  resign   give up this game
  rules    describe the rules in play
  quit     leave; the game is kept, and `mancala play` resumes it"""


def default_level() -> str:
    """The middle of the AI module's levels (whatever it lists), unless it names a default."""
    import engine.ai
    levels = tuple(engine.ai.LEVELS)
    return getattr(engine.ai, "DEFAULT_LEVEL", levels[len(levels) // 2])


def _is_tty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class TerminalGame:
    """One session at the keyboard: ``run()`` returns the exit status."""

    def __init__(self, service: GameService, stdin: TextIO, stdout: TextIO):
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

    async def start(self, rules: str | None, vs: str | None) -> GameView | None:
        """Resume the unfinished game, or start one; None (after a message) on bad input."""
        game = await self.service.active_game(HERE)
        if game is not None:
            opponent = await self.service.display_name(game.north)
            self.say(f"Resuming game #{game.id}: {game.rules} against "
                     f"{'yourself' if game.north == ME else opponent}.")
            if rules or vs:
                self.say("(Finish it, or type 'resign', to start the new game you asked for.)")
            return game
        opponent = ME if vs == "human" else Player.ai(vs or default_level())
        try:
            game = await self.service.start_game(ME, opponent, rules or DEFAULT_RULES, HERE)
        except ServiceError as err:
            self.say(f"Cannot start: {err}")
            return None
        who = "two players at this keyboard" if opponent == ME else \
            await self.service.display_name(opponent)
        self.say(f"New game #{game.id}: {game.rules}, you (South) against {who}.")
        self.say("Type a pit letter to move, or 'help'.")
        return game

    async def run(self, rules: str | None = None, vs: str | None = None) -> int:
        game = await self.start(rules, vs)
        if game is None:
            return 2
        self.say(game.board())
        while True:
            game = await self.service.get_game(game.id)
            if game.is_over:
                self.say("Game over. `mancala play` starts a new game.")
                return 0
            if game.to_move.is_ai:
                self.say("The AI is thinking..." if self.service.ai_status() == "ready" else
                         "The AI is thinking (a quick search: its full search is being "
                         "compiled in the background, once on this machine)...")
                before = game.ply
                await self.service.idle()
                game = await self.service.get_game(game.id)
                if game.to_move is not None and game.to_move.is_ai and not game.is_over:
                    self.say("The AI could not move; its turn resumes next time.")
                    return 1
                # Where a move into the store earns another, the AI may have moved twice.
                self.say(f"The AI plays {', then '.join(game.moves[before:])}.")
                self.say(game.board())
                continue
            hotseat = game.south == game.north
            prompt = (f"{game.position.to_move.title()} to move" if hotseat else "Your move")
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
            elif word == "rules":
                from engine import Ruleset
                self.say(Ruleset.parse(game.rules).describe())
            elif word == "undo":
                after = await service.request_undo(game.id, ME)
                self.say(f"Taken back to move {after.ply + 1}.")
                self.say(after.board())
            elif word == "hint":
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


async def play(rules: str | None, vs: str | None, db_path: str | Path,
               stdin: TextIO | None = None, stdout: TextIO | None = None,
               ai_time_limit: float | None = None) -> int:
    """Play in the terminal on the database at ``db_path`` (created on first use)."""
    service = await GameService.open(db_path, tick_every=None, ai_time_limit=ai_time_limit)
    try:
        session = TerminalGame(service, stdin or sys.stdin, stdout or sys.stdout)
        try:
            return await session.run(rules, vs)
        except SystemExit as done:
            return int(done.code or 0)
    finally:
        await service.close()

