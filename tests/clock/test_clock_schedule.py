"""The timer list of many clocks: earliest first, a key set again replaces its instant."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wuzi.clock.schedule import Scheduler


def test_earliest_first_and_replacement() -> None:
    timers: Scheduler[str] = Scheduler()
    timers.set("a", 30)
    timers.set("b", 10)
    timers.set("c", 20)
    timers.set("b", 40)  # replaced: the old instant 10 is skipped
    assert timers.next_due_ns() == 20
    assert timers.pop_due(25) == [(20, "c")]
    assert timers.pop_due(25) == []
    timers.set("a", None)
    assert "a" not in timers and len(timers) == 1
    assert timers.pop_due(100) == [(40, "b")]
    assert timers.next_due_ns() is None


def test_refuses_a_non_integer_instant() -> None:
    with pytest.raises(TypeError):
        Scheduler[str]().set("a", 1.5)  # type: ignore[arg-type]


@given(st.lists(st.tuples(st.integers(0, 20), st.none() | st.integers(0, 1000)), max_size=200))
def test_pops_exactly_the_last_instant_of_every_key(ops: list[tuple[int, int | None]]) -> None:
    timers: Scheduler[int] = Scheduler()
    expected: dict[int, int] = {}
    for key, due in ops:
        timers.set(key, due)
        if due is None:
            expected.pop(key, None)
        else:
            expected[key] = due
    assert len(timers) == len(expected)
    popped = timers.pop_due(10**9)
    assert sorted(popped) == sorted((due, key) for key, due in expected.items())
    assert [due for due, _ in popped] == sorted(expected.values())
