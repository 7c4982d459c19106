"""Black's forbidden moves under the renju rules (Chinese 2013 = RIF), as RULES.md defines.

A Black move that makes an exact five wins, whatever else it makes. Otherwise it is
forbidden if it makes an overline (six or more), a double-four (two or more fours, told
apart by their stones) or a double-three (two or more *real* threes: a three is real if
at least one of its straight-four points is itself legal for Black — no five, no
overline, no double-four, no double-three there, judged recursively with the three's
stone on the board). When several apply, the kind reported is the first of
overline > double-four > double-three.

How it is fast (docs/forbidden.md has the whole story):

* ``wuzi.rules.patterns`` reads each point's four 11-cell windows; a lazily filled table
  turns a window into a packed code (five / overline / fours / three and its
  straight-four points) whose weights add up across directions.
* A full scan slices each of the 72 lines of the board (at least five points long) out of
  a padded copy of the board, cuts out the segment around its Black stones and looks it
  up in a memo of ``(offset, weight)`` entries; summing the entries per point says at
  once which points are overline or double-four points and which have two or more threes.
* Only points with two or more threes need the recursive real-three test; it places
  stones on the padded board in place and memoises ``(hypothetical stones, point)``.
  Every level adds one stone, so the recursion cannot cycle and always ends.

``IncrementalJudge`` keeps the padded board and the per-point sums up to date stone by
stone, for the game in progress.

The verdict on a single point — the kinds, ``Verdict`` and the real-three recursion — is
``wuzi.rules.verdict``, which ``wuzi.rules.explain`` (the referee's explanation of a point)
shares; this module adds what only whole positions need.
"""

from __future__ import annotations

from wuzi.rules.board import POINTS, Board, Colour, Point, point_name
from wuzi.rules.errors import RulesError
from wuzi.rules.patterns import (
    BLACK,
    BLOCKED,
    CODES,
    EMPTY,
    EMPTY_PADDED,
    FIVE_WEIGHT,
    FOUR_WEIGHT,
    LINES,
    OVERLINE_WEIGHT,
    PADDED,
    PADDED_LENGTH,
    POINT_AT,
    RADIUS,
    STEPS,
    WEIGHT_MASK,
    code_of,
    pad_cells,
    padded_bytes,
)
from wuzi.rules.verdict import (
    ForbiddenKind,
    Memo,
    Verdict,
    check_empty,
    check_point,
    codes_at,
    double_three,
    verdict_at,
)

_OVERLINE = int(Verdict.OVERLINE)
_DOUBLE_FOUR = int(Verdict.DOUBLE_FOUR)
_DOUBLE_THREE = int(Verdict.DOUBLE_THREE)
_KIND_OF: dict[int, ForbiddenKind] = {
    _OVERLINE: ForbiddenKind.OVERLINE,
    _DOUBLE_FOUR: ForbiddenKind.DOUBLE_FOUR,
    _DOUBLE_THREE: ForbiddenKind.DOUBLE_THREE,
}


# --- full scans ---------------------------------------------------------------------

# What a line contributes: for each empty point with a shape, (offset, weight), where the
# offset is the point's padded index minus that of the line's first Black stone.
Entries = tuple[tuple[int, int], ...]

# The shapes along a line depend only on the cells from three before its first Black
# stone to three after its last (a four or straight four needs three Black stones
# besides the point within four cells, and checks at most one cell past its ends as
# empty and one more as not Black; everything further out is certainly not Black). So
# that *segment* is the memo key: it recurs across lines, positions and games far more
# often than whole lines do. One memo per direction (offsets depend on the step),
# cleared when full so a long-running host never grows without limit.
SEGMENT_MARGIN = 3
SEGMENT_MEMO_LIMIT = 1 << 15
_SEGMENT_MEMOS: tuple[dict[bytes, Entries], ...] = tuple({} for _ in STEPS)
_LINE_SLICES: tuple[tuple[int, int, int, dict[bytes, Entries]], ...] = tuple(
    (line.start, line.stop, line.step, _SEGMENT_MEMOS[line.direction]) for line in LINES
)
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(line.number for line in LINES if p in line.points) for p in range(POINTS)
)


