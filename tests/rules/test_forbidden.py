"""Black's forbidden moves: hand-made cases for every clause of RULES.md, the recursion at
depths 2, 3 and 4, the explanation, the incremental judge and the errors.

Positions are given as Black and White stones (not move lists), so each case holds only
the stones it needs. Every case here was also checked against the ``renju`` package and
the literal reference judge of test_forbidden_differential.py.
"""

from __future__ import annotations

import pytest

from wuzi.rules.board import Board, Colour, parse_point, parse_points, point_name
from wuzi.rules.errors import InvalidPointError, OccupiedPointError, RulesError
from wuzi.rules.explain import Explanation, explain, line_name
from wuzi.rules.forbidden import (
    ForbiddenJudge,
    IncrementalJudge,
    forbidden_kind,
    forbidden_points,
    judge,
)
from wuzi.rules.verdict import ForbiddenKind, Verdict

DT, DF, OL = ForbiddenKind.DOUBLE_THREE, ForbiddenKind.DOUBLE_FOUR, ForbiddenKind.OVERLINE


def position(black: str, white: str = "") -> Board:
    board = Board()
    for p in parse_points(black):
        board.cells[p] = Colour.BLACK
    for p in parse_points(white):
        board.cells[p] = Colour.WHITE
    return board


def verdict(black: str, white: str, point: str) -> Verdict:
    return judge(position(black, white), parse_point(point))


# --- the definitions, clause by clause --------------------------------------------------


def test_kind_values_are_the_cli_notation() -> None:
    assert [k.value for k in ForbiddenKind] == ["33", "44", "ol"]
    assert ForbiddenKind("44") is DF
    assert isinstance(DT, str)


def test_empty_board_has_no_forbidden_point() -> None:
    assert forbidden_points(Board()) == {}


def test_a_straight_three_with_two_straight_four_points_is_one_three() -> None:
    assert verdict("e8 g8", "", "f8") is Verdict.LEGAL


def test_straight_four_is_one_four() -> None:
    assert verdict("e8 f8 g8", "", "h8") is Verdict.LEGAL  # .XXXX.
    assert verdict("e8 f8 g8 h5 h6 h7", "h4", "h8") is Verdict.DOUBLE_FOUR  # + another four


def test_a_row_completing_only_into_six_is_no_four() -> None:
    # XX.XXX.X through f8: d8 would make six (no four), h8 makes e8–i8 (a four).
    assert verdict("b8 c8 e8 g8 i8", "", "f8") is Verdict.LEGAL
    assert verdict("b8 c8 e8 g8 i8 f5 f6 f7", "f4", "f8") is Verdict.DOUBLE_FOUR


def test_five_beats_every_forbidden_shape() -> None:
    # an exact five in the row with a 44 (column + diagonal) at the same time
    board = position("d8 e8 f8 g8 h4 h5 h6 e5 f6 g7", "h3 d4")
    assert judge(board, parse_point("h8")) is Verdict.FIVE
    assert forbidden_kind(board, parse_point("h8")) is None
    assert parse_point("h8") not in forbidden_points(board)


def test_exact_five_with_a_separated_stone_is_a_five() -> None:
    assert verdict("d8 e8 f8 g8 j8", "", "h8") is Verdict.FIVE


def test_overline_beats_double_four() -> None:
    # g8 makes six in row 8 and fours in column g and on the diagonal
    board = position("d8 e8 f8 h8 i8 g4 g5 g6 c4 d5 e6", "g3 b3")
    assert forbidden_kind(board, parse_point("g8")) is OL


def test_four_three_is_legal_and_four_three_three_is_not() -> None:
    assert verdict("d8 e8 f8 h6 h7", "c8", "h8") is Verdict.LEGAL
    assert verdict("d8 e8 f8 h6 h7 f6 g7", "c8", "h8") is Verdict.DOUBLE_THREE


def test_edge_three_is_dead() -> None:
    # |XXX_ down from h15 is no three; with the row three h13 is legal
    assert verdict("h15 h14 i13 j13", "", "h13") is Verdict.LEGAL
    # one step from the edge, |_XXX__ is live
    assert verdict("h14 h12 i13 j13", "", "h13") is Verdict.DOUBLE_THREE


def test_three_on_a_six_point_diagonal_is_live() -> None:
    # a6–f1 has room for .XXXX. exactly: b5 c4 d3 + e2 with a6 and f1 as the ends
    assert verdict("b5 c4 e3 f3", "", "d3") is Verdict.DOUBLE_THREE


def test_no_three_fits_on_a_five_point_diagonal() -> None:
    assert verdict("b4 c3 e2 f2", "", "d2") is Verdict.LEGAL


def test_white_two_points_away_kills_the_three() -> None:
    assert verdict("f8 g8 h6 h7", "d8 j8", "h8") is Verdict.LEGAL  # O.XXX.O
    assert verdict("f8 g8 h6 h7", "d8", "h8") is Verdict.DOUBLE_THREE  # O.XXX.. is live


