"""The plain move list: points and passes round-trip; numbers are checked; errors name lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from test_record import P, move_lists, records

from wuzi.rules.errors import RecordFormatError
from wuzi.rules.formats.movelist import export_moves, export_numbered, load_moves
from wuzi.rules.record import GameRecord, RecordedMove, alternating_moves


def test_export_plain_and_numbered() -> None:
    record = GameRecord.from_points([P("h8"), P("i9"), P("j10"), None, P("k11")])
    assert export_moves(record) == "h8 i9 j10 pass k11\n"
    assert export_numbered(record) == "1. h8 i9\n2. j10 pass\n3. k11\n"
    assert export_moves(GameRecord()) == "\n"


@settings(max_examples=100, deadline=None)
@given(move_lists(max_size=225))
def test_both_forms_round_trip_the_points(moves: tuple[RecordedMove, ...]) -> None:
    record = GameRecord(moves=alternating_moves([m.point for m in moves]))
    assert load_moves(export_moves(record)) == record
    assert load_moves(export_numbered(record)) == record


@settings(max_examples=30, deadline=None)
@given(records())
def test_any_record_keeps_its_points(record: GameRecord) -> None:
    assert load_moves(export_moves(record)).points == record.points


def test_reads_renju_style_numbers_comments_commas_and_case() -> None:
    text = "# a game\n1.h8 2.I9\n3. j10,  4. pass\n\n5.k11\n"
    assert load_moves(text).points == (P("h8"), P("i9"), P("j10"), None, P("k11"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("h8 i9\nj10 z9\n", "line 2: 'z9' is not a point"),
        ("h8 i9\n\nh8\n", "line 3: h8 is already occupied (move 1)"),
        (
            "1. h8 i9\n4. j10\n",
            "line 2: '4.' does not fit here: the next move is number 3 or pair 2",
        ),
        ("1. h8 5. i9\n", "line 1: '5.' does not fit here: the next move is number 2"),
        ("h8 i16\n", "line 1: 'i16' is not a point"),
    ],
)
def test_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(RecordFormatError) as info:
        load_moves(text)
    assert message in str(info.value)
