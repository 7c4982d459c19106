"""Bad input for everything the bus reads: topics, payloads and signed referee commands.

The bus is an attack and noise surface (issue 8), so whatever arrives:

* `parse_topic` raises nothing but `TopicError`; `parse_message` nothing but
  `MessageError` (a ValueError), whose text names the topic and, when one is to blame,
  the field — never KeyError, TypeError, AttributeError, UnicodeDecodeError,
  RecursionError or anything else;
* what `parse_message` accepts a receiver can pass on: it encodes again, comes back
  unchanged, passes `check_outgoing`, and (a command) can be checked by `auth.verify`
  without any error but `AuthError` — also deep in a call stack;
* a signed command altered anywhere (a field, a byte of the payload, its ``auth``) never
  verifies; a wrong key, an old or future command is refused with its reason, and a
  repeat is recognised;
* on a real broker each malformed message is logged with its reason and never reaches the
  handler, and the valid message after it still does.

The messages mutated here are built with the bus module's own dataclasses (the
strategies of test_bus_schemas), then changed in one place of their JSON.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion
from test_bus_schemas import ALL_TOPICS, VENUE, arbiter_commands, ids, messages, topic_for

from support.broker import MosquittoBroker, wait_until
from wuzi.bus import topics
from wuzi.bus.auth import AuthError, canonical_bytes, sign, verify
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import (
    ARBITER_ACTIONS,
    MAX_DEPTH,
    ArbiterCommand,
    Cleared,
    Message,
    MessageError,
    TableEvent,
    check_outgoing,
    encode,
    parse_message,
)
from wuzi.bus.topics import Topic, TopicError, build_topic, parse_topic
from wuzi.table.commands import CommandMemory

FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

KEYS = {"deputy": b"deputy-token-0123456789abcdef", "chief": b"chief-arbiter-token-9876543210"}
NOW = 1_700_000_000_000
MAX_AGE_MS = 60_000
COMMANDS = topics.arbiter_commands(VENUE)

# --- checks ---------------------------------------------------------------------------


def parse_or_error(topic: str, payload: object) -> Message | MessageError:
    """The parsed message, or the `MessageError` (checked to say where and what); any
    other exception propagates and fails the test."""
    try:
        message = parse_message(topic, payload)  # type: ignore[arg-type]
    except MessageError as error:
        text = str(error)
        assert isinstance(error, ValueError)
        assert text.startswith("message on ") and error.reason, text
        if error.field is not None:
            assert f"field {error.field!r}" in text
        return error
    check_passes_on(topic, message)
    return message


def check_passes_on(topic: str, message: Message) -> None:
    """What a receiver accepted it can encode, store, forward and verify again."""
    payload = encode(message)
    assert parse_message(topic, payload) == message
    if not isinstance(message, Cleared):
        check_outgoing(topic, message)
    if isinstance(message, ArbiterCommand):
        canonical_bytes(message)
        with contextlib.suppress(AuthError):  # never KeyError, ValueError, RecursionError …
            verify(message, KEYS, now_ms=NOW, max_age_ms=MAX_AGE_MS)


def top_name(field: str) -> str:
    """``alerts[2].text`` -> ``alerts``; ``data.x`` -> ``data``."""
    return re.split(r"[.\[]", field, maxsplit=1)[0]


# Fields checked against another field: a fault made in one may be named at the other.
RELATED = {
    "moves": {"offers"},
    "tables": {"links_down"},
    "tiebreak_names": {"standings"},
    "table": {"table"},
}


# --- topics ---------------------------------------------------------------------------

LEVELS = [
    "wuzi", "v1", "v2", VENUE, "pi-1", "table", "tables", "1", "0", "01", "9999", "10000",
    "-1", "state", "events", "host", "status", "assignments", "arbiter", "commands",
    "alerts", "public", "competition", "+", "#", "", " ", "x" * 65, "\x00", "é", "\ud800",
]  # fmt: skip
level_topics = st.lists(st.sampled_from(LEVELS), max_size=8).map("/".join)
wuzi_topics = st.lists(st.sampled_from(LEVELS), max_size=5).map(
    lambda rest: "/".join(["wuzi", "v1", VENUE, *rest])
)


@FUZZ
@given(level_topics | wuzi_topics | st.text(max_size=300))
def test_parse_topic_raises_only_topic_errors(text: str) -> None:
    try:
        parsed = parse_topic(text)
    except TopicError as error:
        assert str(error) and len(str(error)) < 600, "the error quotes a cut topic"
        return
    assert isinstance(parsed, Topic) and build_topic(parsed) == text


@pytest.mark.parametrize("thing", [None, 7, b"wuzi/v1/hall/table/1/state", ["wuzi"]])
def test_a_topic_that_is_not_text_is_a_topic_error(thing: object) -> None:
    with pytest.raises(TopicError, match="topic must be a string"):
        parse_topic(thing)  # type: ignore[arg-type]
    assert isinstance(parse_or_error(thing, b"{}"), MessageError)  # type: ignore[arg-type]


def test_a_huge_foreign_topic_is_quoted_cut() -> None:
    for topic in ("x" * 65_000, f"wuzi/v1/{'v' * 65_000}/table/1/state", "wuzi/" + "a/" * 30_000):
        with pytest.raises(TopicError) as caught:
            parse_topic(topic)
        assert len(str(caught.value)) < 600 and "characters)" in str(caught.value)


# --- payloads -------------------------------------------------------------------------

topic_names = st.sampled_from(ALL_TOPICS)


@FUZZ
@given(topic_names, st.binary(max_size=400))
def test_random_bytes_are_refused_with_a_reason(topic: str, payload: bytes) -> None:
    result = parse_or_error(topic, payload)
    assert isinstance(result, MessageError) or payload == b""


@FUZZ
@given(messages, st.data())
def test_a_valid_message_with_a_byte_that_is_not_utf8_is_refused(
    message: Message, data: st.DataObject
) -> None:
    payload = encode(message)
    at = data.draw(st.integers(0, len(payload)))
    junk = data.draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"]))
    error = parse_or_error(topic_for(message), payload[:at] + junk + payload[at:])
    assert isinstance(error, MessageError) and error.field is None
    assert "not UTF-8" in error.reason


any_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from([2**64, -(2**63), 10**300, 1e308, -0.0, 5e-324]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@FUZZ
@given(topic_names, any_json)
def test_json_of_the_wrong_shape_is_refused(topic: str, value: object) -> None:
    # allow_nan: NaN and Infinity go out as the literals a sloppy sender would write
    error = parse_or_error(topic, json.dumps(value, allow_nan=True).encode())
    assert isinstance(error, MessageError)


@FUZZ
@given(topic_names, st.dictionaries(st.text(max_size=12), any_json, max_size=8))
def test_versioned_objects_of_random_fields_are_refused(topic: str, obj: dict[str, Any]) -> None:
    payload = json.dumps({"v": 1} | obj, allow_nan=True).encode()
    assert isinstance(parse_or_error(topic, payload), MessageError)


@pytest.mark.parametrize("payload", ["{}", None, 1, [b"{}"], {"v": 1}])
def test_a_payload_that_is_not_bytes_is_refused(payload: object) -> None:
    error = parse_or_error(topics.table_events(VENUE, 1), payload)
    assert isinstance(error, MessageError)
    assert "payload must be bytes" in error.reason


def test_a_payload_in_a_bytearray_or_memoryview_is_read() -> None:
    event = TableEvent("e/1", 1, "g", 1, "move", 5, {"point": 112})
    topic = topics.table_events(VENUE, 1)
    for payload in (bytearray(encode(event)), memoryview(encode(event))):
        assert parse_or_error(topic, payload) == event


# Raw JSON texts put where a value was: what json.dumps would never write, or writes
# only if asked. "\ud800" is the six characters of a JSON escape for a lone surrogate.
RAW_VALUES = [
    "NaN", "Infinity", "-Infinity", "1e999", "-1e400", "1E400", "9" * 5000, "-" + "9" * 4000,
    '"\\ud800"', '"a\\udfffb"', '{"\\ud800": 1}', '"\\u0000"', "1.0", "-0", "1e2",
    "[" * 40 + "]" * 40, "[" * 5000 + "]" * 5000, '{"a":' * 50 + "1" + "}" * 50,
    '{"k": 1, "k": 2}', "true", "null", '""', '" "', '"' + "x" * 3000 + '"',
]  # fmt: skip
SLOT = "\x00slot\x00"
PYTHON_VALUES = [None, True, False, 0, -1, 2**53 + 1, 10**30, -(10**30), 1.5, "", [], {}, [1]]


def paths_of(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every place in a decoded JSON value: object members and list items, at any depth."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key)
            yield from paths_of(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*path, index)
            yield from paths_of(item, (*path, index))


def container(obj: Any, path: tuple[str | int, ...]) -> Any:
    for step in path[:-1]:
        obj = obj[step]
    return obj


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, tuple[str | int, ...], bytes, Message]:
    """A valid message, changed in one place: (topic, the place, payload, the original)."""
    message = draw(messages)
    obj: dict[str, Any] = json.loads(encode(message))
    path = draw(st.sampled_from(sorted(paths_of(obj), key=repr)))
    parent = container(obj, path)
    how = draw(st.sampled_from(["delete", "extra", "python", "raw", "json"]))
    raw = None
    if how == "delete":
        del parent[path[-1]]  # a missing key, or a list one item shorter
    elif how == "extra":
        # any key but the path notation's own "." and "[" (the blame is read back by it)
        key = draw(st.text(st.characters(exclude_characters=".["), min_size=1, max_size=6))
        if isinstance(parent, dict) and key not in parent:
            parent[key] = 1
            path = (*path[:-1], key)  # the new key is to blame
        elif isinstance(parent[path[-1]], dict) and key not in parent[path[-1]]:
            parent[path[-1]][key] = 1
            path = (*path, key)
        else:
            parent[path[-1]] = [parent[path[-1]], 1]
    elif how == "python":
        parent[path[-1]] = draw(st.sampled_from(PYTHON_VALUES))
    elif how == "json":
        parent[path[-1]] = draw(any_json)
    else:
        raw = draw(st.sampled_from(RAW_VALUES))
        parent[path[-1]] = SLOT
    text = json.dumps(obj, allow_nan=True)  # ensure_ascii: non-ASCII as \u escapes
    if raw is not None:
        text = text.replace(json.dumps(SLOT), raw)
    return topic_for(message), path, text.encode(), message


@settings(FUZZ, max_examples=300)
@given(mutations())
def test_a_valid_message_changed_in_one_place_is_refused_naming_it_or_still_valid(
    case: tuple[str, tuple[str | int, ...], bytes, Message],
) -> None:
    topic, path, payload, _original = case
    result = parse_or_error(topic, payload)
    if isinstance(result, MessageError) and result.field is not None:
        changed = str(path[0])
        assert top_name(result.field) in {changed, *RELATED.get(changed, ())}, (
            f"changed {path}, blamed {result.field!r}: {result}"
        )


@FUZZ
@given(messages, st.data())
def test_values_json_cannot_hold_again_are_refused_wherever_they_hide(
    message: Message, data: st.DataObject
) -> None:
    """Infinity from ``1e999``, lone surrogates, deep nesting: valid JSON, but a message
    holding them could not be encoded again — refused, naming the path."""
    obj: dict[str, Any] = json.loads(encode(message))
    path = data.draw(st.sampled_from(sorted(paths_of(obj), key=repr)))
    raw, complaint = data.draw(
        st.sampled_from(
            [
                ("1e999", "beyond the range of a float"),
                ("-1e400", "beyond the range of a float"),
                ('"\\ud800"', "not Unicode text"),
                ('{"\\udc00x": 0}', "not Unicode text"),
                ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested more than"),
            ]
        )
    )
    container(obj, path)[path[-1]] = SLOT
    payload = json.dumps(obj).replace(json.dumps(SLOT), raw).encode()
    error = parse_or_error(topic_for(message), payload)
    assert isinstance(error, MessageError), "accepted a value it cannot encode again"
    assert complaint in error.reason and error.field is not None
    assert top_name(error.field) == path[0]


FREE_FORM = [  # the fields that hold any JSON object: (topic, message, field)
    (
        topics.table_events(VENUE, 1),
        TableEvent("e/1", 1, "g", 1, "move", 5, {"point": 112}),
        "data",
    ),
    (COMMANDS, ArbiterCommand("c-1", "deputy", "pause", 1, {"x": 1}, NOW), "args"),
]


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"k": value}
    return value


@pytest.mark.parametrize(("topic", "message", "name"), FREE_FORM)
@pytest.mark.parametrize("depth", [MAX_DEPTH - 2, MAX_DEPTH - 1, MAX_DEPTH, 100, 990, 5000])
def test_deep_nesting_in_a_free_form_field_is_refused_past_the_limit(
    topic: str, message: Message, name: str, depth: int
) -> None:
    # the field's own object is level 1: `depth` more objects inside it
    text = json.dumps(json.loads(encode(message)) | {name: SLOT})
    inner = "{" + '"k":{' * depth + "}" * depth + "}"
    result = parse_or_error(topic, text.replace(json.dumps(SLOT), inner).encode())
    if depth < MAX_DEPTH:
        assert result == replace(message, **{name: json.loads(inner)})
    else:  # named by the walk, or (thousands deep) refused by the JSON decoder itself
        assert isinstance(result, MessageError)
        assert result.field is None or result.field == name + ".k" * MAX_DEPTH


def test_an_accepted_nested_command_verifies_deep_in_a_call_stack() -> None:
    """A receiver checks signatures inside paho's callback, many frames down: the deepest
    command the parser accepts must still encode there (Python's recursion limit counts
    the JSON encoder's levels too)."""
    cmd = sign(
        ArbiterCommand("c-1", "deputy", "pause", 1, {"k": nested(MAX_DEPTH - 2)}, NOW),
        KEYS["deputy"],
    )
    parsed = parse_message(COMMANDS, encode(cmd))
    assert parsed == cmd

    def down(frames: int) -> None:
        if frames:
            down(frames - 1)
        else:
            verify(parsed, KEYS, now_ms=NOW, max_age_ms=MAX_AGE_MS)  # type: ignore[arg-type]

    down(sys.getrecursionlimit() - 200)


# --- signed commands ------------------------------------------------------------------

signed_commands = arbiter_commands.map(
    lambda c: sign(replace(c, referee="deputy", issued_ms=NOW - 1000), KEYS["deputy"])
)
NEW_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "command_id": ids,
    "referee": st.sampled_from(["chief", "deputy-2", "Deputy", "nobody"]),
    "action": st.sampled_from(ARBITER_ACTIONS),
    "table": st.none() | st.integers(1, 9999),
    "args": st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5)),
    "issued_ms": st.integers(NOW - 30_000, NOW),
}


