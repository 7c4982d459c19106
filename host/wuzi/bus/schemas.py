"""Versioned message schemas of the bus, with strict validation of everything that comes in.

A payload is a UTF-8 JSON object carrying ``"v"`` (the schema version, now 1) and exactly
the fields of its message type; which type is decided by the topic, never by the payload,
so a message cannot pretend to be something its topic is not. `parse_message` either
returns a typed, frozen message or raises `MessageError` whose ``field`` names what is
wrong — it never lets another exception out, whatever the bytes (the bus is an attack and
noise surface: issue 8). Unknown keys, wrong types, floats where integers belong, NaN,
duplicate keys, and a table or host number that disagrees with the topic are all errors.

An empty payload on a retained topic is MQTT's way of deleting the retained message; it
parses to `Cleared`. `encode` is the inverse of `parse_message` (canonical JSON: sorted
keys, no spaces), so ``parse_message(t, encode(m)) == m``. Pure: no I/O, no clock.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, NoReturn

from wuzi.bus.topics import Topic, TopicError, TopicKind, parse_topic
from wuzi.json_values import describe

SCHEMA_VERSION = 1
MAX_PAYLOAD_BYTES = 256 * 1024
MAX_TEXT = 200
MAX_POINT = 224
MAX_TIME_MS = 10**12  # about 31 years: any larger clock or timestamp is garbage

TABLE_STATUSES = ("idle", "playing", "paused", "adjourned", "finished")
RESULTS = ("1-0", "0-1", "1/2-1/2")
COLOURS = ("black", "white")
ARBITER_ACTIONS = (
    "pause",
    "resume",
    "adjust-time",
    "adjust-moves",
    "correct-stone",
    "adjourn",
    "set-result",
    "next-game",
    "decide-claim",
)

_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}")
_KEYWORD = re.compile(r"[a-z][a-z0-9_.-]{0,63}")

JsonObject = dict[str, Any]


class MessageError(ValueError):
    """A payload that does not fit its topic's schema; ``field`` names the culprit."""

    def __init__(self, topic: str, field: str | None, reason: str) -> None:
        self.topic = topic
        self.field = field
        self.reason = reason
        where = f"field {field!r}: " if field else ""
        super().__init__(f"message on {topic!r}: {where}{reason}")


@dataclass(frozen=True)
class TableState:
    """The whole visible state of one table (retained; also the delayed public feed)."""

    table: int
    game_id: str | None
    seq: int  # the number of the last event folded into this state
    status: str  # one of TABLE_STATUSES
    moves: tuple[int, ...]  # points, 0..224, in the order played
    black_ms: int  # remaining time; negative once a flag has fallen
    white_ms: int
    running: str | None  # whose clock runs: "black", "white" or None
    result: str | None  # one of RESULTS once finished
    at_ms: int  # host time of this snapshot


@dataclass(frozen=True)
class TableEvent:
    """One game event; ``event_id`` is unique venue-wide so a repeat is recognised."""

    event_id: str
    table: int
    game_id: str
    seq: int
    kind: str  # a lower-case keyword, e.g. "move", "alert", "result"
    at_ms: int
    data: JsonObject = field(default_factory=dict)


@dataclass(frozen=True)
class HostStatus:
    """A host's liveness (retained); its last will is the same message with online=False."""

    host: str
    online: bool
    tables: tuple[int, ...]
    boot_id: str
    at_ms: int


@dataclass(frozen=True)
class Assignment:
    """A game the director gives to a table (retained)."""

    table: int
    game_id: str
    black: str
    white: str
    rule_set: str
    opening: str
    opening_settings: JsonObject
    time_control: str  # PGN TimeControl syntax with Wuzi's extensions (docs/clock.md)
    board: int | None  # board number within a team match
    game_in_match: int  # 1 or 2 of a two-game match; 3+ for playoff games
    playoff: bool
    issued_ms: int


@dataclass(frozen=True)
class ArbiterCommand:
    """A referee command; ``table`` None means every table of the venue."""

    command_id: str
    referee: str
    action: str  # one of ARBITER_ACTIONS
    table: int | None
    args: JsonObject
    issued_ms: int
    auth: str | None = None  # referee credential, checked by the receiver (issue 8)


@dataclass(frozen=True)
class Cleared:
    """An empty payload on a retained topic: the retained message was deleted."""

    topic: str


Message = TableState | TableEvent | HostStatus | Assignment | ArbiterCommand | Cleared

_RETAINED = frozenset(
    {TopicKind.TABLE_STATE, TopicKind.HOST_STATUS, TopicKind.ASSIGNMENT, TopicKind.PUBLIC_STATE}
)


