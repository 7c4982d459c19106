"""Properties of the forbidden-move judge, checked with hypothesis.

* The forbidden set maps exactly under the 8 symmetries of the board.
* A point is never both a five point and forbidden; overline points are exactly the
  points making six or more without a five.
* Stones far away change nothing — with "far" defined soundly (see ``reads``).
* The incremental judge always agrees with a fresh full scan, whatever is placed and
  removed, and single-point judging agrees with the full scan.
* Window facts the fast path relies on, over every one of the 3¹⁰ windows.
"""

from __future__ import annotations

import itertools
import random
from functools import cache

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from wuzi.rules.board import POINTS, SIZE, Board, Colour, Point, parse_points
from wuzi.rules.explain import explain
from wuzi.rules.forbidden import IncrementalJudge, forbidden_kind, forbidden_points, judge
from wuzi.rules.patterns import CENTRE, WINDOW, analyse_window, code_of, straight_four_offsets
from wuzi.rules.symmetry import SYMMETRIES, TABLE
from wuzi.rules.verdict import ForbiddenKind, Verdict
from wuzi.rules.wins import DIRECTIONS, makes_exact_five, makes_overline, winning_row
from wuzi.sim.bench.rules import random_moves

# A move is drawn as (which earlier stone to play near, dx, dy): positions cluster the way
# games do, so threes and fours are common, and hypothesis shrinks them well.
_step = st.tuples(st.integers(0, 200), st.integers(-2, 2), st.integers(-2, 2))


