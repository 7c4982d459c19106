"""The judge against two independent ones, on thousands of random positions.

* ``renju`` (PyPI, pinned ``renju==0.1.0``), a port of the Piskvork renju referee: its
  ``ForbidChecker`` pattern-matches each line and recurses into straight-four points.
* ``reference_verdict`` below: RULES.md read literally — runs of stones on the board,
  fours told apart by their stone sets, straight fours with both ends tried, the
  real-three recursion with no memo and no window tables. Slow, obviously right, and it
  can cut the recursion off at a given depth, which shows that the deep cases of
  test_forbidden.py really need their depth.

Positions: plausible games (bench.random_moves: clustered near the centre and near
earlier stones, 10–60 moves, no five) and, under the slow marker, dense random boards
(where recursion deeper than 3 turns up). No disagreement has been found; if one is, it
is settled from RULES.md and kept below as an explicit case.
"""

from __future__ import annotations

import random

import pytest

from wuzi.rules.board import POINTS, SIZE, Board, Colour, Point, parse_point, parse_points
from wuzi.rules.forbidden import forbidden_points
from wuzi.rules.wins import DIRECTIONS, makes_exact_five, makes_overline
from wuzi.sim.bench.rules import random_moves

KIND = {1: "33", 2: "44", 3: "ol"}  # renju.check_forbid's foul codes

# --- the literal reference judge -------------------------------------------------------

Cells = list[int]


def _cell(cells: Cells, x: int, y: int) -> int:
    return cells[y * SIZE + x] if 0 <= x < SIZE and 0 <= y < SIZE else 2


def _run(cells: Cells, p: Point, dx: int, dy: int) -> list[Point]:
    """The unbroken Black run through p (p counted Black), in order along (dx, dy)."""
    x0, y0 = p % SIZE, p // SIZE
    lo = hi = 0
    while _cell(cells, x0 + (lo - 1) * dx, y0 + (lo - 1) * dy) == 1:
        lo -= 1
    while _cell(cells, x0 + (hi + 1) * dx, y0 + (hi + 1) * dy) == 1:
        hi += 1
    return [(y0 + k * dy) * SIZE + x0 + k * dx for k in range(lo, hi + 1)]


def _empties_near(cells: Cells, p: Point, dx: int, dy: int) -> list[Point]:
    x0, y0 = p % SIZE, p // SIZE
    return [
        (y0 + k * dy) * SIZE + x0 + k * dx
        for k in range(-4, 5)
        if k and _cell(cells, x0 + k * dx, y0 + k * dy) == 0
    ]


def _with(cells: Cells, q: Point, dx: int, dy: int) -> list[Point]:
    cells[q] = 1
    try:
        return _run(cells, q, dx, dy)
    finally:
        cells[q] = 0


def _fours(cells: Cells, p: Point, dx: int, dy: int) -> set[frozenset[Point]]:
    """Fours through p (already Black): the stone sets one more stone makes exactly five."""
    found = set()
    for q in _empties_near(cells, p, dx, dy):
        run = _with(cells, q, dx, dy)
        if len(run) == 5 and p in run:
            found.add(frozenset(run) - {q})
    return found


def _straight_four_points(cells: Cells, p: Point, dx: int, dy: int) -> list[Point]:
    """Points where one more stone makes .XXXX. through p with both ends exact fives."""
    found = []
    for q in _empties_near(cells, p, dx, dy):
        cells[q] = 1
        run = _run(cells, q, dx, dy)
        ends = []
        if len(run) == 4 and p in run:
            for r, sgn in ((run[0], -1), (run[-1], 1)):
                ex, ey = r % SIZE + sgn * dx, r // SIZE + sgn * dy
                if _cell(cells, ex, ey) == 0 and len(_with(cells, ey * SIZE + ex, dx, dy)) == 5:
                    ends.append(r)
        cells[q] = 0
        if len(ends) == 2:
            found.append(q)
    return found


