"""Crash: a process playing many games through the service is killed with SIGKILL mid-load.
Every move it acknowledged (printed after ``move`` returned) must be in the database, the file
must be intact, and every game must go on after a restart."""

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

from bot.service import GameService

PLAYER = textwrap.dedent("""
    import asyncio, random, sys
    from bot.service import Channel, GameService, Player

    async def play(service, n, rng):
        south, north = Player("discord", f"s{n}"), Player("email", f"n{n}@example.org")
        channel = Channel("discord", f"table-{n}")
        while True:
            game = await service.active_game(channel) or await service.start_game(
                south, north, "oware", channel)
            move = rng.choice(game.position.legal_moves())
            after = await service.move(game.id, game.to_move, move, expected_ply=game.ply)
            print(f"ACK {after.id} {after.ply} {after.moves[-1]}", flush=True)

    async def main(path):
        service = await GameService.open(path, tick_every=None)
        print("READY", flush=True)
        await asyncio.gather(*(play(service, n, random.Random(n)) for n in range(20)))

    if __name__ == "__main__":
        asyncio.run(main(sys.argv[1]))
""")


def test_acknowledged_moves_survive_sigkill_and_games_go_on(tmp_path):
    path = tmp_path / "crash.sqlite3"
    script = tmp_path / "player.py"
    script.write_text(PLAYER)
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    proc = subprocess.Popen(
        [sys.executable, str(script), str(path)], stdout=subprocess.PIPE, text=True, env=env
    )
    acks = []
    deadline = time.monotonic() + 60
    try:
        assert proc.stdout.readline().strip() == "READY"
        while len(acks) < 600 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, "the player process died on its own"
            acks.append(line.split())
    finally:
        os.kill(proc.pid, signal.SIGKILL)  # mid-load: moves are in flight right now
        proc.wait()
    acks += [line.split() for line in proc.stdout.read().splitlines()]  # printed before death
    assert proc.returncode == -signal.SIGKILL and len(acks) >= 600

    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    logged = {
        (str(g), str(p), m) for g, p, m in conn.execute("SELECT game_id, ply, move FROM moves")
    }
    active = [row[0] for row in conn.execute("SELECT id FROM games WHERE status = 'active'")]
    conn.close()
    missing = [a for a in acks if tuple(a[1:]) not in logged]
    assert not missing, f"acknowledged but lost: {missing[:5]}"

    async def go_on():
        service = await GameService.open(path, tick_every=None)
        try:
            for game_id in active:
                game = await service.get_game(game_id)  # the log replays to the stored position
                after = await service.move(
                    game.id, game.to_move, game.position.legal_moves()[0], expected_ply=game.ply
                )
                assert after.ply == game.ply + 1
        finally:
            await service.close()

    assert len(active) >= 15  # 20 tables; a game that just ended may not be replaced yet
    asyncio.run(go_on())
