"""The referee's explanation of one point: why Black may or may not play it.

``explain(board, p)`` judges a Black stone on the empty point ``p`` with the same engine
as ``forbidden_points`` and says, line by line, what the stone would make: a five, an
overline, each four (its stones and the point(s) that would make it five), each three
(its stones and its straight-four points, and whether each of those points is legal for
Black with the stone on ``p`` on the board). For a three that does not count, every
straight-four point gets its reason — it makes a five, or it is an overline, double-four
or double-three point there — and, one level deep by default, the explanation of that
point itself. The verdict always comes from the full recursion, however deep the
position needs; only the *text* stops after ``depth`` levels.

An occupied point is an error (``OccupiedPointError``), not a verdict: a referee asks
about a point a stone could be put on.

The verdicts come from ``wuzi.rules.verdict``, the judge's core that
``wuzi.rules.forbidden`` builds its scans on too; an explanation is about one point, so it
needs nothing of those scans.
"""

from __future__ import annotations

from dataclasses import dataclass

from wuzi.rules.board import SIZE, Board, Point, point_name, sort_key
from wuzi.rules.patterns import (
    BLACK,
    PADDED,
    POINT_AT,
    STEP_VECTORS,
    STEPS,
    LineShape,
    analyse_window,
    pad_cells,
    window_at,
)
from wuzi.rules.verdict import ForbiddenKind, Verdict, check_empty, verdict_at

DIRECTION_WORDS = ("horizontal", "vertical", "diagonal", "anti-diagonal")


def line_name(p: Point, direction: int) -> str:
    """A referee's name for the line through ``p``: ``horizontal row 8``, ``vertical
    column h``, ``diagonal a1–o15`` (rising to the right), ``anti-diagonal a15–o1``."""
    x, y = p % SIZE, p // SIZE
    if direction == 0:
        return f"horizontal row {y + 1}"
    if direction == 1:
        return f"vertical column {'abcdefghijklmno'[x]}"
    dx, dy = STEP_VECTORS[direction]
    ends = []
    for sgn in (-1, 1):
        ex, ey = x, y
        while 0 <= ex + sgn * dx < SIZE and 0 <= ey + sgn * dy < SIZE:
            ex, ey = ex + sgn * dx, ey + sgn * dy
        ends.append(ey * SIZE + ex)
    first, last = sorted(ends, key=sort_key)
    return f"{DIRECTION_WORDS[direction]} {point_name(first)}–{point_name(last)}"


def _names(points: tuple[Point, ...]) -> str:
    return " ".join(point_name(q) for q in sorted(points, key=sort_key))


@dataclass(frozen=True)
class FourReport:
    """One four: its four stones and where one more stone makes exactly five."""

    stones: tuple[Point, ...]
    five_points: tuple[Point, ...]


@dataclass(frozen=True)
class StraightFourPoint:
    """A point that turns a three into a straight four, and what Black would be there
    (with the three's new stone on the board). While the text depth lasts, ``detail``
    explains a point that is not legal, or one that is legal although it makes two or
    more threes (because they do not all count)."""

    point: Point
    verdict: Verdict
    detail: Explanation | None = None

    @property
    def reason(self) -> str:
        if self.verdict is Verdict.LEGAL:
            if self.detail is not None and self.detail.threes >= 2:
                real, threes = self.detail.real_threes, self.detail.threes
                if real == 0:
                    return f"legal (none of its {threes} threes is real)"
                verb = "is" if real == 1 else "are"
                return f"legal (only {real} of its {threes} threes {verb} real)"
            return "legal"
        if self.verdict is Verdict.FIVE:
            return "makes five there, so it is no straight four"
        kind = self.verdict.kind
        assert kind is not None
        return f"{kind.words} point ({kind.value}) there"


@dataclass(frozen=True)
class ThreeReport:
    """One three: its stones and its straight-four points; real if one of them is legal."""

    stones: tuple[Point, ...]
    straight_four_points: tuple[StraightFourPoint, ...]

    @property
    def real(self) -> bool:
        return any(s.verdict is Verdict.LEGAL for s in self.straight_four_points)


@dataclass(frozen=True)
class LineReport:
    """What the stone makes along one line (only lines where it makes something)."""

    name: str
    run: tuple[Point, ...]  # the unbroken run through the point
    fours: tuple[FourReport, ...]
    three: ThreeReport | None

    @property
    def five(self) -> bool:
        return len(self.run) == 5

    @property
    def overline(self) -> bool:
        return len(self.run) >= 6


