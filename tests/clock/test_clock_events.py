"""The events' JSON form: every event reads back equal; a bad key is named."""

from __future__ import annotations

import json

import pytest

from wuzi.clock.errors import ClockFormatError
from wuzi.clock.events import (
    EVENT_TYPES,
    ClockEvent,
    Ended,
    FlagNoted,
    InfractionRecorded,
    MovesCorrected,
    Paused,
    Pressed,
    Resumed,
    Started,
    Switched,
    TimeAdded,
    TimeSet,
    event_from_dict,
    event_to_dict,
)
from wuzi.rules.procedure import Seat

EVERY_KIND: list[ClockEvent] = [
    Started(t_ns=0, seat=Seat.FIRST, actor="host"),
    Pressed(t_ns=1, by=Seat.SECOND, moves=0, next_seat=Seat.SECOND),
    Pressed(t_ns=2),
    Paused(t_ns=3, hold="venue", actor="chief arbiter", reason="fire alarm"),
    Resumed(t_ns=4, hold="venue", actor="chief arbiter"),
    TimeAdded(t_ns=5, seat=Seat.FIRST, delta_ns=-2_000_000_000, actor="r1", reason="penalty"),
    TimeSet(t_ns=6, seat=Seat.SECOND, remaining_ns=10, periods_left=2, actor="r1"),
    MovesCorrected(t_ns=7, seat=Seat.FIRST, moves=40, actor="r1", reason="missed press"),
    Switched(t_ns=8, seat=Seat.SECOND, actor="r1"),
    InfractionRecorded(t_ns=9, seat=Seat.FIRST, detail="press without a stone", actor="host"),
    FlagNoted(t_ns=10, seat=Seat.SECOND),
    Ended(t_ns=11, actor="host", reason="five"),
]


def test_every_event_kind_is_covered() -> None:
    assert {e.kind for e in EVERY_KIND} == set(EVENT_TYPES)


@pytest.mark.parametrize("event", EVERY_KIND, ids=lambda e: e.kind)
def test_events_read_back_through_json(event: ClockEvent) -> None:
    data = json.loads(json.dumps(event_to_dict(event)))
    assert data["event"] == event.kind
    assert event_from_dict(data) == event


def test_the_json_form_is_plain() -> None:
    assert event_to_dict(Pressed(t_ns=5, by=Seat.FIRST)) == {
        "event": "press",
        "t_ns": 5,
        "by": "first",
        "moves": 1,
        "next_seat": None,
    }
    assert event_from_dict({"event": "press", "t_ns": 5}) == Pressed(t_ns=5)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"event": "jump", "t_ns": 1}, "key 'event': 'jump' is no clock event"),
        ({"t_ns": 1}, "key 'event': None"),
        ({"event": "press"}, "event 'press': key 't_ns' is missing"),
        ({"event": "press", "t_ns": "1"}, "key 't_ns': expected a whole number, not '1'"),
        ({"event": "press", "t_ns": True}, "key 't_ns': expected a whole number"),
        ({"event": "press", "t_ns": 1, "by": "black"}, "key 'by': expected 'first' or 'second'"),
        ({"event": "press", "t_ns": 1, "colour": 1}, "unknown key 'colour'"),
        ({"event": "adjust", "t_ns": 1, "delta_ns": 5}, "key 'seat' is missing"),
        (
            {"event": "adjust", "t_ns": 1, "seat": None, "delta_ns": 5},
            "key 'seat': a value is required",
        ),
        ({"event": "pause", "t_ns": 1, "hold": 5}, "key 'hold': expected text"),
        ({"event": "press", "t_ns": 2**63}, "key 't_ns': 9223372036854775808 is beyond"),
        (
            {"event": "adjust", "t_ns": 1, "seat": "first", "delta_ns": -(10**40)},
            "key 'delta_ns': -10000000000000000000000000000000000000000 is beyond",
        ),
    ],
)
def test_bad_event_dicts_name_the_key(data: dict[str, object], words: str) -> None:
    with pytest.raises(ClockFormatError) as info:
        event_from_dict(data)
    assert words in str(info.value)


def test_not_an_object() -> None:
    with pytest.raises(ClockFormatError, match="JSON object"):
        event_from_dict(["press"])  # type: ignore[arg-type]
