"""The 26 designated openings (指定开局, RIF's 26 canonical openings) and their recognition.

The opener places B1 on h8, W2 on one of the 8 neighbours of h8 and B3 inside the central
5×5. Up to the 8 symmetries of the board about h8 there are exactly 26 such placements: 13
*direct* ones (W2 orthogonal to B1, canonically on h9) and 13 *indirect* ones (W2 diagonal,
canonically on i9). Every placement in any orientation is its opening, so a referee, a
record or ``wuzi rules opening h8 g7 g9`` can name it (``7I 浦月 Hogetsu``).

The table is checked when this module is imported: the 26 canonical placements must lie in
26 different symmetry classes. That every legal placement (W2 touching h8, B3 in the 5×5,
three different points) is one of them — the claim of RULES.md — is checked by the tests,
over all 184 placements.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from wuzi.rules import symmetry
from wuzi.rules.board import CENTRE, SIZE, Point, parse_point, point_name
from wuzi.rules.errors import IllegalMoveError


class OpeningError(IllegalMoveError):
    """A placement that is no designated opening, or an unknown opening id; the message
    says why (``B1 must be on h8, not g7``)."""


def central_square(size: int) -> frozenset[Point]:
    """The points of the central ``size``×``size`` square (odd ``size``), h8 included."""
    if size % 2 == 0 or not 1 <= size <= SIZE:
        raise ValueError(f"a central square has an odd size from 1 to {SIZE}, not {size}")
    r = size // 2
    c = SIZE // 2
    return frozenset(y * SIZE + x for y in range(c - r, c + r + 1) for x in range(c - r, c + r + 1))


CENTRAL_3X3 = central_square(3)
CENTRAL_5X5 = central_square(5)
NEIGHBOURS = CENTRAL_3X3 - {CENTRE}  # where W2 may go

_DIRECT_W2 = parse_point("h9")
_INDIRECT_W2 = parse_point("i9")


@dataclass(frozen=True)
class DesignatedOpening:
    """One of the 26 openings, in its canonical orientation (B1 h8, W2 h9 or i9)."""

    id: str  # "7I": number 1–13 and D (direct) or I (indirect)
    chinese: str  # "浦月"
    romaji: str  # "Hogetsu"
    b1: Point
    w2: Point
    b3: Point

    @property
    def number(self) -> int:
        return int(self.id[:-1])

    @property
    def direct(self) -> bool:
        """True for the 13 direct openings (W2 orthogonal to B1)."""
        return self.id.endswith("D")

    @property
    def kind(self) -> str:
        return "direct" if self.direct else "indirect"

    @property
    def label(self) -> str:
        """``7I 浦月 Hogetsu``: what ``wuzi rules opening`` prints."""
        return f"{self.id} {self.chinese} {self.romaji}"

    @property
    def moves(self) -> tuple[Point, Point, Point]:
        """B1, W2, B3 in the canonical orientation."""
        return self.b1, self.w2, self.b3

    def oriented(self, k: int) -> tuple[Point, Point, Point]:
        """B1, W2, B3 under symmetry ``k`` of ``wuzi.rules.symmetry`` (0 is canonical)."""
        t = symmetry.TABLE[k]
        return t[self.b1], t[self.w2], t[self.b3]

    def orientations(self) -> dict[tuple[Point, Point, Point], int]:
        """Every distinct placement of this opening, each with the lowest symmetry giving it:
        8 placements, or 4 when B3 lies on the line through h8 and W2."""
        found: dict[tuple[Point, Point, Point], int] = {}
        for k in symmetry.SYMMETRIES:
            found.setdefault(self.oriented(k), k)
        return found

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class DesignatedMatch:
    """A recognised placement: ``moves == opening.oriented(symmetry)``."""

    opening: DesignatedOpening
    symmetry: int  # the lowest such k when two symmetries give the same placement

    @property
    def symmetry_name(self) -> str:
        return symmetry.NAMES[self.symmetry]


# (id, Chinese name, romaji, B3) as in RULES.md; W2 is h9 for D and i9 for I.
_TABLE = (
    ("1D", "寒星", "Kansei", "h10"),
    ("2D", "溪月", "Keigetsu", "i10"),
    ("3D", "疏星", "Sosei", "j10"),
    ("4D", "花月", "Kagetsu", "i9"),
    ("5D", "残月", "Zangetsu", "j9"),
    ("6D", "雨月", "Ugetsu", "i8"),
    ("7D", "金星", "Kinsei", "j8"),
    ("8D", "松月", "Shōgetsu", "h7"),
    ("9D", "丘月", "Kyūgetsu", "i7"),
    ("10D", "新月", "Shingetsu", "j7"),
    ("11D", "瑞星", "Zuisei", "h6"),
    ("12D", "山月", "Sangetsu", "i6"),
    ("13D", "游星", "Yūsei", "j6"),
    ("1I", "长星", "Chōsei", "j10"),
    ("2I", "峡月", "Kyōgetsu", "j9"),
    ("3I", "恒星", "Kōsei", "j8"),
    ("4I", "水月", "Suigetsu", "j7"),
    ("5I", "流星", "Ryūsei", "j6"),
    ("6I", "云月", "Ungetsu", "i8"),
    ("7I", "浦月", "Hogetsu", "i7"),
    ("8I", "岚月", "Rangetsu", "i6"),
    ("9I", "银月", "Gingetsu", "h7"),
    ("10I", "明星", "Meisei", "h6"),
    ("11I", "斜月", "Shagetsu", "g7"),
    ("12I", "名月", "Meigetsu", "g6"),
    ("13I", "彗星", "Suisei", "f6"),
)

DESIGNATED: tuple[DesignatedOpening, ...] = tuple(
    DesignatedOpening(
        id=key,
        chinese=chinese,
        romaji=romaji,
        b1=CENTRE,
        w2=_DIRECT_W2 if key.endswith("D") else _INDIRECT_W2,
        b3=parse_point(b3),
    )
    for key, chinese, romaji, b3 in _TABLE
)
"""The 26 openings: 1D–13D, then 1I–13I."""

BY_ID: dict[str, DesignatedOpening] = {o.id: o for o in DESIGNATED}


def _build_placements() -> dict[tuple[Point, Point, Point], DesignatedMatch]:
    placements: dict[tuple[Point, Point, Point], DesignatedMatch] = {}
    for opening in DESIGNATED:
        for moves, k in opening.orientations().items():
            other = placements.get(moves)
            if other is not None:  # pragma: no cover - a table typo
                raise AssertionError(f"{opening.id} and {other.opening.id} are the same opening")
            placements[moves] = DesignatedMatch(opening, k)
    return placements


PLACEMENTS: dict[tuple[Point, Point, Point], DesignatedMatch] = _build_placements()
"""Every placement of every opening in every orientation (184 of them)."""


def _fold(text: str) -> str:
    """Lower case without accents, so ``Chosei`` finds ``Chōsei``."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_BY_NAME: dict[str, DesignatedOpening] = {}
