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


def test_with_web_listen_the_bot_serves_the_pages_beside_discord_and_mail(tmp_path, monkeypatch):
    """MANCALA_WEB_LISTEN starts the pages in the bot's process, after the mail surface, so
    the three share one service; MANCALA_WEB_URL reaches Discord's settings."""
    import bot.discord.client

    started = {}

    def run(token, settings, beside):
        started.update(token=token, settings=settings, beside=beside)
        return 0

    monkeypatch.setattr(bot.discord.client, "run", run)
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=abc\n"
        f"MANCALA_DB={tmp_path / 'games.sqlite3'}\n"
        "MANCALA_MAIL_ADDRESS=Mancala <mancala@bot.test>\n"
        "MANCALA_WEB_LISTEN=127.0.0.1:8099\n"
        "MANCALA_WEB_URL=https://mancala.example/\n"
    )
    monkeypatch.chdir(tmp_path)
    assert main(["bot"]) == 0
    assert [start.func.__name__ for start in started["beside"]] == [
        "start_mail_surface",
        "start_web_surface",
    ]
    assert started["beside"][1].keywords["settings"].listen == ("127.0.0.1", 8099)
    assert started["settings"].web_url == "https://mancala.example"


def test_a_web_address_that_is_no_address_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nMANCALA_WEB_URL=mancala.example\n")
    monkeypatch.chdir(tmp_path)
    assert main(["bot"]) == 78
    assert "MANCALA_WEB_URL is an address like https://mancala.example" in (capsys.readouterr().err)