def reference_verdict(cells: Cells, p: Point, depth: int | None = None, level: int = 0) -> str:
    """``five``, ``ol``, ``44``, ``33`` or ``legal`` for Black on the empty point p.

    With ``depth``, the recursion stops at that level and counts any point with two
    threes as 33 without asking whether they are real.
    """
    assert cells[p] == 0
    cells[p] = 1
    try:
        runs = [len(_run(cells, p, dx, dy)) for dx, dy in DIRECTIONS]
        if 5 in runs:
            return "five"
        if max(runs) >= 6:
            return "ol"
        if sum(len(_fours(cells, p, dx, dy)) for dx, dy in DIRECTIONS) >= 2:
            return "44"
        threes = [t for t in (_straight_four_points(cells, p, *d) for d in DIRECTIONS) if t]
        if len(threes) < 2:
            return "legal"
        if depth is not None and level >= depth:
            return "33"
        real = sum(
            1
            for points in threes
            if any(reference_verdict(cells, q, depth, level + 1) == "legal" for q in points)
        )
        return "33" if real >= 2 else "legal"
    finally:
        cells[p] = 0


def reference_points(board: Board) -> dict[Point, str]:
    cells = list(board.cells)
    found = {}
    for p in range(POINTS):
        if not cells[p]:
            v = reference_verdict(cells, p)
            if v in KIND.values():
                found[p] = v
    return found


# --- the renju package ------------------------------------------------------------------


def candidates(board: Board) -> list[Point]:
    """Empty points that could be forbidden at all; every other point is certainly legal.

    A double-three needs two lines each with two more Black stones within four of the
    point, a double-four two such lines with three or one line with four, an overline
    five more Black stones within five on one line. So a point with fewer than two lines
    holding two Black stones within four, and no line holding three within five, is
    legal — the oracle (slow) is asked only about the others.
    """
    cells = board.cells
    found = []
    for p in range(POINTS):
        if cells[p]:
            continue
        x0, y0 = p % SIZE, p // SIZE
        two = 0
        three = False
        for dx, dy in DIRECTIONS:
            near = far = 0
            for k in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5):
                x, y = x0 + k * dx, y0 + k * dy
                if 0 <= x < SIZE and 0 <= y < SIZE and cells[y * SIZE + x] == Colour.BLACK:
                    far += 1
                    near += abs(k) <= 4
            two += near >= 2
            three |= far >= 3
        if two >= 2 or three:
            found.append(p)
    return found


