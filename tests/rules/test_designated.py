"""The 26 designated openings: the table, recognition in every orientation, refusals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wuzi.rules.board import CENTRE, POINTS, SIZE, parse_point, point_name
from wuzi.rules.designated import (
    BY_ID,
    CENTRAL_5X5,
    DESIGNATED,
    NEIGHBOURS,
    PLACEMENTS,
    DesignatedOpening,
    OpeningError,
    central_square,
    get_designated,
    identify_designated,
    match_designated,
)
from wuzi.rules.errors import IllegalMoveError, InvalidPointError, RulesError
from wuzi.rules.symmetry import SYMMETRIES, TABLE


def pts(text: str) -> list[int]:
    return [parse_point(t) for t in text.split()]


def legal_placements() -> list[tuple[int, int, int]]:
    """Every placement the rules allow: W2 touching h8, B3 in the 5×5, distinct points."""
    return [
        (CENTRE, w2, b3)
        for w2 in sorted(NEIGHBOURS)
        for b3 in sorted(CENTRAL_5X5)
        if b3 not in (CENTRE, w2)
    ]


def canonical_class(moves: tuple[int, int, int]) -> tuple[int, ...]:
    return min(tuple(TABLE[k][p] for p in moves) for k in SYMMETRIES)


# --- the table ---------------------------------------------------------------------------


def test_the_table_has_13_direct_and_13_indirect_openings_in_order() -> None:
    assert [o.id for o in DESIGNATED] == [f"{n}D" for n in range(1, 14)] + [
        f"{n}I" for n in range(1, 14)
    ]
    for o in DESIGNATED:
        assert o.b1 == CENTRE
        assert point_name(o.w2) == ("h9" if o.direct else "i9")
        assert o.kind == ("direct" if o.id.endswith("D") else "indirect")
        assert o.number == int(o.id[:-1])
        assert o.moves == (o.b1, o.w2, o.b3)
        assert BY_ID[o.id] is o


@pytest.mark.parametrize(
    ("key", "label", "b3"),
    [
        ("1D", "1D 寒星 Kansei", "h10"),
        ("2D", "2D 溪月 Keigetsu", "i10"),
        ("8D", "8D 松月 Shōgetsu", "h7"),
        ("13D", "13D 游星 Yūsei", "j6"),
        ("1I", "1I 长星 Chōsei", "j10"),
        ("7I", "7I 浦月 Hogetsu", "i7"),
        ("11I", "11I 斜月 Shagetsu", "g7"),
        ("13I", "13I 彗星 Suisei", "f6"),
    ],
)
def test_entries_match_rules_md(key: str, label: str, b3: str) -> None:
    opening = BY_ID[key]
    assert opening.label == label
    assert str(opening) == label
    assert point_name(opening.b3) == b3


def test_the_26_entries_fall_into_26_distinct_symmetry_classes() -> None:
    classes = {canonical_class(o.moves) for o in DESIGNATED}
    assert len(classes) == 26


def test_every_legal_placement_falls_into_exactly_one_opening() -> None:
    placements = legal_placements()
    assert len(placements) == 8 * 23
    orbits = {o.id: {o.oriented(k) for k in SYMMETRIES} for o in DESIGNATED}
    for moves in placements:
        owners = [key for key, orbit in orbits.items() if moves in orbit]
        assert len(owners) == 1, (list(map(point_name, moves)), owners)
        match = match_designated(list(moves))
        assert match.opening.id == owners[0]
        assert match.opening.oriented(match.symmetry) == moves
    assert set(PLACEMENTS) == set(placements)


def test_rules_md_claim_every_legal_placement_is_designated() -> None:
    """RULES.md: up to symmetry there are exactly 26 placements — so nothing legal is left."""
    assert len({canonical_class(m) for m in legal_placements()}) == 26


def test_orientations_are_8_or_4_when_b3_is_on_the_axis_of_w2() -> None:
    sizes = {o.id: len(o.orientations()) for o in DESIGNATED}
    on_axis = {"1D", "8D", "11D", "1I", "11I", "13I"}
    assert {k for k, n in sizes.items() if n == 4} == on_axis
    assert all(n == 8 for k, n in sizes.items() if k not in on_axis)
    assert sum(sizes.values()) == 184
    for o in DESIGNATED:
        for moves, k in o.orientations().items():
            assert o.oriented(k) == moves
            assert all(o.oriented(j) != moves for j in range(k))  # the lowest k is kept


@pytest.mark.parametrize("opening", DESIGNATED, ids=lambda o: o.id)
def test_all_8_orientations_of_each_opening_are_recognised(opening: DesignatedOpening) -> None:
    for k in SYMMETRIES:
        moves = opening.oriented(k)
        assert identify_designated(moves) is opening
        assert match_designated(moves).opening.oriented(match_designated(moves).symmetry) == moves


def test_the_cli_example_is_7i_hogetsu() -> None:
    match = match_designated(pts("h8 g7 g9"))
    assert match.opening.label == "7I 浦月 Hogetsu"
    assert match.symmetry_name == "rotate 180"


def test_central_square() -> None:
    assert central_square(1) == {CENTRE}
    assert len(central_square(5)) == 25
    assert {point_name(p) for p in central_square(3)} == {
        f"{c}{r}" for c in "ghi" for r in (7, 8, 9)
    }
    assert central_square(15) == frozenset(range(POINTS))
    for bad in (0, 4, 17):
        with pytest.raises(ValueError, match="odd size"):
            central_square(bad)


# --- refusals ----------------------------------------------------------------------------


def test_errors_are_rules_errors() -> None:
    assert issubclass(OpeningError, IllegalMoveError)
    assert issubclass(OpeningError, RulesError)


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        ("g7 h8 g9", "B1 must be on h8, not g7"),
        ("h8 h8 g9", "W2 cannot go on h8: B1 is there"),
        ("h8 k11 g9", "W2 must touch h8: k11 is not one of its 8 neighbours"),
        ("h8 h10 h9", "W2 must touch h8: h10 is not"),
        ("h8 g7 d4", "B3 d4 is outside the central 5×5"),
        ("h8 g7 h8", "B3 cannot go on h8: B1 is there"),
        ("h8 g7 g7", "B3 cannot go on g7: W2 is there"),
        ("h8 g7", "three moves, B1 W2 B3 (e.g. h8 i9 j10), not 2"),
        ("h8 g7 g9 g10", "not 4"),
        ("", "not 0"),
    ],
)
def test_non_openings_are_refused_with_the_reason(moves: str, message: str) -> None:
    with pytest.raises(OpeningError) as info:
        identify_designated(pts(moves))
    assert message in str(info.value)


def test_every_b1_off_centre_is_refused() -> None:
    for b1 in range(POINTS):
        if b1 == CENTRE:
            continue
        with pytest.raises(OpeningError, match=f"B1 must be on h8, not {point_name(b1)}$"):
            identify_designated([b1, parse_point("h9"), parse_point("h10")])


def test_every_w2_and_b3_outside_their_areas_is_refused() -> None:
    for w2 in range(POINTS):
        if w2 in NEIGHBOURS:
            continue
        with pytest.raises(OpeningError, match="W2"):
            identify_designated([CENTRE, w2, parse_point("j10")])
    for b3 in range(POINTS):
        if b3 in CENTRAL_5X5:
            continue
        with pytest.raises(OpeningError, match=f"B3 {point_name(b3)} is outside the central 5×5"):
            identify_designated([CENTRE, parse_point("i9"), b3])


def test_a_non_point_is_an_invalid_point() -> None:
    with pytest.raises(InvalidPointError):
        identify_designated([CENTRE, parse_point("i9"), POINTS])


# --- lookup by id or name ----------------------------------------------------------------


@pytest.mark.parametrize("key", ["7I", "7i", " 7i ", "浦月", "Hogetsu", "hogetsu"])
def test_get_designated_by_id_or_name(key: str) -> None:
    assert get_designated(key).id == "7I"


def test_romaji_accents_are_optional() -> None:
    assert get_designated("Chosei").id == "1I"
    assert get_designated("Chōsei").id == "1I"
    assert get_designated("kyugetsu").id == "9D"
    assert get_designated("Kyogetsu").id == "2I"


def test_every_name_finds_its_own_opening() -> None:
    for o in DESIGNATED:
        for key in (o.id, o.id.lower(), o.chinese, o.romaji):
            assert get_designated(key) is o


@pytest.mark.parametrize("key", ["14D", "7X", "", "Moon", "D7"])
def test_unknown_ids_are_refused(key: str) -> None:
    with pytest.raises(OpeningError, match="not one of the 26 designated openings"):
        get_designated(key)


# --- properties --------------------------------------------------------------------------

_openings = st.sampled_from(DESIGNATED)
_syms = st.sampled_from(list(SYMMETRIES))


@given(_openings, _syms, _syms)
def test_symmetric_placements_are_the_same_opening(
    opening: DesignatedOpening, j: int, k: int
) -> None:
    moves = opening.oriented(j)
    image = tuple(TABLE[k][p] for p in moves)
    assert identify_designated(image) is identify_designated(moves) is opening


@given(_openings, _syms, st.integers(-3, 3), st.integers(-3, 3))
def test_a_shifted_placement_is_refused(
    opening: DesignatedOpening, k: int, dx: int, dy: int
) -> None:
    if (dx, dy) == (0, 0):
        return
    shifted = [p + dy * SIZE + dx for p in opening.oriented(k)]
    with pytest.raises(OpeningError, match="B1 must be on h8"):
        identify_designated(shifted)
