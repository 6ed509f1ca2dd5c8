"""The community's game records, read and written: PlayStrategy's PGN (Oware, Togyz Kumalak,
Bestemshe), the Kazakh tournament scoresheet (Togyz Kumalak) and Aualé's OGN (Oware).

Each reader turns a text into a ``Record``: our ruleset, the start position and the moves as
our engine names them (pit letters), each move checked against the engine as it is read, so a
record that reads is a game we play exactly. Each writer takes a ``Game`` and refuses a ruleset
the format does not describe, rather than write a game its readers would replay differently.

The formats (docs/records.md shows an example of each):

- PlayStrategy PGN: tags ``[Variant "Oware"]`` (or ``Togyzkumalak``, ``Bestemshe``), ``FEN``
  and ``SetUp`` for a position, players as ``P1``/``P2`` (``White``/``Black`` also read), then
  numbered moves as PlayStrategy's coordinates, ``<from><to>``: files ``a``.. from South's
  left, rank 1 South's row, rank 2 North's, and ``<to>`` the pit the last seed lands in
  (Mind-Sports-Games/strategygames, ``samurai`` and ``togyzkumalak``: ``Pos``, ``validMoves``).
- Kazakh scoresheet: ``1. 76 98`` — each player's pits numbered 1 to 9 from their own left, the
  from-pit then the pit the last stone lands in (in whichever row), ``x`` when it made a tuzdyk.
- Aualé OGN: tags Variant, Event, Site, Date, Round, South, North, Result, and FEN for a
  position (Aualé's ``4-4-4-4-4-4-4-4-4-4-4-4-0-0-S``: the houses from South's A round to
  North's f, the captured counts, who moves; PlayStrategy's is read too); moves ``A``-``F``
  for South and ``a``-``f`` for North, ``+n`` for the seeds a move captured.

Our ``oware`` preset is PlayStrategy's Oware and Aualé's (Abapa; PlayStrategy plays it with
Aualé's author's engine): the origin pit always skipped, a grand slam legal but capturing
nothing, must feed, and at a repetition or when the mover cannot feed each player takes the
seeds of their own row. One difference in the count, none in the result: when a player passes
24, Aualé and PlayStrategy leave the seeds on the board uncounted where we give each row to its
owner; the winner is the same, and a record holds the moves and the result, not the count.

>>> from engine import Game
>>> game = Game.from_moves("oware", "C f A")
>>> print(write_ogn(game, {"Event": "Club night"}))  # doctest: +NORMALIZE_WHITESPACE
[Variant "Abapa"]
[Event "Club night"]
[Site "?"]
[Date "?"]
[Round "?"]
[South "?"]
[North "?"]
[Result "*"]
<BLANKLINE>
1. C f 2. A *
>>> read_record(write_ogn(game)).moves
['C', 'f', 'A']
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.errors import MancalaError, PositionError, excerpt
from engine.fen import game_fen, parse_fen
from engine.game import Game
from engine.position import Position
from engine.ruleset import Ruleset
from engine.side import Side
from engine.sowing import apply_move
from engine.translation import _, side_name

MAX_RECORD_CHARS = 200_000  # a record of any real game is far shorter
LINE_WIDTH = 79  # how long the move lines a writer makes are at most

PGN, SCORESHEET, OGN = "playstrategy-pgn", "kazakh-scoresheet", "auale-ogn"
FORMATS = (PGN, SCORESHEET, OGN)
# PlayStrategy's variant names -> our presets: same board, same rules (see the docstring)
PLAYSTRATEGY_VARIANTS = {
    "oware": "oware",
    "togyzkumalak": "togyz-kumalak",
    "bestemshe": "bestemshe",
}
_VARIANT_NAMES = {"oware": "Oware", "togyz-kumalak": "Togyzkumalak", "bestemshe": "Bestemshe"}
OGN_VARIANTS = ("abapa", "oware", "oware abapa")  # what Aualé writes, and plain spellings

_TAG = re.compile(r'^\s*\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_LOOSE_TAG = re.compile(
    r'^\[(\w+)\s+"(.*)"\]$'
)  # our own export leaves quotes in names as they are
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_NUMBER = re.compile(r"^\d+\.(?:\.\.)?$")  # 12. or 12...
_NUMBER_PREFIX = re.compile(r"^(\d+\.(?:\.\.)?)(\S+)$")  # 12.a1d2, written without a space
_COORDINATES = re.compile(r"^([a-i])([12])([a-i])([12])$")
_SCORESHEET_MOVE = re.compile(r"^([1-9])([1-9])(x?)$", re.IGNORECASE)
# Aualé's position: the 12 houses from South's A round to North's f, the two captured counts,
# and S or N to move (game/oware.py, to_position)
_AUALE_POSITION = re.compile(r"^((?:\d{1,2}-){14})([SN])$")
_OGN_MOVE = re.compile(r"^([A-Fa-f])(?:\+(\d{1,2}))?$")


class RecordError(MancalaError):
    """A record could not be read, or a game cannot be written in a format: the message names
    the line and the ply where there is one, and quotes a short excerpt."""


@dataclass
class Record:
    """A game as a record describes it: our ruleset, its start, the moves as our engine
    names them, the tags as written, and which format it was read from."""

    format: str
    rules: Ruleset
    start: Position
    moves: list[str]
    tags: dict[str, str] = field(default_factory=dict)

    def game(self) -> Game:
        """The game replayed by our engine (each move was checked when the record was read)."""
        return Game.from_moves(self.rules, self.moves, position=self.start)


@dataclass
class _Token:
    text: str
    line: int


def _where(line: int, ply: int | None, text: str, problem: str) -> RecordError:
    if ply is None:
        return RecordError(
            # TRANSLATORS: {line} is a line number of the record, {text} what is written there
            _("line {line} ('{text}'): {problem}").format(
                line=line, text=excerpt(text, 24), problem=problem
            )
        )
    return RecordError(
        # TRANSLATORS: {line} is a line number, {ply} the move's number counting both players'
        _("line {line}, ply {ply} ('{text}'): {problem}").format(
            line=line, ply=ply, text=excerpt(text, 24), problem=problem
        )
    )


def _split(text: str) -> tuple[dict[str, str], list[_Token], int]:
    """The tags and the move-text tokens of a PGN-like record (comments in braces, variations
    in parentheses and ``;`` comments dropped), and the line the tags end on."""
    if len(text) > MAX_RECORD_CHARS:
        raise RecordError(
            _("a game record has at most {limit:,} characters").format(limit=MAX_RECORD_CHARS)
        )
    tags: dict[str, str] = {}
    tokens: list[_Token] = []
    depth_brace = depth_paren = 0
    last_tag_line = 0
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not depth_brace and not depth_paren and stripped.startswith("["):
            match = _TAG.match(stripped) or _LOOSE_TAG.match(stripped)
            if match is None:
                raise _where(number, None, stripped, _('this is not a tag like [Event "?"]'))
            tags[match.group(1)] = match.group(2).replace('\\"', '"').replace("\\\\", "\\")
            last_tag_line = number
            continue
        word = ""
        for char in line + " ":
            if depth_brace:
                depth_brace = 0 if char == "}" else 1
                continue
            if char == "{":
                depth_brace = 1
            elif char == "(":
                depth_paren += 1
            elif char == ")" and depth_paren:
                depth_paren -= 1
            elif char == ";" and not depth_paren:
                break  # the rest of the line is a comment
            elif not depth_paren and not char.isspace():
                word += char
                continue
            if word:
                tokens.append(_Token(word, number))
                word = ""
        if word:
            tokens.append(_Token(word, number))
    return tags, tokens, last_tag_line


def _moves(tokens: list[_Token]) -> tuple[list[_Token], str | None]:
    """The move tokens without move numbers, and the result token if the record ends on one."""
    moves: list[_Token] = []
    result = None
    for token in tokens:
        if _NUMBER.match(token.text):
            continue
        prefixed = _NUMBER_PREFIX.match(token.text)
        if prefixed and not token.text[0].isalpha():
            token = _Token(prefixed.group(2), token.line)
        if token.text in _RESULTS:
            result = token.text
            continue
        moves.append(token)
    return moves, result


def _lookup(tags: Mapping[str, str], *names: str) -> str | None:
    lowered = {k.lower(): v for k, v in tags.items()}
    for name in names:
        if name.lower() in lowered:
            return lowered[name.lower()]
    return None


# --- PlayStrategy PGN ---------------------------------------------------------------------


def _pit_key(rules: Ruleset, pit: int) -> str:
    """PlayStrategy's name of pit ``pit`` (0..2n-1, counter-clockwise from South's left)."""
    n = rules.pits
    if pit < n:
        return f"{chr(ord('a') + pit)}1"
    return f"{chr(ord('a') + 2 * n - 1 - pit)}2"


def _key_pit(rules: Ruleset, file: str, rank: str) -> int | None:
    n = rules.pits
    index = ord(file) - ord("a")
    if index >= n:
        return None
    return index if rank == "1" else 2 * n - 1 - index


def _landing(rules: Ruleset, position: Position, pit: int) -> int:
    """The pit PlayStrategy names as a move's destination: where its last seed lands."""
    n2 = 2 * rules.pits
    seeds = position.pits[pit]
    if rules.name == "oware":  # the origin is skipped on every lap
        return (seeds + pit + (seeds - 1) // (n2 - 1)) % n2
    # Togyz Kumalak and Bestemshe: the first stone goes back into its pit
    return (pit + (1 if seeds == 1 else seeds - 1)) % n2


def _letter(rules: Ruleset, pit: int) -> str:
    n = rules.pits
    return rules.letters[pit] if pit < n else rules.letters[pit - n].lower()


def _pit_of(rules: Ruleset, move: str) -> int:
    letter = move[0]
    index = rules.letters.index(letter.upper())
    return index if letter.isupper() else index + rules.pits


def _playstrategy_rules(rules: Ruleset, what: str) -> str:
    """The variant name PlayStrategy gives ``rules``, or RecordError saying why none does."""
    name = _VARIANT_NAMES.get(str(rules))
    if name is None:
        raise RecordError(
            # TRANSLATORS: {what} names a record format, {rules} a ruleset as written
            _(
                "{what} describes only oware, togyz-kumalak and bestemshe as they are, not "
                "{rules}: its readers would replay the game by other rules"
            ).format(what=what, rules=excerpt(str(rules)))
        )
    return name


def _result(game: Game) -> str:
    winner = game.winner()
    if winner is None:
        return "*"
    if winner == "draw":
        return "1/2-1/2"
    return "1-0" if winner == Side.SOUTH else "0-1"


def _tag_lines(tags: list[tuple[str, str]]) -> str:
    lines = []
    for name, value in tags:
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{name} "{excerpt(escaped, 200) if value else ""}"]')
    return "\n".join(lines)


