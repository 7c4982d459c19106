"""What a clock's face shows, and when it next changes.

A face shows a side's counter (``timing.face_ns``) in whole seconds while more than 10 s
are left and in tenths from 10.0 s down, always rounded *up* — so a fresh ``5:00`` stays
``5:00`` for a whole second, and ``0.0`` appears only when the time is gone. The counter
of a side that is not running does not move, so only the running side's face ever
changes on its own; ``next_change_ns`` says when, so whatever shows the clock (or the host
announcing to it) can sleep until then instead of redrawing on a timer.

These rules sit low in the clock package, on the state machine (``wuzi.clock.machine``)
only, because everything that shows a clock needs them: a view's text and next change
(``wuzi.clock.snapshot``, whose ``side_text`` adds the periods, delay and flag markers),
``Clock.next_visible_change_ns`` (``wuzi.clock.clock``), the table's digit displays and
the screens. ("Display" names several things in Wuzi; here it is only the clock's face.)
"""

from __future__ import annotations

from wuzi.clock import timing
from wuzi.clock.control import NS_PER_MS, NS_PER_S, TimeControl
from wuzi.clock.machine import ClockState

__all__ = [
    "HOUR_MS",
    "TENTHS_FROM_MS",
    "TENTHS_FROM_NS",
    "change_after_ns",
    "counter_text",
    "face_text",
    "next_change_ns",
    "point_text",
]

TENTH_NS = NS_PER_S // 10
TENTHS_FROM_NS = 10 * NS_PER_S  # at and below 10 s the face shows tenths


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


TENTHS_FROM_MS = TENTHS_FROM_NS // NS_PER_MS  # the same threshold in ms
HOUR_MS = 3_600_000


def counter_text(remaining_ms: int) -> tuple[str, bool]:
    """A clock counter on a clock unit's 4 digits and whether the colon is lit, as it
    shows it: ``45:00`` → ``"4500"``; ``0:11`` → ``" 011"``; from 10 s down tenths, the
    colon standing for the decimal point (``9.5`` → ``" 95 "``); an hour or more as hours
    and minutes (``1:02:03`` → ``"1h03"``); rounded up, ``0.0`` once the time is gone. The
    one formatting of both the host's clock faces (``wuzi.host.displays``) and a linked
    game's away table (``wuzi.table.away_table``)."""
    if remaining_ms <= TENTHS_FROM_MS:
        tenths = max(0, _ceil_div(remaining_ms, 100))
        return f"{tenths // 10:>2}{tenths % 10} ", True
    seconds = _ceil_div(remaining_ms, 1000)
    if seconds * 1000 < HOUR_MS:
        minutes, secs = divmod(seconds, 60)
        return f"{minutes:>2}{secs:02d}", True
    hours, minutes = divmod(_ceil_div(seconds, 60), 60)
    if hours < 10:
        return f"{hours}h{minutes:02d}", False
    return f"{min(hours, 999):>3}h", False


def point_text(name: str) -> str:
    """A point (``"h8"``, ``"o15"``) on 4 digits: column, blank, row: ``"h 8 "``, ``"o 15"``
    (an offer on the host's menu, the stone to mirror on a linked game's away table)."""
    return f"{name[0]} {name[1:]:<2}"


def change_after_ns(face: int) -> int:
    """How long until a running counter at ``face`` (> 0) shows something else."""
    unit = NS_PER_S if face > TENTHS_FROM_NS else TENTH_NS
    return face - (_ceil_div(face, unit) - 1) * unit


def next_change_ns(control: TimeControl, state: ClockState) -> int | None:
    """The instant the face of the clock in ``state`` next changes if nothing happens:
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