@FUZZ
@given(signed_commands, st.data())
def test_a_signed_command_changed_in_any_field_never_verifies(
    cmd: ArbiterCommand, data: st.DataObject
) -> None:
    verify(cmd, KEYS, now_ms=NOW, max_age_ms=MAX_AGE_MS)  # the original is good
    name = data.draw(st.sampled_from(sorted(NEW_VALUES)))
    value = data.draw(NEW_VALUES[name])
    assume(value != getattr(cmd, name))
    forged = replace(cmd, **{name: value})
    with pytest.raises(AuthError, match=r"bad signature|unknown referee") as caught:
        verify(forged, KEYS, now_ms=NOW, max_age_ms=MAX_AGE_MS)
    assert forged.command_id in str(caught.value)


@FUZZ
@given(signed_commands, st.data())
def test_a_signed_payload_changed_in_any_byte_never_verifies(
    cmd: ArbiterCommand, data: st.DataObject
) -> None:
    payload = bytearray(encode(cmd))
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(payload) - 1))
        how = data.draw(st.sampled_from(["flip", "insert", "delete"]))
        byte = data.draw(st.integers(0, 255))
        if how == "flip":
            payload[at] ^= byte or 1
        elif how == "insert":
            payload[at:at] = bytes((byte,))
        else:
            del payload[at]
    result = parse_or_error(COMMANDS, bytes(payload))
    if isinstance(result, MessageError):
        return
    assert isinstance(result, ArbiterCommand)
    try:
        verify(result, KEYS, now_ms=NOW, max_age_ms=MAX_AGE_MS)
    except AuthError:
        return
    assert result == cmd, "an altered command verified"  # e.g. 1e+20 written 1E+20