def _wrap(words: list[str]) -> str:
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > LINE_WIDTH:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return "\n".join(lines)


def _numbered(game: Game, spelled: list[str]) -> list[str]:
    """Move words numbered as a PGN numbers them: a full move is South's then North's."""
    words: list[str] = []
    number = 1
    for index, word in enumerate(spelled):
        mover = game.positions[index].mover
        if mover == 0 or index == 0:
            words.append(f"{number}." if mover == 0 else f"{number}...")
        words.append(word)
        if mover == 1:
            number += 1
    return words


def write_playstrategy_pgn(game: Game, tags: Mapping[str, str] | None = None) -> str:
    """``game`` as PlayStrategy's PGN; ``tags`` adds or overrides tags (Event, Site, Date,
    P1, P2...). A game from a position other than the start carries FEN and SetUp."""
    variant = _playstrategy_rules(game.rules, "PlayStrategy PGN")
    start = game.positions[0]
    rows = [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("P1", "?"),
        ("P2", "?"),
        ("Result", _result(game)),
        ("Variant", variant),
    ]
    if start != Position.initial(game.rules):
        rows += [("FEN", game_fen(Game(game.rules, position=start))), ("SetUp", "1")]
    extra = dict(tags or {})
    rows = [(name, extra.pop(name, value)) for name, value in rows] + list(extra.items())
    spelled = []
    for before, move in zip(game.positions, game.moves, strict=False):
        pit = _pit_of(game.rules, move)
        land = _landing(game.rules, before, pit)
        spelled.append(_pit_key(game.rules, pit) + _pit_key(game.rules, land))
    body = _wrap([*_numbered(game, spelled), dict(rows)["Result"]])
    return f"{_tag_lines(rows)}\n\n{body}\n"