class _Reader:
    """Takes typed fields out of one JSON object, remembering which keys were used."""

    def __init__(self, topic: str, obj: JsonObject) -> None:
        self.topic = topic
        self.obj = obj
        self.used: set[str] = set()

    def fail(self, name: str | None, reason: str) -> NoReturn:
        raise MessageError(self.topic, name, reason)

    def raw(self, name: str) -> object:
        if name not in self.obj:
            self.fail(name, "is missing")
        self.used.add(name)
        return self.obj[name]

    def integer(self, name: str, lo: int, hi: int) -> int:
        value = self.raw(name)
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(name, f"must be an integer, not {_describe(value)}")
        if not lo <= value <= hi:
            self.fail(name, f"must be in {lo}..{hi}, not {value}")
        return value

    def opt_integer(self, name: str, lo: int, hi: int) -> int | None:
        return None if self.raw(name) is None else self.integer(name, lo, hi)

    def boolean(self, name: str) -> bool:
        value = self.raw(name)
        if not isinstance(value, bool):
            self.fail(name, f"must be true or false, not {_describe(value)}")
        return value

    def text(self, name: str, pattern: re.Pattern[str] | None = None) -> str:
        value = self.raw(name)
        if not isinstance(value, str):
            self.fail(name, f"must be a string, not {_describe(value)}")
        if pattern is not None and not pattern.fullmatch(value):
            self.fail(name, f"{value[:80]!r} does not match {pattern.pattern}")
        if not value.strip() or len(value) > MAX_TEXT:
            self.fail(name, f"must be 1-{MAX_TEXT} characters and not blank")
        return value

    def opt_text(self, name: str, pattern: re.Pattern[str] | None = None) -> str | None:
        return None if self.raw(name) is None else self.text(name, pattern)

    def choice(self, name: str, allowed: tuple[str, ...], optional: bool = False) -> str | None:
        value = self.raw(name)
        if value is None and optional:
            return None
        if not isinstance(value, str) or value not in allowed:
            self.fail(name, f"must be one of {', '.join(allowed)}, not {_describe(value)}")
        return value

    def int_list(self, name: str, lo: int, hi: int, max_len: int) -> tuple[int, ...]:
        value = self.raw(name)
        if not isinstance(value, list):
            self.fail(name, f"must be a list, not {_describe(value)}")
        if len(value) > max_len:
            self.fail(name, f"has {len(value)} items, at most {max_len} allowed")
        for index, item in enumerate(value):
            if isinstance(item, bool) or not isinstance(item, int) or not lo <= item <= hi:
                self.fail(f"{name}[{index}]", f"must be an integer {lo}..{hi}, not {item!r}")
        if len(set(value)) != len(value):
            self.fail(name, "contains a repeated value")
        return tuple(value)

    def mapping(self, name: str) -> JsonObject:
        value = self.raw(name)
        if not isinstance(value, dict):
            self.fail(name, f"must be an object, not {_describe(value)}")
        return value

    def finish(self) -> None:
        extra = sorted(set(self.obj) - self.used)
        if extra:
            self.fail(extra[0], "is not a field of this message (unknown key)")


def _describe(value: object) -> str:
    return describe(value, max_text=40)


def _table_state(r: _Reader) -> TableState:
    return TableState(
        table=r.integer("table", 1, 9999),
        game_id=r.opt_text("game_id", _ID),
        seq=r.integer("seq", 0, 2**53),
        status=str(r.choice("status", TABLE_STATUSES)),
        moves=r.int_list("moves", 0, MAX_POINT, MAX_POINT + 1),
        black_ms=r.integer("black_ms", -MAX_TIME_MS, MAX_TIME_MS),
        white_ms=r.integer("white_ms", -MAX_TIME_MS, MAX_TIME_MS),
        running=r.choice("running", COLOURS, optional=True),
        result=r.choice("result", RESULTS, optional=True),
        at_ms=r.integer("at_ms", 0, MAX_TIME_MS),
    )


def _table_event(r: _Reader) -> TableEvent:
    return TableEvent(
        event_id=r.text("event_id", _ID),
        table=r.integer("table", 1, 9999),
        game_id=r.text("game_id", _ID),
        seq=r.integer("seq", 0, 2**53),
        kind=r.text("kind", _KEYWORD),
        at_ms=r.integer("at_ms", 0, MAX_TIME_MS),
        data=r.mapping("data"),
    )


def _host_status(r: _Reader) -> HostStatus:
    return HostStatus(
        host=r.text("host", _ID),
        online=r.boolean("online"),
        tables=r.int_list("tables", 1, 9999, 1000),
        boot_id=r.text("boot_id", _ID),
        at_ms=r.integer("at_ms", 0, MAX_TIME_MS),
    )


