"""Elo: the documented formula and K-factor, summed over the event."""

from __future__ import annotations

import pytest

from wuzi.tournament.errors import SettingsError
from wuzi.tournament.ratings import (
    DEFAULT_K,
    RatedGame,
    expected_score,
    rating_changes,
    updated_ratings,
)


def test_expected_score() -> None:
    assert expected_score(1800, 1800) == 0.5
    assert expected_score(2200, 1800) == pytest.approx(10 / 11)
    assert expected_score(1800, 2200) == pytest.approx(1 / 11)


def test_changes_use_the_ratings_from_before_the_event() -> None:
    ratings = {"a": 2000.0, "b": 1800.0, "c": 1800.0}
    games = [RatedGame("a", "b", 0.0), RatedGame("c", "a", 0.5)]
    changes = rating_changes(ratings, games, k=20)
    e_ab = expected_score(2000, 1800)  # 0.7597
    assert changes["a"] == pytest.approx(20 * ((0 - e_ab) + (0.5 - e_ab)))
    assert changes["b"] == pytest.approx(20 * (1 - (1 - e_ab)))
    assert sum(changes.values()) == pytest.approx(0)
    # a: 2000 - 15.19 - 5.19 = 1979.6; b: 1800 + 15.19; c: 1800 + 20 · (0.5 - 0.2403)
    assert updated_ratings(ratings, games) == {"a": 1980, "b": 1815, "c": 1805}
    assert DEFAULT_K == 20


def test_bad_input() -> None:
    with pytest.raises(SettingsError, match="K-factor"):
        rating_changes({"a": 1.0}, [], k=0)
    with pytest.raises(SettingsError, match="'z' of a rated game has no rating"):
        rating_changes({"a": 1.0}, [RatedGame("a", "z", 1.0)])
