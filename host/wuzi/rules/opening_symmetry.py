"""Symmetries of a pattern of stones, to refuse equivalent fifth-move offers.

Two offers are equivalent when a symmetry of the standing stones (the first four, for a
fifth move) maps one onto the other: the position after either is the same up to a
rotation or mirror. Which symmetries count is a setting:

* ``"plane"`` (the default, RULES.md): any isometry of the square lattice — one of the 8
  rotations/mirrors followed by a translation — that maps the black stones onto the black
  stones and the white onto the white. The board edge is ignored, so the centre of the
  symmetry is the pattern's own (it may lie between points), not necessarily h8.
* ``"h8"``: only the 8 board symmetries about h8 (``wuzi.rules.symmetry``).

A finite pattern's symmetries all fix its centroid, so they form a group of at most 8
elements (no translations), and are cheap to find: map the first black stone onto each
black stone and test.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from wuzi.rules import symmetry
from wuzi.rules.board import SIZE, Colour, Point

MODES = ("plane", "h8")

# The linear part of each symmetry of wuzi.rules.symmetry, in the same order:
# (a, b, c, d) maps (x, y) to (a*x + b*y, c*x + d*y).
LINEAR: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1),  # identity
    (0, -1, 1, 0),  # rotate 90° anticlockwise
    (-1, 0, 0, -1),  # rotate 180°
    (0, 1, -1, 0),  # rotate 270°
    (-1, 0, 0, 1),  # mirror left–right
    (1, 0, 0, -1),  # mirror top–bottom
    (0, 1, 1, 0),  # mirror in the main diagonal
    (0, -1, -1, 0),  # mirror in the anti-diagonal
)


@dataclass(frozen=True)
class Isometry:
    """``p -> L_k(p) + (tx, ty)`` on 0-based board coordinates (x = column, y = row - 1)."""

    k: int
    tx: int = 0
    ty: int = 0

    def apply_xy(self, x: int, y: int) -> tuple[int, int]:
        a, b, c, d = LINEAR[self.k]
        return a * x + b * y + self.tx, c * x + d * y + self.ty

    def apply(self, p: Point) -> Point | None:
        """The image of ``p``, or None when it falls off the board."""
        x, y = self.apply_xy(p % SIZE, p // SIZE)
        return y * SIZE + x if 0 <= x < SIZE and 0 <= y < SIZE else None

    @property
    def name(self) -> str:
        return symmetry.NAMES[self.k]

    @property
    def is_identity(self) -> bool:
        return self.k == 0 and self.tx == 0 and self.ty == 0


def about_h8(k: int) -> Isometry:
    """Board symmetry ``k`` of ``wuzi.rules.symmetry`` as an isometry (it fixes h8)."""
    c = SIZE // 2
    a, b, cc, d = LINEAR[k]
    return Isometry(k, c - (a * c + b * c), c - (cc * c + d * c))


def check_mode(mode: str) -> str:
    if mode not in MODES:
        raise ValueError(f"offer equivalence must be 'plane' or 'h8', not {mode!r}")
    return mode


def pattern_symmetries(
    stones: Iterable[tuple[Point, Colour]], mode: str = "plane"
) -> tuple[Isometry, ...]:
    """Every symmetry (identity first) mapping the coloured ``stones`` onto themselves."""
    check_mode(mode)
    black = {(p % SIZE, p // SIZE) for p, c in stones if c is Colour.BLACK}
    white = {(p % SIZE, p // SIZE) for p, c in stones if c is Colour.WHITE}
    if mode == "h8":
        candidates: Sequence[Isometry] = [about_h8(k) for k in symmetry.SYMMETRIES]
    else:
        anchor_set = black or white
        if not anchor_set:  # no pattern to keep: only the identity is reported
            return (Isometry(0),)
        ax, ay = min(anchor_set)
        candidates = []
        for k, (a, b, c, d) in enumerate(LINEAR):
            lx, ly = a * ax + b * ay, c * ax + d * ay
            candidates.extend(Isometry(k, x - lx, y - ly) for x, y in sorted(anchor_set))
    found = [
        g
        for g in candidates
        if {g.apply_xy(x, y) for x, y in black} == black
        and {g.apply_xy(x, y) for x, y in white} == white
    ]
    found.sort(key=lambda g: (not g.is_identity, g.k))
    return tuple(found)


def equivalence(group: Sequence[Isometry], p: Point, q: Point) -> Isometry | None:
    """A symmetry of ``group`` mapping ``p`` onto ``q`` (None if the two are not equivalent).
    ``p == q`` gives the identity."""
    for g in group:
        if g.apply(p) == q:
            return g
    return None


def equivalent_points(group: Sequence[Isometry], p: Point) -> frozenset[Point]:
    """``p`` and every point on the board equivalent to it."""
    images = (g.apply(p) for g in group)
    return frozenset(q for q in images if q is not None)
