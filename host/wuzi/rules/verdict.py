"""The verdict on one point: what a Black stone on an empty point would be.

This is the core of the renju judge (RULES.md; docs/forbidden.md has the whole story),
kept apart from the two things built on it so that each can use it without the other:
``wuzi.rules.forbidden`` scans whole positions and follows a game stone by stone, and
``wuzi.rules.explain`` writes the referee's explanation of one point. Both need the same
recursive real-three test and the same kinds, and neither needs the other.

A point's verdict comes from its four 11-cell windows (``wuzi.rules.patterns``): their
packed codes' weights add up to "five", "overline", "two or more fours" or "two or more
threes". Only the last needs the recursion: a three is real if one of its straight-four
points is itself legal for Black with the three's stone on the board. Every level adds
one stone, so the recursion cannot cycle and always ends; ``Memo`` keeps what it found.

The core works on the padded board (``patterns.pad_cells``) with plain ints whose values
are those of ``Verdict``, because it runs in the inner loop of every scan.
"""

from __future__ import annotations

import enum

from wuzi.rules.board import POINTS, Point, point_name
from wuzi.rules.errors import InvalidPointError, OccupiedPointError
from wuzi.rules.patterns import (
    BLACK,
    CODES,
    EMPTY,
    FIVE_WEIGHT,
    FOUR_WEIGHT,
    OVERLINE_WEIGHT,
    RADIUS,
    STEPS,
    WEIGHT_MASK,
    code_of,
    straight_four_offsets,
)

__all__ = [
    "ForbiddenKind",
    "Memo",
    "Verdict",
    "check_empty",
    "check_point",
    "codes_at",
    "double_three",
    "verdict_at",
]


class ForbiddenKind(str, enum.Enum):  # noqa: UP042 — str() stays 'ForbiddenKind.X'
    """Why Black may not play a point; the value is the notation of ``wuzi rules forbidden``."""

    DOUBLE_THREE = "33"
    DOUBLE_FOUR = "44"
    OVERLINE = "ol"

    @property
    def words(self) -> str:
        return _KIND_WORDS[self]


_KIND_WORDS = {
    ForbiddenKind.DOUBLE_THREE: "double-three",
    ForbiddenKind.DOUBLE_FOUR: "double-four",
    ForbiddenKind.OVERLINE: "overline",
}


class Verdict(enum.IntEnum):
    """What a Black stone on an empty point would be (the core works with these ints)."""

    LEGAL = 0
    FIVE = 1  # an exact five: wins, never forbidden
    OVERLINE = 2
    DOUBLE_FOUR = 3
    DOUBLE_THREE = 4

    @property
    def kind(self) -> ForbiddenKind | None:
        """The forbidden kind of this verdict, None for a legal move or a five."""
        return _VERDICT_KIND[self]


_VERDICT_KIND: dict[Verdict, ForbiddenKind | None] = {
    Verdict.LEGAL: None,
    Verdict.FIVE: None,
    Verdict.OVERLINE: ForbiddenKind.OVERLINE,
    Verdict.DOUBLE_FOUR: ForbiddenKind.DOUBLE_FOUR,
    Verdict.DOUBLE_THREE: ForbiddenKind.DOUBLE_THREE,
}

_LEGAL = int(Verdict.LEGAL)
_FIVE = int(Verdict.FIVE)
_OVERLINE = int(Verdict.OVERLINE)
_DOUBLE_FOUR = int(Verdict.DOUBLE_FOUR)
_DOUBLE_THREE = int(Verdict.DOUBLE_THREE)

# The memo of the real-three recursion: (hypothetical Black stones, padded point) -> verdict.
# Valid for one base position only; every public entry point starts a fresh one.
Memo = dict[tuple[frozenset[int], int], int]

_S0, _S1, _S2, _S3 = STEPS
_R0, _R1, _R2, _R3 = (RADIUS * s for s in STEPS)


def check_point(p: object) -> Point:
    """``p`` if it is a point index, else ``InvalidPointError``."""
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < POINTS:
        raise InvalidPointError(f"{p!r} is not a point index (0–224)")
    return p


def check_empty(cells: bytes | bytearray, p: object) -> Point:
    """``p`` if it is an empty point of ``cells``: only an empty point can be judged, so a
    stone there is ``OccupiedPointError`` (and a bad index ``InvalidPointError``)."""
    q = check_point(p)
    if cells[q]:
        colour = "black" if cells[q] == BLACK else "white"
        raise OccupiedPointError(
            f"{point_name(q)} is occupied by a {colour} stone; only an empty point can be judged"
        )
    return q


def codes_at(padded: bytes | bytearray, i: int) -> tuple[int, int, int, int]:
    """The window codes of padded point ``i`` in the four directions."""
    get = CODES.get
    w = bytes(padded[i - _R0 : i + _R0 + 1])
    k0 = get(w)
    if k0 is None:
        k0 = code_of(w)
    w = bytes(padded[i - _R1 : i + _R1 + 1 : _S1])
    k1 = get(w)
    if k1 is None:
        k1 = code_of(w)
    w = bytes(padded[i - _R2 : i + _R2 + 1 : _S2])
    k2 = get(w)
    if k2 is None:
        k2 = code_of(w)
    w = bytes(padded[i - _R3 : i + _R3 + 1 : _S3])
    k3 = get(w)
    if k3 is None:
        k3 = code_of(w)
    return k0, k1, k2, k3


def _weight_verdict(weight: int) -> int:
    """The verdict a summed weight settles on its own, or -1 if threes must be tested."""
    if weight >= FIVE_WEIGHT:
        return _FIVE
    if weight >= OVERLINE_WEIGHT:
        return _OVERLINE
    if weight >= 2 * FOUR_WEIGHT:
        return _DOUBLE_FOUR
    if weight & (FOUR_WEIGHT - 1) >= 2:
        return -1
    return _LEGAL


def verdict_at(padded: bytearray, i: int, placed: frozenset[int], memo: Memo) -> int:
    """The verdict (a ``Verdict`` value) of a Black stone on the empty padded point ``i``.

    ``padded`` holds the position plus the hypothetical stones ``placed``; it is
    modified during the call and restored before it returns.
    """
    codes = codes_at(padded, i)
    verdict = _weight_verdict((codes[0] + codes[1] + codes[2] + codes[3]) & WEIGHT_MASK)
    if verdict >= 0:
        return verdict
    return double_three(padded, i, codes, placed, memo)


def double_three(
    padded: bytearray,
    i: int,
    codes: tuple[int, int, int, int],
    placed: frozenset[int],
    memo: Memo,
) -> int:
    """``Verdict.DOUBLE_THREE`` if two or more of the threes at ``i`` are real, else
    ``Verdict.LEGAL`` (as ints; ``codes`` are ``codes_at(padded, i)``).

    A three is real if one of its straight-four points is legal for Black with the stone
    on ``i`` on the board: the recursion places ``i`` and judges those points.
    """
    threes = [d for d in range(4) if codes[d] & 1]
    after = placed | {i}
    real = 0
    padded[i] = BLACK
    try:
        for n, d in enumerate(threes):
            step = STEPS[d]
            for offset in straight_four_offsets(codes[d]):
                j = i + offset * step
                key = (after, j)
                v = memo.get(key)
                if v is None:
                    v = memo[key] = verdict_at(padded, j, after, memo)
                if v == _LEGAL:
                    real += 1
                    break
            if real >= 2 or real + len(threes) - n - 1 < 2:
                break
    finally:
        padded[i] = EMPTY
    return _DOUBLE_THREE if real >= 2 else _LEGAL