def clear_memos() -> None:
    """Forget every memoised segment: a cold judge, for measuring (``wuzi bench rules``)."""
    for memo in _SEGMENT_MEMOS:
        memo.clear()


def _segment_entries(
    memo: dict[bytes, Entries], segment: bytes, key: bytes, first: int, last: int, step: int
) -> Entries:
    """Compute (and memoise under ``segment``) the entries of the line ``key`` whose first
    and last Black stones are at ``first`` and ``last``."""
    found: list[tuple[int, int]] = []
    get = CODES.get
    for k in range(first - 2, last + 3):  # a shape's point is within two of the stones
        if key[k] == EMPTY:  # (padding is blocked: off-board cells never match)
            w = key[k - RADIUS : k + RADIUS + 1]
            code = get(w)
            if code is None:
                code = code_of(w)
            weight = code & WEIGHT_MASK
            if weight:
                found.append(((k - first) * step, weight))
    entries = tuple(found)
    if len(memo) >= SEGMENT_MEMO_LIMIT:
        memo.clear()
    memo[segment] = entries
    return entries


def _line_entries(data: bytes | bytearray, n: int) -> tuple[int, Entries]:
    """The padded index of line ``n``'s first Black stone and its entries (0, () if the
    line holds fewer than two Black stones: then it has no shape)."""
    start, stop, step, memo = _LINE_SLICES[n]
    key = bytes(data[start:stop:step])
    first = key.find(BLACK)
    if first < 0:
        return 0, ()
    last = key.rfind(BLACK)
    if last == first:
        return 0, ()
    segment = key[first - SEGMENT_MARGIN : last + SEGMENT_MARGIN + 1]
    entries = memo.get(segment)
    if entries is None:
        entries = _segment_entries(memo, segment, key, first, last, step)
    return start + first * step, entries


def _classify(data: bytes | bytearray, weights: list[int], hot: set[int]) -> dict[int, int]:
    """The forbidden verdicts among the ``hot`` points (padded indices) given their sums."""
    found: dict[int, int] = {}
    memo: Memo = {}
    none: frozenset[int] = frozenset()
    padded = bytearray()  # a copy to place hypothetical stones in, made when first needed
    for q in hot:
        weight = weights[q]
        if weight >= FIVE_WEIGHT:
            continue
        if weight >= OVERLINE_WEIGHT:
            found[q] = _OVERLINE
        elif weight >= 2 * FOUR_WEIGHT:
            found[q] = _DOUBLE_FOUR
        elif weight & (FOUR_WEIGHT - 1) >= 2:
            if not padded:
                padded = bytearray(data)
            if double_three(padded, q, codes_at(padded, q), none, memo) == _DOUBLE_THREE:
                found[q] = _DOUBLE_THREE
    return found


def _scan(data: bytes) -> dict[int, int]:
    """Every forbidden point of a padded position: padded index -> verdict."""
    weights = [0] * PADDED_LENGTH
    hot: list[int] = []
    for start, stop, step, memo in _LINE_SLICES:
        key = data[start:stop:step]
        first = key.find(BLACK)
        if first < 0:
            continue
        last = key.rfind(BLACK)
        if last == first:
            continue
        segment = key[first - SEGMENT_MARGIN : last + SEGMENT_MARGIN + 1]
        entries = memo.get(segment)
        if entries is None:
            entries = _segment_entries(memo, segment, key, first, last, step)
        base = start + first * step
        for offset, w in entries:
            q = base + offset
            total = weights[q] + w
            weights[q] = total
            if total >= 2:
                hot.append(q)
    return _classify(data, weights, set(hot))


def forbidden_points(board: Board) -> dict[Point, ForbiddenKind]:
    """Every empty point where Black may not play, with the first reason of ol > 44 > 33.

    A point where Black makes an exact five is never forbidden. The answer is for Black
    whichever side is to move.
    """
    return {POINT_AT[i]: _KIND_OF[v] for i, v in _scan(padded_bytes(board.cells)).items()}