def _assignment(r: _Reader) -> Assignment:
    return Assignment(
        table=r.integer("table", 1, 9999),
        game_id=r.text("game_id", _ID),
        black=r.text("black"),
        white=r.text("white"),
        rule_set=r.text("rule_set", _KEYWORD),
        opening=r.text("opening", _KEYWORD),
        opening_settings=r.mapping("opening_settings"),
        time_control=r.text("time_control"),
        board=r.opt_integer("board", 1, 9999),
        game_in_match=r.integer("game_in_match", 1, 99),
        playoff=r.boolean("playoff"),
        issued_ms=r.integer("issued_ms", 0, MAX_TIME_MS),
    )


def _arbiter_command(r: _Reader) -> ArbiterCommand:
    return ArbiterCommand(
        command_id=r.text("command_id", _ID),
        referee=r.text("referee", _ID),
        action=str(r.choice("action", ARBITER_ACTIONS)),
        table=r.opt_integer("table", 1, 9999),
        args=r.mapping("args"),
        issued_ms=r.integer("issued_ms", 0, MAX_TIME_MS),
        auth=r.opt_text("auth"),
    )


_PARSERS: dict[TopicKind, Callable[[_Reader], Message]] = {
    TopicKind.TABLE_STATE: _table_state,
    TopicKind.PUBLIC_STATE: _table_state,
    TopicKind.TABLE_EVENTS: _table_event,
    TopicKind.PUBLIC_EVENTS: _table_event,
    TopicKind.HOST_STATUS: _host_status,
    TopicKind.ASSIGNMENT: _assignment,
    TopicKind.ARBITER_COMMANDS: _arbiter_command,
}


def _no_constants(name: str) -> NoReturn:
    raise ValueError(f"{name} is not allowed in a Wuzi message")


def _unique_keys(pairs: list[tuple[str, Any]]) -> JsonObject:
    obj: JsonObject = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"duplicate key {key!r}")
        obj[key] = value
    return obj


def _decode(topic: str, payload: bytes) -> JsonObject:
    if len(payload) > MAX_PAYLOAD_BYTES:
        raise MessageError(
            topic, None, f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD_BYTES}"
        )
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason = f"payload is not UTF-8 ({exc.reason} at byte {exc.start})"
        raise MessageError(topic, None, reason) from None
    try:
        obj = json.loads(text, parse_constant=_no_constants, object_pairs_hook=_unique_keys)
    except RecursionError:
        raise MessageError(topic, None, "payload JSON is nested too deeply") from None
    except ValueError as exc:  # json.JSONDecodeError, duplicate keys, NaN, huge integers
        raise MessageError(topic, None, f"payload is not valid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise MessageError(topic, None, f"payload must be a JSON object, not {_describe(obj)}")
    return obj


def parse_message(topic: str, payload: bytes) -> Message:
    """The typed message on ``topic``, or `MessageError` saying which field is wrong."""
    try:
        where = parse_topic(topic)
    except TopicError as exc:
        raise MessageError(str(topic)[:200], None, str(exc)) from None
    if not isinstance(payload, bytes | bytearray | memoryview):
        raise MessageError(topic, None, f"payload must be bytes, not {type(payload).__name__}")
    payload = bytes(payload)
    if not payload:
        if where.kind in _RETAINED:
            return Cleared(topic)
        raise MessageError(topic, None, "empty payload on a topic that is not retained")
    reader = _Reader(topic, _decode(topic, payload))
    version = reader.raw("v")
    if isinstance(version, bool) or not isinstance(version, int):
        reader.fail("v", f"schema version must be an integer, not {_describe(version)}")
    if version != SCHEMA_VERSION:
        reader.fail("v", f"schema version {version} is not supported (this host reads v1)")
    message = _PARSERS[where.kind](reader)
    reader.finish()
    _check_against_topic(topic, where, message)
    return message


def _check_against_topic(topic: str, where: Topic, message: Message) -> None:
    table = getattr(message, "table", None)
    if where.table is not None and table != where.table:
        raise MessageError(topic, "table", f"is {table} but the topic is for table {where.table}")
    if isinstance(message, HostStatus) and message.host != where.host:
        raise MessageError(topic, "host", f"is {message.host!r} but the topic is {where.host!r}")


def encode(message: Message) -> bytes:
    """Canonical JSON bytes of ``message`` (an empty payload for `Cleared`)."""
    if isinstance(message, Cleared):
        return b""
    obj: JsonObject = {"v": SCHEMA_VERSION}
    for f in fields(message):
        value = getattr(message, f.name)
        obj[f.name] = list(value) if isinstance(value, tuple) else value
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