def _flip_hex(auth: str) -> str:
    digit = auth[-1]
    return auth[:-1] + ("0" if digit != "0" else "1")


AUTH_CHANGES: list[tuple[Callable[[str], str | None], str]] = [
    (_flip_hex, "bad signature \\(wrong key"),
    (lambda a: a.upper(), "unknown auth scheme|not 64 lower-case"),
    (lambda a: a.replace("hmac-sha256+game:", "HMAC-SHA256+GAME:"), "unknown auth scheme"),
    (lambda a: a.replace("hmac-sha256+game:", "hmac-sha512:"), "unknown auth scheme"),
    (lambda a: a.replace("hmac-sha256+game:", ""), "names no scheme"),
    (lambda a: a[:-1], "not 64 lower-case hex"),
    (lambda a: a + "0", "not 64 lower-case hex"),
    (lambda a: a + "\n", "not 64 lower-case hex"),
    (lambda a: " " + a, "unknown auth scheme"),
    (lambda a: a[:-1] + "٣", "not 64 lower-case hex"),  # an Arabic-Indic digit
    (lambda a: a.replace(":", "::", 1), "not 64 lower-case hex"),
    (lambda a: "hmac-sha256+game:" + "0" * 64, "bad signature \\(wrong key"),
    (lambda a: a.replace("hmac-sha256+game:", "hmac-sha256:"), "old scheme .hmac-sha256."),
    (lambda a: None, "unsigned"),
]


