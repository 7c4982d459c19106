"""Views and snapshots: the clock as displays, referees and the wire see it.

``ClockView`` is the readable state at one instant: per side the time until the flag
(``remaining_ns``), the counter shown (``face_ns``), the period, the byo-yomi periods or
Canadian moves left, the delay left, the move counter and the flag. A ``Snapshot`` is the
complete state at one instant with its time control, so a display that receives one can
``extrapolate`` it to any later instant exactly as the clock itself would (byo-yomi periods,
delays and flags included) until the next snapshot arrives — the host needs to send one
only when something happens, not every second.

Instants are the host's monotonic clock. A display on another machine extrapolates with
``now_ns`` in the host's time base: its own monotonic time plus the offset it measured
when the snapshot arrived (``snapshot.t_ns`` minus its local receipt time).

The JSON form (``Snapshot.to_dict``; ``format: wuzi-clock-snapshot``, version 1) is in
docs/clock.md: the derived fields are there for readers that do not extrapolate; reading
it back (``Snapshot.from_dict``) uses only the raw state (``sides.*.state``) and checks
every key, naming the first one that is wrong.

Views are built from the state machine (``wuzi.clock.machine``) and the face rules
(``wuzi.clock.face``), never from a ``Clock``: the ``Clock`` (``wuzi.clock.clock``) hands
out views and snapshots, so it sits above this module.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wuzi.clock import timing
from wuzi.clock.control import MAX_INSTANT_NS, NS_PER_MS, OvertimeKind, TimeControl, parse_control
from wuzi.clock.errors import ClockError, ClockFormatError
from wuzi.clock.face import face_text, next_change_ns
from wuzi.clock.machine import ClockState, Flag, FlagPolicy, advance
from wuzi.clock.timing import SideState
from wuzi.rules.procedure import Seat

if TYPE_CHECKING:
    from wuzi.rules.record import ClockReading

__all__ = [
    "FORMAT",
    "VERSION",
    "ClockView",
    "SideView",
    "Snapshot",
    "extrapolate",
    "side_text",
    "view_of",
]

FORMAT = "wuzi-clock-snapshot"
VERSION = 1


@dataclass(frozen=True)
class SideView:
    """One side at one instant. ``remaining_ns`` is the time until its flag falls if its
    clock runs without a press (what the replay command prints); ``face_ns`` the counter a
    display shows (main time, or the current byo-yomi period); ``period`` is 1-based;
    ``period_moves_left`` the moves still due in a period with a move count;
    ``periods_left`` the Japanese byo-yomi periods left including the current one;
    ``block_moves_left`` the moves still due in the current Canadian block (in overtime);
    ``delay_ns`` what is left of this turn's delay (only for the side whose turn it is)."""

    seat: Seat
    remaining_ns: int
    face_ns: int
    delay_ns: int
    period: int
    period_moves_left: int | None
    overtime: bool
    periods_left: int | None
    block_moves_left: int | None
    moves: int
    flagged_ns: int | None

    @property
    def text(self) -> str:
        return side_text(self)


def side_text(view: SideView) -> str:
    """One side as its face shows it: ``4:59``, ``4:59 d`` while a delay runs, ``0:27 [3]``
    in byo-yomi with 3 periods left, ``4:12 /7`` in a Canadian block with 7 moves to make,
    ``0.0 flag`` once the flag fell (the counter's text is ``wuzi.clock.face.face_text``)."""
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


@dataclass(frozen=True)
class ClockView:
    """The clock at ``t_ns``: both sides, who runs (``running``, None while nothing does)
    and whose turn it is, the holds, the flags in order, the next visible change."""

    t_ns: int
    started: bool
    ended: bool
    running: Seat | None
    turn: Seat | None
    holds: tuple[str, ...]
    flags: tuple[Flag, ...]
    infractions: tuple[int, int]
    first: SideView
    second: SideView
    next_change_ns: int | None

    def side(self, seat: Seat) -> SideView:
        return self.first if seat is Seat.FIRST else self.second

    @property
    def first_flag(self) -> Flag | None:
        return self.flags[0] if self.flags else None

    def reading(self) -> ClockReading:
        """Both sides' time left in ms, by seat, as a game record keeps it after an action
        (``Game.place(..., clocks=view.reading())``)."""
        from wuzi.rules.record import ClockReading

        return ClockReading(
            self.first.remaining_ns // NS_PER_MS, self.second.remaining_ns // NS_PER_MS
        )