def read_playstrategy_pgn(text: str) -> Record:
    tags, tokens, _end = _split(text)
    variant = _lookup(tags, "Variant")
    if variant is None:
        raise RecordError(_('a PlayStrategy game names its variant: [Variant "Oware"]'))
    preset = PLAYSTRATEGY_VARIANTS.get(variant.replace(" ", "").replace("-", "").lower())
    if preset is None:
        raise RecordError(
            # TRANSLATORS: {variant} is the Variant tag's value; keep the variant names
            _(
                "the variant '{variant}' is not one we play by PlayStrategy's rules: we read "
                "Oware, Togyzkumalak and Bestemshe"
            ).format(variant=excerpt(variant))
        )
    rules = Ruleset.parse(preset)
    start = _start(rules, tags)
    moves, _result_token = _moves(tokens)
    position = start
    game = Game(rules, position=start)
    played: list[str] = []
    for ply, token in enumerate(moves, 1):
        match = _COORDINATES.match(token.text.lower())
        origin = _key_pit(rules, match.group(1), match.group(2)) if match else None
        landing = _key_pit(rules, match.group(3), match.group(4)) if match else None
        if match is None or origin is None or landing is None:
            raise _where(
                token.line,
                ply,
                token.text,
                # TRANSLATORS: keep a1 and the example as they are (PlayStrategy's notation)
                _("a move is two pits such as c1f2: the pit it starts from, then where it lands"),
            )
        move = _letter(rules, origin)
        expected = _landing(rules, position, origin) if position.pits[origin] else landing
        position = _play(game, move, token, ply)
        if landing != expected:
            raise _where(
                token.line,
                ply,
                token.text,
                _("the last seed lands in {pit}, not where the record says").format(
                    pit=_pit_key(rules, expected)
                ),
            )
        played.append(move)
    _check_result(rules, start, played, tags, _result_token, moves)
    return Record(PGN, rules, start, played, tags)


