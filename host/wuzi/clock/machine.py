"""The clock's state machine: its state at an instant and what each event makes of it.

Everything here is pure: a ``ClockState`` is immutable, ``advance`` lets the running
side's time run to a later instant, ``apply_event`` folds one event into a new state. The
instants are integers from the table host's monotonic clock (``now_ns``); nothing reads
the time. Flags are computed, not observed: if a side's time ran out at 12:00:03.217 and
the host looks at 12:00:03.9, the flag fell at 12:00:03.217, and a press that arrived in
between is ignored.

Players are seats (``wuzi.rules.procedure.Seat``): the clock sides follow the players, so
a colour swap in the opening changes nothing here. Folding the same events into the same
initial state always gives the same state, which is what the journal relies on.

What the clock refuses (a referee action that makes no sense now, an instant earlier than
the previous event's) raises ``ClockError`` and changes nothing. A press is never an
error — buttons get pressed at any time — it is recorded and, when the clock cannot take
it (not started, paused, stopped by a flag, the game over, the other side's button), it
changes nothing and says why.

This is the bottom of the clock: the views and snapshots (``wuzi.clock.snapshot``), what
a face shows (``wuzi.clock.face``) and the ``Clock`` object a host drives
(``wuzi.clock.clock``) are all built on it, so it imports none of them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from wuzi.base.frozen import replace  # ClockState's copies: 5x dataclasses.replace's speed
from wuzi.clock import timing
from wuzi.clock.control import MAX_COUNT, MAX_INSTANT_NS, MAX_PERIOD_NS, NS_PER_MS, TimeControl
from wuzi.clock.errors import ClockError
from wuzi.clock.events import (
    EQUIPMENT_HOLD,
    FLAG_HOLD,
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
)
from wuzi.clock.timing import SideState
from wuzi.rules.procedure import Seat

__all__ = [
    "ClockState",
    "Flag",
    "FlagPolicy",
    "PressResult",
    "advance",
    "apply_event",
    "initial_state",
]


class FlagPolicy(enum.Enum):
    """What the clock does when a flag falls.

    ``stop`` (the default; a flag is a loss): both clocks stop at the flag's instant and
    presses change nothing until the referee gives time and restarts. ``continue``: the
    flagged side's clock shows 0 and play goes on until someone points the flag out, so the
    other flag may fall too — the clock records both instants and which fell first.
    """

    STOP = "stop"
    CONTINUE = "continue"


@dataclass(frozen=True)
class Flag:
    """``seat``'s flag fell at ``t_ns`` (the computed instant, not when it was noticed)."""

    seat: Seat
    t_ns: int


@dataclass(frozen=True)
class ClockState:
    """The whole clock at instant ``t_ns``: both sides, whose turn it is (``turn``: the
    clock that runs unless something holds it), the holds (``(name, since_ns)``), the
    flags in the order they fell and the infractions per seat."""

    first: SideState
    second: SideState
    t_ns: int | None = None
    started: bool = False
    ended: bool = False
    turn: Seat | None = None
    holds: tuple[tuple[str, int], ...] = ()
    flags: tuple[Flag, ...] = ()
    infractions: tuple[int, int] = (0, 0)

    @property
    def running(self) -> Seat | None:
        """The seat whose clock is running, or None (before the start, paused, stopped by
        a flag, after the end)."""
        if not self.started or self.ended or self.holds:
            return None
        return self.turn

    @property
    def first_flag(self) -> Flag | None:
        return self.flags[0] if self.flags else None

    @property
    def hold_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.holds)

    def side(self, seat: Seat) -> SideState:
        return self.first if seat is Seat.FIRST else self.second

    def with_side(self, seat: Seat, side: SideState) -> ClockState:
        return replace(self, first=side) if seat is Seat.FIRST else replace(self, second=side)


@dataclass(frozen=True)
class PressResult:
    """What a press did: ``accepted`` (the pressing ``seat``'s clock stopped, the bonus
    was given, ``next_seat``'s clock started) or not, with the reason in words."""

    accepted: bool
    seat: Seat | None
    next_seat: Seat | None = None
    reason: str = ""


def initial_state(control: TimeControl) -> ClockState:
    side = timing.initial_side(control)
    return ClockState(first=side, second=side)


