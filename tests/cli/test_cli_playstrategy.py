"""``mancala playstrategy-bot`` as an operator runs it: a real process, its settings from the
environment, against the loopback fake of the Bot API (tests/playstrategy/fake_api.py)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from aiohttp.test_utils import TestServer

from bot import health
from tests.playstrategy.fake_api import TOKEN, FakeBotApi

ROOT = Path(__file__).parents[2]


async def test_the_command_plays_a_whole_game_and_beats_its_heartbeat(tmp_path):
    fake = FakeBotApi()
    server = TestServer(fake.app, host="127.0.0.1")
    await server.start_server()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MANCALA_", "DISCORD_", "PLAYSTRATEGY_", "LOG_", "METRICS_"))
    }
    env.update(
        PYTHONPATH=str(ROOT),
        MANCALA_DB=str(tmp_path / "mancala.sqlite3"),
        MANCALA_AI_WORKERS="1",
        PLAYSTRATEGY_TOKEN=TOKEN,
        PLAYSTRATEGY_URL=str(server.make_url("")),
        PLAYSTRATEGY_LEVEL="greedy",
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "playstrategy-bot",
        "--env",
        str(tmp_path / "none"),
        env=env,
        cwd=tmp_path,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        fake.challenge("cli1", "bestemshe", seed=2)
        for _ in range(6000):  # at most a minute
            game = fake.games.get("cli1")
            if game is not None and game.status != "started":
                break
            await asyncio.sleep(0.01)
        assert game is not None and game.status == "variantEnd"
        assert fake.refused_moves == []
        beat = health.heartbeat_path(env["MANCALA_DB"], process.pid)
        assert '"surfaces": {"playstrategy": ' in beat.read_text()  # `mancala health` sees it
    finally:
        process.terminate()
        await asyncio.wait_for(process.communicate(), 60)
        await server.close()