def _check_result(
    rules: Ruleset,
    start: Position,
    played: list[str],
    tags: Mapping[str, str],
    written: str | None,
    moves: list[_Token],
) -> None:
    """A game the moves end on the board must end as the record says: a result that differs
    means the record was played by other rules, and it is refused rather than mis-read. (A
    record may end earlier than the board does: a resignation, a flag, an agreement.)"""
    game = Game.from_moves(rules, played, position=start)
    stated = written if written not in (None, "*") else _lookup(tags, "Result")
    if not game.is_over() or stated not in ("1-0", "0-1", "1/2-1/2"):
        return
    if stated != _result(game):
        line = moves[-1].line if moves else 1
        raise RecordError(
            # TRANSLATORS: {line} is a line number; {stated} and {result} results such as 1-0
            _(
                "line {line}: the record says {stated}, but its moves end the game {result} by "
                "our rules"
            ).format(line=line, stated=stated, result=_result(game))
        )


def _start(rules: Ruleset, tags: Mapping[str, str]) -> Position:
    fen = _lookup(tags, "FEN")
    if fen is None:
        return Position.initial(rules)
    aualé = _AUALE_POSITION.match(fen.strip())
    if aualé and rules.name == "oware":
        counts = tuple(int(c) for c in aualé.group(1).split("-")[:-1])
        if sum(counts) != rules.total_seeds:
            raise RecordError(
                _("the FEN tag: its counts make {count} seeds, not {total}").format(
                    count=sum(counts), total=rules.total_seeds
                )
            )
        return Position.settled(rules, counts, 0 if aualé.group(2) == "S" else 1)
    try:
        return parse_fen(fen, rules)
    except PositionError as err:
        raise RecordError(_("the FEN tag: {problem}").format(problem=err)) from None


