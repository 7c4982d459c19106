"""Properties over random games on random controls (hypothesis; fake time only):

* a clock rebuilt from its events (also through their JSON form) is identical;
* a refused action changes nothing;
* between events the running side's time falls exactly 1 ns per ns down to 0 and the
  other side's does not move; every flag falls exactly when the time of the side that was
  running at the last event ran out;
* under Fischer (and sudden death) the time used plus the time left equals the base plus
  one increment per accepted press plus the referee's adjustments;
* snapshots read back equal and extrapolate exactly like the clock;
* the display does not change before ``next_visible_change_ns`` and does change then.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wuzi.clock import NS_PER_MS, Clock, ClockError, Snapshot, extrapolate
from wuzi.clock.events import ClockEvent, event_from_dict, event_to_dict
from wuzi.rules.procedure import Seat

MS = NS_PER_MS
SPECS = [
    "5",
    "3+1",
    "4+0.5",
    "3/4:2+1",
    "2:1.5:1",
    "2:3x1",
    "3x0.7",
    "1:c3/2",
    "3d0.8",
    "3b0.8",
    "2/2:1d0.5",
    "1.5b0.5:1:2x1",
]
FISCHER = {"5", "3+1", "4+0.5"}

ACTIONS = st.sampled_from(
    [
        "press",
        "press",
        "press",
        "press",
        "press-other",
        "press-nomove",
        "press-same",
        "pause",
        "resume",
        "venue",
        "unvenue",
        "add",
        "remove",
        "set",
        "moves",
        "switch",
        "infraction",
        "end",
        "start",
        "unflag",
    ]
)

settings.register_profile(
    "clock", max_examples=int(__import__("os").environ.get("CLOCK_EXAMPLES", "120")), deadline=None
)


@dataclass
class Run:
    """A clock and what the test saw happen to it."""

    clock: Clock
    t: int = 0  # the instant of the last step (refused or not)
    refused: int = 0
    adjusted: dict[Seat, int] = field(default_factory=lambda: {Seat.FIRST: 0, Seat.SECOND: 0})
    presses: dict[Seat, int] = field(default_factory=lambda: {Seat.FIRST: 0, Seat.SECOND: 0})
    used: dict[Seat, int] = field(default_factory=lambda: {Seat.FIRST: 0, Seat.SECOND: 0})


def act(run: Run, t: int, action: str, amount: int) -> None:
    clock = run.clock
    state = clock.at(t)
    turn = state.turn or Seat.FIRST
    seat = Seat.FIRST if amount % 2 else Seat.SECOND
    before = (clock.state, clock.events)
    try:
        if action.startswith("press"):
            by = turn.other if action == "press-other" else None
            moves = 0 if action == "press-nomove" else 1
            nxt = turn if action == "press-same" else None
            result = clock.press(t, by=by, moves=moves, next_seat=nxt)
            if result.accepted and result.seat is not None:
                run.presses[result.seat] += 1
        elif action == "pause":
            clock.pause(t, actor="r")
        elif action == "resume":
            clock.resume(t, actor="r")
        elif action == "venue":
            clock.pause(t, hold="venue")
        elif action == "unvenue":
            clock.resume(t, hold="venue")
        elif action == "unflag":
            clock.resume(t, hold="flag")
        elif action in ("add", "remove"):
            delta = (amount % 3000 + 1) * MS * (1 if action == "add" else -1)
            clock.add_time(t, seat, delta, actor="r", reason="test")
            run.adjusted[seat] += delta
        elif action == "set":
            old = clock.remaining_ns(seat, t)
            clock.set_remaining(t, seat, (amount % 4000 + 1) * MS)
            run.adjusted[seat] += clock.remaining_ns(seat, t) - old
        elif action == "moves":
            clock.correct_moves(t, seat, amount % 7)
        elif action == "switch":
            clock.switch(t, seat)
        elif action == "infraction":
            clock.record_infraction(t, seat, "test")
        elif action == "end":
            clock.end(t)
        elif action == "start":
            clock.start(t)
    except ClockError:
        run.refused += 1
        assert (clock.state, clock.events) == before  # a refusal changes nothing


def check_gap(clock: Clock, t0: int, t1: int, run: Run) -> None:
    """From the last event at ``t0`` to ``t1``: exact, monotonic running; exact flags."""
    start = clock.at(t0)
    seat = start.running
    r0 = {s: clock.remaining_ns(s, t0) for s in Seat}
    end = clock.at(t1)
    for s in Seat:
        r1 = clock.remaining_ns(s, t1)
        if s is seat:
            assert r1 == max(0, r0[s] - (t1 - t0))
        else:
            assert r1 == r0[s]
    new_flags = end.flags[len(start.flags) :]
    assert len(new_flags) <= 1
    if seat is not None:
        ran = t1 - t0
        if new_flags:
            assert new_flags[0].seat is seat
            assert new_flags[0].t_ns == t0 + r0[seat]  # exactly when the time ran out
            if clock.on_flag.value == "stop":
                ran = r0[seat]
        if start.side(seat).flagged_ns is None:
            run.used[seat] += min(ran, r0[seat])


def play(spec: str, steps: list[tuple[int, str, int]], policy: str) -> Run:
    run = Run(Clock(spec, on_flag=policy))
    run.clock.start(0)
    t = 0
    for gap, action, amount in steps:
        check_gap(run.clock, t, t + gap, run)
        t += gap
        act(run, t, action, amount)
    run.t = t
    return run


STEPS = st.lists(
    st.tuples(st.integers(0, 2500).map(lambda ms: ms * MS), ACTIONS, st.integers(0, 10**6)),
    max_size=40,
)


@settings(settings.get_profile("clock"), suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SPECS), STEPS, st.sampled_from(["stop", "continue"]))
def test_random_games(spec: str, steps: list[tuple[int, str, int]], policy: str) -> None:
    run = play(spec, steps, policy)
    clock = run.clock
    events = clock.events
    # rebuilt from its events, and from their JSON form: identical
    assert Clock.replay(spec, events, on_flag=policy) == clock
    decoded: list[ClockEvent] = [
        event_from_dict(json.loads(json.dumps(event_to_dict(e)))) for e in events
    ]
    assert Clock.replay(spec, decoded, on_flag=policy) == clock
    # snapshots: JSON round trip and exact extrapolation
    last = run.t
    snapshot = clock.snapshot(last)
    assert Snapshot.from_dict(json.loads(json.dumps(snapshot.to_dict()))) == snapshot
    for later in (last + 1, last + 777 * MS, last + 9000 * MS):
        assert extrapolate(snapshot, later) == clock.snapshot(later)


@settings(settings.get_profile("clock"))
@given(st.sampled_from(sorted(FISCHER)), STEPS)
def test_fischer_time_is_conserved(spec: str, steps: list[tuple[int, str, int]]) -> None:
    run = play(spec, steps, "stop")
    clock = run.clock
    control = clock.control
    base, increment = control.phases[0].time_ns, control.phases[0].bonus_ns
    t = run.t
    for seat in Seat:
        left = clock.remaining_ns(seat, t)
        expected = base + increment * run.presses[seat] + run.adjusted[seat]
        if clock.at(t).side(seat).flagged_ns is None:
            assert run.used[seat] + left == expected
        else:  # the flag fell: everything it had was used, up to the flag
            assert left == 0 and run.used[seat] == expected


@settings(settings.get_profile("clock"))
@given(
    st.sampled_from(SPECS),
    STEPS,
    st.lists(st.integers(0, 30_000).map(lambda ms: ms * MS), min_size=1, max_size=5),
)
def test_display_changes_exactly_at_the_next_visible_change(
    spec: str, steps: list[tuple[int, str, int]], probes: list[int]
) -> None:
    run = play(spec, steps, "stop")
    clock, last = run.clock, run.t
    for probe in sorted(probes):
        now = last + probe
        view = clock.view(now)
        change = clock.next_visible_change_ns(now)
        assert change == view.next_change_ns
        if view.running is None:
            assert change is None
            continue
        if change is None:  # only a running side whose flag is already down
            assert view.side(view.running).flagged_ns is not None
            continue
        assert change > now
        seat = view.running

        def shown(t: int, seat: Seat = seat) -> tuple[str, str, bool]:
            v = clock.view(t)
            return v.first.text, v.second.text, v.running is seat

        assert shown(change - 1) == shown(now)
        assert shown(change) != shown(now)