for _o in DESIGNATED:
    for _name in (_o.id, _o.chinese, _o.romaji):
        _BY_NAME[_fold(_name)] = _o


def get_designated(key: str) -> DesignatedOpening:
    """The opening named by its id (``7I``, any case), Chinese name (``浦月``) or romaji
    (``Hogetsu``, accents optional)."""
    found = _BY_NAME.get(_fold(key)) if isinstance(key, str) else None
    if found is None:
        raise OpeningError(
            f"{key!r} is not one of the 26 designated openings: use an id 1D–13D or 1I–13I "
            "(e.g. 7I), a Chinese name (浦月) or a romaji name (Hogetsu)"
        )
    return found


def match_designated(moves: Sequence[Point]) -> DesignatedMatch:
    """The opening placed by B1 W2 B3 and the symmetry that places it, or ``OpeningError``
    saying what is wrong with the placement."""
    if len(moves) != 3:
        raise OpeningError(
            f"a designated opening is three moves, B1 W2 B3 (e.g. h8 i9 j10), not {len(moves)}"
        )
    b1, w2, b3 = moves
    for p in moves:
        point_name(p)  # an InvalidPointError for a non-point
    if b1 != CENTRE:
        raise OpeningError(f"B1 must be on h8, not {point_name(b1)}")
    if w2 == b1:
        raise OpeningError("W2 cannot go on h8: B1 is there")
    if w2 not in NEIGHBOURS:
        raise OpeningError(f"W2 must touch h8: {point_name(w2)} is not one of its 8 neighbours")
    if b3 in (b1, w2):
        which = "B1" if b3 == b1 else "W2"
        raise OpeningError(f"B3 cannot go on {point_name(b3)}: {which} is there")
    if b3 not in CENTRAL_5X5:
        raise OpeningError(f"B3 {point_name(b3)} is outside the central 5×5")
    found = PLACEMENTS.get((b1, w2, b3))
    if found is None:  # pragma: no cover - the tests show every legal placement is listed
        raise OpeningError("that placement is not one of the 26 designated openings")
    return found


def identify_designated(moves: Sequence[Point]) -> DesignatedOpening:
    """The designated opening placed by B1 W2 B3 in any of its orientations.

    >>> identify_designated([parse_point(p) for p in ("h8", "g7", "g9")]).label
    '7I 浦月 Hogetsu'
    """
    return match_designated(moves).opening