def _play(game: Game, move: str, token: _Token, ply: int) -> Position:
    """Play ``move`` in ``game`` (a repetition ends it, as the formats' own programs end it)
    and return the position after; a move the engine refuses names its line and ply."""
    try:
        game.play(move)
    except MancalaError as err:
        raise _where(token.line, ply, token.text, str(err)) from None
    return game.position


# --- The Kazakh scoresheet ----------------------------------------------------------------


def write_scoresheet(game: Game) -> str:
    """``game`` (Togyz Kumalak from its start) as a Kazakh tournament scoresheet, one full move
    a line: ``1. 76 98``."""
    if str(game.rules) != "togyz-kumalak" or game.positions[0] != Position.initial(game.rules):
        raise RecordError(
            _("a Kazakh scoresheet records togyz-kumalak games from the start, not {rules}").format(
                rules=excerpt(str(game.rules))
            )
        )
    n = game.rules.pits
    spelled = []
    for before, after, move in zip(game.positions, game.positions[1:], game.moves, strict=False):
        pit = _pit_of(game.rules, move)
        land = _landing(game.rules, before, pit)
        made = after.tuzdyks[before.mover] is not None and before.tuzdyks[before.mover] is None
        spelled.append(f"{pit % n + 1}{land % n + 1}{'x' if made else ''}")
    lines = []
    for index in range(0, len(spelled), 2):
        lines.append(f"{index // 2 + 1}. {' '.join(spelled[index : index + 2])}")
    return "\n".join(lines) + "\n"


def read_scoresheet(text: str) -> Record:
    tags, tokens, _end = _split(text)
    rules = Ruleset.parse("togyz-kumalak")
    moves, _result_token = _moves(tokens)
    n = rules.pits
    position = start = Position.initial(rules)
    game = Game(rules, position=start)
    played: list[str] = []
    for ply, token in enumerate(moves, 1):
        match = _SCORESHEET_MOVE.match(token.text)
        if match is None:
            raise _where(
                token.line,
                ply,
                token.text,
                # TRANSLATORS: keep 76 and 36x as they are (the scoresheet's notation)
                _(
                    "a move is two digits 1-9, the pit it starts from and the pit it lands in, "
                    "with x if it makes a tuzdyk (76, 36x)"
                ),
            )
        origin = int(match.group(1)) - 1 + (n if position.mover else 0)
        move = _letter(rules, origin)
        land = _landing(rules, position, origin) if position.pits[origin] else origin
        after = _play(game, move, token, ply)
        if land % n + 1 != int(match.group(2)):
            raise _where(
                token.line,
                ply,
                token.text,
                _("the last stone lands in pit {pit}, not where the record says").format(
                    pit=land % n + 1
                ),
            )
        made = (
            after.tuzdyks[position.mover] is not None and position.tuzdyks[position.mover] is None
        )
        if made != bool(match.group(3)):
            problem = (
                _("this move makes a tuzdyk: write x after it")
                if made
                else _("this move makes no tuzdyk, yet the record marks one")
            )
            raise _where(token.line, ply, token.text, problem)
        played.append(move)
        position = after
    return Record(SCORESHEET, rules, start, played, tags)


