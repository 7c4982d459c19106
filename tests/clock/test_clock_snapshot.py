"""Snapshots for the wire: JSON, read back equal, extrapolated exactly like the clock."""

from __future__ import annotations

import json
from typing import Any

import pytest

from wuzi.clock import NS_PER_S, Clock, ClockError, ClockFormatError, Snapshot, extrapolate
from wuzi.rules.procedure import Seat

S = NS_PER_S


def busy_clock() -> Clock:
    clock = Clock("10:3x5")
    clock.start(0)
    clock.press(4 * S)
    clock.pause(5 * S, hold="venue")
    clock.resume(6 * S, hold="venue")
    clock.record_infraction(6 * S, Seat.SECOND, "press without a stone")
    return clock


def test_snapshot_has_what_a_display_needs() -> None:
    data = busy_clock().snapshot(20 * S).to_dict()
    assert data["format"] == "wuzi-clock-snapshot" and data["version"] == 1
    assert data["control"] == "10:3x5" and data["t_ns"] == 20 * S
    assert data["running"] == "second" and data["turn"] == "second"
    white = data["sides"]["second"]
    # white ran from 4 s to 20 s less the 1 s pause: 10 s main, then period 1 lost
    assert white["remaining_ns"] == 10 * S and white["face_ns"] == 5 * S
    assert white["periods_left"] == 2 and white["overtime"] is True
    assert white["moves"] == 0 and white["text"] == "5.0 [2]"
    assert data["sides"]["first"]["remaining_ns"] == 6 * S + 15 * S
    assert data["infractions"] == {"first": 0, "second": 1}
    assert data["next_change_ns"] == 20 * S + S // 10  # tenths under 10 s
    json.dumps(data)  # plain JSON


def test_snapshot_reads_back_equal() -> None:
    snapshot = busy_clock().snapshot(20 * S)
    again = Snapshot.from_dict(json.loads(json.dumps(snapshot.to_dict())))
    assert again == snapshot


def test_extrapolate_is_the_clock_itself() -> None:
    clock = busy_clock()
    snapshot = clock.snapshot(20 * S)
    for later in (20 * S, 21 * S + 7, 30 * S, 100 * S):
        assert extrapolate(snapshot, later) == clock.snapshot(later)
    assert extrapolate(snapshot, 100 * S).view.first_flag is not None
    assert extrapolate(snapshot, 19 * S) == snapshot  # a lagging display: never backwards


def test_view_needs_an_instant() -> None:
    from wuzi.clock.control import parse_control
    from wuzi.clock.machine import initial_state
    from wuzi.clock.snapshot import view_of

    with pytest.raises(ClockError, match="needs an instant"):
        view_of(parse_control("60"), initial_state(parse_control("60")))


def _broken(change: Any) -> dict[str, Any]:
    data = busy_clock().snapshot(20 * S).to_dict()
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(version=2), "version: only version 1"),
        (lambda d: d.update(control="40/"), "control: time control '40/'"),
        (lambda d: d.update(on_flag="explode"), "on_flag"),
        (lambda d: d.pop("t_ns"), "t_ns: missing"),
        (lambda d: d.update(turn="black"), "turn: expected 'first' or 'second'"),
        (
            lambda d: d["sides"]["first"]["state"].update(bank_ns=-1),
            "sides.first.state.bank_ns: must be at least 0",
        ),
        (lambda d: d["sides"]["second"]["state"].update(phase=3), "sides.second.state.phase"),
        (lambda d: d["sides"]["second"].pop("state"), "sides.second.state: missing"),
        (lambda d: d.update(holds=[{"hold": 1, "since_ns": 0}]), "holds[0].hold: expected str"),
        (lambda d: d.update(flags=[{"seat": "x", "t_ns": 0}]), "flags[0].seat"),
        (lambda d: d.update(started="yes"), "started: expected bool"),
        (lambda d: d.update(t_ns=2**63), "t_ns: 9223372036854775808 is beyond any clock's 64 bits"),
        (
            lambda d: d["sides"]["first"]["state"].update(bank_ns=10**30),
            "sides.first.state.bank_ns: 1000000000000000000000000000000 is beyond",
        ),
    ],
)
def test_bad_snapshots_name_the_key(change: Any, words: str) -> None:
    with pytest.raises(ClockFormatError) as info:
        Snapshot.from_dict(_broken(change))
    assert words in str(info.value)


def test_reading_for_the_game_record() -> None:
    from wuzi.rules.record import ClockReading

    view = busy_clock().view(20 * S)
    assert view.reading() == ClockReading(first_ms=21_000, second_ms=10_000)
