"""What one Black stone makes along one line, read from the 11 cells around it.

Whether a Black stone on ``p`` makes a five, an overline, fours or a three along one
direction depends only on the cells up to five points either side of ``p`` on that line
(a five or a four with the cells that keep it exact spans at most ``p-5 … p+5``; so does
a straight four with both ends and the cells beyond them). So the judge reads an
**11-cell window** — a ``bytes`` of cell codes, ``0`` empty, ``1`` Black, ``2`` blocked
(a White stone or the edge) — and this module says what the window holds, once per
distinct window (a lazily filled table of at most 3¹⁰ entries, so importing is instant).

The board is kept **padded**: rows of stride 20 with five blocked cells between rows and
five blocked rows above and below, so every window of every board point is one slice
``padded[i - 5*s : i + 5*s + 1 : s]`` with the step ``s`` of its direction, and every line
of the board (with five blocked cells at each end) is one slice too.

Line-local facts only; the recursion that decides whether a three is *real* lives in
``wuzi.rules.forbidden``.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.rules.board import POINTS, SIZE, Point

EMPTY = 0
BLACK = 1
BLOCKED = 2

RADIUS = 5  # cells either side of the point in a window
WINDOW = 2 * RADIUS + 1
CENTRE = RADIUS

# --- the padded board -------------------------------------------------------------

STRIDE = SIZE + RADIUS  # 20: the right margin of a row is the left margin of the next
PADDED_LENGTH = (SIZE + 2 * RADIUS) * STRIDE + RADIUS  # 505: every window slice fits

# Steps of the four directions on the padded board, in the order of wuzi.rules.wins
# DIRECTIONS: horizontal (x+1), vertical (y+1), diagonal (x+1, y+1), anti-diagonal
# (read as x-1, y+1, the same line as (1, -1) walked the other way).
STEPS: tuple[int, ...] = (1, STRIDE, STRIDE + 1, STRIDE - 1)

# Direction vectors matching STEPS (dx, dy) on the board.
STEP_VECTORS: tuple[tuple[int, int], ...] = ((1, 0), (0, 1), (1, 1), (-1, 1))


def padded_index(p: Point) -> int:
    """The index of board point ``p`` in the padded layout."""
    return (p // SIZE + RADIUS) * STRIDE + p % SIZE + RADIUS


PADDED: tuple[int, ...] = tuple(padded_index(p) for p in range(POINTS))
_POINT_OF_INDEX = {i: p for p, i in enumerate(PADDED)}
POINT_AT: tuple[int, ...] = tuple(_POINT_OF_INDEX.get(i, -1) for i in range(PADDED_LENGTH))


def _empty_padded() -> bytes:
    cells = bytearray([BLOCKED]) * PADDED_LENGTH
    for i in PADDED:
        cells[i] = EMPTY
    return bytes(cells)


EMPTY_PADDED = _empty_padded()


_TOP = EMPTY_PADDED[: RADIUS * STRIDE + RADIUS]  # the blocked rows and margin before a1
_GAP = bytes([BLOCKED]) * RADIUS  # between the end of a row and the start of the next
_BOTTOM = EMPTY_PADDED[(SIZE + RADIUS - 1) * STRIDE + RADIUS + SIZE :]
_ROWS = tuple(slice(y * SIZE, y * SIZE + SIZE) for y in range(SIZE))


def padded_bytes(cells: bytes | bytearray) -> bytes:
    """The padded layout of a board's 225 cells (White stones read as blocked)."""
    rows = memoryview(cells)
    return _TOP + _GAP.join([rows[r] for r in _ROWS]) + _BOTTOM


def pad_cells(cells: bytes | bytearray) -> bytearray:
    """``padded_bytes`` as a ``bytearray``, for code that places stones in it."""
    return bytearray(padded_bytes(cells))


def window_at(padded: bytes | bytearray, i: int, step: int) -> bytes:
    """The 11-cell window around padded index ``i`` along ``step``."""
    return bytes(padded[i - RADIUS * step : i + RADIUS * step + 1 : step])


@dataclass(frozen=True)
class Line:
    """One line of the board with at least five points (shorter ones hold no shape).

    ``start:stop:step`` slices the padded board from five blocked cells before the
    line's first point to five after its last; ``points`` are its board points in order.
    """

    number: int
    direction: int  # index into STEPS
    start: int
    stop: int
    step: int
    points: tuple[Point, ...]


def _build_lines() -> tuple[Line, ...]:
    lines: list[Line] = []
    for d, (dx, dy) in enumerate(STEP_VECTORS):
        step = STEPS[d]
        starts: list[tuple[int, int]] = []
        for x in range(SIZE):
            for y in range(SIZE):
                px, py = x - dx, y - dy
                if not (0 <= px < SIZE and 0 <= py < SIZE):
                    starts.append((x, y))
        for x0, y0 in sorted(starts, key=lambda xy: (xy[1], xy[0])):
            pts: list[Point] = []
            x, y = x0, y0
            while 0 <= x < SIZE and 0 <= y < SIZE:
                pts.append(y * SIZE + x)
                x, y = x + dx, y + dy
            if len(pts) < 5:
                continue
            first = PADDED[pts[0]]
            start = first - RADIUS * step
            stop = first + (len(pts) - 1 + RADIUS) * step + 1
            lines.append(Line(len(lines), d, start, stop, step, tuple(pts)))
    return tuple(lines)


LINES: tuple[Line, ...] = _build_lines()

