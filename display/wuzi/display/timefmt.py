"""Clock faces as the screens show them, and when a running face next changes.

The same convention as the table's own clock displays (`wuzi.clock.face.face_text`):
whole seconds while more than 10 s are left — ``1:23:45``, ``12:34``, ``0:11`` — then
tenths from ``10.0`` down to ``0.1``, always rounded *up*, so ``0.0`` appears only when the
time is gone; a fallen flag (negative remaining time) shows ``0.0`` too and the screen
marks the flag separately. A clock display beside a table and the hall's scoreboard thus
never disagree by a digit.

`next_visible_change_ms` is what lets a screen sleep: a stopped clock never changes on its
own, a running one changes exactly when its face rolls over to the next second or tenth.
Pure: no clock is read here.
"""

from __future__ import annotations

from wuzi.clock.face import face_text

__all__ = [
    "NEVER_MS",
    "TENTHS_FROM_MS",
    "extrapolate_ms",
    "format_clock",
    "next_visible_change_ms",
]

TENTHS_FROM_MS = 10_000  # at and below 10 s the face shows tenths
NEVER_MS = 86_400_000
"""`next_visible_change_ms` of a face that cannot change on its own (a day: ``min`` of
many tables' changes then picks the real one; a screen still wakes up once a day)."""


def format_clock(remaining_ms: int) -> str:
    """The face of a clock with ``remaining_ms`` left: ``1:23:45``, ``12:34``, ``9.8``, ``0.0``."""
    return face_text(remaining_ms * 1_000_000)


def next_visible_change_ms(remaining_ms: int, running: bool) -> int:
    """Milliseconds (≥ 1) until the face of a clock at ``remaining_ms`` shows something
    else if it runs; `NEVER_MS` when it is stopped or its time is gone (``0.0`` stays)."""
    if not running or remaining_ms <= 0:
        return NEVER_MS
    unit = 1000 if remaining_ms > TENTHS_FROM_MS else 100
    # The face shows ceil(remaining / unit); it changes once remaining drops to the
    # next multiple of unit below it.
    return remaining_ms - (-(-remaining_ms // unit) - 1) * unit


def extrapolate_ms(remaining_ms: int, running: bool, base_ms: int, now_ms: int) -> int:
    """The remaining time now of a clock that read ``remaining_ms`` at ``base_ms``
    (both on the screen's own monotonic clock: hosts' wall clocks may be skewed)."""
    if not running:
        return remaining_ms
    return remaining_ms - max(0, now_ms - base_ms)
