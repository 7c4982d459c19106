"""What a clock display shows, and when it next changes.

A display shows each side's counter (``timing.face_ns``) in whole seconds while more than
10 s are left and in tenths from 10.0 s down, always rounded *up* — so a fresh ``5:00``
stays ``5:00`` for a whole second, and ``0.0`` appears only when the time is gone — plus
the byo-yomi periods left, a delay marker while a delay runs, and the flag. The counter
of a side that is not running does not move, so only the running side ever changes on
its own; ``next_change_ns`` says when, so a display (or the host announcing to it) can
sleep until then instead of redrawing on a timer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wuzi.clock import timing
from wuzi.clock.control import NS_PER_S, TimeControl

if TYPE_CHECKING:
    from wuzi.clock.clock import ClockState
    from wuzi.clock.snapshot import SideView

__all__ = ["TENTHS_FROM_NS", "change_after_ns", "face_text", "next_change_ns", "side_text"]

TENTH_NS = NS_PER_S // 10
TENTHS_FROM_NS = 10 * NS_PER_S  # at and below 10 s the display shows tenths


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def face_text(ns: int) -> str:
    """A counter as shown: ``1:02:03``, ``4:59``, ``0:11``, then ``10.0`` … ``0.1``, ``0.0``."""
    if ns <= 0:
        return "0.0"
    if ns <= TENTHS_FROM_NS:
        tenths = _ceil_div(ns, TENTH_NS)
        return f"{tenths // 10}.{tenths % 10}"
    seconds = _ceil_div(ns, NS_PER_S)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def change_after_ns(face: int) -> int:
    """How long until a running counter at ``face`` (> 0) shows something else."""
    unit = NS_PER_S if face > TENTHS_FROM_NS else TENTH_NS
    return face - (_ceil_div(face, unit) - 1) * unit


def next_change_ns(control: TimeControl, state: ClockState) -> int | None:
    """The instant the display of the clock in ``state`` next changes if nothing happens:
    the end of a delay (its marker goes), the next second or tenth of the running counter,
    the end of a byo-yomi period or of a phase (the counter jumps), or the flag. None when
    no clock runs or the running side's flag is already down."""
    seat = state.running
    if seat is None or state.t_ns is None:
        return None
    side = state.side(seat)
    if side.flagged_ns is not None:
        return None
    delay = timing.delay_left_ns(side, control)
    if delay > 0:
        return state.t_ns + delay
    return state.t_ns + change_after_ns(timing.face_ns(side, control))


def side_text(view: SideView) -> str:
    """One side as a display shows it: ``4:59``, ``4:59 d`` while a delay runs, ``0:27 [3]``
    in byo-yomi with 3 periods left, ``4:12 /7`` in a Canadian block with 7 moves to make,
    ``0.0 flag`` once the flag fell."""
    text = face_text(view.face_ns)
    if view.flagged_ns is not None:
        return f"{text} flag"
    if view.periods_left is not None and view.overtime:
        text += f" [{view.periods_left}]"
    if view.block_moves_left is not None:
        text += f" /{view.block_moves_left}"
    if view.delay_ns > 0:
        text += " d"
    return text
