"""Terminal play driven as a real process through pipes: a whole game against the AI, resume
after end of input, and the bare ``mancala`` command playing when no Discord token is set."""

import os
import queue
import re
import subprocess
import sys
import threading
import time

from bot.service.ai import known_levels

PROMPT = re.compile(r"\(([A-Ha-h<>, ]+); help\): $")


class Session:
    """A running ``mancala`` process, read character by character so prompts are seen."""

    def __init__(self, args, cwd, env_extra=None):
        env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "MANCALA_DB")}
        env.update(env_extra or {})
        env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        self.proc = subprocess.Popen([sys.executable, "-m", "bot.cli", *args], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=0)
        self.chars: queue.Queue = queue.Queue()
        self.seen = ""
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        while ch := self.proc.stdout.read(1):
            self.chars.put(ch)
        self.chars.put(None)

    def until_prompt(self, timeout=30.0):
        """Read until a move prompt (return its legal moves) or the end (return None)."""
        start, text = time.monotonic(), ""
        while time.monotonic() - start < timeout:
            try:
                ch = self.chars.get(timeout=timeout)
            except queue.Empty:
                break
            if ch is None:
                self.seen += text
                return None
            text += ch
            found = PROMPT.search(text[-80:]) if ch == " " else None
            if found:
                self.seen += text
                return [m.strip() for m in found.group(1).split(",")]
        raise AssertionError(f"no prompt within {timeout}s; output so far:\n{self.seen + text}")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def finish(self, timeout=30.0):
        self.proc.stdin.close()
        while self.until_prompt(timeout) is not None:
            pass
        return self.proc.wait(timeout)


def test_a_full_game_against_the_ai(tmp_path):
    db = tmp_path / "games.sqlite3"
    session = Session(["play", "kalah:pits=4,seeds=3", "--vs", known_levels()[0], "--db", str(db)],
                      cwd=tmp_path)
    moves = 0
    legal = session.until_prompt()
    session.send("Z")  # a bad move gets a clear message, and play goes on
    legal = session.until_prompt()
    assert "'Z' is not a move" in session.seen
    while legal is not None:
        session.send(legal[-1])
        moves += 1
        assert moves < 200
        legal = session.until_prompt()
    assert session.proc.wait(30) == 0
    assert "The AI plays" in session.seen
    assert "Game over (" in session.seen and "`mancala play` starts a new game" in session.seen
    assert db.exists()


def test_end_of_input_keeps_the_game_and_the_next_run_resumes_it(tmp_path):
    db = tmp_path / "games.sqlite3"
    first = Session(["play", "wari", "--vs", "human", "--db", str(db)], cwd=tmp_path)
    legal = first.until_prompt()
    first.send(legal[0])
    assert first.until_prompt() is not None
    assert first.finish() == 0
    assert "Game kept" in first.seen

    again = Session(["play", "--db", str(db)], cwd=tmp_path)
    again.until_prompt()
    assert "Resuming game #1: wari against yourself" in again.seen
    again.send("moves")
    again.until_prompt()
    assert f"moves\n{legal[0]}\n" in again.seen
    again.send("quit")
    assert again.finish() == 0


def test_bare_mancala_plays_in_the_terminal_without_a_discord_token(tmp_path):
    db = tmp_path / "default.sqlite3"
    session = Session([], cwd=tmp_path, env_extra={"MANCALA_DB": str(db)})
    assert session.until_prompt() is not None
    assert "New game #1: kalah, you (South) against AI" in session.seen
    session.send("resign")
    assert session.finish() == 0
    assert "South resigned" in session.seen and db.exists()


def test_unknown_level_and_rules_are_explained(tmp_path):
    bad_level = Session(["play", "--vs", "godlike", "--db", str(tmp_path / "a")], cwd=tmp_path)
    assert bad_level.finish() == 2 and "unknown AI level 'godlike'" in bad_level.seen
    bad_rules = Session(["play", "chess", "--db", str(tmp_path / "b")], cwd=tmp_path)
    assert bad_rules.finish() == 2 and "unknown ruleset 'chess'" in bad_rules.seen
