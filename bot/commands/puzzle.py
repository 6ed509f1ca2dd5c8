"""``mancala puzzle``: a position from a real ending where one move, and only one, is right
(``engine.puzzles``), solved in the terminal.

The board is drawn from the solver's seat (their pits uppercase on the bottom row, as they
type them). A right answer shows the proof line, a wrong one the refutation line, each in the
game's move notation with the final score; then another puzzle, if wanted. ``--answer MOVE``
answers at once, for scripts: exit status 0 right, 1 wrong, 2 for a move that is not legal
there or an unknown id, family or grade. It talks in the language of ``--lang``, else of
LC_ALL, LC_MESSAGES or LANG (``bot.cli``), else English; the board and the moves are the
same in every language, and so are the words typed (``solution``, ``next``, ``quit``).

>>> import argparse
>>> parser = argparse.ArgumentParser(); register(parser.add_subparsers())
>>> args = parser.parse_args(["puzzle", "--id", "kalah-0001", "--answer", "Z"])
>>> args.func(args)  # doctest: +ELLIPSIS
Puzzle kalah-0001 ...
error: 'Z' is not a move; a move is a pit letter A-F
2
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from bot.cli_args import Subparsers, add_lang_option, text
from bot.i18n import _, pgettext
from bot.render.words import grade_word, side_name

if TYPE_CHECKING:
    from engine.puzzles import Answer, Puzzle

GRADE_WORDS = ["easy", "medium", "hard"]


class _PuzzleFamilies:
    """``--family``'s choices: the families the shipped set has puzzles of, read only when
    the option is given or the help shown (every ``mancala`` command builds this parser)."""

    def __contains__(self, word: object) -> bool:
        from engine.puzzles import families

        return word in families()

    def __iter__(self) -> Iterator[str]:
        from engine.puzzles import families

        return iter(families())


MAX_LINE = 200  # characters of a typed answer read at most


def _words() -> str:
    # TRANSLATORS: 'solution', 'next' and 'quit' are what the player types: keep them
    return _("Type a move, 'solution', 'next' or 'quit'.")


def register(subparsers: Subparsers) -> None:
    puzzle = subparsers.add_parser(
        "puzzle",
        help=_("solve a puzzle: the one right move in a real ending"),
        description=_(
            "A position from a real ending where one move, and only one, keeps the result "
            "best play gives you (or wins by clearly more than any other), proven by the "
            "solver. Type your move; a wrong one shows the line that refutes it, a right one "
            "the line that proves it."
        ),
    )
    puzzle.add_argument(
        "--family", type=str.lower, choices=_PuzzleFamilies(), help=_("puzzles of one rules family")
    )
    puzzle.add_argument(
        "--grade", type=str.lower, choices=GRADE_WORDS, help=_("puzzles of one grade")
    )
    puzzle.add_argument("--id", type=text(40), metavar="ID", help=_("one puzzle, e.g. kalah-0001"))
    puzzle.add_argument(
        "--answer", type=text(40), metavar="MOVE", help=_("answer at once (for scripts)")
    )
    add_lang_option(puzzle)
    puzzle.set_defaults(func=run_puzzle)


def build_args(
    family: str | None = None,
    grade: str | None = None,
    id: str | None = None,
    answer: str | None = None,
    lang: str | None = None,
) -> argparse.Namespace:
    """The arguments ``run_puzzle`` takes, as the command line gives them (``lang`` is read
    by ``bot.cli.main``, before the command runs)."""
    return argparse.Namespace(family=family, grade=grade, id=id, answer=answer, lang=lang)


def run_puzzle(args: argparse.Namespace, read: Callable[[str], str | None] | None = None) -> int:
    """The command; ``read(prompt)`` gives the next line typed (None at the end of input)."""
    from engine import MancalaError
    from engine.puzzles import by_id, pick

    read = read or _read_line
    seen: set[str] = set()
    seed = random.randrange(1 << 30)
    try:
        puzzle = by_id(args.id) if args.id else pick(seen, args.family, args.grade, seed)
    except MancalaError as err:
        print(_("error: {message}").format(message=err))
        return 2
    if args.answer is not None:
        print(describe(puzzle))
        return _answer_once(puzzle, args.answer)
    while True:
        seen.add(puzzle.id)
        print(describe(puzzle))
        done = _solve(puzzle, read)
        if done == QUIT:
            return 0
        if done == SOLVED:
            again = read(_("Another puzzle? [Y/n] "))
            if again is None or _is_no(again):
                return 0
        puzzle = pick(seen, args.family, args.grade, seed)


def _answer_once(puzzle: Puzzle, move: str) -> int:
    from engine import MancalaError
    from engine.puzzles import check

    try:
        answer = check(puzzle, _from_seat(puzzle, move))
    except MancalaError as err:
        print(_("error: {message}").format(message=_message(puzzle, err, move)))
        return 2
    print(verdict(answer))
    return 0 if answer.correct else 1


QUIT, SOLVED, NEXT = "quit", "solved", "next"  # how a puzzle was left


def _solve(puzzle: Puzzle, read: Callable[[str], str | None]) -> str:
    """Ask until the right move, 'solution', 'next' or 'quit': how the puzzle was left."""
    from engine import MancalaError
    from engine.puzzles import check

    while True:
        typed = read(_("Your move: "))
        if typed is None:
            print()
            return QUIT
        word = typed.strip().lower()
        if word in ("quit", "q", "exit"):
            return QUIT
        if word in ("next", "skip"):
            return NEXT
        if word in ("solution", "show", "give up"):
            print(verdict(check(puzzle, puzzle.solution), shown=True))
            return SOLVED
        if word in ("", "help", "?"):
            print(_words())
            continue
        try:
            answer = check(puzzle, _from_seat(puzzle, typed))
        except MancalaError as err:
            print(f"{_message(puzzle, err, typed)}. {_words()}")
            continue
        print(verdict(answer))
        if answer.correct:
            return SOLVED
        # TRANSLATORS: 'solution' is what the player types: keep it
        print(_("Try again, or type 'solution'."))


def _is_no(answer: str) -> bool:
    """Whether ``answer`` to "Another puzzle? [Y/n]" is no: n, no, q, quit, or the current
    language's no (or its first letter)."""
    word = answer.strip().lower()
    # TRANSLATORS: the answer "no" to a yes/no question, as a player types it
    no = pgettext("answer", "no").strip().lower()
    return word in ("n", "no", "q", "quit") or bool(no) and word in (no, no[:1])