def advance(control: TimeControl, policy: FlagPolicy, state: ClockState, now_ns: int) -> ClockState:
    """The state at ``now_ns`` (not earlier than ``state.t_ns``) if nothing happens in
    between: the running side's time runs; a flag that falls is recorded at its exact
    instant and, under the ``stop`` policy, stops the clock there."""
    if state.t_ns is not None and now_ns < state.t_ns:
        raise ClockError(
            f"time {now_ns} ns ({_at(now_ns)}) is earlier than the clock's last event "
            f"({state.t_ns} ns, {_at(state.t_ns)})"
        )
    seat = state.running
    if seat is None or state.t_ns is None or now_ns == state.t_ns:
        return replace(state, t_ns=now_ns)
    side, flag_ns = timing.run(state.side(seat), control, now_ns - state.t_ns, start_ns=state.t_ns)
    # one replace, not two (with_side, then the instant): the clock runs at every input
    if seat is Seat.FIRST:
        new = replace(state, first=side, t_ns=now_ns)
    else:
        new = replace(state, second=side, t_ns=now_ns)
    if flag_ns is not None:
        new = replace(new, flags=(*new.flags, Flag(seat, flag_ns)))
        if policy is FlagPolicy.STOP:
            new = replace(new, holds=_with_hold(new.holds, FLAG_HOLD, flag_ns))
    return new


def _with_hold(
    holds: tuple[tuple[str, int], ...], name: str, since_ns: int
) -> tuple[tuple[str, int], ...]:
    return tuple(sorted((*holds, (name, since_ns))))


def _check_seat(value: object, what: str) -> Seat:
    if not isinstance(value, Seat):
        raise ClockError(f"{what} must be Seat.FIRST or Seat.SECOND, not {value!r}")
    return value


def _check_int(value: object, what: str, limit: int | None = None) -> int:
    """``value`` as a whole number; with ``limit``, at most that far from 0 (the bounds of
    docs/clock.md "Limits": an event from a journal or a command cannot carry years)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ClockError(f"{what} must be a whole number, not {value!r}")
    if limit is not None and not -limit <= value <= limit:
        if limit == MAX_PERIOD_NS:
            raise ClockError(
                f"{what} is at most 24 h ({limit // NS_PER_MS} ms) either way, not "
                f"{value // NS_PER_MS} ms"
            )
        raise ClockError(f"{what} must be between -{limit} and {limit}, not {value}")
    return value


def _check_text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ClockError(f"{what} must be text, not {value!r}")
    return value


def _at(t_ns: int | None) -> str:
    """An instant for a message: seconds of the host's monotonic clock, to the ms."""
    return "?" if t_ns is None else f"{t_ns / 1_000_000_000:.3f} s"


class _Names:
    """How messages name the seats (``first``/``second``, or the colours in the CLI)."""

    def __init__(self, labels: tuple[str, str]) -> None:
        self.labels = labels

    def __call__(self, seat: Seat) -> str:
        return self.labels[0] if seat is Seat.FIRST else self.labels[1]


def apply_event(
    control: TimeControl,
    policy: FlagPolicy,
    state: ClockState,
    event: ClockEvent,
    labels: tuple[str, str] = ("first", "second"),
) -> tuple[ClockState, PressResult | None]:
    """The state after ``event`` (pure). Raises ``ClockError`` for an event the clock
    refuses; a press always succeeds and returns its ``PressResult``."""
    if not isinstance(event, ClockEvent) or type(event) is ClockEvent:
        raise ClockError(f"not a clock event: {event!r}")
    now = _check_int(event.t_ns, "an event's t_ns", MAX_INSTANT_NS)
    name = _Names(labels)
    state = advance(control, policy, state, now)
    if isinstance(event, Pressed):
        return _press(control, state, event, name)
    if isinstance(event, InfractionRecorded):
        seat = _check_seat(event.seat, "the infraction's seat")
        _check_text(event.detail, "the infraction's detail")
        _check_text(event.actor, "the actor")
        counts = list(state.infractions)
        counts[0 if seat is Seat.FIRST else 1] += 1
        return replace(state, infractions=(counts[0], counts[1])), None
    for attribute in ("actor", "reason"):
        if hasattr(event, attribute):
            _check_text(getattr(event, attribute), f"the {attribute}")
    if isinstance(event, Paused | Resumed):
        return _hold(state, event, name), None
    if state.ended:
        raise ClockError(f"the game is over: the clock stopped at {_at(state.t_ns)}")
    if isinstance(event, Started):
        seat = _check_seat(event.seat, "the starting seat")
        if state.started:
            raise ClockError("the clock has already been started")
        started = state.with_side(seat, timing.begin_turn(state.side(seat)))
        return replace(started, started=True, turn=seat), None
    if isinstance(event, Ended):
        return replace(state, ended=True), None
    if isinstance(event, FlagNoted):
        seat = _check_seat(event.seat, "the flagged seat")
        if state.side(seat).flagged_ns != now:
            fell = state.side(seat).flagged_ns
            raise ClockError(
                f"{name(seat)}'s flag did not fall at {_at(now)} "
                f"({'it has not fallen' if fell is None else f'it fell at {_at(fell)}'})"
            )
        return state, None
    if isinstance(event, Switched):
        seat = _check_seat(event.seat, "the seat to switch to")
        if not state.started:
            raise ClockError("the clock has not been started: start it with the seat to run")
        if state.turn is seat:
            raise ClockError(f"{name(seat)}'s clock is already the one that runs")
        switched = state.with_side(seat, timing.begin_turn(state.side(seat)))
        return replace(switched, turn=seat), None
    if isinstance(event, TimeAdded | TimeSet | MovesCorrected):
        seat = _check_seat(event.seat, "the seat")
        side = state.side(seat)
        try:
            if isinstance(event, TimeAdded):
                delta = _check_int(event.delta_ns, "the time to add", MAX_PERIOD_NS)
                if delta > 0:
                    side = timing.add_time(side, control, delta)
                elif delta < 0:
                    side = timing.remove_time(side, control, -delta)
            elif isinstance(event, TimeSet):
                remaining = _check_int(event.remaining_ns, "the remaining time", MAX_PERIOD_NS)
                periods = event.periods_left
                if periods is not None:
                    _check_int(periods, "the periods left", MAX_COUNT)
                side = timing.set_remaining(side, control, remaining, periods)
            else:
                side = timing.correct_moves(
                    side, control, _check_int(event.moves, "moves", MAX_COUNT)
                )
        except ClockError as exc:
            raise ClockError(f"{name(seat)}: {exc}") from None
        return state.with_side(seat, side), None
    raise ClockError(f"unknown clock event {event!r}")  # pragma: no cover