def _side_view(control: TimeControl, state: ClockState, seat: Seat) -> SideView:
    side = state.side(seat)
    in_turn = state.turn is seat and state.started and not state.ended
    phase = control.phases[side.phase]
    overtime = timing.in_overtime(side, control)
    ot = control.overtime
    periods_left = None
    block_left = None
    if ot is not None and ot.kind is OvertimeKind.BYOYOMI:
        periods_left = ot.periods - side.periods_used
    if ot is not None and ot.kind is OvertimeKind.CANADIAN and overtime:
        block_left = ot.moves - side.block_moves
    return SideView(
        seat=seat,
        remaining_ns=timing.time_to_flag_ns(side, control, in_turn=in_turn),
        face_ns=timing.face_ns(side, control),
        delay_ns=timing.delay_left_ns(side, control) if in_turn and side.flagged_ns is None else 0,
        period=side.phase + 1,
        period_moves_left=None if phase.moves is None else phase.moves - side.phase_moves,
        overtime=overtime,
        periods_left=periods_left,
        block_moves_left=block_left,
        moves=side.moves,
        flagged_ns=side.flagged_ns,
    )


def view_of(control: TimeControl, state: ClockState) -> ClockView:
    """The view of ``state`` (which must have its instant: ``state.t_ns``)."""
    if state.t_ns is None:
        raise ClockError("a view needs an instant: ask the clock at some now_ns")
    return ClockView(
        t_ns=state.t_ns,
        started=state.started,
        ended=state.ended,
        running=state.running,
        turn=state.turn,
        holds=state.hold_names,
        flags=state.flags,
        infractions=state.infractions,
        first=_side_view(control, state, Seat.FIRST),
        second=_side_view(control, state, Seat.SECOND),
        next_change_ns=next_change_ns(control, state),
    )


