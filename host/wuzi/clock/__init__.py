"""The game clock: pure time controls, the clock state machine, snapshots for the wire.

``Clock`` (``wuzi.clock.clock``) is driven by a table host with integer instants from its
monotonic clock (``now_ns``) and never reads the time itself. Time controls are written in
PGN TimeControl syntax with extensions (``wuzi.clock.control``, docs/clock.md); one side's
arithmetic is in ``wuzi.clock.timing``; the events that rebuild a clock are in
``wuzi.clock.events``; views, snapshots and ``extrapolate`` for displays in
``wuzi.clock.snapshot``; what a display shows and when it changes in ``wuzi.clock.display``;
the opening's press rules in ``wuzi.clock.opening``; a timer list for many clocks in
``wuzi.clock.schedule``.
"""

from wuzi.clock.clock import Clock, ClockState, Flag, FlagPolicy, PressResult
from wuzi.clock.control import (
    NS_PER_MS,
    NS_PER_S,
    PRESETS,
    Bonus,
    Overtime,
    OvertimeKind,
    Phase,
    TimeControl,
    parse_control,
)
from wuzi.clock.errors import ClockError, ClockFormatError, ControlSpecError
from wuzi.clock.events import ClockEvent, event_from_dict, event_to_dict
from wuzi.clock.snapshot import ClockView, SideView, Snapshot, extrapolate

__all__ = [
    "NS_PER_MS",
    "NS_PER_S",
    "PRESETS",
    "Bonus",
    "Clock",
    "ClockError",
    "ClockEvent",
    "ClockFormatError",
    "ClockState",
    "ClockView",
    "ControlSpecError",
    "Flag",
    "FlagPolicy",
    "Overtime",
    "OvertimeKind",
    "Phase",
    "PressResult",
    "SideView",
    "Snapshot",
    "TimeControl",
    "event_from_dict",
    "event_to_dict",
    "extrapolate",
    "parse_control",
]