def _hold(state: ClockState, event: Paused | Resumed, name: _Names) -> ClockState:
    hold = _check_text(event.hold, "a hold's name").strip()
    if not hold or any(c.isspace() for c in hold):
        raise ClockError(f"a hold is named by one word such as 'referee' or 'venue', not {hold!r}")
    if state.ended:
        raise ClockError(f"the game is over: the clock stopped at {_at(state.t_ns)}")
    held = dict(state.holds)
    if isinstance(event, Paused):
        if hold == FLAG_HOLD:
            raise ClockError("the hold 'flag' belongs to the clock: pause with another name")
        if hold in held:
            raise ClockError(f"the clock is already paused ({hold}) since {_at(held[hold])}")
        assert state.t_ns is not None
        return replace(state, holds=_with_hold(state.holds, hold, state.t_ns))
    if hold not in held:
        others = f"; it is held by {', '.join(held)}" if held else ""
        raise ClockError(f"the clock is not paused ({hold}){others}")
    if hold == FLAG_HOLD:
        for seat in (Seat.FIRST, Seat.SECOND):
            flagged = state.side(seat).flagged_ns
            if flagged is not None:
                raise ClockError(
                    f"{name(seat)}'s flag fell at {_at(flagged)}: give time "
                    "(add or set) before restarting the clock"
                )
    return replace(state, holds=tuple(h for h in state.holds if h[0] != hold))


def _press(
    control: TimeControl, state: ClockState, event: Pressed, name: _Names
) -> tuple[ClockState, PressResult]:
    by = None if event.by is None else _check_seat(event.by, "the pressing seat")
    nxt = None if event.next_seat is None else _check_seat(event.next_seat, "the next seat")
    moves = _check_int(event.moves, "a press's moves", MAX_COUNT)
    if moves < 0:
        raise ClockError(f"a press completes 0 or more moves, not {moves}")

    def ignored(reason: str) -> tuple[ClockState, PressResult]:
        return state, PressResult(False, by if by is not None else state.turn, None, reason)

    if not state.started:
        return ignored("the clock has not been started")
    if state.ended:
        return ignored(f"the game is over: the clock stopped at {_at(state.t_ns)}")
    holds = dict(state.holds)
    if FLAG_HOLD in holds:
        flag = state.flags[-1]
        return ignored(f"{name(flag.seat)}'s flag fell at {_at(flag.t_ns)}: the clock is stopped")
    blocking = [hold for hold in holds if hold != EQUIPMENT_HOLD]
    if blocking:
        return ignored(f"the clock is paused ({', '.join(blocking)})")
    seat = state.turn
    assert seat is not None
    if by is not None and by is not seat:
        return ignored(f"{name(by)}'s clock is not running (it is {name(seat)}'s turn)")
    after = state.with_side(seat, timing.press(state.side(seat), control, moves))
    following = seat.other if nxt is None else nxt
    after = after.with_side(following, timing.begin_turn(after.side(following)))
    return replace(after, turn=following), PressResult(True, seat, following)
