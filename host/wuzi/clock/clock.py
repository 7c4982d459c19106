"""The game clock a table host drives: a time control, a flag policy and the events so far.

``Clock`` is told what happened and when (``now_ns``, an integer from the host's monotonic
clock — the clock never reads the time itself) and answers what the clock shows at any
later instant. Each action records one event and folds it into the state with the pure
state machine of ``wuzi.clock.machine`` (flags computed at their exact instants, presses
that cannot count ignored with the reason, refused actions raising ``ClockError``);
``Clock.replay(control, events)`` folds the same events into an identical clock, which is
what the journal relies on.

The queries give the views and snapshots of ``wuzi.clock.snapshot`` and the next visible
change of ``wuzi.clock.face``, so this module sits above the state machine, the face rules
and the snapshots, none of which imports it.
"""

from __future__ import annotations

from collections.abc import Iterable

from wuzi.clock import timing
from wuzi.clock.control import TimeControl, parse_control
from wuzi.clock.errors import ClockError
from wuzi.clock.events import (
    DEFAULT_HOLD,
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
from wuzi.clock.face import next_change_ns
from wuzi.clock.machine import (
    ClockState,
    Flag,
    FlagPolicy,
    PressResult,
    advance,
    apply_event,
    initial_state,
)
from wuzi.clock.snapshot import ClockView, Snapshot, view_of
from wuzi.rules.procedure import Seat

__all__ = ["Clock"]


class Clock:
    """One table's clock: a time control, a flag policy and the events so far.

    Every action takes ``now_ns`` (the host's monotonic clock, never earlier than the
    previous event's) and records one event; queries take ``now_ns`` too and change
    nothing. ``labels`` only names the seats in messages (e.g. ``("black", "white")``).
    """

    def __init__(
        self,
        control: TimeControl | str,
        *,
        on_flag: FlagPolicy | str = FlagPolicy.STOP,
        labels: tuple[str, str] = ("first", "second"),
    ) -> None:
        self._control = control if isinstance(control, TimeControl) else parse_control(control)
        try:
            self._policy = FlagPolicy(on_flag)
        except ValueError:
            raise ClockError(f"on_flag must be 'stop' or 'continue', not {on_flag!r}") from None
        self._labels = labels
        self._state = initial_state(self._control)
        self._events: list[ClockEvent] = []

    # --- configuration and history -------------------------------------------------

    @property
    def control(self) -> TimeControl:
        return self._control

    @property
    def on_flag(self) -> FlagPolicy:
        return self._policy

    @property
    def events(self) -> tuple[ClockEvent, ...]:
        return tuple(self._events)

    @property
    def state(self) -> ClockState:
        """The state as of the last event (use ``at`` for a later instant)."""
        return self._state

    @classmethod
    def replay(
        cls,
        control: TimeControl | str,
        events: Iterable[ClockEvent],
        *,
        on_flag: FlagPolicy | str = FlagPolicy.STOP,
        labels: tuple[str, str] = ("first", "second"),
    ) -> Clock:
        """The clock these events make; ``ClockError`` names the first event it refuses."""
        clock = cls(control, on_flag=on_flag, labels=labels)
        for number, event in enumerate(events, 1):
            try:
                clock.apply(event)
            except ClockError as exc:
                raise ClockError(f"event {number} ({getattr(event, 'kind', '?')}): {exc}") from None
        return clock

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Clock):
            return NotImplemented
        return (
            self._control == other._control
            and self._policy == other._policy
            and self._state == other._state
            and self._events == other._events
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Clock({str(self._control)!r}, events={len(self._events)})"

    # --- events ----------------------------------------------------------------------

    def apply(self, event: ClockEvent) -> PressResult | None:
        """Apply and record one event (the journal's way in); the methods below build the
        events. Raises ``ClockError`` and records nothing if the clock refuses it."""
        state, result = apply_event(self._control, self._policy, self._state, event, self._labels)
        self._state = state
        self._events.append(event)
        return result

    def start(self, now_ns: int, *, seat: Seat = Seat.FIRST, actor: str = "") -> None:
        """Start the game: ``seat``'s clock (the first seat holds Black) begins to run,
        unless a hold (a venue pause) is on, in which case it runs once that is released."""
        self.apply(Started(t_ns=now_ns, seat=seat, actor=actor))

    def press(
        self,
        now_ns: int,
        *,
        by: Seat | None = None,
        moves: int = 1,
        next_seat: Seat | None = None,
    ) -> PressResult:
        """A press by ``by`` (None: the player whose clock is running). It completes
        ``moves`` moves (0 for a press that was no move); ``next_seat`` is whose clock runs
        next when the opening requires it (None: the other player's)."""
        result = self.apply(Pressed(t_ns=now_ns, by=by, moves=moves, next_seat=next_seat))
        assert result is not None
        return result

    def pause(
        self, now_ns: int, *, actor: str = "", reason: str = "", hold: str = DEFAULT_HOLD
    ) -> None:
        """Stop the clock; ``hold`` names the pause (``referee`` for this table, ``venue``
        for the whole hall), and the clock runs again once every hold is released."""
        self.apply(Paused(t_ns=now_ns, hold=hold, actor=actor, reason=reason))

    def resume(
        self, now_ns: int, *, actor: str = "", reason: str = "", hold: str = DEFAULT_HOLD
    ) -> None:
        """Release a hold (``flag`` restarts a clock stopped by a flag once the flagged
        side has been given time)."""
        self.apply(Resumed(t_ns=now_ns, hold=hold, actor=actor, reason=reason))

    def add_time(
        self, now_ns: int, seat: Seat, delta_ns: int, *, actor: str = "", reason: str = ""
    ) -> None:
        """Add (``delta_ns`` > 0) or remove (< 0) time of ``seat``. Removal never makes a
        flag fall: it must leave some time."""
        self.apply(TimeAdded(t_ns=now_ns, seat=seat, delta_ns=delta_ns, actor=actor, reason=reason))

    def set_remaining(
        self,
        now_ns: int,
        seat: Seat,
        remaining_ns: int,
        *,
        periods_left: int | None = None,
        actor: str = "",
        reason: str = "",
    ) -> None:
        """Set ``seat``'s main time (of the current period) and, with byo-yomi, the
        periods left."""
        self.apply(
            TimeSet(
                t_ns=now_ns,
                seat=seat,
                remaining_ns=remaining_ns,
                periods_left=periods_left,
                actor=actor,
                reason=reason,
            )
        )

    def correct_moves(
        self, now_ns: int, seat: Seat, moves: int, *, actor: str = "", reason: str = ""
    ) -> None:
        """Correct ``seat``'s move counter (a period whose moves are thereby made adds the
        next period's time at once)."""
        self.apply(MovesCorrected(t_ns=now_ns, seat=seat, moves=moves, actor=actor, reason=reason))

    def switch(self, now_ns: int, seat: Seat, *, actor: str = "", reason: str = "") -> None:
        """Make ``seat``'s clock the one that runs (no bonus, no move)."""
        self.apply(Switched(t_ns=now_ns, seat=seat, actor=actor, reason=reason))

    def record_infraction(self, now_ns: int, seat: Seat, detail: str, *, actor: str = "") -> None:
        """Record an infraction (e.g. a press without a new stone). The press stands with
        its time and bonus; correcting anything is the referee's call."""
        self.apply(InfractionRecorded(t_ns=now_ns, seat=seat, detail=detail, actor=actor))

    def note_flags(self, now_ns: int) -> tuple[Flag, ...]:
        """Put on record every flag fallen by ``now_ns`` that the state as of the last
        event does not hold yet (one ``FlagNoted`` each, at the flag's own instant); the
        flags noted, oldest first (none: nothing changed). Afterwards ``state`` says what
        ``at(now_ns)`` says of the flags: with the ``stop`` policy, held by ``flag``."""
        noted = self.at(now_ns).flags[len(self._state.flags) :]
        for flag in noted:
            self.apply(FlagNoted(t_ns=flag.t_ns, seat=flag.seat))
        return noted

    def end(self, now_ns: int, *, actor: str = "", reason: str = "") -> None:
        """The game is over: the clock freezes now."""
        self.apply(Ended(t_ns=now_ns, actor=actor, reason=reason))

    # --- queries ---------------------------------------------------------------------

    def at(self, now_ns: int) -> ClockState:
        """The state at ``now_ns`` if nothing happens until then (flags included)."""
        return advance(self._control, self._policy, self._state, now_ns)

    def remaining_ns(self, seat: Seat, now_ns: int) -> int:
        """How long until ``seat``'s flag falls if its clock runs without a press."""
        state = self.at(now_ns)
        side = state.side(seat)
        return timing.time_to_flag_ns(side, self._control, in_turn=state.turn is seat)

    def flags(self, now_ns: int) -> tuple[Flag, ...]:
        """Every flag fallen by ``now_ns``, in order (the first one decides)."""
        return self.at(now_ns).flags

    def flag_due_ns(self) -> int | None:
        """When the running side's flag falls if nothing happens (None if no clock runs
        or the running side's flag is already down) — what a host sets its timer to."""
        state = self._state
        seat = state.running
        if seat is None or state.t_ns is None:
            return None
        side = state.side(seat)
        if side.flagged_ns is not None:
            return None
        return state.t_ns + timing.time_to_flag_ns(side, self._control, in_turn=True)

    def infractions(self, seat: Seat) -> int:
        return self._state.infractions[0 if seat is Seat.FIRST else 1]

    def next_visible_change_ns(self, now_ns: int) -> int | None:
        """When a display of this clock next changes if nothing happens (whole seconds,
        tenths under 10 s, byo-yomi periods, the end of a delay, a flag); None if nothing
        runs."""
        return next_change_ns(self._control, self.at(now_ns))

    def view(self, now_ns: int) -> ClockView:
        return view_of(self._control, self.at(now_ns))

    def snapshot(self, now_ns: int) -> Snapshot:
        """The state at ``now_ns`` for the wire: a display extrapolates it (``extrapolate``)
        until the next one arrives."""
        return Snapshot(self._control, self._policy, self.at(now_ns))
