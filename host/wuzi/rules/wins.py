"""Rows of five: which moves win under each rule set.

Black may win only with exactly five in the renju rule set; White's six or more also
counts. Other rule sets choose per colour whether an overline wins (see ``RuleSet``).
This module answers "does this stone make a winning row?" and "which row?", the questions
the game state and the referee's view ask after every move.
"""

from __future__ import annotations

from wuzi.rules.board import SIZE, Board, Point

# The four line directions as (dx, dy): horizontal, vertical, diagonal, anti-diagonal.
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (1, -1))


def run_through(board: Board, p: Point, colour: int, dx: int, dy: int) -> list[Point]:
    """The unbroken run of ``colour`` through ``p`` along (dx, dy), counting ``p`` itself
    as that colour whether or not it is on the board yet; ordered along the direction."""
    cells = board.cells
    x0, y0 = p % SIZE, p // SIZE
    back: list[Point] = []
    x, y = x0 - dx, y0 - dy
    while 0 <= x < SIZE and 0 <= y < SIZE and cells[y * SIZE + x] == colour:
        back.append(y * SIZE + x)
        x, y = x - dx, y - dy
    forward: list[Point] = []
    x, y = x0 + dx, y0 + dy
    while 0 <= x < SIZE and 0 <= y < SIZE and cells[y * SIZE + x] == colour:
        forward.append(y * SIZE + x)
        x, y = x + dx, y + dy
    back.reverse()
    return [*back, p, *forward]


def winning_row(board: Board, p: Point, colour: int, *, overline_wins: bool) -> list[Point] | None:
    """The row that a stone of ``colour`` on ``p`` completes, or None.

    An exact five always wins; a run of six or more wins only if ``overline_wins``. When
    several directions qualify, an exact five is preferred, then the first direction.
    """
    overline: list[Point] | None = None
    for dx, dy in DIRECTIONS:
        run = run_through(board, p, colour, dx, dy)
        if len(run) == 5:
            return run
        if len(run) > 5 and overline is None:
            overline = run
    return overline if overline_wins else None


def makes_exact_five(board: Board, p: Point, colour: int) -> bool:
    """True if a stone of ``colour`` on ``p`` makes an unbroken row of exactly five."""
    return any(len(run_through(board, p, colour, dx, dy)) == 5 for dx, dy in DIRECTIONS)


def makes_overline(board: Board, p: Point, colour: int) -> bool:
    """True if a stone of ``colour`` on ``p`` makes a row of six or more."""
    return any(len(run_through(board, p, colour, dx, dy)) > 5 for dx, dy in DIRECTIONS)
