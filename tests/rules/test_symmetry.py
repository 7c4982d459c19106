"""The 8 symmetries about h8 form a group that keeps the board on itself."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wuzi.rules.board import CENTRE, POINTS, parse_point, point_name
from wuzi.rules.symmetry import SYMMETRIES, TABLE, inverse, transform


def test_each_symmetry_is_a_permutation_fixing_the_centre() -> None:
    for k in SYMMETRIES:
        assert sorted(TABLE[k]) == list(range(POINTS))
        assert transform(CENTRE, k) == CENTRE


def test_the_neighbours_of_h8_map_to_eight_distinct_images() -> None:
    images = {point_name(transform(parse_point("i9"), k)) for k in SYMMETRIES}
    assert images == {"g7", "g9", "i7", "i9"}
    orth = {point_name(transform(parse_point("h9"), k)) for k in SYMMETRIES}
    assert orth == {"h9", "h7", "g8", "i8"}


@given(st.integers(0, POINTS - 1), st.sampled_from(list(SYMMETRIES)))
def test_inverse_undoes(p: int, k: int) -> None:
    assert transform(transform(p, k), inverse(k)) == p


@given(st.integers(0, POINTS - 1), st.integers(0, POINTS - 1), st.sampled_from(list(SYMMETRIES)))
def test_distances_are_kept(a: int, b: int, k: int) -> None:
    def d2(p: int, q: int) -> int:
        return (p % 15 - q % 15) ** 2 + (p // 15 - q // 15) ** 2

    assert d2(transform(a, k), transform(b, k)) == d2(a, b)


def test_group_is_closed() -> None:
    perms = {TABLE[k] for k in SYMMETRIES}
    assert len(perms) == 8
    for a in SYMMETRIES:
        for b in SYMMETRIES:
            composed = tuple(TABLE[b][TABLE[a][p]] for p in range(POINTS))
            assert composed in perms