def _from_seat(puzzle: Puzzle, move: str) -> str:
    """A move as the solver types it, in the engine's notation. Where players sow from their
    own row either case names one's own pit, so the move is read as typed (and an error
    quotes it as typed); elsewhere the case is turned round for North, who sees their pits
    uppercase."""
    from engine import from_perspective

    if puzzle.position.rules.choose == "own":
        return move
    return from_perspective(move.strip(), puzzle.side)


# A pit the engine names ("pit a is empty") or the legal moves it lists ("legal moves: b, d"),
# in English; in any language, the list of moves after a colon that ends the message.
_PITS_NAMED = re.compile(
    r"(\bpit |legal moves: |legal: )([A-Za-z][<>]?(?:, [A-Za-z][<>]?)*)(?![A-Za-z])"
)
_LISTED = re.compile(r"(:\s*)([A-Za-z][<>]?(?:, [A-Za-z][<>]?)*)\s*$")


def _message(puzzle: Puzzle, err: Exception, typed: str | None = None) -> str:
    """The engine's message, its pit letters as the solver sees them (North's own pits
    uppercase). In English the engine's words say where the letters are; in another
    language the legal moves listed at its end are found for sure, and the pit ``typed``
    where it stands alone once (a letter alone may be a word there too: "il a")."""
    from engine import from_perspective, to_perspective

    def flip(letters: str) -> str:
        return re.sub(r"[A-Za-z]", lambda m: to_perspective(m[0], puzzle.side), letters)

    text = str(err)
    found = _PITS_NAMED.sub(lambda m: m[1] + flip(m[2]), text)
    if found != text:
        return found
    listed = _LISTED.search(text)
    if listed is None:
        return text
    head, tail = text[: listed.start()], listed[1] + flip(listed[2])
    typed = (typed or "").strip()
    if re.fullmatch(r"[A-Za-z][<>]?", typed):  # the solver's own pit, as the engine names it
        name = from_perspective(typed[0].upper(), puzzle.side) + typed[1:]
        alone = re.compile(rf"(?<![\w<>]){re.escape(name)}(?![\w<>])")
        if len(alone.findall(head)) == 1:
            head = alone.sub(lambda m: flip(m[0]), head)
    return head + tail