@pytest.mark.parametrize(("change", "reason"), AUTH_CHANGES)
def test_a_changed_auth_is_refused_with_its_reason(
    change: Callable[[str], str | None], reason: str
) -> None:
    cmd = sign(ArbiterCommand("c-1", "deputy", "pause", 3, {}, NOW), KEYS["deputy"])
    assert cmd.auth is not None
    forged = replace(cmd, auth=change(cmd.auth))
    with pytest.raises(AuthError, match=reason):
        verify(forged, KEYS, now_ms=NOW, max_age_ms=MAX_AGE_MS)
    # and on the wire it is refused either by the schema (not text) or by verify
    result = parse_or_error(COMMANDS, encode(forged))
    assert isinstance(result, MessageError) or result == forged


@FUZZ
@given(arbiter_commands, st.sampled_from([b"", b"short", b"x" * 15, "a-text-key-0123456789"]))
def test_junk_commands_and_unusable_keys_raise_only_auth_errors(
    cmd: ArbiterCommand, key: object
) -> None:
    keys: Any = {cmd.referee: key}
    with pytest.raises(AuthError):
        verify(cmd, keys, now_ms=NOW, max_age_ms=MAX_AGE_MS)
    with pytest.raises(AuthError):
        sign(cmd, key)  # type: ignore[arg-type]