def oracle_points(board: Board, points: list[Point] | None = None) -> dict[Point, str]:
    """The renju package's verdicts on ``points`` (default: the candidates).

    One ``ForbidChecker`` per position; ``foulr(x, y, 0)`` is exactly what
    ``get_foul_type`` calls, and it restores the checker's state before returning
    (test_oracle_adapter_is_get_foul_type checks that).
    """
    from renju.check_forbid import ForbidChecker

    grid = [[board.cells[y * SIZE + x] for y in range(SIZE)] for x in range(SIZE)]
    checker = ForbidChecker(grid, 0, 0)
    found = {}
    for p in candidates(board) if points is None else points:
        foul = checker.foulr(p % SIZE, p // SIZE, 0)
        if foul:
            found[p] = KIND[foul]
    return found


def mine(board: Board) -> dict[Point, str]:
    return {p: kind.value for p, kind in forbidden_points(board).items()}


def games(seed: int, count: int) -> list[Board]:
    rng = random.Random(seed)
    return [Board.from_moves(random_moves(rng, rng.randint(10, 60))) for _ in range(count)]


def dense_boards(seed: int, count: int) -> list[Board]:
    """Random crowded boards (15–35 % Black, 5–20 % White near the centre, no Black five
    or overline): unlike games, they are full of deep real-three recursions."""
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        board = Board()
        black, white = rng.uniform(0.15, 0.35), rng.uniform(0.05, 0.2)
        for p in rng.sample(range(POINTS), POINTS):
            if abs(p % SIZE - 7) > 6 or abs(p // SIZE - 7) > 6:
                continue
            r = rng.random()
            if r < black:
                if not makes_exact_five(board, p, Colour.BLACK) and not makes_overline(
                    board, p, Colour.BLACK
                ):
                    board.cells[p] = Colour.BLACK
            elif r < black + white:
                board.cells[p] = Colour.WHITE
        boards.append(board)
    return boards


def assert_agree(boards: list[Board], other: object) -> None:
    judge = oracle_points if other == "oracle" else reference_points
    bad = []
    for n, board in enumerate(boards):
        ours = mine(board)
        if other == "oracle":
            assert set(ours) <= set(candidates(board)), f"board {n}: forbidden non-candidate"
        theirs = judge(board)
        if ours != theirs:
            bad.append((n, board, ours, theirs))
    assert not bad, f"{len(bad)} disagreements, first: {bad[0][0]}\n{bad[0][1]}\n{bad[0][2:]}"


# --- the tests ------------------------------------------------------------------------


def test_oracle_adapter_is_get_foul_type() -> None:
    from renju.check_forbid import get_foul_type

    for board in games(7, 20):
        grid = [[board.cells[y * SIZE + x] for y in range(SIZE)] for x in range(SIZE)]
        empty = [p for p in range(POINTS) if not board.cells[p]]
        found = oracle_points(board, empty)
        for p in empty[::7]:
            assert KIND.get(get_foul_type(grid, p % SIZE, p // SIZE)) == found.get(p)


def test_candidates_cover_every_forbidden_point_of_the_reference() -> None:
    for board in games(8, 40) + dense_boards(8, 10):
        assert set(reference_points(board)) <= set(candidates(board))


def test_agrees_with_the_renju_package_on_3000_games() -> None:
    assert_agree(games(1, 3000), "oracle")


def test_agrees_with_the_renju_package_on_300_dense_boards() -> None:
    assert_agree(dense_boards(1, 300), "oracle")


def test_agrees_with_the_literal_reference_on_150_games() -> None:
    assert_agree(games(2, 150), "reference")


def test_agrees_with_the_literal_reference_on_15_dense_boards() -> None:
    assert_agree(dense_boards(2, 15), "reference")


DEEP = [
    # (Black stones, point, verdict, depth that decides)
    ("e7 f8 c9 d9 c10 e10 f10 c11", "e8", "33", 2),
    ("f8 d9 e9 e10 f10 i10 c12 d12 c13 f13", "d11", "legal", 3),
    ("g3 h3 i3 j3 g4 i4 k4 l4 k5 j6 l6 i8", "i5", "33", 4),
]


@pytest.mark.parametrize(("black", "point", "verdict", "depth"), DEEP)
def test_deep_cases_need_their_depth_and_everyone_agrees(
    black: str, point: str, verdict: str, depth: int
) -> None:
    board = Board()
    for p in parse_points(black):
        board.cells[p] = Colour.BLACK
    p = parse_point(point)
    cells = list(board.cells)
    assert reference_verdict(cells, p) == verdict
    cut = [reference_verdict(cells, p, d) for d in range(depth + 2)]
    assert cut[depth - 1] != verdict  # cut off one level earlier, the answer flips
    assert cut[depth:] == [verdict] * (len(cut) - depth)
    assert mine(board).get(p, "legal") == verdict
    assert oracle_points(board, [p]).get(p, "legal") == verdict


@pytest.mark.slow
def test_agrees_with_the_renju_package_on_30000_games() -> None:
    for seed in range(100, 130):
        assert_agree(games(seed, 1000), "oracle")


@pytest.mark.slow
def test_agrees_with_the_renju_package_on_3000_dense_boards() -> None:
    for seed in range(100, 130):
        assert_agree(dense_boards(seed, 100), "oracle")


@pytest.mark.slow
def test_agrees_with_the_literal_reference_on_3000_games_and_300_dense_boards() -> None:
    for seed in range(100, 110):
        assert_agree(games(seed, 300), "reference")
        assert_agree(dense_boards(seed, 30), "reference")