def _seat(puzzle: Puzzle, moves: tuple[str, ...]) -> str:
    from engine import to_perspective

    return " ".join(to_perspective(move, puzzle.side) for move in moves)


def describe(puzzle: Puzzle) -> str:
    """The puzzle: what to find, then the board from the solver's seat."""
    from engine import render
    from engine.puzzles import GAP, Goal

    if puzzle.goal == Goal.WIN:
        task = _("Find the one move that wins.")
    elif puzzle.goal == Goal.DRAW:
        task = _("Find the one move that saves the draw.")
    else:
        task = _("Find the move that wins by the most (by at least {gap} more than any other).")
        task = task.format(gap=GAP)
    head = _("Puzzle {id} ({rules}, {grade}): {side} to move.").format(
        id=puzzle.id,
        rules=puzzle.position.rules,
        grade=grade_word(puzzle.grade),
        side=side_name(puzzle.side),
    )
    return f"{head} {task}\n" + render(puzzle.position, perspective=puzzle.side)


def _score(puzzle: Puzzle, line: tuple[str, ...]) -> str:
    from engine import Game

    game = Game.from_moves(puzzle.position.rules, line, position=puzzle.position)
    south, north = game.position.stores
    return _("South {south}, North {north}").format(south=south, north=north)


def _result(margin: int) -> str:
    if margin > 0:
        return _("you win by {margin}").format(margin=margin)
    if margin < 0:
        return _("you lose by {margin}").format(margin=-margin)
    return _("it is a draw")


def verdict(answer: Answer, shown: bool = False) -> str:
    """Right or wrong, and the line that shows it, from the solver's seat."""
    puzzle = answer.puzzle
    # TRANSLATORS: the score at the end of a line and what it means: "South 19, North 29: you
    # win by 10"
    outcome = _("{score}: {result}").format(
        score=_score(puzzle, answer.line), result=_result(answer.value_after)
    )
    line = f"{_seat(puzzle, answer.line)}  ({outcome})"
    move = _seat(puzzle, (answer.move,))
    if shown:
        return _("The solution is {move}; with best play after it:").format(move=move) + (
            f"\n  {line}"
        )
    if answer.correct:
        return _("Right: {move}. With best play after it:").format(move=move) + f"\n  {line}"
    right = _("With the right move {result}.").format(result=_result(puzzle.value))
    return _("Not {move}: best play after it goes").format(move=move) + f"\n  {line}\n{right}"


def _read_line(prompt: str) -> str | None:
    """A line from standard input (None at its end), read as UTF-8 whatever the bytes: a
    terminal in another encoding gets an answer that is not a move, never a traceback."""
    print(prompt, end="", flush=True)
    raw = getattr(sys.stdin, "buffer", None)
    if raw is not None:
        data = raw.readline(MAX_LINE)
        line = data.decode("utf-8", "replace")
        whole = data.endswith(b"\n")
    else:
        line = sys.stdin.readline(MAX_LINE)
        whole = line.endswith("\n")
    if not line:
        return None
    if not whole:  # a longer line: the rest is not an answer either
        (raw or sys.stdin).readline()
    return line
