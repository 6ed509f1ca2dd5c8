"""A gallery of board pictures to look at, and how long one takes to draw.

For every preset it writes three PNGs to DIR: the opening, the first capture of a seeded
random game, and that game's final board; plus an 8-pit board with 3- and 4-digit counts.
Then it times drawing each (median of --runs), beside the 003 text board drawn in the same
run as the baseline, and prints the table. The goal: any board within 50 ms.

    python bench/board_gallery.py --out /tmp/gallery --runs 5
    python bench/board_gallery.py --readme docs/board.png     # the README's picture
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # not bench/engine.py

from bot.render.board_picture import draw_board  # noqa: E402
from engine import Position, Ruleset, render  # noqa: E402
from engine.ruleset import PRESETS  # noqa: E402


def sample_positions(preset: str, seed: int = 7) -> dict[str, Position]:
    """The opening, the first capture, and the end of one random game of ``preset``."""
    rng = random.Random(seed)
    position = Position.initial(Ruleset.parse(preset))
    found = {"opening": position}
    while not position.is_over():
        before = sum(position.stores)
        position = position.play(rng.choice(position.legal_moves()))
        if "capture" not in found and sum(position.stores) > before and not position.is_over():
            found["capture"] = position
    found["final"] = position
    return found


def timed(function, runs: int) -> float:
    """The median milliseconds of ``function()`` over ``runs`` runs."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="gallery", help="where the PNGs go (default: gallery)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--readme", metavar="FILE", help="write only the README's picture")
    args = parser.parse_args()
    if args.readme:
        position = sample_positions("kalah", seed=3)["capture"]
        Path(args.readme).write_bytes(draw_board(position))
        print(f"wrote {args.readme}: kalah after {position.last_move}")
        return
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    boards = {
        f"{name}-{kind}": pos for name in PRESETS for kind, pos in sample_positions(name).items()
    }
    wide = Ruleset.parse("kalah:pits=8,seeds=6")
    boards["kalah8-big-counts"] = Position(
        wide, (150, 0, 3, 1000, 5, 6, 7, 8) * 2 + (99, 1234), 1, "d"
    )
    print(f"{'board':<28} {'picture ms':>10} {'text ms':>8} {'ratio':>7}")
    worst = 0.0
    for name, position in boards.items():
        png = draw_board(position)
        (out / f"{name}.png").write_bytes(png)
        picture_ms = timed(lambda p=position: draw_board(p), args.runs)
        text_ms = timed(lambda p=position: render(p), args.runs)
        worst = max(worst, picture_ms)
        print(f"{name:<28} {picture_ms:>10.1f} {text_ms:>8.3f} {picture_ms / text_ms:>6.0f}x")
    print(f"{len(boards)} pictures in {out}/; slowest {worst:.1f} ms (goal: 50 ms)")


if __name__ == "__main__":
    main()
