"""The game clock: pure time controls, the clock state machine, snapshots for the wire.

``Clock`` (``wuzi.clock.clock``) is driven by a table host with integer instants from its
monotonic clock (``now_ns``) and never reads the time itself. Time controls are written in
PGN TimeControl syntax with extensions (``wuzi.clock.control``, docs/clock.md); one side's
arithmetic is in ``wuzi.clock.timing``; the events that rebuild a clock are in
``wuzi.clock.events``; the pure state machine they drive (``ClockState``, ``advance``,
``apply_event``) in ``wuzi.clock.machine``; what a clock's face shows and when it changes
in ``wuzi.clock.face``; views, snapshots and ``extrapolate`` for displays in
``wuzi.clock.snapshot``; the opening's press rules in ``wuzi.clock.opening``; a timer list
for many clocks in ``wuzi.clock.schedule``.
"""

from wuzi.clock.clock import Clock
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
from wuzi.clock.machine import ClockState, Flag, FlagPolicy, PressResult
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
