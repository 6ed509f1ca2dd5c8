"""Terminal play driven as a real process through pipes: a whole game against the AI, resume
after end of input, and the bare ``mancala`` command playing when no Discord token is set."""

import json
import os
import queue
import re
import shlex
import subprocess
import sys
import threading
import time
from pathlib import Path

from bot.ai_runtime.pool import known_levels

CHECKOUT = str(Path(__file__).resolve().parents[2])  # on the child's PYTHONPATH
PROMPT = re.compile(r"\(([A-Ha-h<>, ]+); help\): $")


class Session:
    """A running ``mancala`` process, read character by character so prompts are seen."""

    def __init__(self, args, cwd, env_extra=None):
        env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "MANCALA_DB")}
        env.update(env_extra or {})
        env["PYTHONPATH"] = CHECKOUT
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", *args],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=0,
        )
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

    def until(self, marker, timeout=30.0):
        """Read until ``marker`` has been printed (a question that is not a move prompt)."""
        start, text = time.monotonic(), ""
        while marker not in text and time.monotonic() - start < timeout:
            try:
                ch = self.chars.get(timeout=timeout)
            except queue.Empty:
                break
            if ch is None:
                break
            text += ch
        self.seen += text
        assert marker in text, f"no {marker!r} within {timeout}s; output:\n{self.seen}"

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
    session = Session(
        ["play", "kalah:pits=4,seeds=3", "--vs", known_levels()[0], "--db", str(db)], cwd=tmp_path
    )
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
    # the review it offers runs as printed
    (line,) = [x for x in session.seen.splitlines() if x.strip().startswith("mancala review")]
    words = shlex.split(line)
    reviewed = subprocess.run(
        [sys.executable, "-m", "bot.cli", *words[1:], "--json", "--quiet"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert reviewed.returncode == 0, reviewed.stderr
    played = words[words.index("--moves") + 1].split()
    assert [p["move"] for p in json.loads(reviewed.stdout)["plies"]] == played


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


def test_asking_for_another_game_offers_to_start_it_and_keeps_the_old_one(tmp_path):
    db = tmp_path / "games.sqlite3"
    first = Session(["play", "kalah", "--vs", "human", "--db", str(db)], cwd=tmp_path)
    first.send(first.until_prompt()[0])
    first.until_prompt()
    first.send("quit")
    assert first.finish() == 0

    wari = Session(["play", "wari", "--vs", "human", "--db", str(db)], cwd=tmp_path)
    wari.until("[n/r/b] ")
    assert "You have an unfinished game #1: kalah against yourself, move 2." in wari.seen
    wari.send("n")
    wari.until_prompt()
    assert "New game #2: wari" in wari.seen
    wari.send("quit")
    assert wari.finish() == 0

    back = Session(["play", "kalah", "--vs", "human", "--db", str(db)], cwd=tmp_path)
    back.until_prompt()
    assert "Resuming game #1: kalah against yourself, move 2." in back.seen
    assert "Also unfinished: #2: wari against yourself, move 1." in back.seen
    back.send("quit")
    assert back.finish() == 0

    resign = Session(["play", "oware", "--vs", "human", "--db", str(db)], cwd=tmp_path)
    resign.until("[n/r/b] ")
    resign.send("r")
    resign.until_prompt()
    assert "Game #2 resigned." in resign.seen and "New game #3: oware" in resign.seen
    resign.send("quit")
    assert resign.finish() == 0


def test_rules_is_short_and_rules_all_lists_every_parameter(tmp_path):
    session = Session(["play", "wari", "--vs", "human", "--db", str(tmp_path / "g")], cwd=tmp_path)
    session.until_prompt()
    session.send("rules")
    session.until_prompt()
    short = session.seen
    assert "Type 'rules all' for all" in short and "grand_slam=" not in short
    session.send("rules all")
    session.until_prompt()
    assert "grand_slam=take_all" in session.seen[len(short) :]
    session.send("quit")
    assert session.finish() == 0


def test_keys_typed_at_a_terminal_while_the_ai_thinks_are_not_played(tmp_path):
    """On a real terminal (a pty), a move typed ahead was meant for the old board."""
    import pty

    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "MANCALA_DB")}
    env["PYTHONPATH"] = CHECKOUT
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bot.cli",
            "play",
            "kalah",
            "--vs",
            "medium",
            "--db",
            str(tmp_path / "g"),
        ],
        cwd=tmp_path,
        env=env,
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
    )
    os.close(slave)
    seen, mark = b"", 0

    def read_until(marker: bytes, timeout: float = 60.0) -> None:
        """Read until ``marker`` appears after the last one found."""
        nonlocal seen, mark
        import select

        end = time.monotonic() + timeout
        while marker not in seen[mark:] and time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(master, 4096)
                except OSError:
                    break
        assert marker in seen[mark:], seen.decode(errors="replace")
        mark = seen.index(marker, mark) + len(marker)

    try:
        read_until(b"help): ")
        os.write(master, b"A\nB\n")  # B is typed ahead, while the AI thinks about A
        read_until(b"The AI plays")
        read_until(b"help): ")
        text = seen.decode(errors="replace")
        assert "What you typed while the AI was thinking was ignored." in text
        os.write(master, b"moves\n")
        read_until(b"moves\r\n")
        read_until(b"help): ")
        history = seen.decode(errors="replace").rsplit("moves\r\n", 1)[1].splitlines()[0]
        assert history.split()[0] == "A" and "B" not in history.split()[1:]
        os.write(master, b"quit\n")
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
