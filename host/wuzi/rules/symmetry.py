"""The 8 symmetries of the square board about its centre h8 (the dihedral group D4).

Used to recognise a designated opening in any orientation, to refuse equivalent
fifth-move offers, and by the property tests of the forbidden-move judge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from wuzi.rules.board import SIZE, Point

_C = SIZE // 2  # 7: h8 is (7, 7)

# Each symmetry maps centred coordinates (dx, dy) to new centred coordinates.
_MAPS: tuple[Callable[[int, int], tuple[int, int]], ...] = (
    lambda dx, dy: (dx, dy),  # identity
    lambda dx, dy: (-dy, dx),  # rotate 90° anticlockwise
    lambda dx, dy: (-dx, -dy),  # rotate 180°
    lambda dx, dy: (dy, -dx),  # rotate 270°
    lambda dx, dy: (-dx, dy),  # mirror left–right
    lambda dx, dy: (dx, -dy),  # mirror top–bottom
    lambda dx, dy: (dy, dx),  # mirror in the main diagonal
    lambda dx, dy: (-dy, -dx),  # mirror in the anti-diagonal
)

NAMES = (
    "identity",
    "rotate 90",
    "rotate 180",
    "rotate 270",
    "mirror left-right",
    "mirror top-bottom",
    "mirror diagonal",
    "mirror anti-diagonal",
)

SYMMETRIES = range(len(_MAPS))

# TABLE[k][p] is the image of point p under symmetry k (all stay on the board).
TABLE: tuple[tuple[Point, ...], ...] = tuple(
    tuple(
        (f(p % SIZE - _C, p // SIZE - _C)[1] + _C) * SIZE + f(p % SIZE - _C, p // SIZE - _C)[0] + _C
        for p in range(SIZE * SIZE)
    )
    for f in _MAPS
)


def transform(p: Point, k: int) -> Point:
    """The image of ``p`` under symmetry ``k`` (0–7)."""
    return TABLE[k][p]


def transform_all(points: Iterable[Point], k: int) -> list[Point]:
    t = TABLE[k]
    return [t[p] for p in points]


def inverse(k: int) -> int:
    """The symmetry that undoes ``k``."""
    for j in SYMMETRIES:
        if TABLE[j][TABLE[k][0]] == 0 and TABLE[j][TABLE[k][1]] == 1:
            return j
    raise AssertionError("D4 is a group")  # pragma: no cover
