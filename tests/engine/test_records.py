"""The community's record formats (engine.records): samples written from each format's
documentation, round trips, write-then-read properties, and malformed records."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game
from engine.fen import game_fen, parse_fen
from engine.records import (
    OGN,
    PGN,
    SCORESHEET,
    RecordError,
    convert,
    formats_for,
    read_record,
    record_format,
    write_record,
)

DATA = Path(__file__).parent / "data"
SAMPLES = {
    "togyz_playstrategy.pgn": (PGN, "togyz-kumalak", 40),
    "togyz_scoresheet.txt": (SCORESHEET, "togyz-kumalak", 40),
    "oware_playstrategy.pgn": (PGN, "oware", 60),
    "oware_auale.ogn": (OGN, "oware", 60),
    "bestemshe_playstrategy.pgn": (PGN, "bestemshe", 30),
}


def random_game(rules: str, seed: int, limit: int = 300) -> Game:
    rng = random.Random(seed)
    game = Game(rules)
    while not game.is_over() and len(game.moves) < limit:
        game.play(rng.choice(game.position.legal_moves()))
    return game


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_samples_read_by_content(name: str) -> None:
    expected_format, rules, plies = SAMPLES[name]
    record = read_record((DATA / name).read_text(encoding="utf-8"))
    assert record.format == expected_format
    assert str(record.rules) == rules
    assert len(record.moves) == plies
    assert record.game().moves == record.moves


def test_the_same_game_in_every_format_it_has() -> None:
    pgn = read_record((DATA / "togyz_playstrategy.pgn").read_text(encoding="utf-8"))
    sheet = read_record((DATA / "togyz_scoresheet.txt").read_text(encoding="utf-8"))
    assert pgn.moves == sheet.moves
    assert pgn.tags["P1"] == "Aruzhan" and sheet.tags["White"] == "Aruzhan"
    ogn = read_record((DATA / "oware_auale.ogn").read_text(encoding="utf-8"))
    oware_pgn = read_record((DATA / "oware_playstrategy.pgn").read_text(encoding="utf-8"))
    assert ogn.moves == oware_pgn.moves


def test_playstrategy_coordinates_name_the_landing_pit() -> None:
    # South's F holds 9 stones: the first goes back into F, the last lands in North's e,
    # which PlayStrategy names e2 (rank 2 is North's row, files from South's left)
    text = write_record(Game.from_moves("togyz-kumalak", "F"), PGN)
    assert "1. f1e2" in text
    # Oware: C's 4 seeds end in North's a (f2); North's f (a2) with 4 reaches South's D
    text = write_record(Game.from_moves("oware", "C f"), PGN)
    assert "1. c1f2 a2d1" in text


def test_scoresheet_marks_a_tuzdyk() -> None:
    record = read_record((DATA / "togyz_scoresheet.txt").read_text(encoding="utf-8"))
    game = record.game()
    made = [
        ply
        for ply, (before, after) in enumerate(
            zip(game.positions, game.positions[1:], strict=False), 1
        )
        if after.tuzdyks != before.tuzdyks
    ]
    assert made == [31]
    assert "16. 34x" in write_record(game, SCORESHEET)


@settings(derandomize=True, max_examples=40, deadline=None)
@given(st.sampled_from(["oware", "togyz-kumalak", "bestemshe"]), st.integers(0, 2**32))
def test_write_then_read_gives_the_same_game(rules: str, seed: int) -> None:
    game = random_game(rules, seed)
    for found in formats_for(game.rules):
        record = read_record(write_record(game, found))
        assert record.format == found
        assert record.moves == game.moves
        assert record.game().position == game.position


@settings(derandomize=True, max_examples=30, deadline=None)
@given(st.sampled_from(["oware", "togyz-kumalak", "bestemshe"]), st.integers(0, 2**32))
def test_a_game_from_a_fen_keeps_its_start(rules: str, seed: int) -> None:
    middle = random_game(rules, seed, limit=12)
    if middle.is_over():
        return
    game = Game(rules, position=middle.position)
    rng = random.Random(seed)
    while not game.is_over() and len(game.moves) < 20:
        game.play(rng.choice(game.position.legal_moves()))
    for found in formats_for(game.rules):
        if found == SCORESHEET:  # a scoresheet records games from the start only
            with pytest.raises(RecordError, match="from the start"):
                write_record(game, found)
            continue
        record = read_record(write_record(game, found))
        assert record.start == middle.position
        assert record.moves == game.moves


def test_aualé_position_tag_and_a_grand_slam() -> None:
    # F's two seeds make a and b hold 2 each: captured, while North's f keeps a seed
    text = '[Variant "Abapa"]\n[FEN "0-0-0-0-1-2-1-1-0-0-0-1-20-22-S"]\n\n1. F+4 *\n'
    record = read_record(text)
    assert record.start.board == (0, 0, 0, 0, 1, 2, 1, 1, 0, 0, 0, 1, 20, 22)
    assert record.game().position.stores[0] == 24
    # without f's seed the same move would take all North's seeds: legal, capturing nothing
    slam = '[Variant "Abapa"]\n[FEN "0-0-0-0-1-2-1-1-0-0-0-0-20-23-S"]\n\n1. F+4 *\n'
    with pytest.raises(RecordError, match=r"ply 1 \('F\+4'\): this move captures 0 seeds"):
        read_record(slam)
    assert read_record(slam.replace("F+4", "F")).moves == ["F"]


def test_convert_carries_players_from_our_own_record() -> None:
    ours = '[Game "7"]\n[Rules "oware"]\n[South "Ama"]\n[North "Kofi"]\n[First "north"]\n\nc F b\n'
    pgn = convert(ours, PGN)
    assert '[P1 "Ama"]' in pgn and '[P2 "Kofi"]' in pgn
    assert " 0 0 N 1" in pgn  # North moved first: PlayStrategy learns it from the FEN
    ogn = convert(pgn, OGN)
    assert '[South "Ama"]' in ogn and "4-4-4-4-4-4-4-4-4-4-4-4-0-0-N" in ogn
    assert read_record(ogn).moves == ["c", "F", "b"]
    with pytest.raises(RecordError, match="togyz-kumalak"):
        convert(ours, SCORESHEET)


def test_oware_fen_round_trip_and_playstrategy_final_scores() -> None:
    game = Game.from_moves("oware", "C f A")
    assert game_fen(game) == "1,4S,4S,4S,4S,5S/1,6S,2S,7S,6S,6S 0 0 N 2"
    assert parse_fen(game_fen(game)) == game.position
    # a finished game: PlayStrategy adds each row to its owner's score; 20+4 / 22+2 = 48
    finished = parse_fen("2,2S,3,/4S,5 24 24 S 30".replace(",/", "/"), "oware")
    assert finished.stores == (20, 22)


def test_a_malformed_move_names_line_and_ply() -> None:
    text = (DATA / "oware_auale.ogn").read_text(encoding="utf-8").replace("A+3", "A+4", 1)
    with pytest.raises(RecordError, match=r"line 10, ply 11 \('A\+4'\).*captures 3 seeds"):
        read_record(text)
    text = (DATA / "togyz_playstrategy.pgn").read_text(encoding="utf-8")
    with pytest.raises(RecordError, match=r"line 10, ply 2 \('g2c2'\).*lands in c1"):
        read_record(text.replace("g2c1", "g2c2"))
    text = (DATA / "togyz_scoresheet.txt").read_text(encoding="utf-8")
    with pytest.raises(RecordError, match=r"line 8, ply 8 \('13'\).*lands in pit 2"):
        read_record(text.replace("4. 67 12", "4. 67 13"))
    with pytest.raises(RecordError, match=r"line 20, ply 31 \('34'\).*makes a tuzdyk"):
        read_record(text.replace("34x", "34"))


def test_an_illegal_move_names_its_ply() -> None:
    with pytest.raises(RecordError, match=r"line 1, ply 2 \('F'\).*turn"):
        read_record("1. C F")
    with pytest.raises(RecordError, match="ply 3"):
        read_record("1. 65 33 2. 6")


def test_refused_variants_and_rulesets() -> None:
    with pytest.raises(RecordError, match="Chess"):
        read_record('[Variant "Chess"]\n\n1. e2e4 *')
    with pytest.raises(RecordError, match="Abapa"):
        read_record('[Variant "Grand Slam Awari"]\n[South "x"]\n\n1. C *')
    for rules in ("wari", "oware:seeds=5", "kalah"):
        with pytest.raises(RecordError):
            write_record(Game(rules), PGN)
        assert PGN not in formats_for(Game(rules).rules)
    with pytest.raises(RecordError):
        write_record(Game("wari"), OGN)


def test_our_own_record_is_not_taken_for_a_community_one() -> None:
    assert record_format('[Rules "oware"]\n\nC f A\n') is None
    with pytest.raises(RecordError, match="not a record we read"):
        read_record("hello world")


def test_a_result_the_moves_contradict_is_refused() -> None:
    game = random_game("oware", 5)
    assert game.is_over() and game.winner() != "draw"
    text = write_record(game, OGN)
    said, other = ("1-0", "0-1") if game.winner() == "south" else ("0-1", "1-0")
    assert read_record(text).moves == game.moves
    with pytest.raises(
        RecordError, match=f"the record says {other}, but its moves end the game {said}"
    ):
        read_record(text.replace(said, other))
    # a game the moves leave going on may have ended off the board: a resignation reads
    unfinished = write_record(Game.from_moves("oware", "C f"), PGN).replace("*", "0-1")
    assert read_record(unfinished).moves == ["C", "f"]


@settings(derandomize=True, max_examples=40, deadline=None)
@given(
    st.sampled_from([PGN, OGN, SCORESHEET]),
    st.integers(0, 2**32),
    st.integers(0, 10**6),
    st.sampled_from(["zz", "g7", "A+9", "99", "a1a1", "x"]),
)
def test_a_corrupted_move_is_refused_at_its_ply_or_reads_as_another_game(
    found: str, seed: int, where: int, garbage: str
) -> None:
    rules = "togyz-kumalak" if found == SCORESHEET else "oware"
    game = random_game(rules, seed, limit=40)
    text = write_record(game, found)
    lines = text.splitlines()
    body = [i for i, line in enumerate(lines) if line and not line.startswith("[")]
    line_index = body[where % len(body)]
    words = lines[line_index].split()
    moves = [i for i, w in enumerate(words) if not w[0].isdigit() or found == SCORESHEET]
    moves = [
        i
        for i in moves
        if not words[i].endswith(".") and words[i] not in ("*", "1-0", "0-1", "1/2-1/2")
    ]
    if not moves:
        return
    words[moves[where % len(moves)]] = garbage
    lines[line_index] = " ".join(words)
    try:
        record = read_record("\n".join(lines))
    except RecordError as err:
        assert f"line {line_index + 1}" in str(err)
        assert "ply" in str(err) or "the record says" in str(err)
    else:
        assert record.game().moves == record.moves  # whatever it read, it replays exactly
