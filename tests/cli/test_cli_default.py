"""Bare `mancala`: the Discord bot when a token is set, terminal play otherwise."""

from bot.cli import main


def test_bare_mancala_with_a_token_runs_the_bot(monkeypatch, tmp_path, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DISCORD_GUILD", "not-a-number")  # stops before any network call
    assert main([]) == 78
    assert "DISCORD_GUILD must be a server id" in capsys.readouterr().err