def _build(steps: list[tuple[int, int, int]]) -> Board:
    """Alternate colours over the drawn points, skipping occupied points and any move that
    would complete five or more (so the position is one a game could reach)."""
    board = Board()
    placed: list[Point] = []
    colour = Colour.BLACK
    for anchor, dx, dy in steps:
        x, y = (
            (7, 7)
            if not placed
            else (placed[anchor % len(placed)] % SIZE, placed[anchor % len(placed)] // SIZE)
        )
        x, y = min(max(x + dx, 0), SIZE - 1), min(max(y + dy, 0), SIZE - 1)
        p = y * SIZE + x
        if board.cells[p] or winning_row(board, p, colour, overline_wins=True):
            continue
        board.cells[p] = colour
        placed.append(p)
        colour = colour.other
    return board


def _game(seed: int, moves: int) -> Board:
    return Board.from_moves(random_moves(random.Random(seed), moves))


# Hypothesis' own (shrinkable) positions, and the plausible games of the benchmark.
positions = st.one_of(
    st.lists(_step, min_size=4, max_size=70).map(_build),
    st.builds(_game, st.integers(0, 2**32 - 1), st.integers(10, 60)),
)
small_positions = st.one_of(
    st.lists(_step, min_size=4, max_size=30).map(_build),
    st.builds(_game, st.integers(0, 2**32 - 1), st.integers(10, 30)),
)


@settings(max_examples=60, deadline=None)
@given(positions)
def test_forbidden_set_maps_under_the_eight_symmetries(board: Board) -> None:
    found = forbidden_points(board)
    for k in SYMMETRIES:
        image = Board()
        for p in range(POINTS):
            image.cells[TABLE[k][p]] = board.cells[p]
        assert forbidden_points(image) == {TABLE[k][p]: kind for p, kind in found.items()}


@settings(max_examples=80, deadline=None)
@given(positions)
def test_fives_are_never_forbidden_and_overlines_are_exact(board: Board) -> None:
    found = forbidden_points(board)
    for p in board.empty_points():
        five = makes_exact_five(board, p, Colour.BLACK)
        overline = makes_overline(board, p, Colour.BLACK)
        assert (judge(board, p) is Verdict.FIVE) is five
        if five:
            assert p not in found
        assert (found.get(p) is ForbiddenKind.OVERLINE) is (overline and not five)
    assert all(not board.cells[p] for p in found)


@settings(max_examples=40, deadline=None)
@given(positions)
def test_single_point_judging_agrees_with_the_full_scan(board: Board) -> None:
    found = forbidden_points(board)
    assert {p: forbidden_kind(board, p) for p in board.empty_points()} == {
        p: found.get(p) for p in board.empty_points()
    }


@settings(max_examples=25, deadline=None)
@given(positions)
def test_explanations_agree_with_the_verdict(board: Board) -> None:
    found = forbidden_points(board)
    for p in board.empty_points():
        text = explain(board, p)
        assert text.kind is found.get(p)
        five = any(line.five for line in text.lines)
        overline = any(line.overline for line in text.lines)
        expected = (
            Verdict.FIVE
            if five
            else Verdict.OVERLINE
            if overline
            else Verdict.DOUBLE_FOUR
            if text.fours >= 2
            else Verdict.DOUBLE_THREE
            if text.real_threes >= 2
            else Verdict.LEGAL
        )
        assert text.verdict is expected
        assert text.render().splitlines()[-1].startswith("  => ")


# --- locality -------------------------------------------------------------------------


def _line_cells(p: Point, reach: int) -> set[Point]:
    """The points on p's four lines within ``reach`` of p (p itself included)."""
    x0, y0 = p % SIZE, p // SIZE
    cells = {p}
    for dx, dy in DIRECTIONS:
        for k in range(-reach, reach + 1):
            x, y = x0 + k * dx, y0 + k * dy
            if 0 <= x < SIZE and 0 <= y < SIZE:
                cells.add(y * SIZE + x)
    return cells


@cache
def _segments(c: Point) -> tuple[frozenset[Point], ...]:
    """Every run of four points on a line through c, as the three points other than c."""
    x0, y0 = c % SIZE, c // SIZE
    found = []
    for dx, dy in DIRECTIONS:
        for start in range(-3, 1):
            cells = [(x0 + k * dx, y0 + k * dy) for k in range(start, start + 4) if k]
            if all(0 <= x < SIZE and 0 <= y < SIZE for x, y in cells):
                found.append(frozenset(y * SIZE + x for x, y in cells))
    return tuple(found)


def reads(board: Board, p: Point) -> set[Point]:
    """Every cell the verdict on p can depend on, at any depth of the recursion.

    Judging a point reads only its four 11-cell windows (five cells either side). The
    recursion judges straight-four points with more hypothetical Black stones placed; a
    straight-four point c makes four in a row with three Black stones (real, or
    hypothetical, or p). So every hypothetical stone lies in the closure of {Black
    stones, p} under "add an empty point that completes four in a row with three closure
    points" (White stones and every other condition ignored: a superset). The verdict on
    p reads only the windows of p and of the empty closure points, so a stone put on any
    other cell leaves the computation — and the verdict — unchanged: the computation
    never looks at that cell.
    """
    closure = {q for q in range(POINTS) if board.cells[q] == Colour.BLACK} | {p}
    grew = True
    while grew:
        grew = False
        for c in range(POINTS):
            if c in closure or board.cells[c]:
                continue
            if any(others <= closure for others in _segments(c)):
                closure.add(c)
                grew = True
    hypothetical = {q for q in closure if not board.cells[q]}
    cells: set[Point] = set()
    for q in hypothetical:
        cells |= _line_cells(q, 5)
    return cells


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    small_positions,
    st.booleans(),
    st.integers(0, POINTS),
    st.integers(0, POINTS),
    st.sampled_from([Colour.BLACK, Colour.WHITE]),
)
def test_stones_far_away_change_nothing(
    board: Board, shaped: bool, p_pick: int, s_pick: int, colour: Colour
) -> None:
    empty = list(board.empty_points())
    forbidden = sorted(forbidden_points(board))
    # half the time a forbidden point (the interesting case), else any empty point
    event(f"forbidden points in the position: {min(len(forbidden), 3)}+")
    candidates = forbidden if shaped and forbidden else empty
    p = candidates[p_pick % len(candidates)]
    far = sorted(set(empty) - reads(board, p) - {p})
    event("far points exist" if far else "every point is read")
    if not far:
        return
    s = far[s_pick % len(far)]
    event("verdict at p: " + judge(board, p).name)
    after = board.copy()
    after.cells[s] = colour
    assert judge(after, p) is judge(board, p)
    assert forbidden_points(after).get(p) is forbidden_points(board).get(p)


