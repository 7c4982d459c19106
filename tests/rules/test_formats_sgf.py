"""SGF (GM[4]): the whole record round-trips; foreign files read; errors name the line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from test_record import P, records, sample_record

from wuzi.rules.board import Colour
from wuzi.rules.errors import RecordFormatError
from wuzi.rules.formats.sgf import export_sgf, load_sgf, sgf_point
from wuzi.rules.procedure import Seat
from wuzi.rules.record import ClockReading, GameRecord


def test_points_count_rows_from_the_top() -> None:
    assert sgf_point(P("h8")) == "hh"
    assert sgf_point(P("a1")) == "ao"
    assert sgf_point(P("a15")) == "aa"
    assert sgf_point(P("o1")) == "oo"
    assert sgf_point(P("j10")) == "jf"


def test_export_uses_standard_properties_for_what_viewers_know() -> None:
    text = export_sgf(sample_record())
    assert text.startswith("(;FF[4]GM[4]CA[UTF-8]")
    for prop in (
        "SZ[15]",
        "RU[renju]",
        "PB[Ana Kask]",
        "PW[Li Wei]",
        "BT[Tallinn]",
        "WT[Shanghai]",
    ):
        assert prop in text
    assert "EV[Team final]" in text and "RO[4]" in text and "DT[2026-05-01]" in text
    assert "RE[W+]" in text
    assert ";B[hh]BL[2699.000]WL[2700.000]" in text  # Black is the second seat after the swap
    assert "WZON[溪月 Keigetsu]" in text and "WZRR[forbidden-33]" in text


@settings(max_examples=150, deadline=None)
@given(records())
def test_sgf_round_trips_any_record(record: GameRecord) -> None:
    assert load_sgf(export_sgf(record)) == record
    assert load_sgf(export_sgf(record).encode("utf-8")) == record


def test_reads_a_foreign_file_with_variations_comments_and_a_tt_pass() -> None:
    text = """(;GM[4]FF[4]SZ[15]PB[Kim]PW[Sato]RE[B+R]RU[RIF]C[a comment with \\] inside]
;B[hh]C[first]
(;W[ig]
  ;B[jf];W[tt]BL[10.5]WL[20])
(;W[gg]))"""
    record = load_sgf(text)
    assert [None if p is None else p for p in record.points] == [P("h8"), P("i9"), P("j10"), None]
    assert record.moves[3].colour is Colour.WHITE
    assert record.moves[3].clocks == ClockReading(10_500, 20_000)  # by seat: Black is first
    assert record.player_of(Colour.BLACK).name == "Kim"
    assert record.result is not None
    assert (record.result.winner, record.result.reason) == ("black", "resignation")
    assert record.ruleset == "renju"


@pytest.mark.parametrize(
    ("value", "winner", "reason"),
    [
        ("W+T", "white", "flag"),
        ("B+F", "black", "forfeit"),
        ("0", "draw", "unknown"),
        ("Draw", "draw", "unknown"),
        ("W+", "white", "unknown"),
    ],
)
def test_standard_results(value: str, winner: str, reason: str) -> None:
    record = load_sgf(f"(;GM[4]RE[{value}];B[hh])")
    assert record.result is not None and (record.result.winner, record.result.reason) == (
        winner,
        reason,
    )
    assert load_sgf("(;GM[4]RE[?];B[hh])").result is None


def test_the_first_game_of_a_collection_is_read() -> None:
    record = load_sgf("(;GM[4];B[hh];W[ii])\n(;GM[4];B[aa])")
    assert record.points == (P("h8"), P("i7"))


def test_seats_follow_the_black_seat_when_not_recorded() -> None:
    record = load_sgf("(;GM[4]WZBS[second];B[hh];W[ii])")
    assert [m.seat for m in record.moves] == [Seat.SECOND, Seat.FIRST]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("(;GM[1]SZ[19];B[pd])", "line 1: GM: GM[1] is not Gomoku/Renju"),
        ("(;GM[1];B[hh])", "line 1: GM: GM[1] is not Gomoku/Renju (GM[4]); no SZ[15]"),
        ("(;GM[4]SZ[19];B[pd])", "line 1: SZ: the board is 19"),
        ("(;GM[4]\n;B[hh]\n;W[zz])", "line 3: W: [zz] is off the 15×15 board"),
        ("(;GM[4]\n;B[h])", "line 2: B: [h] is not a point"),
        ("(;GM[4]\n;B[hh]\n;W[hh])", "line 3: move 2: h8 is already occupied (by line 2: move 1)"),
        ("(;GM[4];B[hh]W[ii])", "a node holds both a Black and a White move"),
        ("(;GM[4]AB[hh][ii];W[jj])", "line 1: AB: setup stones are not supported"),
        ("(;GM[4]\nPB[x]PB[y])", "line 2: property PB given twice"),
        ("(;GM[4]\nC[never closed)", "line 2: a value '[' is never closed"),
        ("(;GM[4];B[hh]\n", "line 2: the file ends inside a game tree"),
        ("hello", "line 1: unexpected 'h' before the game tree"),
        ("", "no game tree"),
        ("(;GM[4])\n)", "line 2: ')' closes no game tree"),
        ("(;GM[4]RE[maybe])", "line 1: RE: [maybe] is not a result"),
        ("(;GM[4]\nWZOD[first:swap])", "line 2: WZOD: [first:swap] has 2 parts, expected 4"),
        ("(;GM[4]WZOS[coin])", "WZOS: must be opener, lot or referee"),
        ("(;GM[4];B[hh]WZT[soon])", "WZT: 'soon' is not a whole number"),
        ("(;GM[4];B[hh]WZS[third])", "WZS: seat must be 'first' or 'second'"),
        ("(;GM[4]WZFR[5:2:::a1])", "WZFR: the kept stone a1 is not one of the offers"),
        ("(;GM[4]WZCL[first:forbidden:correct:h8::55:x])", "forbidden kind must be 33, 44 or ol"),
        ("(;GM[4]WZST[noon])", "WZST: 'noon' is not an ISO 8601 time"),
    ],
)
def test_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(RecordFormatError) as info:
        load_sgf(text)
    assert message in str(info.value)


def test_non_utf8_bytes_name_the_offset() -> None:
    with pytest.raises(RecordFormatError, match="byte 10: not UTF-8"):
        load_sgf(b"(;GM[4]PB[\xff])")


def test_a_file_in_the_character_set_it_names_is_read() -> None:
    data = "(;GM[4]CA[GB2312]PB[李伟];B[hh])".encode("gb2312")
    assert load_sgf(data).player_of(Colour.BLACK).name == "李伟"
    with pytest.raises(RecordFormatError, match="CA\\[nonsense\\]: unknown character set"):
        load_sgf(b"(;GM[4]CA[nonsense]PB[\xff])")


def test_the_game_is_named_in_standard_properties_and_kept_in_private_ones() -> None:
    """A viewer sees the event, round, game name, players, teams, date and result; the
    match and board (no SGF property) travel as WZMA/WZBD and come back."""
    text = export_sgf(sample_record())
    for prop in (
        "EV[Team final]",
        "RO[4]",
        "GN[round 4, match 3, board 1, game 2, table 12: Tallinn – Shanghai]",
        "PB[Ana Kask]",
        "PW[Li Wei]",
        "BT[Tallinn]",
        "WT[Shanghai]",
        "DT[2026-05-01]",
        "RE[W+]",
        "WZMA[3]",
        "WZBD[1]",
    ):
        assert prop in text
    record = load_sgf(text)
    assert (record.match, record.board) == (3, 1)
    assert record == sample_record()