def judge(board: Board, p: Point) -> Verdict:
    """What a Black stone on the empty point ``p`` would be: legal, five or forbidden.

    Raises ``InvalidPointError`` for a bad point and ``OccupiedPointError`` for a point
    that holds a stone.
    """
    q = check_empty(board.cells, p)
    return Verdict(verdict_at(pad_cells(board.cells), PADDED[q], frozenset(), {}))


def forbidden_kind(board: Board, p: Point) -> ForbiddenKind | None:
    """Why Black may not play ``p`` (empty), or None if Black may (a five is never forbidden)."""
    return judge(board, p).kind


class IncrementalJudge:
    """Black's forbidden points of a game in progress, kept up to date stone by stone.

    ``place`` and ``remove`` touch only the four lines through the point: the padded
    board gets one cell, each line's entries are looked up again (usually a memo hit) and
    the per-point weight sums are corrected, so ``forbidden_points`` only has to classify
    the handful of points with two or more shapes, and ``forbidden_kind`` reads four
    windows. Bad input raises a ``RulesError`` and leaves the judge unchanged.
    """

    __slots__ = ("_cells", "_hot", "_lines", "_padded", "_weights")

    def __init__(self, board: Board | None = None) -> None:
        self._cells = bytearray(POINTS) if board is None else bytearray(board.cells)
        self._padded = bytearray(EMPTY_PADDED) if board is None else pad_cells(board.cells)
        self._weights = [0] * PADDED_LENGTH
        self._lines: list[tuple[int, Entries]] = [(0, ()) for _ in LINES]
        self._hot: set[int] = set()
        for line in LINES:
            self._refresh(line.number)

    @classmethod
    def from_board(cls, board: Board) -> IncrementalJudge:
        return cls(board)

    def board(self) -> Board:
        """A copy of the position the judge holds."""
        return Board(self._cells)

    def colour_at(self, p: Point) -> Colour | None:
        c = self._cells[check_point(p)]
        return Colour(c) if c else None

    def place(self, p: Point, colour: Colour | int) -> None:
        """Put a stone of ``colour`` on the empty point ``p``."""
        q = check_empty(self._cells, p)
        if colour not in (Colour.BLACK, Colour.WHITE):
            raise RulesError(f"a stone is black or white, not {colour!r}")
        self._cells[q] = colour
        self._padded[PADDED[q]] = BLACK if colour == Colour.BLACK else BLOCKED
        for n in LINES_THROUGH[q]:
            self._refresh(n)

    def remove(self, p: Point) -> None:
        """Take the stone off ``p`` (an offer withdrawn, a misread corrected)."""
        q = check_point(p)
        if not self._cells[q]:
            raise RulesError(f"{point_name(q)} holds no stone to remove")
        self._cells[q] = EMPTY
        self._padded[PADDED[q]] = EMPTY
        for n in LINES_THROUGH[q]:
            self._refresh(n)

    def _refresh(self, n: int) -> None:
        base, entries = _line_entries(self._padded, n)
        old_base, old_entries = self._lines[n]
        if base == old_base and entries is old_entries:
            return
        weights = self._weights
        for offset, w in old_entries:
            weights[old_base + offset] -= w
        for offset, w in entries:
            weights[base + offset] += w
        self._lines[n] = (base, entries)
        hot = self._hot
        for offset, _ in old_entries:
            q = old_base + offset
            if weights[q] < 2:
                hot.discard(q)
        for offset, _ in entries:
            q = base + offset
            if weights[q] >= 2:
                hot.add(q)

    def judge(self, p: Point) -> Verdict:
        """What a Black stone on the empty point ``p`` would be now."""
        q = check_empty(self._cells, p)
        return Verdict(verdict_at(self._padded, PADDED[q], frozenset(), {}))

    def forbidden_kind(self, p: Point) -> ForbiddenKind | None:
        """Why Black may not play ``p`` now, or None (legal, or a five)."""
        return self.judge(p).kind

    def forbidden_points(self) -> dict[Point, ForbiddenKind]:
        """Every empty point where Black may not play now (see ``forbidden_points``)."""
        found = _classify(self._padded, self._weights, self._hot)
        return {POINT_AT[i]: _KIND_OF[v] for i, v in found.items()}


ForbiddenJudge = IncrementalJudge
