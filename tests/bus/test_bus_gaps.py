"""The gap tracker (`wuzi.bus.gaps`): events in order, lost, duplicated, late, and states
that fill what was lost."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wuzi.bus.gaps import GAMES_KEPT_PER_TABLE, Delivery, Gap, GapTracker


def test_in_order_then_a_gap_then_a_state_fills_it() -> None:
    tracker = GapTracker()
    assert tracker.on_event(1, "g", 1, 0).delivery is Delivery.IN_ORDER
    seen = tracker.on_event(1, "g", 4, 100)
    assert seen.delivery is Delivery.AFTER_GAP
    assert seen.gap == Gap(1, "g", 2, 3, 100)
    assert str(seen.gap) == "table 1 game 'g': events 2-3 missing"
    assert tracker.open_gaps() == [Gap(1, "g", 2, 3, 100)]
    assert tracker.overdue(5_000, 10_000) == []
    assert tracker.overdue(10_100, 10_000) == [Gap(1, "g", 2, 3, 100)]
    assert tracker.on_state(1, "g", 2) == [Gap(1, "g", 2, 2, 100)]  # part of it
    assert tracker.open_gaps() == [Gap(1, "g", 3, 3, 100)]
    assert tracker.on_state(1, "g", 5) == [Gap(1, "g", 3, 3, 100)]
    assert tracker.open_gaps() == []
    assert tracker.on_event(1, "g", 5, 200).delivery is Delivery.DUPLICATE  # in the state
    assert tracker.on_event(1, "g", 6, 200).delivery is Delivery.IN_ORDER


def test_a_late_event_fills_its_number_and_a_repeat_is_a_duplicate() -> None:
    tracker = GapTracker()
    tracker.on_event(2, "g", 5, 0)
    assert tracker.open_gaps() == [Gap(2, "g", 1, 4, 0)]
    assert tracker.on_event(2, "g", 3, 1).delivery is Delivery.LATE
    assert tracker.open_gaps() == [Gap(2, "g", 1, 2, 0), Gap(2, "g", 4, 4, 0)]
    assert tracker.on_event(2, "g", 3, 2).delivery is Delivery.DUPLICATE
    assert tracker.on_event(2, "g", 5, 2).delivery is Delivery.DUPLICATE


def test_games_and_tables_are_separate() -> None:
    tracker = GapTracker()
    tracker.on_event(1, "a", 1, 0)
    assert tracker.on_event(1, "b", 1, 0).delivery is Delivery.IN_ORDER  # a new game
    assert tracker.on_event(2, "a", 1, 0).delivery is Delivery.IN_ORDER  # another table
    assert tracker.on_state(1, None, 9) == []  # an idle table's state
    assert tracker.high(1, "a") == 1 and tracker.high(1, "c") == 0


def test_old_games_are_forgotten() -> None:
    tracker = GapTracker()
    for n in range(GAMES_KEPT_PER_TABLE + 1):
        tracker.on_event(1, f"g{n}", 3, 0)
    assert {gap.game_id for gap in tracker.open_gaps()} == {
        f"g{n}" for n in range(1, GAMES_KEPT_PER_TABLE + 1)
    }


def test_numbers_start_at_one() -> None:
    with pytest.raises(ValueError, match="table 1 game 'g': public event number 0"):
        GapTracker().on_event(1, "g", 0, 0)


@given(
    st.lists(st.integers(1, 40), max_size=80),
    st.lists(st.tuples(st.integers(0, 80), st.integers(0, 40)), max_size=4),
)
def test_model(events: list[int], states: list[tuple[int, int]]) -> None:
    """Against a model: a number is accounted for once it was received or a state of the
    game covered it; the open gaps are exactly the unaccounted numbers below the highest;
    an event is fresh exactly when its number was not accounted for."""
    tracker = GapTracker()
    accounted: set[int] = set()
    at_state = dict(states)
    for i, seq in enumerate(events):
        if i in at_state:
            covered = at_state[i]
            tracker.on_state(7, "g", covered)
            accounted |= set(range(1, covered + 1))
        seen = tracker.on_event(7, "g", seq, i)
        assert seen.fresh == (seq not in accounted)
        high = max(accounted | {seq})
        if seen.fresh and seq > max(accounted, default=0) + 1:
            assert seen.delivery is Delivery.AFTER_GAP
        accounted.add(seq)
        missing = sorted(set(range(1, high + 1)) - accounted)
        listed = [n for g in tracker.open_gaps() for n in range(g.first_seq, g.last_seq + 1)]
        assert listed == missing
        assert tracker.high(7, "g") == high
