"""The clock's events: everything that happens to a clock, as plain immutable values.

A clock is its time control plus the list of its events: ``Clock.replay`` folds the list
into an identical clock, so the journal keeps only the events and rebuilds the rest. Every
event carries its instant ``t_ns`` (the host's monotonic clock); referee actions also say
who (``actor``) and why (``reason``). ``event_to_dict``/``event_from_dict`` are the JSON
form (``{"event": "press", "t_ns": …}``); decoding checks every key and names the bad one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from wuzi.clock.control import MAX_INSTANT_NS
from wuzi.clock.errors import ClockFormatError
from wuzi.rules.procedure import Seat

__all__ = [
    "EVENT_TYPES",
    "ClockEvent",
    "Ended",
    "FlagNoted",
    "InfractionRecorded",
    "MovesCorrected",
    "Paused",
    "Pressed",
    "Resumed",
    "Started",
    "Switched",
    "TimeAdded",
    "TimeSet",
    "event_from_dict",
    "event_to_dict",
]

DEFAULT_HOLD = "referee"
FLAG_HOLD = "flag"  # held by the clock itself when a flag stops it (policy "stop")
EQUIPMENT_HOLD = "equipment"
"""Held by a table host while its equipment cannot see the players (a board or clock unit
lost). Neither side's time runs, but a press still completes a move: the turn passes and
the bonus is given, because a player who moved during an outage must not lose the move or
the increment for what the equipment did (a referee resumes the clock of the side to
move). Every other hold refuses presses."""


@dataclass(frozen=True, kw_only=True)
class ClockEvent:
    """Base class: ``t_ns`` is when it happened (never earlier than the previous event)."""

    kind: ClassVar[str] = ""
    t_ns: int


@dataclass(frozen=True, kw_only=True)
class Started(ClockEvent):
    """The game starts: ``seat``'s clock (the first seat's, i.e. Black's) begins to run."""

    kind: ClassVar[str] = "start"
    seat: Seat = Seat.FIRST
    actor: str = ""


@dataclass(frozen=True, kw_only=True)
class Pressed(ClockEvent):
    """A clock button was pressed: by ``by`` (None: whoever's clock is running), completing
    ``moves`` moves (0: a press that was not a move); ``next_seat`` is whose clock runs
    next (None: the other seat's), for the opening steps where the same player acts again."""

    kind: ClassVar[str] = "press"
    by: Seat | None = None
    moves: int = 1
    next_seat: Seat | None = None


@dataclass(frozen=True, kw_only=True)
class Paused(ClockEvent):
    """A pause: ``hold`` names what holds the clock (``referee`` for one table, ``venue``
    for the whole hall…); the clock runs again once every hold is released."""

    kind: ClassVar[str] = "pause"
    hold: str = DEFAULT_HOLD
    actor: str = ""
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class Resumed(ClockEvent):
    """A hold released (``flag`` restarts a clock stopped by a flag, once time is given)."""

    kind: ClassVar[str] = "resume"
    hold: str = DEFAULT_HOLD
    actor: str = ""
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class TimeAdded(ClockEvent):
    """The referee added (``delta_ns`` > 0) or removed (< 0) time of ``seat``."""

    kind: ClassVar[str] = "adjust"
    seat: Seat
    delta_ns: int
    actor: str = ""
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class TimeSet(ClockEvent):
    """The referee set ``seat``'s remaining main time (and byo-yomi periods left)."""

    kind: ClassVar[str] = "set"
    seat: Seat
    remaining_ns: int
    periods_left: int | None = None
    actor: str = ""
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class MovesCorrected(ClockEvent):
    """The referee corrected ``seat``'s move counter to ``moves``."""

    kind: ClassVar[str] = "moves"
    seat: Seat
    moves: int
    actor: str = ""
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class Switched(ClockEvent):
    """The referee made ``seat``'s clock the one that runs (no bonus, no move)."""

    kind: ClassVar[str] = "switch"
    seat: Seat
    actor: str = ""
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class InfractionRecorded(ClockEvent):
    """An infraction by ``seat`` (e.g. the clock pressed without a new stone). Nothing is
    undone: the press stands with its time; the referee decides the rest."""

    kind: ClassVar[str] = "infraction"
    seat: Seat
    detail: str
    actor: str = ""


@dataclass(frozen=True, kw_only=True)
class FlagNoted(ClockEvent):
    """``seat``'s flag, which fell at ``t_ns``, is put on record (``Clock.note_flags``).

    A flag is computed, so the clock's state as of its last event does not hold it until
    some later event is folded in; a table that must say "stopped by a flag" the moment
    it notices (the published state, what the next action meets) notes it with this
    event at the flag's own instant. It changes nothing ``Clock.at`` would not show."""

    kind: ClassVar[str] = "flag"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class Ended(ClockEvent):
    """The game is over: the clock freezes at this instant."""

    kind: ClassVar[str] = "end"
    actor: str = ""
    reason: str = ""


EVENT_TYPES: dict[str, type[ClockEvent]] = {
    cls.kind: cls
    for cls in (
        Started,
        Pressed,
        Paused,
        Resumed,
        TimeAdded,
        TimeSet,
        MovesCorrected,
        Switched,
        InfractionRecorded,
        FlagNoted,
        Ended,
    )
}


def _encode(value: object) -> object:
    return value.value if isinstance(value, Seat) else value


def event_to_dict(event: ClockEvent) -> dict[str, Any]:
    """The JSON form: ``{"event": kind, "t_ns": …, <fields>}``, seats as ``first``/``second``."""
    out: dict[str, Any] = {"event": event.kind}
    for f in dataclasses.fields(event):
        out[f.name] = _encode(getattr(event, f.name))
    return out


def _decode_value(kind: str, key: str, annotation: str, value: object) -> object:
    where = f"event {kind!r}: key {key!r}"
    optional = annotation.endswith("| None")
    base = annotation.removesuffix("| None").strip()
    if value is None:
        if optional:
            return None
        raise ClockFormatError(f"{where}: a value is required, not null")
    if base == "Seat":
        if value not in ("first", "second"):
            raise ClockFormatError(f"{where}: expected 'first' or 'second', not {value!r}")
        return Seat(value)
    if base == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ClockFormatError(f"{where}: expected a whole number, not {value!r}")
        if abs(value) > MAX_INSTANT_NS:  # docs/clock.md "Limits"
            raise ClockFormatError(f"{where}: {value} is beyond any clock's 64 bits")
        return value
    if base == "str":
        if not isinstance(value, str):
            raise ClockFormatError(f"{where}: expected text, not {value!r}")
        return value
    raise ClockFormatError(f"{where}: unsupported field type {annotation}")  # pragma: no cover


def event_from_dict(data: Mapping[str, Any]) -> ClockEvent:
    """Read an event's JSON form back; ``ClockFormatError`` names the key that is wrong."""
    if not isinstance(data, Mapping):
        raise ClockFormatError(f"a clock event is a JSON object, not {data!r}")
    kind = data.get("event")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None or not isinstance(kind, str):
        raise ClockFormatError(
            f"key 'event': {kind!r} is no clock event (expected one of {', '.join(EVENT_TYPES)})"
        )
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields) - {"event"})
    if unknown:
        raise ClockFormatError(f"event {kind!r}: unknown key {unknown[0]!r}")
    values: dict[str, object] = {}
    for name, f in fields.items():
        if name not in data:
            if f.default is dataclasses.MISSING:
                raise ClockFormatError(f"event {kind!r}: key {name!r} is missing")
            continue
        values[name] = _decode_value(kind, name, str(f.type), data[name])
    return cls(**values)  # type: ignore[arg-type]