@dataclass(frozen=True)
class Explanation:
    """The verdict on a Black stone at ``point`` and the shapes behind it.

    ``assumed`` are hypothetical Black stones already on the board for this explanation
    (empty at the top level; the three's stone for a nested straight-four point).
    """

    point: Point
    verdict: Verdict
    lines: tuple[LineReport, ...]
    assumed: tuple[Point, ...] = ()

    @property
    def kind(self) -> ForbiddenKind | None:
        return self.verdict.kind

    @property
    def forbidden(self) -> bool:
        return self.verdict.kind is not None

    @property
    def fours(self) -> int:
        return sum(len(line.fours) for line in self.lines)

    @property
    def threes(self) -> int:
        return sum(1 for line in self.lines if line.three is not None)

    @property
    def real_threes(self) -> int:
        return sum(1 for line in self.lines if line.three is not None and line.three.real)

    def headline(self) -> str:
        name = point_name(self.point)
        if self.verdict is Verdict.FIVE:
            return f"{name}: Black makes five (a five wins even if it also makes a forbidden shape)"
        kind = self.verdict.kind
        if kind is None:
            return f"{name}: legal for Black"
        return f"{name}: FORBIDDEN for Black — {kind.words} ({kind.value})"

    def summary(self) -> str:
        """Why the verdict follows from the shapes, in one sentence."""
        if self.verdict is Verdict.FIVE:
            return "an exact five: Black wins"
        if self.verdict is Verdict.OVERLINE:
            return "six or more in a row: overline"
        fours = self.fours
        if self.verdict is Verdict.DOUBLE_FOUR:
            return f"{fours} fours: double-four"
        real, threes = self.real_threes, self.threes
        parts = [f"{fours} four" + ("" if fours == 1 else "s")] if fours else []
        parts.append(f"{real} real three" + ("" if real == 1 else "s"))
        if threes > real:
            parts.append(
                f"{threes - real} three"
                + (" that does" if threes - real == 1 else "s that do")
                + " not count"
            )
        counted = ", ".join(parts)
        if self.verdict is Verdict.DOUBLE_THREE:
            return f"{counted}: double-three" + (" (four-three-three)" if fours else "")
        if fours == 1 and real == 1:
            return f"{counted}: a single four and a single three are legal"
        return f"{counted}: legal"

    def render(self, indent: str = "") -> str:
        """The referee's text: the verdict, then one line per line with a shape, then why."""
        out = [indent + self.headline()]
        if self.assumed:
            out[0] += f" [with Black also on {_names(self.assumed)}]"
        for line in self.lines:
            out.extend(_render_line(line, indent + "  "))
        if not self.lines:
            out.append(indent + "  no five, overline, four or three on any line")
        out.append(indent + "  => " + self.summary())
        return "\n".join(out)

    def __str__(self) -> str:
        return self.render()


def _render_line(line: LineReport, indent: str) -> list[str]:
    out: list[str] = []
    if line.overline:
        out.append(f"{indent}{line.name}: overline of {len(line.run)}: {_names(line.run)}")
        return out
    if line.five:
        out.append(f"{indent}{line.name}: five {_names(line.run)}")
        return out
    if len(line.fours) > 1:
        out.append(f"{indent}{line.name}: {len(line.fours)} fours on one line")
    for four in line.fours:
        head = f"{indent}{line.name}: " if len(line.fours) == 1 else f"{indent}  "
        what = "straight four" if len(four.five_points) == 2 else "four"
        out.append(f"{head}{what} {_names(four.stones)} (five on {_names(four.five_points)})")
    three = line.three
    if three is not None:
        verdict = "real" if three.real else "not real"
        out.append(f"{indent}{line.name}: three {_names(three.stones)} — {verdict}")
        for s in three.straight_four_points:
            out.append(f"{indent}  straight-four point {point_name(s.point)}: {s.reason}")
            if s.detail is not None:
                out.append(s.detail.render(indent + "    "))
    return out


def _report(padded: bytearray, p: Point, assumed: tuple[Point, ...], depth: int) -> Explanation:
    """Explain Black on ``p`` in the padded position (which already holds ``assumed``)."""
    i = PADDED[p]
    verdict = Verdict(verdict_at(padded, i, frozenset(PADDED[a] for a in assumed), {}))
    lines: list[LineReport] = []
    for d, step in enumerate(STEPS):
        shape: LineShape = analyse_window(window_at(padded, i, step))
        if not (shape.fours or shape.three or len(shape.run) >= 5):
            continue

        def at(offset: int, step: int = step) -> Point:
            return POINT_AT[i + offset * step]

        fours = tuple(
            FourReport(tuple(at(o) for o in f.stones), tuple(at(o) for o in f.five_points))
            for f in shape.fours
        )
        three: ThreeReport | None = None
        if shape.three is not None:
            points: list[StraightFourPoint] = []
            padded[i] = BLACK
            try:
                for o in shape.three.straight_four_points:
                    q = at(o)
                    placed = (*assumed, p)
                    sub = Verdict(
                        verdict_at(padded, PADDED[q], frozenset(PADDED[a] for a in placed), {})
                    )
                    detail = None
                    if depth > 0:
                        nested = _report(padded, q, placed, depth - 1)
                        if sub.kind is not None or (sub is Verdict.LEGAL and nested.threes >= 2):
                            detail = nested  # a forbidden point, or a 33 that is not one
                    points.append(StraightFourPoint(q, sub, detail))
            finally:
                padded[i] = 0
            three = ThreeReport(tuple(at(o) for o in shape.three.stones), tuple(points))
        lines.append(LineReport(line_name(p, d), tuple(at(o) for o in shape.run), fours, three))
    return Explanation(p, verdict, tuple(lines), assumed)


def explain(board: Board, p: Point, *, depth: int = 1) -> Explanation:
    """The referee's explanation of a Black stone on the empty point ``p``.

    ``depth`` is how many levels of straight-four points get their own explanation in
    the text (the verdicts are always fully recursive). Raises ``InvalidPointError`` for
    a bad point and ``OccupiedPointError`` for a point that holds a stone.
    """
    q = check_empty(board.cells, p)
    return _report(pad_cells(board.cells), q, (), depth)
