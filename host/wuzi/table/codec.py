"""Table inputs and outputs as JSON-safe dicts: the journal's payloads, the screens' data.

The host journals every ``TableInput`` before it has any effect and rebuilds a table
after a crash with ``TableSession.replay`` of the decoded inputs, so
``decode_input(*encode_input(e)) == e`` must hold exactly, through a JSON round trip:
payloads hold only dicts, lists, strings, ints, booleans and None (no tuples, no enums).
Seats are ``"first"``/``"second"``, colours ``"black"``/``"white"``, points ints 0..224,
``ClockReading`` ``{"first_ms", "second_ms"}``, the setup a dict (``setup_to_dict``).

Decoding is strict, as everything read from outside is: a payload has exactly the fields
of its class, each of the right type, and anything else raises ``CodecError`` naming the
kind, the field and what is wrong — never another exception, whatever the payload. The
codec checks types and ranges only; what a value means (is this claim kind one?) is the
session's to judge.

The kinds are fixed here, not derived from class names, so renaming a class cannot
orphan a journal: inputs ``in.<snake_case_class_name>`` (``in.stone_settled``), outputs
the public event kinds (``move``, ``alert`` …). Each field is coded by its annotation;
a field whose annotation the codec does not know fails at import, and a test fails for
a class missing from the kinds. Pure: no I/O.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

from wuzi.base.json_values import describe
from wuzi.rules.board import POINTS, Colour
from wuzi.rules.procedure import Seat
from wuzi.rules.record import ClockReading
from wuzi.table import inputs as i
from wuzi.table import outputs as o
from wuzi.table.alerts import ALERT_KIND, AlertReason
from wuzi.table.checks import TableError

__all__ = [
    "INPUT_KINDS",
    "OUTPUT_KINDS",
    "CodecError",
    "decode_input",
    "decode_output",
    "encode_input",
    "encode_output",
    "setup_from_dict",
    "setup_to_dict",
]

INPUT_KINDS: Mapping[str, type[i.TableInput]] = {
    "in.session_started": i.SessionStarted,
    "in.stone_settled": i.StoneSettled,
    "in.board_alert": i.BoardAlert,
    "in.clock_pressed": i.ClockPressed,
    "in.claim": i.Claim,
    "in.decide": i.Decide,
    "in.declare": i.Declare,
    "in.choose": i.Choose,
    "in.tick": i.Tick,
    "in.host_restarted": i.HostRestarted,
    "in.equipment_held": i.EquipmentHeld,
    "in.referee_pause": i.RefereePause,
    "in.referee_resume": i.RefereeResume,
    "in.adjourn": i.Adjourn,
    "in.adjust_time": i.AdjustTime,
    "in.correct_moves": i.CorrectMoves,
    "in.take_back": i.TakeBack,
    "in.replace_stone": i.ReplaceStone,
    "in.set_result": i.SetResult,
    "in.start_next_game": i.StartNextGame,
}
"""The journal kind of every input class."""

OUTPUT_KINDS: Mapping[str, type[o.TableOutput]] = {
    "move": o.MoveJudged,
    "offer": o.OfferPlaced,
    "offer-kept": o.OfferKept,
    "decision": o.OpeningDecided,
    "declared": o.OpeningDeclared,
    "take-back": o.MoveTakenBack,
    "correction": o.MoveCorrected,
    "clock": o.ClockChanged,
    "status": o.StatusChanged,
    "result": o.GameOver,
    "next-game": o.NextGameStarted,
    "adjourned": o.Adjourned,
    ALERT_KIND: o.RefereeAlert,
}
"""The event kind of every output class (``alert``: referee-only)."""


class CodecError(TableError):
    """An input or output that cannot be encoded, or a payload that does not decode;
    ``kind`` and ``field`` (a path such as ``setup['opening_settings'][0]``) name it."""

    def __init__(self, kind: str | None, field: str | None, reason: str) -> None:
        self.kind = kind
        self.field = field
        self.reason = reason
        where = "" if kind is None else f"{kind}: "
        if field is not None:
            where += f"field {field}: "
        super().__init__(where + reason)


@dataclass(frozen=True)
class _Where:
    """Where a value sits, for the error message: the kind and the keys down to it."""

    kind: str | None
    keys: tuple[str | int, ...] = ()

    def fail(self, reason: str) -> NoReturn:
        keys = self.keys
        if not keys:
            raise CodecError(self.kind, None, reason)
        if len(keys) == 1:
            raise CodecError(self.kind, repr(keys[0]), reason)
        path = str(keys[0]) + "".join(f"[{k!r}]" for k in keys[1:])
        raise CodecError(self.kind, path, reason)

    def at(self, key: str | int) -> _Where:
        return _Where(self.kind, (*self.keys, key))


def _what(value: object) -> str:
    return describe(value, max_text=40)


# --- one value each way: (encode, decode), both checking -----------------------------

_Fn = Callable[[object, _Where], object]


@dataclass(frozen=True)
class _Codec:
    encode: _Fn
    decode: _Fn


def _int(value: object, where: _Where) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        where.fail(f"must be an integer, not {_what(value)}")
    return int(value)


def _str(value: object, where: _Where) -> str:
    if not isinstance(value, str):
        where.fail(f"must be a string, not {_what(value)}")
    return str(value)


def _point(value: object, where: _Where) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < POINTS:
        where.fail(f"must be a point index 0..{POINTS - 1}, not {_what(value)}")
    return int(value)


def _enum_codec(enum_type: type[Any], names: Mapping[Any, str], what: str) -> _Codec:
    """An enum as one of its names (``names``: member → text)."""
    members = {text: member for member, text in names.items()}
    choices = ", ".join(repr(t) for t in members)

    def encode(value: object, where: _Where) -> str:
        if not isinstance(value, enum_type):
            where.fail(f"must be a {what}, not {_what(value)}")
        return names[value]

    def decode(value: object, where: _Where) -> object:
        if not isinstance(value, str) or value not in members:
            where.fail(f"must be one of {choices}, not {_what(value)}")
        return members[value]

    return _Codec(encode, decode)


def _same(check: Callable[[object, _Where], object]) -> _Codec:
    return _Codec(check, check)


def _optional(codec: _Codec) -> _Codec:
    def encode(value: object, where: _Where) -> object:
        return None if value is None else codec.encode(value, where)

    def decode(value: object, where: _Where) -> object:
        return None if value is None else codec.decode(value, where)

    return _Codec(encode, decode)


def _encode_points(value: object, where: _Where) -> list[int]:
    if not isinstance(value, tuple):
        where.fail(f"must be a tuple of point indices, not {_what(value)}")
    return [_point(p, where.at(n)) for n, p in enumerate(value)]


def _decode_points(value: object, where: _Where) -> tuple[int, ...]:
    if not isinstance(value, list):
        where.fail(f"must be a list of point indices, not {_what(value)}")
    return tuple(_point(p, where.at(n)) for n, p in enumerate(value))


def _exact_keys(value: object, names: tuple[str, ...], where: _Where) -> Mapping[Any, Any]:
    """``value`` as a mapping with exactly the keys ``names``."""
    if not isinstance(value, Mapping):
        where.fail(f"must be an object, not {_what(value)}")
    for key in value:
        if key not in names:
            expected = f"(expected {', '.join(names)})"
            if not isinstance(key, str):
                where.fail(f"{_what(key)} as a key is not a field {expected}")
            where.at(key).fail(f"is not a field here {expected}")
    for name in names:
        if name not in value:
            where.at(name).fail("is missing")
    return value


def _encode_clocks(value: object, where: _Where) -> dict[str, int]:
    if not isinstance(value, ClockReading):
        where.fail(f"must be a ClockReading, not {_what(value)}")
    return {
        "first_ms": _int(value.first_ms, where.at("first_ms")),
        "second_ms": _int(value.second_ms, where.at("second_ms")),
    }


def _decode_clocks(value: object, where: _Where) -> ClockReading:
    obj = _exact_keys(value, ("first_ms", "second_ms"), where)
    return ClockReading(
        first_ms=_int(obj["first_ms"], where.at("first_ms")),
        second_ms=_int(obj["second_ms"], where.at("second_ms")),
    )


# --- the setup --------------------------------------------------------------------------

_SETUP_FIELDS = tuple(f.name for f in dataclasses.fields(i.TableSetup))


def _sequence(value: object, encoding: bool) -> tuple[Any, ...] | list[Any] | None:
    """``value`` if it is a tuple (encoding) or a list (decoding), else None."""
    if encoding:
        return value if isinstance(value, tuple) else None
    return value if isinstance(value, list) else None


def _setting(pair: object, where: _Where, *, encoding: bool) -> tuple[str, str | int]:
    items = _sequence(pair, encoding)
    if items is None or len(items) != 2:
        shape = "tuple" if encoding else "list"
        where.fail(f"must be a {shape} (name, value), not {_what(pair)}")
    name, value = items
    if not isinstance(name, str):
        where.at(0).fail(f"a setting's name must be a string, not {_what(name)}")
    if isinstance(value, bool) or not isinstance(value, str | int):
        where.at(1).fail(f"setting {name!r} must be a string or an integer, not {_what(value)}")
    return name, value


def _settings(value: object, where: _Where, *, encoding: bool) -> list[tuple[str, str | int]]:
    items = _sequence(value, encoding)
    if items is None:
        shape = "tuple" if encoding else "list"
        where.fail(f"must be a {shape} of (name, value) pairs, not {_what(value)}")
    pairs = [_setting(p, where.at(n), encoding=encoding) for n, p in enumerate(items)]
    names = [name for name, _ in pairs]
    for n, name in enumerate(names):
        if name in names[:n]:
            where.at(n).fail(f"setting {name!r} is given twice")
    return pairs


def _encode_setup(value: object, where: _Where) -> dict[str, Any]:
    if not isinstance(value, i.TableSetup):
        where.fail(f"must be a TableSetup, not {_what(value)}")
    pairs = _settings(value.opening_settings, where.at("opening_settings"), encoding=True)
    return {
        "ruleset": _str(value.ruleset, where.at("ruleset")),
        "mode": _str(value.mode, where.at("mode")),
        "opening": _str(value.opening, where.at("opening")),
        "opening_settings": [[name, v] for name, v in pairs],
        "time_control": _str(value.time_control, where.at("time_control")),
        "unpressed_alert_ms": _int(value.unpressed_alert_ms, where.at("unpressed_alert_ms")),
    }


def _decode_setup(value: object, where: _Where) -> i.TableSetup:
    obj = _exact_keys(value, _SETUP_FIELDS, where)
    pairs = _settings(obj["opening_settings"], where.at("opening_settings"), encoding=False)
    return i.TableSetup(
        ruleset=_str(obj["ruleset"], where.at("ruleset")),
        mode=_str(obj["mode"], where.at("mode")),
        opening=_str(obj["opening"], where.at("opening")),
        opening_settings=tuple(pairs),
        time_control=_str(obj["time_control"], where.at("time_control")),
        unpressed_alert_ms=_int(obj["unpressed_alert_ms"], where.at("unpressed_alert_ms")),
    )


def setup_to_dict(setup: i.TableSetup) -> dict[str, Any]:
    """The setup as a JSON-safe dict (``opening_settings`` a list of ``[name, value]``,
    in the setup's order, so the round trip is exact)."""
    return _encode_setup(setup, _Where("setup"))


def setup_from_dict(data: Mapping[str, object]) -> i.TableSetup:
    """The inverse of ``setup_to_dict``; ``CodecError`` names the key that is wrong."""
    return _decode_setup(data, _Where("setup"))


# --- the field codecs, by annotation -----------------------------------------------------

_SEAT = _enum_codec(Seat, {s: s.value for s in Seat}, "Seat")
_COLOUR = _enum_codec(Colour, {c: c.label for c in Colour}, "Colour")
_REASON = _enum_codec(AlertReason, {r: r.value for r in AlertReason}, "AlertReason")
_POINT = _same(_point)
_CLOCKS = _Codec(_encode_clocks, _decode_clocks)

_BY_ANNOTATION: dict[str, _Codec] = {
    "int": _same(_int),
    "int | None": _optional(_same(_int)),
    "str": _same(_str),
    "str | None": _optional(_same(_str)),
    "Point": _POINT,
    "Point | None": _optional(_POINT),
    "tuple[Point, ...]": _Codec(_encode_points, _decode_points),
    "Seat": _SEAT,
    "Seat | None": _optional(_SEAT),
    "Colour": _COLOUR,
    "Colour | None": _optional(_COLOUR),
    "AlertReason": _REASON,
    "ClockReading": _CLOCKS,
    "ClockReading | None": _optional(_CLOCKS),
    "TableSetup": _Codec(_encode_setup, _decode_setup),
}

_Spec = tuple[tuple[str, _Codec], ...]


def _spec(cls: type[Any]) -> _Spec:
    """Each field of ``cls`` with its codec (the modules use postponed annotations, so a
    field's type is its annotation's text)."""
    spec = []
    for f in dataclasses.fields(cls):
        codec = _BY_ANNOTATION.get(f.type) if isinstance(f.type, str) else None
        if codec is None:
            raise TypeError(f"wuzi.table.codec: no codec for {cls.__name__}.{f.name}: {f.type!r}")
        spec.append((f.name, codec))
    return tuple(spec)


_INPUT_KIND = {cls: kind for kind, cls in INPUT_KINDS.items()}
_OUTPUT_KIND = {cls: kind for kind, cls in OUTPUT_KINDS.items()}
_SPECS: dict[type[Any], _Spec] = {
    cls: _spec(cls) for cls in (*INPUT_KINDS.values(), *OUTPUT_KINDS.values())
}


def _encode(kind: str, value: object) -> dict[str, Any]:
    where = _Where(kind)
    return {name: c.encode(getattr(value, name), where.at(name)) for name, c in _SPECS[type(value)]}


def _decode(kind: str, cls: type[Any], payload: object) -> Any:
    where = _Where(kind)
    spec = _SPECS[cls]
    if not isinstance(payload, Mapping):
        where.fail(f"the payload must be an object, not {_what(payload)}")
    names = tuple(name for name, _ in spec)
    for key in payload:
        if key not in names:
            shown = repr(key) if isinstance(key, str) else f"{_what(key)} as a key"
            where.fail(f"{shown[:60]} is not a field of {cls.__name__} ({', '.join(names)})")
    values = {}
    for name, codec in spec:
        if name not in payload:
            where.at(name).fail("is missing")
        values[name] = codec.decode(payload[name], where.at(name))
    return cls(**values)


def _kind(kind: object, known: Mapping[str, type[Any]], what: str) -> str:
    if not isinstance(kind, str):
        raise CodecError(None, None, f"a {what} kind is a string, not {_what(kind)}")
    if kind not in known:
        raise CodecError(kind[:64], None, f"unknown {what} kind (known: {', '.join(known)})")
    return kind


# --- the API ------------------------------------------------------------------------------


def encode_input(event: i.TableInput) -> tuple[str, dict[str, Any]]:
    """The journal kind and JSON-safe payload of an input (every field, ``now_ns`` too).
    ``CodecError`` for an input whose fields are not of their types."""
    kind = _INPUT_KIND.get(type(event))
    if kind is None:
        raise CodecError(None, None, f"not a table input the codec knows: {_what(event)}")
    return kind, _encode(kind, event)


def decode_input(kind: str, payload: Mapping[str, object]) -> i.TableInput:
    """The input ``encode_input`` made this from; ``CodecError`` for anything else."""
    cls = INPUT_KINDS[_kind(kind, INPUT_KINDS, "table input")]
    event: i.TableInput = _decode(kind, cls, payload)
    return event


def encode_output(out: o.TableOutput) -> tuple[str, dict[str, Any]]:
    """The event kind and JSON-safe data of an output (every field, ``at_ns`` too)."""
    kind = _OUTPUT_KIND.get(type(out))
    if kind is None:
        raise CodecError(None, None, f"not a table output the codec knows: {_what(out)}")
    return kind, _encode(kind, out)


def decode_output(kind: str, data: Mapping[str, object]) -> o.TableOutput:
    """The output ``encode_output`` made this from; ``CodecError`` for anything else."""
    cls = OUTPUT_KINDS[_kind(kind, OUTPUT_KINDS, "table output")]
    out: o.TableOutput = _decode(kind, cls, data)
    return out
