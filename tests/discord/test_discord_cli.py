"""``mancala bot`` without a token: it says what to set and how, and exits non-zero."""

from __future__ import annotations

import os

import pytest

from bot.cli import main


@pytest.fixture(autouse=True)
def own_environment(monkeypatch):
    """``.env`` files loaded here change a copy of the environment, not the test run's."""
    monkeypatch.setattr(os, "environ", os.environ.copy())


def test_without_a_token_it_explains_what_to_set_and_exits_non_zero(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here
    assert main(["bot"]) == 78
    err = capsys.readouterr().err
    assert "set DISCORD_TOKEN in .env" in err
    assert "https://discord.com/developers/applications" in err
    assert "applications.commands" in err  # the scope that makes /mancala appear


def test_a_token_line_that_is_empty_counts_as_no_token(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    (tmp_path / "bot.env").write_text("DISCORD_TOKEN=\nDISCORD_GUILD=123\n")
    assert main(["bot", "--env", str(tmp_path / "bot.env")]) == 78
    assert "No Discord token" in capsys.readouterr().err


def test_a_guild_that_is_not_an_id_is_refused_before_connecting(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("DISCORD_GUILD", raising=False)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nDISCORD_GUILD=my server\n")
    monkeypatch.chdir(tmp_path)
    assert main(["bot"]) == 78
    assert "DISCORD_GUILD must be a server id" in capsys.readouterr().err
