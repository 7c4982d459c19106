# ruff: noqa: E501 — the vectors are kept byte for byte as the shared file has them
"""The shared forbidden-point vectors, through the API (the CLI runs them in test_rules_cli).

The vectors live in ``../shared/vectors/forbidden-basic.txt`` next to the repository; a
copy is kept here so the suite runs anywhere, and a test fails if the two drift apart.
Each record is a comment naming the point it is about and what that point is, the
position, and ``=`` with every forbidden point.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from wuzi.rules.board import Board, parse_point, parse_points, point_name, sort_key
from wuzi.rules.forbidden import forbidden_kind, forbidden_points, judge
from wuzi.rules.verdict import ForbiddenKind, Verdict

SHARED = Path(__file__).resolve().parents[3] / "shared" / "vectors" / "forbidden-basic.txt"

VECTORS = """\
# Forbidden-point vectors, 15x15. Record = comment, position (moves, Black first, alternating),
# then "=" and every empty point forbidden for Black as point:kind (33, 44, ol), sorted by column then row.
# The comment names the point each case is about.
# F01: basic double-three (two straight threes) -- point h8: FORBIDDEN: double-three (white wins)
f8 a1 g8 c1 h6 e1 h7 g1
= h8:33
# F02: split three + straight three = double-three -- point h8: FORBIDDEN: double-three (white wins)
e8 a1 g8 c1 h6 e1 h7 g1
= h8:33
# F03: four-three is legal -- point h8: legal
e8 d8 f8 a1 g8 c1 h6 e1 h7 g1
=
# F04: double-four in two lines -- point h8: FORBIDDEN: double-four (white wins)
e8 d8 f8 h4 g8 a1 h5 c1 h6 m1 h7 o1
= h8:44
# F05: double-four on ONE line: XXX.X.XXX (move = lone middle stone) -- point f8: FORBIDDEN: double-four (white wins)
b8 a1 c8 c1 d8 e1 h8 g1 i8 i1 j8 k1
= f8:44
# F06: double-four on ONE line: XX.XX.XX -- point g8: FORBIDDEN: double-four (white wins)
c8 a1 d8 c1 f8 e1 i8 g1 j8 i1
= g8:44
# F07: double-four on ONE line: X.XXX.X (move = centre) -- point f8: FORBIDDEN: double-four (white wins)
c8 a1 e8 c1 g8 e1 i8 g1
= f8:44
# F08: overline (six) -- point g8: FORBIDDEN: overline (white wins)
d8 a1 e8 c1 f8 e1 h8 g1 i8 i1
= g8:ol
# F09: five + overline at the same time -> five wins -- point h8: black wins (five)
d8 a1 e8 c1 f8 m1 g8 o1 h5 a15 h6 c15 h7 e15 h9 g15 h10 i15
= f7:33
# F10: five + double-three at the same time -> five wins -- point h8: black wins (five)
d8 a1 e8 c1 f8 e1 g8 g1 h6 i1 h7 k1 f6 m1 g7 o1
= e7:33 f7:33 f9:33 g5:33 g6:33 i6:33
# F11: "four" whose only completion is an overline is not a four -> one real four only -> legal -- point g8: legal
b8 g4 c8 a1 e8 m1 f8 o1 g5 a15 g6 c15 g7 e15
=
# F12: three touching the edge (|XXX_) is dead; only one live three -> legal -- point c8: legal
a8 a1 b8 c1 c6 e1 c7 g1
=
# F13: |_XXX_O : six-cell window blocked -> dead three; legal -- point d8: legal
b8 f8 c8 a1 d6 c1 d7 e1
=
# F14: |_XXX__ (same as F13 without the white stone) -> live -> double-three -- point d8: FORBIDDEN: double-three (white wins)
b8 a1 c8 c1 d6 e1 d7 g1
= d8:33
# F15: X.X.X is not a three (no straight four reachable); legal -- point h8: legal
d8 a1 f8 c1 h6 e1 h7 g1
=
# F16: four-three-three is forbidden (counts as double-three) -- point h8: FORBIDDEN: double-three (white wins)
e8 d8 f8 a1 g8 c1 h6 e1 h7 g1 f6 i1 g7 k1
= f7:33 f9:33 g6:33 h8:33 i6:33
# F17: four-four-three is forbidden (double-four) -- point h8: FORBIDDEN: double-four (white wins)
e8 d8 f8 h4 g8 a1 h5 c1 h6 m1 h7 o1 f6 a15 g7 c15
= f7:33 f9:33 g6:33 h8:44 i6:33
# F26: exact five with a separated sixth stone (XXXXX.X) is a five, not an overline -> black wins -- point h8: black wins (five)
d8 a1 e8 c1 f8 e1 g8 g1 j8 i1
=
# F27: three blocked at the far end by a white stone two points away (O.XXX.O) -> not a live three; legal -- point h8: legal
f8 d8 g8 j8 h6 a1 h7 c1
=
"""


@dataclass(frozen=True)
class Vector:
    name: str
    point: str  # the point the comment is about
    claim: str  # "legal", "five", or a ForbiddenKind value
    moves: str
    expected: str  # the "= ..." line

    @property
    def board(self) -> Board:
        return Board.from_moves(parse_points(self.moves))


_CLAIM = re.compile(r"^# (F\d+): .* -- point (\w+): (.*)$")
_KINDS = {"double-three": "33", "double-four": "44", "overline": "ol"}


def parse_vectors(text: str) -> list[Vector]:
    """Records of comment / position / answer; a malformed file fails loudly."""
    lines = text.splitlines()
    vectors: list[Vector] = []
    n = 0
    while n < len(lines):
        match = _CLAIM.match(lines[n])
        if not match:
            assert lines[n].startswith("#"), f"line {n + 1}: expected a comment: {lines[n]!r}"
            n += 1
            continue
        name, point, words = match.groups()
        if words.startswith("FORBIDDEN: "):
            claim = _KINDS[words.removeprefix("FORBIDDEN: ").split(" (")[0]]
        elif words.startswith("black wins (five)"):
            claim = "five"
        else:
            assert words == "legal", f"line {n + 1}: unknown claim {words!r}"
            claim = "legal"
        moves, expected = lines[n + 1], lines[n + 2]
        assert expected.startswith("="), f"line {n + 3}: expected '= …', got {expected!r}"
        vectors.append(Vector(name, point, claim, moves, expected))
        n += 3
    return vectors


ALL = parse_vectors(VECTORS)


def answer(board: Board) -> str:
    found = forbidden_points(board)
    return " ".join(
        ["=", *(f"{point_name(p)}:{found[p].value}" for p in sorted(found, key=sort_key))]
    )


def test_copy_matches_the_shared_vectors() -> None:
    if not SHARED.exists():
        pytest.skip(f"{SHARED} is not next to this checkout")
    assert SHARED.read_text(encoding="utf-8") == VECTORS


def test_every_record_was_read() -> None:
    assert len(ALL) == 19
    assert {v.claim for v in ALL} == {"legal", "five", "33", "44", "ol"}


@pytest.mark.parametrize("vector", ALL, ids=[v.name for v in ALL])
def test_forbidden_set(vector: Vector) -> None:
    assert answer(vector.board) == vector.expected


@pytest.mark.parametrize("vector", ALL, ids=[v.name for v in ALL])
def test_the_point_the_comment_names(vector: Vector) -> None:
    board = vector.board
    p = parse_point(vector.point)
    verdict = judge(board, p)
    if vector.claim == "legal":
        assert verdict is Verdict.LEGAL
        assert forbidden_kind(board, p) is None
    elif vector.claim == "five":
        assert verdict is Verdict.FIVE
        assert forbidden_kind(board, p) is None
    else:
        assert forbidden_kind(board, p) is ForbiddenKind(vector.claim)
        assert verdict.kind is ForbiddenKind(vector.claim)
