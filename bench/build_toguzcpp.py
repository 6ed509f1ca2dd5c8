"""Build toguzcpp-fixed, the independent Togyz Kumalak engine bench/togyz_strength.py plays.

    .venv/bin/python bench/build_toguzcpp.py --source GIT_DIR_OR_CHECKOUT [--commit 694f5db]
        [--out DIR]

Prints the path of the program built, for ``togyz_strength.py --engine PATH``.

The engine is the search of Haller125/toguzcpp (C++), which the project does not ship: its
source comes from ``--source`` (a clone, bare or not, read at ``--commit`` with ``git
archive``; or a plain directory of its files) and is copied to a build directory; only our
adapter (bench/toguzcpp_adapter.cpp, the line protocol) is ours. Two changes are made to the
copy, never to the source, both found by the strength bench (docs/performance.md):

- the overflow fix: search.h writes a win as INT_MAX and a loss as INT_MIN, and negating
  INT_MIN overflows (the first root move is searched with a window that closes after one
  reply); the two constants become plus and minus 10^9;
- no AVX2: it is compiled with plain ``g++ -O3`` (no ``-mavx2``, no ``-march=native``),
  because the AVX2 sowing adds a full lap of 18 as ``laps & 1`` and loses two laps from a
  pit of 36 stones or more; the portable path sows as the rules do.
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
ADAPTER = ROOT / "bench" / "toguzcpp_adapter.cpp"
COMMIT = "694f5db"  # the commit measured in docs/performance.md
WIN_LOSS = {
    "#define WIN INT_MAX": "#define WIN 1000000000",
    "#define LOSE INT_MIN": "#define LOSE (-1000000000)",
}


def extract(source: pathlib.Path, commit: str, into: pathlib.Path) -> None:
    """toguzcpp's files at ``commit`` (or as they are, for a plain directory) in ``into``."""
    is_git = (source / "HEAD").is_file() or (source / ".git").exists()
    if not is_git:
        shutil.copytree(source, into, dirs_exist_ok=True)
        return
    archive = into / "source.tar"
    with archive.open("wb") as out:
        subprocess.run(
            ["git", f"--git-dir={source / '.git' if (source / '.git').exists() else source}"]
            + ["archive", "--format=tar", commit],
            stdout=out,
            check=True,
        )
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    archive.unlink()


def fix_overflow(search_h: pathlib.Path) -> None:
    """Replace the win and loss constants; refuse a header that no longer has them."""
    text = search_h.read_text()
    for old, new in WIN_LOSS.items():
        if old not in text:
            raise SystemExit(f"{search_h}: no '{old}' to fix: another toguzcpp version?")
        text = text.replace(old, new)
    search_h.write_text(text)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=pathlib.Path, required=True)
    parser.add_argument("--commit", default=COMMIT)
    parser.add_argument(
        "--out", type=pathlib.Path, default=None, help="build directory (default: a new temp)"
    )
    args = parser.parse_args()
    build = args.out or pathlib.Path(tempfile.mkdtemp(prefix="toguzcpp-"))
    build.mkdir(parents=True, exist_ok=True)
    extract(args.source.resolve(), args.commit, build)
    src = build / "src"
    fix_overflow(src / "search.h")
    program = build / "toguzcpp-fixed"
    subprocess.run(
        ["g++", "-O3", "-std=c++20", "-DNDEBUG", f"-I{src}", str(ADAPTER)]
        + [str(src / "toguznative.cpp"), str(src / "search.cpp"), "-o", str(program)],
        check=True,
    )
    print(program)
    return 0


if __name__ == "__main__":
    sys.exit(main())
