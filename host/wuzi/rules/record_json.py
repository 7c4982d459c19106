"""The JSON form of a game record (``wuzi.rules.record``): export, and import that validates.

The form is versioned (``"format": "wuzi-record", "version": 1``; schema in
docs/records.md). It keeps ``"moves"`` as a list of point names (``"pass"`` for a pass)
and ``"result"`` at the top level, so a script can read a game without knowing the rest;
per-move details sit in the parallel ``"move_details"``. Import checks every field and
names the JSON path of the first bad one (``moves[3]: 'z9' is not a point``), and unknown
keys are errors, so a misspelt key is never silently lost. Nothing here does I/O.

This module sits above the types it writes: it imports ``wuzi.rules.record``, which
imports nothing of it, so whoever needs the JSON form imports it from here.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable
from typing import Any, TypeVar, cast

from wuzi.base.json_values import describe
from wuzi.rules.board import Colour, Point, parse_point, point_name
from wuzi.rules.errors import RecordFormatError, RulesError
from wuzi.rules.procedure import Seat
from wuzi.rules.record import (
    FORBIDDEN_KINDS,
    MODES,
    RESULT_VALUES,
    SET_BY_VALUES,
    Claim,
    ClockReading,
    GameRecord,
    GameResult,
    Infraction,
    Offer,
    OfferRound,
    OpeningDecision,
    OpeningRecord,
    Player,
    RecordedMove,
    RefereeAction,
    ResultValue,
    SetBy,
    alternating_moves,
    check_moves,
    point_text,
)

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "record_from_dict",
    "record_from_json",
    "record_to_dict",
    "record_to_json",
]

FORMAT_NAME = "wuzi-record"
FORMAT_VERSION = 1

_TOKEN = re.compile(r"[a-z0-9][a-z0-9_.+-]*\Z")


# ---------------------------------------------------------------------------------------
# Export


def _seat(s: Seat | None) -> str | None:
    return None if s is None else s.value


def _point(p: Point | None) -> str | None:
    return None if p is None else point_name(p)


def record_to_dict(record: GameRecord) -> dict[str, Any]:
    """The JSON-ready dict of a record (schema version 1, docs/records.md)."""
    opening = record.opening
    offers = opening.offers
    result = record.result
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "event": record.event,
        "round": record.round,
        "match": record.match,
        "board": record.board,
        "table": record.table,
        "game_number": record.game_number,
        "start_time": record.start_time,
        "time_control": record.time_control,
        "players": {
            "first": _player_dict(record.first),
            "second": _player_dict(record.second),
        },
        "ruleset": record.ruleset,
        "mode": record.mode,
        "opening": {
            "procedure": opening.procedure,
            "id": opening.opening_id,
            "name": opening.opening_name,
            "set_by": opening.set_by,
            "decisions": [
                {"seat": d.seat.value, "choice": d.choice, "stones": d.stones, "t_ms": d.t_ms}
                for d in opening.decisions
            ],
            "offers": None
            if offers is None
            else {
                "move": offers.move,
                "n": offers.n,
                "declared_by": _seat(offers.declared_by),
                "points": [
                    {"point": point_name(o.point), "seat": o.seat.value, "t_ms": o.t_ms}
                    for o in offers.offers
                ],
                "kept": _point(offers.kept),
                "chosen_by": _seat(offers.chosen_by),
            },
        },
        "black_seat": record.black_seat.value,
        "moves": [point_text(m.point) for m in record.moves],
        "move_details": [
            {
                "colour": m.colour.label,
                "seat": m.seat.value,
                "t_ms": m.t_ms,
                "first_ms": None if m.clocks is None else m.clocks.first_ms,
                "second_ms": None if m.clocks is None else m.clocks.second_ms,
            }
            for m in record.moves
        ],
        "claims": [
            {
                "seat": c.seat.value,
                "kind": c.kind,
                "point": _point(c.point),
                "t_ms": c.t_ms,
                "verdict": c.verdict,
                "forbidden": c.forbidden,
                "proof": c.proof,
            }
            for c in record.claims
        ],
        "infractions": [
            {"seat": i.seat.value, "description": i.description, "t_ms": i.t_ms, "loses": i.loses}
            for i in record.infractions
        ],
        "referee_actions": [
            {"referee": a.referee, "t_ms": a.t_ms, "action": a.action, "detail": a.detail}
            for a in record.referee_actions
        ],
        "result": None if result is None else result.winner,
        "termination": None
        if result is None
        else {"reason": result.reason, "detail": result.detail, "t_ms": result.t_ms},
        "tags": dict(record.tags),
    }


def _player_dict(p: Player) -> dict[str, str]:
    return {"name": p.name, "id": p.id, "team": p.team}


def record_to_json(record: GameRecord, *, indent: int | None = 2) -> str:
    """The record as JSON text (UTF-8 safe, non-ASCII kept as is), ending with a newline."""
    return json.dumps(record_to_dict(record), ensure_ascii=False, indent=indent) + "\n"


# ---------------------------------------------------------------------------------------
# JSON import with validation. Every check names the JSON path of the value it rejects.

T = TypeVar("T")


class _Obj:
    """A JSON object being read: each key is taken once; leftovers are unknown keys."""

    def __init__(self, value: object, path: str) -> None:
        if not isinstance(value, dict):
            raise RecordFormatError(
                f"{path or 'record'}: expected an object, not {describe(value)}"
            )
        self.data: dict[str, object] = value
        self.path = path
        self.seen: set[str] = set()

    def sub(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, read: Callable[[object, str], T], default: T) -> T:
        self.seen.add(key)
        if key not in self.data:
            return default
        return read(self.data[key], self.sub(key))

    def need(self, key: str, read: Callable[[object, str], T]) -> T:
        self.seen.add(key)
        if key not in self.data:
            raise RecordFormatError(f"{self.sub(key)}: missing")
        return read(self.data[key], self.sub(key))

    def done(self) -> None:
        extra = [k for k in self.data if k not in self.seen]
        if extra:
            where = self.path or "record"
            raise RecordFormatError(f"{where}: unknown key {extra[0]!r}")


def _object(read_keys: Callable[[_Obj], T]) -> Callable[[object, str], T]:
    """A reader of one JSON object from ``read_keys``, which takes the keys it knows from
    the ``_Obj``; any key it left is an error (checked after it, so its errors come first)."""

    def read_object(value: object, path: str) -> T:
        obj = _Obj(value, path)
        read = read_keys(obj)
        obj.done()
        return read

    return read_object


def _str(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise RecordFormatError(f"{path}: expected a string, not {describe(value)}")
    return value


def _token(value: object, path: str) -> str:
    text = _str(value, path)
    if not _TOKEN.match(text):
        raise RecordFormatError(
            f"{path}: {text!r} is not a token (lower-case letters, digits and '-', "
            "such as 'forbidden-33')"
        )
    return text


MAX_NUMBER = 10**12
"""The largest number a record holds either way: times are ms (10^12 ms is about 31 years,
the bus's bound too), counts far smaller. A larger one is garbage, refused by its path."""
_MAX_DIGITS = 40  # a longer literal is refused before Python converts it (4300 digits: an error)


def _int(value: object, path: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordFormatError(f"{path}: expected an integer, not {describe(value)}")
    if not -MAX_NUMBER <= value <= MAX_NUMBER:
        raise RecordFormatError(
            f"{path}: {value} is out of range (at most {MAX_NUMBER} either way)"
        )
    return value


def _json_int(text: str) -> int:
    """A JSON integer literal, refused beyond ``_MAX_DIGITS`` digits before conversion."""
    if len(text) > _MAX_DIGITS:
        raise RecordFormatError(
            f"a number of {len(text)} digits ({text[:12]}…): no number in a record is that long"
        )
    return int(text)


def _json_constant(name: str) -> float:
    raise RecordFormatError(f"{name} is not a number in JSON")


def _count(value: object, path: str) -> int:
    n = _int(value, path)
    if n < 0:
        raise RecordFormatError(f"{path}: {n} is negative")
    return n


def _positive(value: object, path: str) -> int:
    n = _int(value, path)
    if n < 1:
        raise RecordFormatError(f"{path}: {n} must be at least 1")
    return n


def _bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise RecordFormatError(f"{path}: expected true or false, not {describe(value)}")
    return value


def _optional(read: Callable[[object, str], T]) -> Callable[[object, str], T | None]:
    def read_optional(value: object, path: str) -> T | None:
        return None if value is None else read(value, path)

    return read_optional


def _list(value: object, path: str) -> list[object]:
    if not isinstance(value, list):
        raise RecordFormatError(f"{path}: expected a list, not {describe(value)}")
    return value


def _items(read: Callable[[object, str], T]) -> Callable[[object, str], tuple[T, ...]]:
    def read_items(value: object, path: str) -> tuple[T, ...]:
        return tuple(read(item, f"{path}[{i}]") for i, item in enumerate(_list(value, path)))

    return read_items


def _point_value(value: object, path: str) -> Point:
    text = _str(value, path)
    try:
        p = parse_point(text)
    except RulesError:
        raise RecordFormatError(
            f"{path}: {text!r} is not a point (a–o and 1–15, e.g. h8)"
        ) from None
    if point_name(p) != text:
        raise RecordFormatError(
            f"{path}: {text!r} is not written as a point (write {point_name(p)!r})"
        )
    return p


def _move_value(value: object, path: str) -> Point | None:
    if value == "pass":
        return None
    text = _str(value, path)
    try:
        return _point_value(text, path)
    except RecordFormatError:
        raise RecordFormatError(
            f"{path}: {text!r} is not a point (a–o and 1–15, e.g. h8) or 'pass'"
        ) from None


def _seat_value(value: object, path: str) -> Seat:
    text = _str(value, path)
    try:
        return Seat(text)
    except ValueError:
        raise RecordFormatError(f"{path}: seat must be 'first' or 'second', not {text!r}") from None


def _colour_value(value: object, path: str) -> Colour:
    text = _str(value, path)
    if text not in ("black", "white"):
        raise RecordFormatError(f"{path}: colour must be 'black' or 'white', not {text!r}")
    return Colour.BLACK if text == "black" else Colour.WHITE


def _choice(options: tuple[str, ...]) -> Callable[[object, str], str]:
    def read_choice(value: object, path: str) -> str:
        text = _str(value, path)
        if text not in options:
            raise RecordFormatError(f"{path}: expected one of {', '.join(options)}, not {text!r}")
        return text

    return read_choice


def _time(value: object, path: str) -> int | None:
    return None if value is None else _count(value, path)


@_object
def _player(obj: _Obj) -> Player:
    return Player(
        name=obj.get("name", _str, ""), id=obj.get("id", _str, ""), team=obj.get("team", _str, "")
    )


@_object
def _decision(obj: _Obj) -> OpeningDecision:
    return OpeningDecision(
        seat=obj.need("seat", _seat_value),
        choice=obj.need("choice", _token),
        stones=obj.need("stones", _count),
        t_ms=obj.get("t_ms", _time, None),
    )


@_object
def _offer(obj: _Obj) -> Offer:
    return Offer(
        point=obj.need("point", _point_value),
        seat=obj.need("seat", _seat_value),
        t_ms=obj.get("t_ms", _time, None),
    )


@_object
def _offer_round(obj: _Obj) -> OfferRound:
    no_offers: tuple[Offer, ...] = ()
    offers = obj.get("points", _items(_offer), no_offers)
    seen: dict[Point, int] = {}
    for i, o in enumerate(offers):
        if o.point in seen:
            raise RecordFormatError(
                f"{obj.path}.points[{i}]: {point_name(o.point)} was already offered "
                f"({obj.path}.points[{seen[o.point]}])"
            )
        seen[o.point] = i
    kept = obj.get("kept", _optional(_point_value), None)
    if kept is not None and kept not in seen:
        raise RecordFormatError(f"{obj.path}.kept: {point_name(kept)} is not one of the offers")
    return OfferRound(
        move=obj.need("move", _positive),
        n=obj.need("n", _positive),
        offers=offers,
        kept=kept,
        declared_by=obj.get("declared_by", _optional(_seat_value), None),
        chosen_by=obj.get("chosen_by", _optional(_seat_value), None),
    )


@_object
def _opening(obj: _Obj) -> OpeningRecord:
    set_by = obj.get("set_by", _optional(_choice(SET_BY_VALUES)), None)
    return OpeningRecord(
        procedure=obj.get("procedure", _token, "free"),
        opening_id=obj.get("id", _optional(_str), None),
        opening_name=obj.get("name", _optional(_str), None),
        set_by=cast(SetBy | None, set_by),
        decisions=obj.get("decisions", _items(_decision), ()),
        offers=obj.get("offers", _optional(_offer_round), None),
    )


def _move_detail(value: object, path: str) -> tuple[Colour, Seat, int | None, ClockReading | None]:
    obj = _Obj(value, path)
    colour = obj.need("colour", _colour_value)
    seat = obj.need("seat", _seat_value)
    t_ms = obj.get("t_ms", _time, None)
    first = obj.get("first_ms", _optional(_int), None)
    second = obj.get("second_ms", _optional(_int), None)
    obj.done()
    if (first is None) != (second is None):
        raise RecordFormatError(
            f"{path}: give both clock readings (first_ms and second_ms) or neither"
        )
    clocks = None if first is None or second is None else ClockReading(first, second)
    return colour, seat, t_ms, clocks


@_object
def _claim(obj: _Obj) -> Claim:
    return Claim(
        seat=obj.need("seat", _seat_value),
        kind=obj.need("kind", _token),
        verdict=obj.need("verdict", _token),
        point=obj.get("point", _optional(_point_value), None),
        t_ms=obj.get("t_ms", _time, None),
        forbidden=obj.get("forbidden", _optional(_choice(FORBIDDEN_KINDS)), None),
        proof=obj.get("proof", _str, ""),
    )


@_object
def _infraction(obj: _Obj) -> Infraction:
    return Infraction(
        seat=obj.need("seat", _seat_value),
        description=obj.need("description", _str),
        t_ms=obj.get("t_ms", _time, None),
        loses=obj.get("loses", _bool, False),
    )


@_object
def _referee_action(obj: _Obj) -> RefereeAction:
    return RefereeAction(
        action=obj.need("action", _token),
        referee=obj.get("referee", _str, ""),
        t_ms=obj.get("t_ms", _time, None),
        detail=obj.get("detail", _str, ""),
    )


def _tags(value: object, path: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise RecordFormatError(f"{path}: expected an object, not {describe(value)}")
    return {str(k): _str(v, f"{path}.{k}") for k, v in value.items()}


def _ruleset_value(value: object, path: str) -> str:
    text = _str(value, path)
    from wuzi.rules.ruleset import RuleSet

    try:
        canonical = str(RuleSet.parse(text))
    except RulesError as exc:
        raise RecordFormatError(f"{path}: {exc}") from None
    if canonical != text:
        raise RecordFormatError(f"{path}: write the rule set as {canonical!r}, not {text!r}")
    return text


def _start_time(value: object, path: str) -> str:
    text = _str(value, path)
    if text:
        try:
            datetime.datetime.fromisoformat(text)
        except ValueError:
            raise RecordFormatError(
                f"{path}: {text!r} is not an ISO 8601 time such as 2026-05-01T09:30:00+08:00"
            ) from None
    return text


@_object
def _players(obj: _Obj) -> tuple[Player, Player]:
    first = obj.get("first", _player, Player())
    second = obj.get("second", _player, Player())
    return first, second


@_object
def _termination(obj: _Obj) -> tuple[str, str, int | None]:
    reason = obj.need("reason", _token)
    detail = obj.get("detail", _str, "")
    t_ms = obj.get("t_ms", _time, None)
    return reason, detail, t_ms


def record_from_dict(data: object) -> GameRecord:
    """Validate a decoded JSON value and build the record; RecordFormatError names the path.

    ``format`` and ``version`` are required; every other key may be left out (its default
    is used; without ``move_details`` the moves alternate from Black by the seats of
    ``black_seat``). Unknown keys are errors, so a misspelt key is never silently lost.
    """
    obj = _Obj(data, "")
    fmt = obj.need("format", _str)
    if fmt != FORMAT_NAME:
        raise RecordFormatError(f"format: expected {FORMAT_NAME!r}, not {fmt!r}")
    version = obj.need("version", _int)
    if version != FORMAT_VERSION:
        raise RecordFormatError(
            f"version: this program reads version {FORMAT_VERSION} records, not {version}"
        )
    black_seat = obj.get("black_seat", _seat_value, Seat.FIRST)
    no_points: tuple[Point | None, ...] = ()
    points = obj.get("moves", _items(_move_value), no_points)
    if obj.has("move_details"):
        details = obj.need("move_details", _items(_move_detail))
        if len(details) != len(points):
            raise RecordFormatError(
                f"move_details: {len(details)} entries for {len(points)} moves; "
                "give one entry per move"
            )
        moves = tuple(
            RecordedMove(p, colour, seat, t_ms, clocks)
            for p, (colour, seat, t_ms, clocks) in zip(points, details, strict=True)
        )
    else:
        moves = alternating_moves(points, black_seat)
    check_moves(moves, lambda i: f"moves[{i}]")

    winner = obj.get("result", _optional(_choice(RESULT_VALUES)), None)
    termination = obj.get("termination", _optional(_termination), None)
    result: GameResult | None = None
    if winner is None and termination is not None:
        raise RecordFormatError("termination: given, but result is null (the game is running)")
    if winner is not None:
        if termination is None:
            raise RecordFormatError(f"termination: missing; result {winner!r} needs a reason")
        reason, detail, t_ms = termination
        result = GameResult(cast(ResultValue, winner), reason, detail, t_ms)

    first, second = obj.get("players", _players, (Player(), Player()))
    record = GameRecord(
        moves=moves,
        result=result,
        ruleset=obj.get("ruleset", _ruleset_value, "renju"),
        mode=obj.get("mode", _choice(MODES), "claim"),
        opening=obj.get("opening", _opening, OpeningRecord()),
        black_seat=black_seat,
        claims=obj.get("claims", _items(_claim), ()),
        infractions=obj.get("infractions", _items(_infraction), ()),
        referee_actions=obj.get("referee_actions", _items(_referee_action), ()),
        event=obj.get("event", _str, ""),
        round=obj.get("round", _str, ""),
        match=obj.get("match", _optional(_positive), None),
        board=obj.get("board", _optional(_positive), None),
        table=obj.get("table", _optional(_count), None),
        game_number=obj.get("game_number", _optional(_positive), None),
        first=first,
        second=second,
        time_control=obj.get("time_control", _str, ""),
        start_time=obj.get("start_time", _start_time, ""),
        tags=obj.get("tags", _tags, {}),
    )
    obj.done()
    return record


def record_from_json(text: str | bytes) -> GameRecord:
    """Parse and validate JSON text (str, or UTF-8 bytes) into a record.

    Invalid JSON is reported with its line and column; invalid content with its JSON path.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RecordFormatError(f"byte {exc.start}: not UTF-8 text") from None
    try:
        data = json.loads(text, parse_int=_json_int, parse_constant=_json_constant)
    except json.JSONDecodeError as exc:
        raise RecordFormatError(f"line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise RecordFormatError("record: nested too deeply to be a game record") from None
    return record_from_dict(data)
