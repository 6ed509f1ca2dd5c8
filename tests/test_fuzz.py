"""Hostile input never crashes anything and never breaks an invariant: ruleset strings, moves,
written positions, the command line, calls into the game service and whole raw mails.

Every refusal is one of the project's documented errors (``MancalaError``, ``ServiceError``,
argparse's status 2) with a short message free of control characters; every accepted input
leaves a consistent state (seeds conserved, a rendering reads back as the same position, the
stored move log replays to the stored position). Derandomized in CI (``tests/conftest.py``);
``bench/fuzz.py`` runs the same generators for as long as asked. The ``@example``s are inputs
that once crashed something, kept so they are tried in every run.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import sys
import tempfile
import unicodedata
from pathlib import Path

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from bot.cli import main
from bot.service import Channel, GameService, ManualClock, Player, ServiceError
from engine import (
    Game,
    IllegalMove,
    MancalaError,
    Position,
    PositionError,
    Ruleset,
    RulesetError,
    parse_position,
    render,
)
from tests.fuzz_strategies import (
    CRLF_WORD,
    game_ids,
    move_texts,
    position_texts,
    raw_mails,
    spec_texts,
)
from tests.strategies import rulesets

MAX_MESSAGE = 600  # characters: the longest refusal lists every ruleset key


def assert_clean(message: str) -> None:
    """A message fit to show: short, and no control characters but line breaks."""
    assert message and len(message) <= MAX_MESSAGE, message[:200]
    bad = [c for c in message if unicodedata.category(c)[0] == "C" and c != "\n"]
    assert not bad, f"control characters {bad!r} in {message[:200]!r}"


def parse_or_none(text: str) -> Ruleset | None:
    try:
        return Ruleset.parse(text)
    except RulesetError as err:
        assert_clean(str(err))
        return None


# -- rulesets -------------------------------------------------------------------------------


@settings(max_examples=400)
@given(spec_texts())
@example("wari:captures=¹")
@example("awari:pits=①")
@example("wari:seeds=" + "9" * 5000)
@example("kalah:captures=2-" + "3" * 4400)
@example("wari:foo\x00=1")
@example("\ud800")
def test_any_ruleset_text_gives_a_ruleset_or_a_clear_refusal(text):
    rules = parse_or_none(text)
    if rules is not None:
        assert Ruleset.parse(str(rules)) == rules  # the canonical string means the same


def test_unicode_digits_are_read_as_digits():
    assert Ruleset.parse("wari:captures=²-³").captures == (2, 3)
    assert Ruleset.parse("awari:pits=④").pits == 4
    assert Ruleset.parse("kalah:seeds=３").seeds == 3


@settings(max_examples=150)
@given(spec_texts(), st.integers(0, 2**32))
@example("al-manqala:empty_capture=across,capture_takes_sower=no", 0)
@example("wari:empty_capture=across,capture_takes_sower=no", 1)
def test_every_accepted_ruleset_ends_on_a_small_board(text, seed):
    """Every mix the grammar accepts must end by its own rules (a repetition counts). On a
    small board that happens within a few thousand random plies; seeds are conserved and the
    end reads back from its rendering."""
    rules = parse_or_none(text)
    assume(rules is not None)
    try:
        small = Ruleset.parse(f"{rules}{',' if ':' in str(rules) else ':'}pits=3,seeds=2")
    except RulesetError:
        small = rules if rules.pits * rules.seeds <= 8 else None
    assume(small is not None)
    rng = random.Random(seed)
    game = Game(small, seed=seed)
    while not game.is_over():
        assert len(game.moves) < 5000, f"{small} did not end"
        game.play(rng.choice(game.position.legal_moves()))
    end = game.position
    assert sum(end.pits) + sum(end.stores) == small.total_seeds
    for side in ("south", "north"):
        assert parse_position(render(end, side), small, perspective=side) == end


def test_the_empty_pit_rule_no_longer_switches_off_count_captures():
    """al-manqala with an across empty capture never ended: no count capture ever happened."""
    rules = Ruleset.parse("al-manqala:empty_capture=across,capture_takes_sower=no")
    game = Game(rules, seed=3)
    rng = random.Random(3)
    while not game.is_over():
        game.play(rng.choice(game.position.legal_moves()))
    assert sum(game.position.stores) > 0 and len(game.moves) < 2000


# -- moves and positions ----------------------------------------------------------------------


@settings(max_examples=200)
@given(rulesets(), st.integers(0, 2**32), move_texts())
def test_any_move_text_plays_or_is_refused_clearly(rules, seed, text):
    rng = random.Random(seed)
    pos = Position.initial(rules, rng=rng)
    for _ in range(rng.randrange(20)):
        if pos.is_over():
            break
        pos = pos.play(rng.choice(pos.legal_moves()))
    try:
        after = pos.play(text)
    except IllegalMove as err:
        assert_clean(str(err))
        return
    assert after.last_move in pos.legal_moves()
    assert sum(after.board) == rules.total_seeds


@settings(max_examples=300)
@given(st.data())
def test_any_written_position_reads_or_is_refused_clearly(data):
    rules = data.draw(rulesets())
    text = data.draw(position_texts(rules))
    perspective = data.draw(st.sampled_from(["south", "north"]))
    try:
        pos = parse_position(text, rules, perspective=perspective)
    except PositionError as err:
        assert_clean(str(err))
        return
    assert sum(pos.board) == rules.total_seeds
    again = parse_position(render(pos, perspective), rules, perspective=perspective)
    assert again == pos and render(again, perspective) == render(pos, perspective)


@pytest.mark.parametrize(
    "text",
    [
        "f e d c b a\r¹",
        "4 4 4 4 4 4\n4 4 4 4 4 " + "9" * 5000,
        "4 4 4 4 4 4\n4 4 4 4 4 4\nCaptured: North " + "9" * 5000 + ", South 0",
        "4 4 4 4 4 4\n4 4 4 4 4 4\x00",
        "\ud800 4 4 4 4 4\n4 4 4 4 4 4",
        "4" * 30_000,
    ],
)
def test_odd_positions_are_refused_with_a_short_clean_message(text):
    with pytest.raises(PositionError) as err:
        parse_position(text, Ruleset.parse("wari"))
    assert_clean(str(err.value))


def test_typographic_dashes_and_wide_digits_read_as_the_board_means():
    board = "４ ４ ４ ５ ５ ５\n４ ４ ４ ４ – ５\nCaptured: North 0, South 0"
    pos = parse_position(board, Ruleset.parse("wari"), to_move="north")
    assert pos.pits == (4, 4, 4, 4, 0, 5, 5, 5, 5, 4, 4, 4)


@pytest.mark.parametrize(
    "rules, moves",
    [
        ("wari:end=either_empty,leftover=none", None),
        ("kalah-nosweep:seeds=6,first=south,must_feed=leave,end=mover_empty,cycle=split", None),
        ("manbula", None),
    ],
)
def test_finished_games_read_back_as_they_ended(rules, moves):
    """Finished boards were settled again when read, sweeping seeds the game had left."""
    rules = Ruleset.parse(rules)
    for seed in range(40):
        rng = random.Random(seed)
        game = Game(rules, seed=seed)
        while not game.is_over():
            game.play(rng.choice(game.position.legal_moves()))
        for side in ("south", "north"):
            text = render(game.position, side)
            back = parse_position(text, rules, perspective=side)
            assert back == game.position and back.outcome() == game.outcome(), text


# -- the command line ---------------------------------------------------------------------------


def run_cli(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exit_:
                status = exit_.code
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


@st.composite
def argvs(draw) -> tuple[list[str], bytes]:
    kind = draw(st.sampled_from(["rules", "board", "move", "solve", "junk"]))
    spec = draw(spec_texts())
    number = draw(st.sampled_from(["1", "0", "-1", "5e8", "1e19", "nan", "①", "9" * 5000, "x"]))
    if kind == "rules":
        return ["rules", spec], b""
    if kind == "board":
        return ["board", spec, "--moves", draw(move_texts()), "--seed", number], b""
    if kind == "move":
        stdin = draw(st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)))
        return ["move", spec, "--position", "-", "--move", draw(move_texts())], stdin
    if kind == "solve":  # tiny rulesets only: a fuzz run must not solve Kalah(6,4)
        return ["solve", "kalah:pits=2,seeds=2", "--nodes", number, "--table", number], b""
    return draw(st.lists(st.text(max_size=20), max_size=4)), b""


@settings(max_examples=200)
@given(argvs())
@example((["move", "wari", "--position", "-", "--move", "E"], b"\xff\xfe 4 4 \x80"))
@example((["solve", "kalah:pits=3,seeds=2", "--nodes", "1e19"], b""))
@example((["board", "al-manqala", "--moves", "e\x00", "--seed", "1"], b""))
@example((["-\U0010d8bc;Ó", "-\U0010d8bc;Ó"], b""))  # found by bench/fuzz.py
@example((["-÷\x93\U000166fc"], b""))
def test_any_command_line_answers_with_a_status_not_a_traceback(call):
    argv, stdin = call
    if argv[:1] in (["bot"], ["mail"], ["play"], []):
        return  # these run servers or games; their settings are tested where they live
    status, out, err = run_cli(argv, stdin)
    assert status in (0, 1, 2)
    if status:
        assert_clean(err.strip().splitlines()[-1] if err.strip() else out.strip().splitlines()[-1])


# -- the game service ---------------------------------------------------------------------------

ALICE, BOB = Player("discord", "1001"), Player("email", "bob@example.org")
ODD_PLAYERS = [
    Player("discord", "\x00"),
    Player("email", "\ud800@x"),
    Player("fax", "1"),
    Player("discord", ""),
    Player("discord", "9" * 400),
    "alice",
]


async def _service_calls(data, path: Path) -> None:
    service = await GameService.open(path, clock=ManualClock(1e6), tick_every=None)
    try:
        for _ in range(data.draw(st.integers(1, 12))):
            who = data.draw(st.sampled_from([ALICE, BOB, *ODD_PLAYERS]))
            target = data.draw(st.one_of(game_ids(), st.sampled_from([1, 2])))
            call = data.draw(
                st.sampled_from(
                    ["challenge", "accept", "move", "resign", "offer", "board", "export", "name"]
                )
            )
            try:
                if call == "challenge":
                    other = BOB if who == ALICE else ALICE
                    spec = data.draw(st.one_of(spec_texts(), st.sampled_from(["kalah", "wari"])))
                    challenge = await service.challenge(who, other, spec, Channel("discord", "c1"))
                    await service.accept(challenge.id, other)
                elif call == "accept":
                    await service.accept(target, who)
                elif call == "move":
                    await service.move(
                        target,
                        who,
                        data.draw(move_texts()),
                        data.draw(st.one_of(game_ids(), st.none())),
                    )
                elif call == "resign":
                    await service.resign(target, who)
                elif call == "offer":
                    await service.offer(
                        target,
                        who,
                        data.draw(st.sampled_from(["draw", "end", "undo", "\x00", "x" * 5000])),
                    )
                elif call == "board":
                    await service.board(target, data.draw(st.sampled_from(["south", "x", None])))
                elif call == "export":
                    await service.export(target)
                else:
                    await service.set_display_name(who, data.draw(st.text(max_size=80)))
            except ServiceError as err:
                assert_clean(str(err))
    finally:
        await service.close()
    # Every stored game replays from its move log to the stored position, in a new process's
    # view of the file (a fresh service, nothing cached).
    service = await GameService.open(path, clock=ManualClock(1e6), tick_every=None)
    try:
        for game in await service.list_games(ALICE, include_finished=True):
            record = await service.export(game.id)
            tags, _, body = record.partition("\n\n")
            first = tags.split('[First "')[1].split('"')[0]
            replay = Game.from_moves(game.rules, body.split(), first=first)
            assert tuple(replay.moves) == game.moves
            assert replay.position.board == game.position.board
    finally:
        await service.close()


@settings(max_examples=40)
@given(st.data())
def test_any_service_call_answers_with_a_service_error_and_keeps_the_log_whole(data):
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_service_calls(data, Path(folder) / "games.sqlite3"))


@pytest.mark.parametrize("game_id", [2**63, 2**64, -1, 0, "1", None, True, 1.5, [], "９"])
async def test_ids_outside_the_database_name_no_game(tmp_path, game_id):
    service = await GameService.open(
        tmp_path / "g.sqlite3", clock=ManualClock(1e6), tick_every=None
    )
    try:
        for call in (
            service.get_game(game_id),
            service.resign(game_id, ALICE),
            service.accept(game_id, ALICE),
            service.get_challenge(game_id),
        ):
            with pytest.raises(ServiceError, match="there is no"):
                await call
    finally:
        await service.close()


@pytest.mark.parametrize("ply", ["¹", "9" * 5000, "-1", "x", 1.5])
async def test_odd_expected_plies_are_refused_clearly(tmp_path, ply):
    service = await GameService.open(
        tmp_path / "g.sqlite3", clock=ManualClock(1e6), tick_every=None
    )
    try:
        challenge = await service.challenge(ALICE, BOB, "kalah", Channel("discord", "c"))
        game = await service.accept(challenge.id, BOB)
        with pytest.raises(ServiceError) as err:
            await service.move(game.id, ALICE, "C", ply)
        assert_clean(str(err.value))
    finally:
        await service.close()


def test_mancala_errors_are_value_errors():
    """Surfaces catch MancalaError; it stays a ValueError for callers that catch those."""
    assert issubclass(MancalaError, ValueError)


# -- mail -------------------------------------------------------------------------------------


async def _mail_through_pipe(raw: bytes, folder: str) -> tuple[int, str, list]:
    """``raw`` through the mail bot in pipe mode, replies through a loopback relay."""
    from bot.mail.mail_settings import MailSettings
    from bot.mail.runner import pipe
    from tests.mail.mail_support import Mailbox, free_port

    relay = await Mailbox().start()
    output = io.StringIO()
    try:
        settings = MailSettings(
            listen=("127.0.0.1", free_port()),
            relay=("127.0.0.1", relay.port),
            bot_address="mancala@bot.test",
            secret=b"fuzz-secret",
            database=f"{folder}/games.sqlite3",
        )
        with contextlib.redirect_stdout(output):
            status = await pipe(settings, raw, "ann@example.org", ["mancala@bot.test"])
        return status, output.getvalue(), list(zip(relay.messages, relay.envelopes, strict=False))
    finally:
        await relay.stop()


@settings(max_examples=300)
@given(raw_mails())
@example(b"From: Jos\xe9 <jose@example.es>\r\nSubject: x\r\n\r\nchallenge bob@example.org wari")
@example(b"From: ann@example.org\r\nMessage-ID: " + CRLF_WORD.encode() + b"\r\n\r\nhelp")
@example(b'From: ann@example.org\r\nContent-Type: text/plain; charset="utf\x00-8"\r\n\r\nhelp')
@example(
    b"From: ann@example.org\r\n"
    + b"".join(
        b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (i, i)
        for i in range(3000)
    )
)
@example(
    b"From: ann@example.org\r\nContent-Type: text/plain; charset=idna\r\n"
    b"Content-Transfer-Encoding: quoted-printable\r\n\r\nhel=3Dlp"
)
@example(b'From: "ann <ann@example.org>\r\n\r\nhelp')
@example(b"From: " + b"a" * 300 + b"@example.org\r\n\r\nhelp")
def test_any_mail_is_answered_or_dropped_and_never_retried_forever(raw):
    """Whatever arrives: no unhandled error (which pipe mode turns into 'try again' for ever),
    at most a few replies, each to a usable address, each header one clean line, each body
    printable text."""
    from bot.mail.reading import mailbox
    from bot.mail.runner import EX_OK

    with tempfile.TemporaryDirectory() as folder:
        status, output, sent = asyncio.run(_mail_through_pipe(raw, folder))
    assert status == EX_OK, output[:300]
    assert len(sent) <= 3
    for message, (_, recipients) in sent:
        assert all(mailbox(r) == r.lower() for r in recipients), recipients
        for name, value in message.items():
            assert str(value).isprintable(), (name, str(value)[:100])
        body = message.get_body(("plain",)).get_content()
        assert all(c.isprintable() or c in "\r\n" for c in body), body[:300]