@dataclass(frozen=True)
class Snapshot:
    """The complete clock at ``state.t_ns``, with its control and flag policy."""

    control: TimeControl
    on_flag: FlagPolicy
    state: ClockState

    @property
    def t_ns(self) -> int:
        assert self.state.t_ns is not None
        return self.state.t_ns

    @property
    def view(self) -> ClockView:
        return view_of(self.control, self.state)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (plain dicts, lists, ints, strings, booleans and nulls)."""
        view = self.view
        state = self.state

        def seat(s: Seat | None) -> str | None:
            return None if s is None else s.value

        def side(v: SideView, raw: SideState) -> dict[str, Any]:
            derived = dataclasses.asdict(v)
            del derived["seat"]
            derived["text"] = v.text
            derived["state"] = dataclasses.asdict(raw)
            return derived

        return {
            "format": FORMAT,
            "version": VERSION,
            "control": str(self.control),
            "on_flag": self.on_flag.value,
            "t_ns": view.t_ns,
            "started": state.started,
            "ended": state.ended,
            "turn": seat(state.turn),
            "running": seat(view.running),
            "holds": [{"hold": name, "since_ns": since} for name, since in state.holds],
            "flags": [{"seat": f.seat.value, "t_ns": f.t_ns} for f in state.flags],
            "infractions": {"first": state.infractions[0], "second": state.infractions[1]},
            "next_change_ns": view.next_change_ns,
            "sides": {
                "first": side(view.first, state.first),
                "second": side(view.second, state.second),
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Snapshot:
        """Read the JSON form back (only the raw state counts; derived fields are redone)."""
        r = _Reader(data)
        if r.get("format", str) != FORMAT:
            raise ClockFormatError(f"format: expected {FORMAT!r}, not {data.get('format')!r}")
        version = r.get("version", int)
        if version != VERSION:
            raise ClockFormatError(f"version: only version {VERSION} is known, not {version}")
        spec = r.get("control", str)
        try:
            control = parse_control(spec)
        except ClockError as exc:
            raise ClockFormatError(f"control: {exc}") from None
        try:
            policy = FlagPolicy(r.get("on_flag", str))
        except ValueError:
            raise ClockFormatError("on_flag: expected 'stop' or 'continue'") from None
        holds = []
        for i, item in enumerate(r.get("holds", list)):
            h = _Reader(item, f"holds[{i}]")
            holds.append((h.get("hold", str), h.get("since_ns", int)))
        flags = []
        for i, item in enumerate(r.get("flags", list)):
            f = _Reader(item, f"flags[{i}]")
            flags.append(Flag(f.seat("seat"), f.get("t_ns", int)))
        infractions = _Reader(r.get("infractions", dict), "infractions")
        sides = _Reader(r.get("sides", dict), "sides")
        state = ClockState(
            first=_read_side(sides.get("first", dict), "sides.first", control),
            second=_read_side(sides.get("second", dict), "sides.second", control),
            t_ns=r.get("t_ns", int),
            started=r.get("started", bool),
            ended=r.get("ended", bool),
            turn=r.optional_seat("turn"),
            holds=tuple(sorted(holds)),
            flags=tuple(flags),
            infractions=(
                infractions.get("first", int, minimum=0),
                infractions.get("second", int, minimum=0),
            ),
        )
        return cls(control, policy, state)


class _Reader:
    """Typed access to one JSON object, naming the path of a bad key."""

    def __init__(self, data: object, path: str = "") -> None:
        if not isinstance(data, Mapping):
            raise ClockFormatError(f"{path or 'snapshot'}: expected an object, not {data!r}")
        self.data = data
        self.path = path

    def where(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str, kind: type[Any], *, minimum: int | None = None) -> Any:
        if key not in self.data:
            raise ClockFormatError(f"{self.where(key)}: missing")
        value = self.data[key]
        wrong = not isinstance(value, kind) or (kind is int and isinstance(value, bool))
        if wrong:
            raise ClockFormatError(f"{self.where(key)}: expected {kind.__name__}, not {value!r}")
        if minimum is not None and value < minimum:
            raise ClockFormatError(f"{self.where(key)}: must be at least {minimum}, not {value}")
        if kind is int and abs(value) > MAX_INSTANT_NS:  # docs/clock.md "Limits"
            raise ClockFormatError(f"{self.where(key)}: {value} is beyond any clock's 64 bits")
        return value

    def optional_int(self, key: str, *, minimum: int | None = None) -> int | None:
        if self.data.get(key, 0) is None:
            return None
        value: int = self.get(key, int, minimum=minimum)
        return value

    def seat(self, key: str) -> Seat:
        value = self.get(key, str)
        if value not in ("first", "second"):
            raise ClockFormatError(
                f"{self.where(key)}: expected 'first' or 'second', not {value!r}"
            )
        return Seat(value)

    def optional_seat(self, key: str) -> Seat | None:
        if key in self.data and self.data[key] is None:
            return None
        return self.seat(key)


def _read_side(data: object, path: str, control: TimeControl) -> SideState:
    r = _Reader(_Reader(data, path).get("state", dict), f"{path}.state")
    side = SideState(
        bank_ns=r.get("bank_ns", int, minimum=0),
        phase=r.get("phase", int, minimum=0),
        phase_moves=r.get("phase_moves", int, minimum=0),
        moves=r.get("moves", int, minimum=0),
        periods_used=r.get("periods_used", int, minimum=0),
        period_used_ns=r.get("period_used_ns", int, minimum=0),
        block_moves=r.get("block_moves", int, minimum=0),
        turn_used_ns=r.get("turn_used_ns", int, minimum=0),
        turn_phase=r.get("turn_phase", int, minimum=0),
        flagged_ns=r.optional_int("flagged_ns"),
    )
    last = len(control.phases) - 1
    for key in ("phase", "turn_phase"):
        if getattr(side, key) > last:
            raise ClockFormatError(
                f"{path}.state.{key}: the control {control} has periods 0..{last} only"
            )
    return side


def extrapolate(snapshot: Snapshot, now_ns: int) -> Snapshot:
    """The snapshot advanced to ``now_ns`` as the clock would be if nothing happened in
    between — exactly, flags and byo-yomi included. An instant before the snapshot's own
    (a display whose estimate of the host's time lags a little) gives the snapshot as it
    is: a display never shows time running backwards."""
    now = max(now_ns, snapshot.t_ns)
    state = advance(snapshot.control, snapshot.on_flag, snapshot.state, now)
    return Snapshot(snapshot.control, snapshot.on_flag, state)