# --- Aualé's OGN --------------------------------------------------------------------------


def _captured(position: Position, move: str) -> int:
    """The seeds ``move`` captures by itself (a game end's sweep is not a capture)."""
    rules = position.rules
    pit = _pit_of(rules, move)
    result = apply_move(rules, position.board, position.mover, pit, tuzdyks=position.tuzdyks)
    store = 2 * rules.pits + position.mover
    return result.board[store] - position.board[store]


def write_ogn(game: Game, tags: Mapping[str, str] | None = None) -> str:
    """``game`` (oware) as Aualé's OGN; ``tags`` adds or overrides tags (Event, South...)."""
    if str(game.rules) != "oware":
        raise RecordError(
            _("Aualé's OGN records oware games (Abapa), not {rules}").format(
                rules=excerpt(str(game.rules))
            )
        )
    rows = [
        ("Variant", "Abapa"),
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "?"),
        ("Round", "?"),
        ("South", "?"),
        ("North", "?"),
        ("Result", _result(game)),
    ]
    start = game.positions[0]
    if start != Position.initial(game.rules):
        side = "S" if start.mover == 0 else "N"
        rows.append(("FEN", "-".join(map(str, start.board)) + f"-{side}"))
    extra = dict(tags or {})
    rows = [(name, extra.pop(name, value)) for name, value in rows] + list(extra.items())
    spelled = []
    for before, move in zip(game.positions, game.moves, strict=False):
        captured = _captured(before, move)
        spelled.append(f"{move}+{captured}" if captured else move)
    body = _wrap([*_numbered(game, spelled), dict(rows)["Result"]])
    return f"{_tag_lines(rows)}\n\n{body}\n"


def read_ogn(text: str) -> Record:
    tags, tokens, _end = _split(text)
    variant = _lookup(tags, "Variant")
    if variant is not None and variant.strip().lower() not in OGN_VARIANTS:
        raise RecordError(
            # TRANSLATORS: {variant} is the Variant tag's value; keep Abapa as it is
            _("the variant '{variant}' is not Oware Abapa, the only one we read from OGN").format(
                variant=excerpt(variant)
            )
        )
    rules = Ruleset.parse("oware")
    start = _start(rules, tags)
    moves, _result_token = _moves(tokens)
    position = start
    game = Game(rules, position=start)
    played: list[str] = []
    for ply, token in enumerate(moves, 1):
        match = _OGN_MOVE.match(token.text)
        if match is None:
            raise _where(
                token.line,
                ply,
                token.text,
                # TRANSLATORS: keep A-F, a-f and +2 as they are (the notation)
                _("a move is a pit letter, A-F for South and a-f for North, then +2 for a capture"),
            )
        letter = match.group(1)
        if letter.isupper() != (position.mover == 0):
            raise _where(
                token.line,
                ply,
                token.text,
                # TRANSLATORS: {side} is South or North; {letters} is A-F or a-f
                _("it is {side}'s turn: their pits are {letters}").format(
                    side=side_name(position.to_move),
                    letters="A-F" if position.mover == 0 else "a-f",
                ),
            )
        captured = _captured(position, letter) if position.pits[_pit_of(rules, letter)] else 0
        position = _play(game, letter, token, ply)
        stated = int(match.group(2) or 0)
        if stated != captured:
            raise _where(
                token.line,
                ply,
                token.text,
                _("this move captures {count} seeds, not {stated}").format(
                    count=captured, stated=stated
                ),
            )
        played.append(letter)
    _check_result(rules, start, played, tags, _result_token, moves)
    return Record(OGN, rules, start, played, tags)


# --- Finding the format -------------------------------------------------------------------