@FUZZ
@given(signed_commands)
def test_a_command_signed_with_another_referees_key_is_refused(cmd: ArbiterCommand) -> None:
    under_chief = sign(cmd, KEYS["chief"])  # says deputy, signed by the chief
    with pytest.raises(AuthError, match="bad signature"):
        verify(under_chief, KEYS, now_ms=NOW, max_age_ms=MAX_AGE_MS)


@FUZZ
@given(st.integers(-(10**13), 10**13))
def test_a_command_is_refused_exactly_when_too_old_or_too_far_ahead(age_ms: int) -> None:
    cmd = sign(ArbiterCommand("c-1", "deputy", "pause", 3, {}, NOW - age_ms), KEYS["deputy"])
    try:
        verify(cmd, KEYS, now_ms=NOW, max_age_ms=MAX_AGE_MS)
    except AuthError as error:
        if age_ms > MAX_AGE_MS:
            assert f"issued {age_ms} ms ago" in str(error)
        else:
            assert age_ms < -30_000 and f"{-age_ms} ms in the future" in str(error)
        return
    assert -30_000 <= age_ms <= MAX_AGE_MS


@FUZZ
@given(st.lists(st.integers(0, 40_000), min_size=1, max_size=10))
def test_a_replayed_command_is_either_a_repeat_or_too_old(waits: list[int]) -> None:
    """An attacker replays every command seen so far, at every step: the guard remembers
    each id as long as `verify` would still accept its command, so none gets through (a
    table's memory, ``wuzi.table.commands``)."""
    memory = CommandMemory(MAX_AGE_MS)

    def first_time(cmd: ArbiterCommand, now_ms: int) -> bool:
        if memory.seen(cmd.command_id, now_ms):
            return False
        memory.remember(cmd.command_id, cmd.issued_ms)
        return True

    sent: list[ArbiterCommand] = []
    now = NOW
    for step, wait in enumerate(waits):
        now += wait
        for old in sent:
            fresh = first_time(old, now)
            try:
                verify(old, KEYS, now_ms=now, max_age_ms=MAX_AGE_MS)
            except AuthError as error:
                assert "ms ago" in str(error)
                continue
            assert not fresh, f"{old.command_id} replayed {now - old.issued_ms} ms later"
        cmd = sign(ArbiterCommand(f"c-{step}", "deputy", "pause", 3, {}, now), KEYS["deputy"])
        assert first_time(cmd, now)
        verify(cmd, KEYS, now_ms=now, max_age_ms=MAX_AGE_MS)
        sent.append(cmd)