def test_far_is_not_vacuous() -> None:
    """The locality test above bites: a stone that *is* read can change the verdict."""
    board = Board()
    for p in parse_points("f8 g8 h6 h7"):
        board.cells[p] = Colour.BLACK
    h8, d8, j8 = parse_points("h8 d8 j8")
    assert {d8, j8} <= reads(board, h8)
    assert forbidden_kind(board, h8) is ForbiddenKind.DOUBLE_THREE
    board.cells[d8] = Colour.WHITE  # O.XXX.. — the row three is still live
    assert forbidden_kind(board, h8) is ForbiddenKind.DOUBLE_THREE
    board.cells[j8] = Colour.WHITE  # O.XXX.O — now it is dead
    assert forbidden_kind(board, h8) is None
    board.cells[j8] = board.cells[d8] = 0
    for corner in parse_points("a1 o1 a15 o15"):  # really far: not read, and no change
        assert corner not in reads(board, h8)
        for colour in Colour:
            board.cells[corner] = colour
            assert forbidden_kind(board, h8) is ForbiddenKind.DOUBLE_THREE
        board.cells[corner] = 0


# --- the incremental judge ----------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, POINTS - 1), st.sampled_from([Colour.BLACK, Colour.WHITE])),
        min_size=1,
        max_size=80,
    ),
    st.integers(0, 2**32 - 1),
)
def test_incremental_judge_agrees_with_fresh_scans(
    actions: list[tuple[Point, Colour]], seed: int
) -> None:
    judge_ = IncrementalJudge()
    board = Board()
    for n, (p, colour) in enumerate(actions):
        if board.cells[p]:
            if (seed >> (n % 32)) & 1:  # sometimes take the stone back off instead
                judge_.remove(p)
                board.cells[p] = 0
            continue
        judge_.place(p, colour)
        board.cells[p] = colour
        if n % 7 == 0:
            assert judge_.forbidden_points() == forbidden_points(board)
    assert judge_.board() == board
    assert judge_.forbidden_points() == forbidden_points(board)
    for p in board.empty_points():
        assert judge_.forbidden_kind(p) is forbidden_kind(board, p)


# --- windows --------------------------------------------------------------------------


def test_every_window_obeys_the_facts_the_fast_path_uses() -> None:
    """Over all 3¹⁰ windows with an empty centre: fewer than two Black stones make nothing;
    the code depends only on the cells within three of the outermost Black stones and is
    zero further than two from them (what the segment memo of a full scan relies on); a
    direction holds at most one three, never a three and a four at once, at most two
    fours and two straight-four points; the code round-trips the straight-four points; a
    five or overline excludes the rest of the weight."""
    seen_two_fours = seen_two_points = False
    for cells in itertools.product((0, 1, 2), repeat=WINDOW - 1):
        window = bytes((*cells[:CENTRE], 0, *cells[CENTRE:]))
        shape = analyse_window(window)
        code = code_of(window)
        black = [k for k, c in enumerate(window) if c == 1]
        if len(black) < 2:  # a line with fewer than two Black stones is skipped
            assert code & 0xFFFF == 0
        if black:
            # the segment key: only cells within three of the outer stones matter...
            first, last = black[0], black[-1]
            outside = [k for k in range(WINDOW) if k != CENTRE and not first - 3 <= k <= last + 3]
            for filler in (0, 2):
                canonical = bytearray(window)
                for k in outside:
                    canonical[k] = filler
                assert code_of(bytes(canonical)) == code
            # ...and only points within two of them have a shape
            if not first - 2 <= CENTRE <= last + 2:
                assert code & 0xFFFF == 0
        if shape.five or shape.overline:
            assert code & 0xFFFF in (4096, 256)
            continue
        assert not (shape.three and shape.fours)
        assert len(shape.fours) <= 2
        seen_two_fours |= len(shape.fours) == 2
        if shape.three is not None:
            points = shape.three.straight_four_points
            assert 1 <= len(points) <= 2
            seen_two_points |= len(points) == 2
            assert straight_four_offsets(code) == list(points)
            assert all(abs(o) <= 3 for o in points)
        else:
            assert straight_four_offsets(code) == []
    assert seen_two_fours and seen_two_points