def record_format(text: str) -> str | None:
    """Which format ``text`` is written in, by its content, or None when it is none of them."""
    tags, tokens, _end = _split(text)
    if _lookup(tags, "Rules") is not None:
        return None  # our own record (engine.review.game_from_record)
    moves, _result_token = _moves(tokens)
    # the first few moves vote, so that one miswritten move is refused where it stands
    # rather than leave the whole record unrecognised
    sample = [m.text for m in moves[:6]]
    votes = {
        PGN: sum(bool(_COORDINATES.match(m.lower())) for m in sample),
        SCORESHEET: sum(bool(_SCORESHEET_MOVE.match(m)) for m in sample),
        OGN: sum(bool(_OGN_MOVE.match(m)) for m in sample),
    }
    if _lookup(tags, "South", "North") is not None:
        return OGN
    variant = _lookup(tags, "Variant")
    if variant is not None:
        aualé = variant.strip().lower() in ("abapa", "oware abapa")
        return OGN if aualé or votes[OGN] > votes[PGN] else PGN
    best = max(votes, key=lambda name: votes[name])
    return best if votes[best] else None


_READERS = {PGN: read_playstrategy_pgn, SCORESHEET: read_scoresheet, OGN: read_ogn}


def read_record(text: str) -> Record:
    """Read a record in any of the formats, found by its content; RecordError names the line
    and the ply of what is wrong."""
    found = record_format(text)
    if found is None:
        raise RecordError(
            _(
                "this is not a record we read: PlayStrategy's PGN, a Kazakh scoresheet or "
                "Aualé's OGN"
            )
        )
    return _READERS[found](text)


def write_record(game: Game, format: str, tags: Mapping[str, str] | None = None) -> str:
    """``game`` in ``format`` (one of FORMATS); RecordError when the format cannot hold it."""
    if format == PGN:
        return write_playstrategy_pgn(game, tags)
    if format == OGN:
        return write_ogn(game, tags)
    if format == SCORESHEET:
        return write_scoresheet(game)
    raise RecordError(_("there is no record format '{name}'").format(name=excerpt(format)))


def convert(text: str, format: str) -> str:
    """A record in any format we read (our own, as ``/mancala history`` exports it, included)
    written again in ``format``, its players, event and result carried over."""
    from engine.review import game_from_record  # review's own record, read as it reads it

    found = record_format(text)
    if found is None:
        game = game_from_record(text)
        tags = _split(text)[0]
    else:
        record = read_record(text)
        game, tags = record.game(), record.tags
    south = _lookup(tags, "South", "P1", "White")
    north = _lookup(tags, "North", "P2", "Black")
    result = _lookup(tags, "Result") or ""
    words = result.split()
    if found is None and not game.is_over() and words:
        # our export says how a game ended off the board (resigned, on time, agreed)
        ended = {"south": "1-0", "north": "0-1", "draw": "1/2-1/2"}.get(words[0])
    else:
        ended = None
    carried = {
        name: value for name in ("Event", "Site", "Date", "Round") if (value := _lookup(tags, name))
    }
    if ended is not None:
        carried["Result"] = ended
    elif found is not None and result in _RESULTS:
        carried["Result"] = result
    if format == PGN:
        carried |= {"P1": south or "?", "P2": north or "?"}
    elif format == OGN:
        carried |= {"South": south or "?", "North": north or "?"}
    return write_record(game, format, carried)


def formats_for(rules: Ruleset) -> list[str]:
    """The formats a game of ``rules`` from its start can be written in."""
    name = str(rules)
    found = [PGN] if name in _VARIANT_NAMES else []
    if name == "togyz-kumalak":
        found.append(SCORESHEET)
    if name == "oware":
        found.append(OGN)
    return found


__all__ = [
    "FORMATS",
    "OGN",
    "PGN",
    "SCORESHEET",
    "Record",
    "convert",
    "RecordError",
    "formats_for",
    "read_ogn",
    "read_playstrategy_pgn",
    "read_record",
    "read_scoresheet",
    "record_format",
    "write_ogn",
    "write_playstrategy_pgn",
    "write_record",
    "write_scoresheet",
]