# --- real threes: what may be wrong with a straight-four point ----------------------------


@pytest.mark.parametrize(
    ("column_f", "white", "expected", "reason"),
    [
        ("f5 f6", "", Verdict.DOUBLE_THREE, Verdict.LEGAL),  # f4 is a plain straight four
        ("f1 f2 f3 f5 f6", "", Verdict.LEGAL, Verdict.OVERLINE),  # f4 would be six
        ("f2 f3 f5 f6", "f1", Verdict.LEGAL, Verdict.FIVE),  # f4 makes five: no straight four
    ],
)
def test_three_whose_only_straight_four_point_is_not_legal(
    column_f: str, white: str, expected: Verdict, reason: Verdict
) -> None:
    # g4 makes d4 e4 _ g4 (only straight-four point f4) and g4 g5 g6 (real).
    board = position("d4 e4 g5 g6 " + column_f, white)
    g4 = parse_point("g4")
    assert judge(board, g4) is expected
    text = explain(board, g4)
    row = next(line for line in text.lines if line.name == "horizontal row 4")
    assert row.three is not None
    assert [(point_name(s.point), s.verdict) for s in row.three.straight_four_points] == [
        ("f4", reason)
    ]
    assert row.three.real is (reason is Verdict.LEGAL)


def test_three_whose_straight_four_point_is_double_four() -> None:
    # The depth-2 case below at depth 1: with e8 on the board, d10 is a 44 point.
    board = position("e7 f8 c9 d9 c10 e10 f10 c11 e8 e9")
    assert judge(board, parse_point("d10")) is Verdict.DOUBLE_FOUR


# --- recursion depth ---------------------------------------------------------------------


def test_depth_two_decides() -> None:
    """e8: three e7 e8 _ e10 has one straight-four point, e9. With e8 on the board, e9
    makes threes in row 9 and on the anti-diagonal c11–f8, so at depth 1 it looks like a
    33 point and the three would not count — but the anti-diagonal three's only
    straight-four point d10 is a double-four (depth 2), so e9 is legal and e8 is 33."""
    board = position("e7 f8 c9 d9 c10 e10 f10 c11")
    e8 = parse_point("e8")
    assert judge(board, e8) is Verdict.DOUBLE_THREE
    text = explain(board, e8).render()
    assert "straight-four point e9: legal (only 1 of its 2 threes is real)" in text
    assert "straight-four point d10: double-four point (44) there" in text


def test_depth_three_decides() -> None:
    """d11: column three d9 _ d11 d12 has one straight-four point, d10; with d11 placed
    d10 makes a four and two threes (4-3-3). Its row three's point c10 has two threes
    itself, but c10's column three needs c11, which is a double-four (depth 3): so c10
    is legal, d10's row three is real, d10 is 33, the column three at d11 does not
    count and d11 is legal. Cut off at depth 2 (c10 taken as 33) the answer flips."""
    board = position("f8 d9 e9 e10 f10 i10 c12 d12 c13 f13")
    d11 = parse_point("d11")
    assert judge(board, d11) is Verdict.LEGAL
    assert d11 not in forbidden_points(board)
    text = explain(board, d11, depth=3).render()
    assert "straight-four point d10: double-three point (33) there" in text
    assert "straight-four point c10: legal (only 1 of its 2 threes is real)" in text
    assert "straight-four point c11: double-four point (44) there" in text


def test_depth_four_decides() -> None:
    board = position("g3 h3 i3 j3 g4 i4 k4 l4 k5 j6 l6 i8")
    assert judge(board, parse_point("i5")) is Verdict.DOUBLE_THREE


def test_full_scan_agrees_with_single_point_judging_on_deep_cases() -> None:
    for black in (
        "e7 f8 c9 d9 c10 e10 f10 c11",
        "f8 d9 e9 e10 f10 i10 c12 d12 c13 f13",
        "g3 h3 i3 j3 g4 i4 k4 l4 k5 j6 l6 i8",
    ):
        board = position(black)
        found = forbidden_points(board)
        for p in board.empty_points():
            assert found.get(p) is forbidden_kind(board, p), point_name(p)


# --- the explanation -----------------------------------------------------------------


def test_explanation_fields() -> None:
    board = position("f8 g8 h6 h7")
    text = explain(board, parse_point("h8"))
    assert isinstance(text, Explanation)
    assert text.verdict is Verdict.DOUBLE_THREE
    assert text.kind is DT and text.forbidden
    assert (text.threes, text.real_threes, text.fours) == (2, 2, 0)
    assert [line.name for line in text.lines] == ["horizontal row 8", "vertical column h"]
    row = text.lines[0]
    assert row.three is not None
    assert [point_name(p) for p in row.three.stones] == ["f8", "g8", "h8"]
    assert [point_name(s.point) for s in row.three.straight_four_points] == ["e8", "i8"]
    assert str(text) == text.render()


