"""The blossom matching against brute force: it must find the true optimum."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.tournament.matching import max_weight_matching


def brute_force(
    n: int, edges: list[tuple[int, int, int]], max_cardinality: bool
) -> tuple[int, int]:
    """(cardinality, weight) of the best matching, by trying every subset of edges."""
    best = (0, 0)
    for size in range(len(edges) + 1):
        for subset in itertools.combinations(edges, size):
            used = [v for i, j, _ in subset for v in (i, j)]
            if len(used) != len(set(used)):
                continue
            weight = sum(w for _, _, w in subset)
            key = (size, weight) if max_cardinality else (0, weight)
            if key > best:
                best = key
    return best


def value(mate: list[int], edges: list[tuple[int, int, int]]) -> tuple[int, int]:
    weights = {(min(i, j), max(i, j)): w for i, j, w in edges}
    pairs = {(min(v, m), max(v, m)) for v, m in enumerate(mate) if m >= 0}
    for v, m in enumerate(mate):
        assert m == -1 or mate[m] == v
    return len(pairs), sum(weights[p] for p in pairs)


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, list[tuple[int, int, int]]]:
    n = draw(st.integers(2, 8))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=11))
    edges = [(i, j, draw(st.integers(-5, 30))) for i, j in chosen]
    return n, edges


@settings(max_examples=300, deadline=None)
@given(graphs(), st.booleans())
def test_matches_brute_force(graph: tuple[int, list[tuple[int, int, int]]], card: bool) -> None:
    n, edges = graph
    mate = max_weight_matching(n, edges, max_cardinality=card)
    size, weight = value(mate, edges)
    best_size, best_weight = brute_force(n, edges, card)
    if card:
        assert (size, weight) == (best_size, best_weight)
    else:
        assert weight == best_weight


# Hand-made graphs that force S-blossoms, T-blossoms, nesting and expansion.
CASES = [
    ([(1, 2, 8), (1, 3, 9), (2, 3, 10), (3, 4, 7)], False, [-1, 2, 1, 4, 3]),
    (
        [(1, 2, 9), (1, 3, 8), (2, 3, 10), (1, 4, 5), (4, 5, 4), (1, 6, 3)],
        False,
        [-1, 6, 3, 2, 5, 4, 1],
    ),
    (
        [
            (1, 2, 23),
            (1, 5, 22),
            (1, 6, 15),
            (2, 3, 25),
            (3, 4, 22),
            (4, 5, 25),
            (4, 8, 14),
            (5, 7, 13),
        ],
        False,
        [-1, 6, 3, 2, 8, 7, 1, 5, 4],
    ),
    (
        [
            (1, 2, 45),
            (1, 5, 45),
            (2, 3, 50),
            (3, 4, 45),
            (4, 5, 50),
            (1, 6, 30),
            (3, 9, 35),
            (4, 8, 35),
            (5, 7, 26),
            (9, 10, 5),
        ],
        False,
        [-1, 6, 3, 2, 8, 7, 1, 5, 4, 10, 9],
    ),
    (
        [
            (1, 2, 45),
            (1, 7, 45),
            (2, 3, 50),
            (3, 4, 45),
            (4, 5, 95),
            (4, 6, 94),
            (5, 6, 94),
            (6, 7, 50),
            (1, 8, 30),
            (3, 11, 35),
            (5, 9, 36),
            (7, 10, 26),
            (11, 12, 5),
        ],
        False,
        [-1, 8, 3, 2, 6, 9, 4, 10, 1, 5, 7, 12, 11],
    ),
    ([(1, 2, 5), (2, 3, 11), (3, 4, 5)], True, [-1, 2, 1, 4, 3]),
]


@pytest.mark.parametrize(("edges", "card", "expected"), CASES)
def test_blossom_cases(edges: list[tuple[int, int, int]], card: bool, expected: list[int]) -> None:
    n = 1 + max(max(i, j) for i, j, _ in edges)
    assert max_weight_matching(n, edges, card) == expected


def test_larger_random_graphs_agree_with_exhaustive_dynamic_programming() -> None:
    rng = random.Random(5)
    for _ in range(40):
        n = rng.randint(6, 14)
        edges = [
            (i, j, rng.randint(0, 50))
            for i in range(n)
            for j in range(i + 1, n)
            if rng.random() < 0.5
        ]
        mate = max_weight_matching(n, edges, max_cardinality=True)
        assert value(mate, edges) == best_by_dp(n, edges)


def best_by_dp(n: int, edges: list[tuple[int, int, int]]) -> tuple[int, int]:
    """Best (cardinality, weight) by dynamic programming over vertex subsets."""
    adj: dict[int, list[tuple[int, int]]] = {v: [] for v in range(n)}
    for i, j, w in edges:
        adj[i].append((j, w))
        adj[j].append((i, w))
    memo: dict[int, tuple[int, int]] = {}

    def solve(mask: int) -> tuple[int, int]:
        if mask == 0:
            return (0, 0)
        if mask in memo:
            return memo[mask]
        v = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << v)
        best = solve(rest)
        for u, w in adj[v]:
            if rest >> u & 1:
                c, s = solve(rest & ~(1 << u))
                best = max(best, (c + 1, s + w))
        memo[mask] = best
        return best

    return solve((1 << n) - 1)


def test_rejects_bad_edges() -> None:
    with pytest.raises(ValueError, match="distinct"):
        max_weight_matching(3, [(1, 1, 4)])
    with pytest.raises(ValueError, match="distinct"):
        max_weight_matching(3, [(0, 3, 4)])
    with pytest.raises(TypeError, match="non-integer"):
        max_weight_matching(3, [(0, 1, 1.5)])  # type: ignore[list-item]
    assert max_weight_matching(3, []) == [-1, -1, -1]
