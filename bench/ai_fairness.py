"""One player floods the AI; how long do the others wait for its replies?

    .venv/bin/python bench/ai_fairness.py [--flood 30] [--others 4] [--moves 5] [--runs 3]

Through the service's public API on a SQLite file, with the AI in its real worker processes
(the compiled search; it is compiled first if the cache is cold, and that is not timed):

* a flooder plays ``--flood`` games against the expert and moves in all of them at once;
* half a second later ``--others`` players, each in one game against the medium level, move
  ``--moves`` times each, each move as soon as the AI has answered the last;
* the time from each of their moves to the AI's reply is measured (p50, p99, worst).

Phases, each run:

* ``first-come``: one worker, one queue for everyone: the pool as it was before the fair
  queue (the baseline, in the same run);
* ``fair``: the service as shipped (two workers, players served in turn), with the caps
  raised to the flood so that all of it is queued;
* ``caps``: the shipped caps: the flooder's games and moves past them are refused at once
  (counted), and the others' replies as in ``fair``.

The goal (issue 36): with 30 expert games queued, another player's reply at medium within 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Hashable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.ai_runtime.fair_queue import FairQueue  # noqa: E402
from bot.service import (  # noqa: E402
    AILimits,
    Channel,
    GameOptions,
    GameService,
    MoveMade,
    Notifier,
    Player,
    TooMuchAIWork,
)
from engine import Game, Ruleset  # noqa: E402

SOUTH = GameOptions(side="south", rated=False)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))] if ordered else float("nan")


class Replies(Notifier):
    """When each game's AI reply arrived."""

    def __init__(self) -> None:
        self.arrived: dict[int, asyncio.Event] = {}

    def expect(self, game_id: int) -> asyncio.Event:
        self.arrived[game_id] = asyncio.Event()
        return self.arrived[game_id]

    async def on_move(self, event: MoveMade) -> None:
        if event.by.is_ai and event.game.id in self.arrived:
            self.arrived[event.game.id].set()


async def phase(name: str, path: Path, flood: int, others: int, moves: int) -> dict[str, Any]:
    limits = (
        AILimits() if name == "caps" else AILimits(games_per_player=flood, waiting_per_player=flood)
    )
    service = await GameService.open(
        path, tick_every=None, ai_workers=1 if name == "first-come" else 2, limits=limits
    )
    if name == "first-come":  # everyone's requests in one queue, on one worker
        service.ai.queue = FairQueue(1)
        shared = service.ai.run

        async def one_queue(owner: Hashable, *args: Any) -> Any:
            return await shared(None, *args)

        service.ai.run = one_queue  # type: ignore[method-assign]
    # Start every worker and load the compiled search in it first: a worker's start is the
    # first move's cost once per process, not a wait one player puts on another.
    start = Game(Ruleset.parse("kalah")).position
    await asyncio.gather(
        *(service.ai.choose(start, "medium", 0, owner=f"warm-{n}") for n in range(2))
    )
    replies = Replies()
    service.add_notifier("discord", replies)
    refused = 0
    try:
        flooder = Player("discord", f"{name}-flooder")
        flood_games = []
        for n in range(flood):
            try:
                challenge = await service.challenge(
                    flooder, Player.ai("expert"), "kalah", Channel("discord", f"{name}-f{n}"), SOUTH
                )
                flood_games.append(challenge.game_id)
            except TooMuchAIWork:
                refused += 1
        players = [Player("discord", f"{name}-p{n}") for n in range(others)]
        their_games = []
        for n, player in enumerate(players):
            challenge = await service.challenge(
                player, Player.ai("medium"), "kalah", Channel("discord", f"{name}-o{n}"), SOUTH
            )
            their_games.append(challenge.game_id)

        for game_id in flood_games:
            try:
                await service.move(game_id, flooder, "A")
            except TooMuchAIWork:
                refused += 1
        await asyncio.sleep(0.5)

        waits: list[float] = []

        async def play(player: Player, game_id: int) -> None:
            for _ in range(moves):
                game = await service.get_game(game_id)
                if game.is_over:
                    return
                arrived = replies.expect(game_id)
                await service.move(game_id, player, game.position.legal_moves()[0])
                started = time.monotonic()
                await arrived.wait()  # the AI's first move of its reply
                waits.append(time.monotonic() - started)
                while True:  # and the rest of it (a sowing into its store moves again)
                    game = await service.get_game(game_id)
                    if game.is_over or game.to_move == player:
                        break
                    arrived = replies.expect(game_id)
                    game = await service.get_game(game_id)
                    if game.is_over or game.to_move == player:
                        break
                    await arrived.wait()

        began = time.monotonic()
        await asyncio.gather(*(play(p, g) for p, g in zip(players, their_games, strict=True)))
        others_done = time.monotonic() - began
        return {
            "waits": waits,
            "refused": refused,
            "queued": service.ai.backlog(flooder).waiting
            if name != "first-come"
            else service.ai.backlog(None).waiting,
            "seconds": others_done,
        }
    finally:
        await service.close()


async def warm_up() -> None:
    """Compile the search once (untimed), so the phases measure the compiled AI."""
    import bot.ai_runtime.kernel_cache as kernel_cache

    if not kernel_cache.is_ready():
        print("compiling the search first (once per machine; not timed)...", flush=True)
        await asyncio.to_thread(kernel_cache.compile_now)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flood", type=int, default=30)
    parser.add_argument("--others", type=int, default=4)
    parser.add_argument("--moves", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    await warm_up()
    names = ("first-come", "fair", "caps")
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    for run in range(args.runs):
        for name in names:
            with tempfile.TemporaryDirectory() as tmp:
                found = await phase(
                    name, Path(tmp) / "fair.sqlite3", args.flood, args.others, args.moves
                )
            results[name].append(found)
            w = found["waits"]
            print(
                f"run {run + 1} {name:10} others' AI replies: p50 {pct(w, 50):6.2f} s  "
                f"p99 {pct(w, 99):6.2f} s  worst {max(w):6.2f} s  ({len(w)} replies)  "
                f"flooder refused {found['refused']}, still queued {found['queued']}",
                flush=True,
            )
    print(
        f"\nmedian of {args.runs} runs ({args.flood} expert games flooding, "
        f"{args.others} players at medium, {args.moves} moves each):"
    )
    for name in names:
        rows = results[name]
        p50 = statistics.median(pct(r["waits"], 50) for r in rows)
        p99 = statistics.median(pct(r["waits"], 99) for r in rows)
        worst = statistics.median(max(r["waits"]) for r in rows)
        refused = statistics.median(r["refused"] for r in rows)
        print(
            f"  {name:10} p50 {p50:6.2f} s  p99 {p99:6.2f} s  worst {worst:6.2f} s  "
            f"flooder's requests refused {refused:g}"
        )


if __name__ == "__main__":
    asyncio.run(main())