# --- what a window holds ----------------------------------------------------------


@dataclass(frozen=True)
class Four:
    """Four Black stones (offsets from the point, 0 included) and the empty point(s)
    where a fifth makes exactly five. A straight four has two such points."""

    stones: tuple[int, ...]
    five_points: tuple[int, ...]


@dataclass(frozen=True)
class Three:
    """A three: the stones (offsets, 0 included) and its straight-four points — the
    empty offsets where one more stone makes ``.XXXX.`` with both ends completing to
    exactly five."""

    stones: tuple[int, ...]
    straight_four_points: tuple[int, ...]


@dataclass(frozen=True)
class LineShape:
    """Everything a Black stone on the centre of a window makes along that line."""

    run: tuple[int, ...]  # the unbroken run through the point (offsets)
    fours: tuple[Four, ...]
    three: Three | None

    @property
    def five(self) -> bool:
        return len(self.run) == 5

    @property
    def overline(self) -> bool:
        return len(self.run) >= 6


def analyse_window(window: bytes) -> LineShape:
    """The shapes a Black stone on the centre of ``window`` makes along its line.

    The centre is read as Black whatever it holds. Fours are told apart by their stones
    (``.XXXX.`` is one four with two five points; ``X.XXX.X`` holds two); a row that could
    only complete into six or more is no four. A three is recorded with every point that
    turns it into a straight four; whether it is *real* is not a line-local question.
    """
    if len(window) != WINDOW:
        raise ValueError(f"a window has {WINDOW} cells, not {len(window)}")
    cells = list(window)
    cells[CENTRE] = BLACK
    lo = hi = CENTRE
    while lo > 0 and cells[lo - 1] == BLACK:
        lo -= 1
    while hi < WINDOW - 1 and cells[hi + 1] == BLACK:
        hi += 1
    run = tuple(k - CENTRE for k in range(lo, hi + 1))

    fives_by_stones: dict[tuple[int, ...], list[int]] = {}
    for a in range(1, CENTRE + 1):  # five-cell spans [a, a+4] holding the centre
        span = cells[a : a + 5]
        if span.count(BLACK) != 4 or EMPTY not in span:
            continue
        if cells[a - 1] == BLACK or cells[a + 5] == BLACK:
            continue  # filling the gap would make six or more
        stones = tuple(k - CENTRE for k in range(a, a + 5) if cells[k] == BLACK)
        gap = a + span.index(EMPTY) - CENTRE
        fives_by_stones.setdefault(stones, []).append(gap)
    fours = tuple(Four(s, tuple(sorted(g))) for s, g in sorted(fives_by_stones.items()))

    three_stones: set[int] = set()
    straight_points: list[int] = []
    for c in range(CENTRE - 3, CENTRE + 4):
        if cells[c] != EMPTY:
            continue
        cells[c] = BLACK
        a = b = c
        while a > 0 and cells[a - 1] == BLACK:
            a -= 1
        while b < WINDOW - 1 and cells[b + 1] == BLACK:
            b += 1
        if (
            b - a == 3
            and a <= CENTRE <= b
            and cells[a - 1] == EMPTY
            and cells[b + 1] == EMPTY
            and cells[a - 2] != BLACK
            and cells[b + 2] != BLACK
        ):
            straight_points.append(c - CENTRE)
            three_stones.update(k - CENTRE for k in range(a, b + 1) if k != c)
        cells[c] = EMPTY
    three = Three(tuple(sorted(three_stones)), tuple(straight_points)) if straight_points else None
    return LineShape(run, fours, three)


# A window's code packs what the fast paths need into one int:
#   bits 0-15  the window's *weight*: FIVE_WEIGHT if it makes five, else OVERLINE_WEIGHT
#              for an overline, else FOUR_WEIGHT per four plus THREE_WEIGHT for a three.
#              Weights of the four directions add up without carrying into each other,
#              so one sum says five / overline / how many fours / how many threes.
#   bits 16-27 up to four straight-four offsets, 3 bits each, stored as offset + 4.
FIVE_WEIGHT = 4096
OVERLINE_WEIGHT = 256
FOUR_WEIGHT = 16
THREE_WEIGHT = 1
WEIGHT_MASK = 0xFFFF
OFFSET_SHIFT = 16


def window_code(shape: LineShape) -> int:
    """The packed code of a window's shape (see the comment above)."""
    if shape.five:
        return FIVE_WEIGHT
    if shape.overline:
        return OVERLINE_WEIGHT
    weight = FOUR_WEIGHT * len(shape.fours)
    if shape.three is None:
        return weight
    code = weight + THREE_WEIGHT
    for n, offset in enumerate(shape.three.straight_four_points):
        code |= (offset + 4) << (OFFSET_SHIFT + 3 * n)
    return code


def straight_four_offsets(code: int) -> list[int]:
    """The straight-four offsets packed into a window code."""
    offsets: list[int] = []
    packed = code >> OFFSET_SHIFT
    while packed:
        offsets.append((packed & 7) - 4)
        packed >>= 3
    return offsets


# The lazily filled table window -> code. Bounded by 3**10 windows with an empty centre
# (and a few with the centre set, from explanations); filled as positions need it.
CODES: dict[bytes, int] = {}


def code_of(window: bytes) -> int:
    """The packed code of a window, memoised."""
    code = CODES.get(window)
    if code is None:
        code = CODES[window] = window_code(analyse_window(window))
    return code
