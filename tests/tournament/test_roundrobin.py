"""Berger tables: every pair once, balanced colours, byes for odd fields, double cycles."""

from __future__ import annotations

from collections import Counter

import pytest

from wuzi.tournament.errors import SettingsError
from wuzi.tournament.roundrobin import berger_rounds, round_count


@pytest.mark.parametrize("n", range(3, 21))
def test_every_pair_meets_exactly_once_with_balanced_colours(n: int) -> None:
    rounds = berger_rounds(n)
    assert len(rounds) == round_count(n) == (n - 1 if n % 2 == 0 else n)
    met: Counter[frozenset[int]] = Counter()
    colours: dict[int, str] = {p: "" for p in range(1, n + 1)}
    byes: Counter[int] = Counter()
    for rnd in rounds:
        seen = [p for pair in rnd for p in pair if p is not None]
        assert sorted(seen) == list(range(1, n + 1))  # everybody once a round
        for black, white in rnd:
            if white is None:
                byes[black] += 1
                continue
            met[frozenset((black, white))] += 1
            colours[black] += "B"
            colours[white] += "W"
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    for player, seq in colours.items():
        assert abs(seq.count("B") - seq.count("W")) <= 1, (player, seq)
        assert "BBB" not in seq and "WWW" not in seq, (player, seq)
    if n % 2:
        assert byes == Counter(range(1, n + 1))  # one bye each
    else:
        assert not byes


def test_the_fide_table_for_six() -> None:
    assert berger_rounds(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_odd_field_uses_the_next_table_with_a_bye() -> None:
    assert berger_rounds(3) == [[(1, None), (2, 3)], [(3, None), (1, 2)], [(2, None), (3, 1)]]


@pytest.mark.parametrize("n", [4, 5, 8])
def test_double_round_robin_reverses_the_colours(n: int) -> None:
    rounds = berger_rounds(n, double=True)
    half = len(rounds) // 2
    assert len(rounds) == round_count(n, double=True) == 2 * round_count(n)
    for first, second in zip(rounds[:half], rounds[half:], strict=True):
        assert second == [(b, a) if b is not None else (a, None) for a, b in first]
    games = Counter((a, b) for rnd in rounds for a, b in rnd if b is not None)
    for (a, b), count in games.items():
        assert count == 1 and games[(b, a)] == 1


def test_too_small() -> None:
    with pytest.raises(SettingsError, match="at least 2"):
        berger_rounds(1)
