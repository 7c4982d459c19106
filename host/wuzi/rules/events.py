"""What happens in a game, as events, and the events as plain dicts for the journal.

A ``Game`` keeps an ordered list of events: the journal stores it and ``Game.replay``
rebuilds an identical game from it. *Input* events are what the caller told the game (a
stone, a pass, a claim, a referee's ruling); *derived* events (``derived``) are what the
game concluded from them (an alert for the referee, a claim's verdict, the result), and
replay regenerates them instead of trusting them. ``Result`` lives here because the
``ended`` event carries it.

``event_to_dict`` / ``event_from_dict`` / ``events_from_dicts`` turn events into
JSON-ready dicts (points by name, seats and enums by value) and back; every decoding
error is a ``RecordFormatError`` naming the event and the key.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from wuzi.rules.board import Colour, Point, parse_point, point_name
from wuzi.rules.claims import AlertKind, ClaimKind, ClaimVerdict, RefereeAlert, Verdict
from wuzi.rules.errors import RecordFormatError, RulesError
from wuzi.rules.procedure import Seat
from wuzi.rules.record import ClockReading
from wuzi.rules.verdict import ForbiddenKind

__all__ = [
    "EVENT_TYPES",
    "AlertRaised",
    "ClaimJudged",
    "Decided",
    "Declared",
    "DrawAgreed",
    "FiveAnnounced",
    "FlagFell",
    "ForbiddenClaimed",
    "Forfeited",
    "GameEnded",
    "GameEvent",
    "GameStarted",
    "InfractionRecorded",
    "OfferChosen",
    "Passed",
    "RefereeCorrected",
    "RefereeDecided",
    "RefereePaused",
    "RefereeRemovedStone",
    "RefereeReplacedStone",
    "RefereeResumed",
    "Resigned",
    "Result",
    "ResultReason",
    "StonePlaced",
    "event_from_dict",
    "event_to_dict",
    "events_from_dicts",
]


class ResultReason(enum.Enum):
    FIVE = "five"
    FORBIDDEN = "forbidden"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    TWO_PASSES = "two-passes"
    FULL_BOARD = "full-board"
    FLAG = "flag"
    FORFEIT = "forfeit"
    INFRACTION = "infraction"
    REFEREE = "referee"


@dataclass(frozen=True, kw_only=True)
class Result:
    """How the game ended. ``winner`` is None for a draw; ``winner_colour`` is the colour
    the winner held; ``detail`` says why in words a score sheet can print."""

    winner: Seat | None
    winner_colour: Colour | None
    reason: ResultReason
    detail: str
    forbidden: ForbiddenKind | None = None
    row: tuple[Point, ...] = ()

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    @property
    def score(self) -> str:
        """First seat's score, then the second's: ``1-0``, ``0-1`` or ``½-½``."""
        if self.winner is None:
            return "½-½"
        return "1-0" if self.winner is Seat.FIRST else "0-1"

    def __str__(self) -> str:
        return f"{self.score} ({self.reason.value}): {self.detail}"


# ---------------------------------------------------------------------------------------
# Events. Input events are what the caller told the game; derived events (``derived``)
# are what the game concluded, and ``replay`` regenerates them.


@dataclass(frozen=True, kw_only=True)
class GameEvent:
    kind: ClassVar[str] = "event"
    derived: ClassVar[bool] = False
    t_ms: int | None = None
    clocks: ClockReading | None = None


@dataclass(frozen=True, kw_only=True)
class GameStarted(GameEvent):
    """The first event: the settings, and the opening procedure's name and settings (with
    ``wuzi.rules.openings.make_procedure`` they rebuild a fresh copy for replay)."""

    kind: ClassVar[str] = "started"
    ruleset: str
    mode: str
    opening: str
    opening_settings: tuple[tuple[str, str | int], ...] = ()


@dataclass(frozen=True, kw_only=True)
class StonePlaced(GameEvent):
    """A stone on the board: a move, an opening stone, or an offer (``offer``)."""

    kind: ClassVar[str] = "placed"
    seat: Seat
    point: Point
    colour: Colour | None
    offer: bool = False


@dataclass(frozen=True, kw_only=True)
class OfferChosen(GameEvent):
    kind: ClassVar[str] = "chosen"
    seat: Seat
    point: Point


@dataclass(frozen=True, kw_only=True)
class Decided(GameEvent):
    kind: ClassVar[str] = "decided"
    seat: Seat
    choice: str


@dataclass(frozen=True, kw_only=True)
class Declared(GameEvent):
    kind: ClassVar[str] = "declared"
    seat: Seat
    number: int


@dataclass(frozen=True, kw_only=True)
class Passed(GameEvent):
    kind: ClassVar[str] = "passed"
    seat: Seat
    colour: Colour


@dataclass(frozen=True, kw_only=True)
class ForbiddenClaimed(GameEvent):
    kind: ClassVar[str] = "claimed-forbidden"
    seat: Seat
    point: Point


@dataclass(frozen=True, kw_only=True)
class FiveAnnounced(GameEvent):
    kind: ClassVar[str] = "announced-five"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class Resigned(GameEvent):
    kind: ClassVar[str] = "resigned"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class DrawAgreed(GameEvent):
    kind: ClassVar[str] = "draw-agreed"


@dataclass(frozen=True, kw_only=True)
class FlagFell(GameEvent):
    kind: ClassVar[str] = "flag"
    seat: Seat


@dataclass(frozen=True, kw_only=True)
class Forfeited(GameEvent):
    kind: ClassVar[str] = "forfeited"
    seat: Seat
    reason: str


@dataclass(frozen=True, kw_only=True)
class InfractionRecorded(GameEvent):
    kind: ClassVar[str] = "infraction"
    seat: Seat
    description: str
    loses: bool = False


@dataclass(frozen=True, kw_only=True)
class RefereePaused(GameEvent):
    kind: ClassVar[str] = "referee-paused"
    reason: str
    referee: str = ""


@dataclass(frozen=True, kw_only=True)
class RefereeResumed(GameEvent):
    kind: ClassVar[str] = "referee-resumed"
    penalty: str | None = None
    note: str = ""
    referee: str = ""


@dataclass(frozen=True, kw_only=True)
class RefereeDecided(GameEvent):
    kind: ClassVar[str] = "referee-decided"
    winner: Seat | None
    reason: str
    referee: str = ""


@dataclass(frozen=True, kw_only=True)
class RefereeCorrected(GameEvent):
    kind: ClassVar[str] = "referee-corrected"
    winner: Seat | None
    reason: str
    referee: str = ""


@dataclass(frozen=True, kw_only=True)
class RefereeRemovedStone(GameEvent):
    """The referee took the last stone back (a sensor misread, or a move ruled void):
    the game is as it was before that stone, the stone's ``placed`` event stays in the
    list as history."""

    kind: ClassVar[str] = "referee-removed-stone"
    point: Point
    reason: str
    referee: str = ""


@dataclass(frozen=True, kw_only=True)
class RefereeReplacedStone(GameEvent):
    """The referee ruled that the last stone, read on ``old``, stands on ``new``: it is
    judged again there, keeping its number, seat, time stamp and clock readings."""

    kind: ClassVar[str] = "referee-replaced-stone"
    old: Point
    new: Point
    reason: str
    referee: str = ""


@dataclass(frozen=True, kw_only=True)
class AlertRaised(GameEvent):
    kind: ClassVar[str] = "alert"
    derived: ClassVar[bool] = True
    alert: RefereeAlert


@dataclass(frozen=True, kw_only=True)
class ClaimJudged(GameEvent):
    kind: ClassVar[str] = "judged"
    derived: ClassVar[bool] = True
    seat: Seat
    verdict: ClaimVerdict


@dataclass(frozen=True, kw_only=True)
class GameEnded(GameEvent):
    kind: ClassVar[str] = "ended"
    derived: ClassVar[bool] = True
    result: Result


EVENT_TYPES: dict[str, type[GameEvent]] = {
    cls.kind: cls
    for cls in (
        GameStarted,
        StonePlaced,
        OfferChosen,
        Decided,
        Declared,
        Passed,
        ForbiddenClaimed,
        FiveAnnounced,
        Resigned,
        DrawAgreed,
        FlagFell,
        Forfeited,
        InfractionRecorded,
        RefereePaused,
        RefereeResumed,
        RefereeDecided,
        RefereeCorrected,
        RefereeRemovedStone,
        RefereeReplacedStone,
        AlertRaised,
        ClaimJudged,
        GameEnded,
    )
}


# ---------------------------------------------------------------------------------------
# Events as plain dicts (JSON-ready) for the journal: points by name, enums by value.

_Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]


def _enum_codec(cls: type[enum.Enum]) -> _Codec:
    def decode(value: Any) -> Any:
        try:
            return cls(value)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in cls)
            raise ValueError(f"{value!r} is not one of {allowed}") from None

    return (lambda member: member.value), decode


def _colour_decode(value: Any) -> Colour:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not 'black' or 'white'")
    return Colour.parse(value)


def _point_decode(value: Any) -> Point:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a point name such as h8")
    return parse_point(value)


def _typed(kind: type, what: str) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if isinstance(value, bool) is not (kind is bool) or not isinstance(value, kind):
            raise ValueError(f"{value!r} is not {what}")
        return value

    return check


def _settings_decode(value: Any) -> tuple[tuple[str, str | int], ...]:
    if not isinstance(value, dict):
        raise ValueError(f"{value!r} is not an object of settings")
    for k, v in value.items():
        if not isinstance(v, str | int) or isinstance(v, bool):
            raise ValueError(f"setting {k!r}: {v!r} is not a text or an integer")
    return tuple(sorted(value.items()))


def _clocks_decode(value: Any) -> ClockReading:
    if not isinstance(value, dict) or set(value) != {"first_ms", "second_ms"}:
        raise ValueError(f"{value!r} is not {{'first_ms': …, 'second_ms': …}}")
    int_check = _typed(int, "an integer")
    return ClockReading(int_check(value["first_ms"]), int_check(value["second_ms"]))


def _optional(codec: _Codec) -> _Codec:
    enc, dec = codec
    return (lambda v: None if v is None else enc(v)), (lambda v: None if v is None else dec(v))


def _nested(cls: type[Any]) -> _Codec:
    return (lambda v: _fields_to_dict(v)), (lambda v: _fields_from_dict(cls, v, cls.__name__))


_SEAT = _enum_codec(Seat)
_COLOUR: _Codec = ((lambda c: c.label), _colour_decode)
_POINT: _Codec = (point_name, _point_decode)
_INT: _Codec = ((lambda v: v), _typed(int, "an integer"))
_STR: _Codec = ((lambda v: v), _typed(str, "a text"))
_CODECS: dict[str, _Codec] = {
    "int": _INT,
    "int | None": _optional(_INT),
    "str": _STR,
    "str | None": _optional(_STR),
    "bool": ((lambda v: v), _typed(bool, "true or false")),
    "Point": _POINT,
    "Point | None": _optional(_POINT),
    "tuple[tuple[str, str | int], ...]": (
        (lambda pairs: dict(pairs)),
        (lambda v: _settings_decode(v)),
    ),
    "tuple[Point, ...]": (
        (lambda row: [point_name(p) for p in row]),
        (lambda v: tuple(_point_decode(p) for p in _typed(list, "a list of points")(v))),
    ),
    "Seat": _SEAT,
    "Seat | None": _optional(_SEAT),
    "Colour": _COLOUR,
    "Colour | None": _optional(_COLOUR),
    "ClockReading | None": _optional(((lambda c: dataclasses.asdict(c)), _clocks_decode)),
    "AlertKind": _enum_codec(AlertKind),
    "ClaimKind": _enum_codec(ClaimKind),
    "Verdict": _enum_codec(Verdict),
    "ResultReason": _enum_codec(ResultReason),
    "ForbiddenKind | None": _optional(_enum_codec(ForbiddenKind)),
    "RefereeAlert": _nested(RefereeAlert),
    "ClaimVerdict": _nested(ClaimVerdict),
    "Result": _nested(Result),
}


def _fields_to_dict(obj: Any) -> dict[str, Any]:
    return {f.name: _CODECS[str(f.type)][0](getattr(obj, f.name)) for f in dataclasses.fields(obj)}


def _fields_from_dict(cls: type[Any], data: Any, where: str) -> Any:
    if not isinstance(data, dict):
        raise RecordFormatError(f"{where}: expected an object, not {data!r}")
    known = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(known) - {"kind"})
    if unknown:
        raise RecordFormatError(f"{where}: unknown key {unknown[0]!r}")
    values: dict[str, Any] = {}
    for name, f in known.items():
        if name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise RecordFormatError(f"{where}: missing key {name!r}")
            continue
        try:
            values[name] = _CODECS[str(f.type)][1](data[name])
        except (ValueError, RulesError) as exc:
            raise RecordFormatError(f"{where}: key {name!r}: {exc}") from None
    return cls(**values)


def event_to_dict(event: GameEvent) -> dict[str, Any]:
    """A JSON-ready dict: ``{"kind": "placed", "seat": "first", "point": "h8", …}``."""
    return {"kind": event.kind, **_fields_to_dict(event)}


def event_from_dict(data: Any, *, where: str = "event") -> GameEvent:
    """The inverse of ``event_to_dict``; RecordFormatError names ``where`` and the key."""
    if not isinstance(data, dict):
        raise RecordFormatError(f"{where}: expected an object, not {data!r}")
    kind = data.get("kind")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RecordFormatError(f"{where}: unknown event kind {kind!r}")
    event: GameEvent = _fields_from_dict(cls, data, f"{where} ({kind})")
    return event


def events_from_dicts(items: Sequence[Any]) -> list[GameEvent]:
    """Decode a whole event list; errors name the event's index."""
    return [event_from_dict(item, where=f"event {i}") for i, item in enumerate(items)]