def test_explanation_of_two_fours_on_one_line() -> None:
    text = explain(position("c8 e8 g8 i8"), parse_point("f8"))
    assert text.kind is DF
    [row] = text.lines
    assert [[point_name(p) for p in f.stones] for f in row.fours] == [
        ["c8", "e8", "f8", "g8"],
        ["e8", "f8", "g8", "i8"],
    ]
    assert [[point_name(p) for p in f.five_points] for f in row.fours] == [["d8"], ["h8"]]
    assert "  => 2 fours: double-four" in text.render()


def test_explanation_verdict_matches_the_judge_on_the_vectors_kind_of_positions() -> None:
    board = position("d8 e8 f8 h4 h5 h6 f6 g7", "c8 h3")
    for p in board.empty_points():
        assert explain(board, p).verdict is judge(board, p)


@pytest.mark.parametrize(
    ("point", "direction", "name"),
    [
        ("h8", 0, "horizontal row 8"),
        ("h8", 1, "vertical column h"),
        ("h8", 2, "diagonal a1–o15"),
        ("h8", 3, "anti-diagonal a15–o1"),
        ("c2", 2, "diagonal b1–o14"),
        ("c2", 3, "anti-diagonal a4–d1"),
        ("o15", 3, "anti-diagonal o15–o15"),
    ],
)
def test_line_names(point: str, direction: int, name: str) -> None:
    assert line_name(parse_point(point), direction) == name


# --- errors ----------------------------------------------------------------------------


def test_occupied_point_is_an_error_naming_the_point() -> None:
    board = position("h8", "i9")
    for func in (judge, forbidden_kind, explain):
        with pytest.raises(OccupiedPointError, match="h8 is occupied by a black stone"):
            func(board, parse_point("h8"))
    with pytest.raises(OccupiedPointError, match="i9 is occupied by a white stone"):
        forbidden_kind(board, parse_point("i9"))


@pytest.mark.parametrize("bad", [-1, 225, True, "h8", 3.0])
def test_bad_points_are_errors(bad: object) -> None:
    with pytest.raises(InvalidPointError, match="not a point index"):
        forbidden_kind(Board(), bad)  # type: ignore[arg-type]


def test_judging_leaves_the_board_unchanged() -> None:
    board = position("f8 d9 e9 e10 f10 i10 c12 d12 c13 f13")
    before = bytes(board.cells)
    forbidden_points(board)
    explain(board, parse_point("d11"), depth=4)
    assert bytes(board.cells) == before


# --- the incremental judge ---------------------------------------------------------------

# A random plausible game (bench.random_moves, seed 28) that passes 33, 44 and ol points.
GAME = (
    "i9 h8 g7 k13 f9 j9 g10 j11 i10 h5 k10 i4 j10 g11 f6 j8 h11 h7 f12 j6 f10 k15 d5 h6 "
    "k9 b5 h13 e13 d11 b10"
)


def test_incremental_judge_follows_a_game() -> None:
    judge_ = IncrementalJudge()
    board = Board()
    colour = Colour.BLACK
    for p in parse_points(GAME):
        assert judge_.forbidden_points() == forbidden_points(board)
        if colour is Colour.BLACK:
            assert judge_.forbidden_kind(p) is forbidden_kind(board, p)
        judge_.place(p, colour)
        board.place(p, colour)
        colour = colour.other
    assert judge_.board() == board
    assert judge_.forbidden_points() == forbidden_points(board)
    assert set(judge_.forbidden_points().values()) == {DT, DF, OL}


def test_incremental_judge_remove_undoes_place() -> None:
    board = Board.from_moves(parse_points(GAME))
    judge_ = IncrementalJudge.from_board(board)
    before = judge_.forbidden_points()
    for p in (parse_point("k8"), parse_point("a1")):
        judge_.place(p, Colour.BLACK)
        judge_.remove(p)
        assert judge_.forbidden_points() == before
    judge_.remove(parse_point("f10"))
    board.remove(parse_point("f10"))
    assert judge_.forbidden_points() == forbidden_points(board)


def test_incremental_judge_errors_leave_it_unchanged() -> None:
    judge_ = ForbiddenJudge(position("f8 g8 h6 h7"))
    before = (judge_.board(), judge_.forbidden_points())
    with pytest.raises(OccupiedPointError, match="f8 is occupied"):
        judge_.place(parse_point("f8"), Colour.WHITE)
    with pytest.raises(InvalidPointError):
        judge_.place(225, Colour.BLACK)
    with pytest.raises(RulesError, match="black or white"):
        judge_.place(parse_point("a1"), 3)
    with pytest.raises(RulesError, match="a1 holds no stone"):
        judge_.remove(parse_point("a1"))
    with pytest.raises(OccupiedPointError):
        judge_.forbidden_kind(parse_point("g8"))
    assert (judge_.board(), judge_.forbidden_points()) == before
    assert judge_.forbidden_kind(parse_point("h8")) is DT
    assert judge_.judge(parse_point("h8")) is Verdict.DOUBLE_THREE
    assert judge_.colour_at(parse_point("f8")) is Colour.BLACK
    assert judge_.colour_at(parse_point("a1")) is None
