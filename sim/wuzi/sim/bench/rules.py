"""``wuzi bench rules``: how fast the forbidden-move judge is.

Figures (``emit(name, value, unit)``):

* ``rules.full_scan_per_s`` — full-board forbidden scans per second: ``forbidden_points``
  on a fresh ``Board`` of a random 10–60-move position, so building the padded board and
  slicing every line is included. Each position is scanned once; the process-wide memos
  (window codes, line entries) are warm from a *different* sample first, as they are in
  a host that has been judging games for a while.
* ``rules.full_scan_cold_per_s`` — the same with both memos emptied first, so the figure
  includes filling them (the first positions a freshly started host sees).
* ``rules.incremental_scan_per_s`` — ``IncrementalJudge.forbidden_points()`` after each
  move of random games (what the referees' view redraws after every move).
* ``rules.peer_full_scan_per_s`` — the ``renju`` package (``renju.check_forbid``) judging
  every empty point of some of the same positions (one ``ForbidChecker`` per position,
  which is kinder to it than ``get_foul_type`` per point: that rebuilds the checker).
* ``rules.move_check_us_median`` — judging one Black move of a game in progress:
  ``forbidden_kind(p)`` then ``place(p)`` on the ``IncrementalJudge``, median µs.

Positions come from ``random_position``: moves clustered near the centre and near earlier
stones, no five (or overline) on the board, so threes and fours are common.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from wuzi.rules.board import SIZE, Board, Colour, Point
from wuzi.rules.wins import winning_row

Emit = Callable[[str, float, str], None]


def random_moves(rng: random.Random, count: int) -> list[Point]:
    """A plausible move list of ``count`` moves, Black first: each stone near the centre or
    near an earlier stone, and no move completing five or more in a row for either side."""
    board = Board()
    moves: list[Point] = []
    colour = Colour.BLACK
    attempts = 0
    while len(moves) < count and attempts < 50 * count + 100:
        attempts += 1
        if not moves or rng.random() < 0.15:
            x = round(rng.gauss(7, 2.2))
            y = round(rng.gauss(7, 2.2))
        else:
            near = rng.choice(moves)
            x = near % SIZE + rng.randint(-2, 2)
            y = near // SIZE + rng.randint(-2, 2)
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            continue
        p = y * SIZE + x
        if board.cells[p] or winning_row(board, p, colour, overline_wins=True):
            continue
        board.cells[p] = colour
        moves.append(p)
        colour = colour.other
    return moves


def random_position(rng: random.Random, low: int = 10, high: int = 60) -> Board:
    """A plausible position of ``low``–``high`` moves (see ``random_moves``)."""
    return Board.from_moves(random_moves(rng, rng.randint(low, high)))


def peer_forbidden_points(board: Board) -> dict[Point, int]:
    """The ``renju`` package's verdicts on every empty point: 1 = 33, 2 = 44, 3 = ol.

    One ``ForbidChecker`` per position; ``foulr(x, y, 0)`` is what ``get_foul_type``
    calls, and it restores the checker's state before returning.
    """
    from renju.check_forbid import ForbidChecker

    grid = [[board.cells[y * SIZE + x] for y in range(SIZE)] for x in range(SIZE)]
    checker = ForbidChecker(grid, 0, 0)
    found: dict[Point, int] = {}
    for p in range(SIZE * SIZE):
        if not board.cells[p]:
            foul = checker.foulr(p % SIZE, p // SIZE, 0)
            if foul:
                found[p] = foul
    return found


def _rate(func: Callable[[Board], object], boards: list[Board]) -> float:
    started = time.perf_counter()
    for board in boards:
        func(board)
    return len(boards) / (time.perf_counter() - started)


def run(emit: Emit, quick: bool) -> None:
    from wuzi.rules import forbidden, patterns

    rng = random.Random(20260601)
    count = 300 if quick else 10000
    warm = [random_position(rng) for _ in range(count)]
    boards = [random_position(rng) for _ in range(count)]

    patterns.CODES.clear()
    forbidden.clear_memos()
    emit("rules.full_scan_cold_per_s", _rate(forbidden.forbidden_points, warm), "scans/s")
    emit("rules.full_scan_per_s", _rate(forbidden.forbidden_points, boards), "scans/s")

    peer = boards[: 3 if quick else 50]
    emit("rules.peer_full_scan_per_s", _rate(peer_forbidden_points, peer), "scans/s")

    games = 20 if quick else 300
    checks: list[float] = []
    scans: list[float] = []
    clock = time.perf_counter_ns
    for _ in range(games):
        judge = forbidden.IncrementalJudge()
        colour = Colour.BLACK
        for p in random_moves(rng, 60):
            if colour is Colour.BLACK:
                t0 = clock()
                judge.forbidden_kind(p)
                judge.place(p, colour)
                checks.append((clock() - t0) / 1000)
            else:
                judge.place(p, colour)
            t0 = clock()
            judge.forbidden_points()
            scans.append((clock() - t0) / 1e9)
            colour = colour.other
    emit("rules.incremental_scan_per_s", len(scans) / sum(scans), "scans/s")
    emit("rules.move_check_us_median", statistics.median(checks), "us")
