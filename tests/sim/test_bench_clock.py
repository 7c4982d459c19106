"""The benchmark's independent model of a game agrees with the clock (fake time): so a
flag error the live benchmark reports is a real disagreement, not a model bug."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from wuzi.clock import NS_PER_MS, Clock, parse_control
from wuzi.rules.procedure import Seat
from wuzi.sim.bench.clock import FLAG_CONTROLS, Oracle, percentile


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(FLAG_CONTROLS),
    st.lists(st.integers(1, 2500).map(lambda ms: ms * NS_PER_MS + 17), min_size=1, max_size=30),
)
def test_oracle_flag_instant_is_the_clocks(spec: str, thinks: list[int]) -> None:
    control = parse_control(spec)
    clock = Clock(control)
    oracle = Oracle(control)
    clock.start(0)
    t = 0
    seat = Seat.FIRST
    due = oracle.time_to_flag(seat)
    for think in thinks:
        assert clock.flag_due_ns() == due
        t += think
        result = clock.press(t)
        if t >= due:
            assert not result.accepted
            assert clock.at(t).first_flag is not None
            assert clock.at(t).flags[0].t_ns == due and clock.at(t).flags[0].seat is seat
            return
        assert result.accepted
        oracle.pressed(seat, think)
        seat = seat.other
        due = t + oracle.time_to_flag(seat)


def test_percentile() -> None:
    assert percentile([], 0.99) == 0.0
    values = [float(v) for v in range(1, 1001)]
    assert percentile(values, 0.999) == 999.0
    assert percentile(values, 0.5) == 500.0
    assert percentile([3.0], 0.999) == 3.0
