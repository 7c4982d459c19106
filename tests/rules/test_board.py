"""Points, notation and the board: what every other part of Wuzi reads and writes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wuzi.rules.board import (
    CENTRE,
    POINTS,
    Board,
    Colour,
    parse_point,
    parse_points,
    point,
    point_name,
    sort_key,
)
from wuzi.rules.errors import InvalidPointError, OccupiedPointError


def test_centre_is_h8_and_corners() -> None:
    assert parse_point("h8") == CENTRE
    assert point_name(CENTRE) == "h8"
    assert parse_point("a1") == 0
    assert parse_point("o1") == 14
    assert parse_point("a15") == 210
    assert parse_point("o15") == 224


def test_letter_i_is_a_column() -> None:
    assert parse_point("i9") == point(8, 9)
    assert point_name(point(8, 9)) == "i9"


@pytest.mark.parametrize("text", [" H8 ", "h8", "H8"])
def test_case_and_spaces_accepted(text: str) -> None:
    assert parse_point(text) == CENTRE


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("p8", "column a–o"),
        ("h0", "row"),
        ("h16", "row"),
        ("h", "column"),
        ("88", "column"),
        ("h08", "row"),
        ("", "column"),
        ("h8x", "column"),
        ("a\u00b2", "column"),
        ("h\u0668", "column"),
    ],
)
def test_bad_coordinates_name_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(InvalidPointError) as info:
        parse_point(text)
    assert repr(text) in str(info.value)
    assert fragment in str(info.value)


@given(st.integers(0, POINTS - 1))
def test_notation_round_trips(p: int) -> None:
    assert parse_point(point_name(p)) == p


def test_point_name_rejects_indices_off_the_board() -> None:
    with pytest.raises(InvalidPointError):
        point_name(225)
    with pytest.raises(InvalidPointError):
        point(15, 1)


def test_parse_points_and_sort_order() -> None:
    pts = parse_points("h8, i9 j10")
    assert [point_name(p) for p in pts] == ["h8", "i9", "j10"]
    assert [point_name(p) for p in sorted(parse_points("j9 d4 d10 j1"), key=sort_key)] == [
        "d4",
        "d10",
        "j1",
        "j9",
    ]


def test_board_from_moves_alternates_and_refuses_occupied() -> None:
    board = Board.from_moves(parse_points("h8 i9 j10"))
    assert board.colour_at(parse_point("h8")) is Colour.BLACK
    assert board.colour_at(parse_point("i9")) is Colour.WHITE
    assert board.colour_at(parse_point("j10")) is Colour.BLACK
    assert board.count() == 3
    with pytest.raises(OccupiedPointError, match="move 3: h8"):
        Board.from_moves(parse_points("h8 i9 h8"))


def test_place_and_remove_leave_state_unchanged_on_error() -> None:
    board = Board.from_moves(parse_points("h8 i9"))
    before = board.copy()
    with pytest.raises(OccupiedPointError, match="h8 is already occupied"):
        board.place(CENTRE, Colour.WHITE)
    with pytest.raises(ValueError, match="a1 holds no stone"):
        board.remove(0)
    assert board == before
    board.remove(CENTRE)
    assert board.is_empty(CENTRE)


def test_colour_parse() -> None:
    assert Colour.parse("Black") is Colour.BLACK
    assert Colour.parse("w") is Colour.WHITE
    assert Colour.BLACK.other is Colour.WHITE
    with pytest.raises(ValueError, match="'red'"):
        Colour.parse("red")


def test_diagram_has_row_15_on_top() -> None:
    text = str(Board.from_moves([parse_point("a15")]))
    assert text.splitlines()[0].startswith("15 X")