# --- the client, on a real broker -------------------------------------------------------

JUNK = [  # one of each kind of fault, as they arrive from the network
    b"\xff\xfe",
    b"",  # not a retained topic: an empty payload is an error here
    b"[1, 2]",
    b'{"v": 1}',
    b'{"v": 2}',
    b'{"v": NaN}',
    b'{"v": 1, "v": 1}',
    b"[" * 100_000 + b"]" * 100_000,
]


def _event_payload(data: str) -> bytes:
    event = TableEvent("pi-1/t2/g/1", 2, "g", 1, "move", 5, {"slot": SLOT})
    return encode(event).replace(json.dumps(SLOT).encode(), data.encode())


JUNK += [
    _event_payload("1e999"),
    _event_payload('"\\ud800"'),
    _event_payload("[" * 40 + "]" * 40),
    _event_payload("[" * 200 + "]" * 200),
]


def test_junk_on_the_wire_is_logged_with_its_reason_and_never_handled(
    mosquitto: MosquittoBroker, caplog: pytest.LogCaptureFixture
) -> None:
    venue = "fuzz-wire"
    handled: list[Message] = []
    rejected: list[MessageError] = []
    client = BusClient(
        mosquitto.url, f"{venue}-watcher", on_rejected=lambda _t, e: rejected.append(e)
    )
    client.subscribe(topics.all_table_events(venue), lambda _t, m: handled.append(m))
    client.connect()
    raw = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{venue}-raw")
    try:
        assert client.wait_connected(10) and client.wait_subscribed(10)
        raw.connect("127.0.0.1", mosquitto.port)
        raw.loop_start()
        topic = topics.table_events(venue, 2)
        good = TableEvent("pi-1/t2/g/9", 2, "g", 9, "move", 5, {"point": 112})
        with caplog.at_level(logging.WARNING, logger="wuzi.bus"):
            for payload in [*JUNK, encode(good)]:
                raw.publish(topic, payload, qos=1).wait_for_publish(5)
            wait_until(lambda: bool(handled), 10, "the valid event after the junk")
    finally:
        raw.disconnect()
        raw.loop_stop()
        client.close()
    assert handled == [good]
    assert len(rejected) == len(JUNK)
    logged = [r.getMessage() for r in caplog.records if r.name == "wuzi.bus"]
    for error in rejected:
        assert f"rejected {error}" in logged
    reasons = " | ".join(e.reason for e in rejected)
    for words in ("not UTF-8", "empty payload", "NaN", "duplicate key", "nested too deeply"):
        assert words in reasons
    deep = "data.slot" + "[0]" * (MAX_DEPTH - 1)  # the first list past the limit
    assert [e.field for e in rejected[-4:]] == ["data.slot", "data.slot", deep, deep]
