"""What the host hears on the bus, fed junk and well-formed but wrong messages.

The host subscribes to its tables' retained assignments (the director's) and to the
referees' commands. Here a real Mosquitto carries, from a raw MQTT client, whatever
hypothesis makes up to those topics — bytes, JSON that is no message, mutated messages,
messages that parse but are wrong (a bad assignment, a command unsigned, stale, for a
table served elsewhere, with bad arguments, or one the game refuses) — to a
``HostService`` in this process (its tables on real ptys) with a game running. After
each message the test turns the host's loop until a marker message behind it has been
handled, and checks: no crash; nothing changed (the journal and every table exactly as
before — a message a referee or the director really sent may leave one ``refused``
alert for the referees, nothing else); and a log line that says why.

Examples per test: 40, or ``WUZI_FUZZ_EXAMPLES`` (a longer hunt: 400 take about 90 s).
"""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from paho.mqtt.enums import CallbackAPIVersion

from support.broker import MosquittoBroker
from support.host import REFEREE, TOKEN, HostUnderTest
from support.service import InProcessHost
from wuzi.bus import topics
from wuzi.bus.assignment import setup_from_assignment
from wuzi.bus.auth import sign
from wuzi.bus.schemas import (
    ARBITER_ACTIONS,
    DIRECTOR_ACTIONS,
    ArbiterCommand,
    Assignment,
    MessageError,
    encode,
    parse_message,
)
from wuzi.host.commands import CommandError, check_args
from wuzi.host.service import HostService
from wuzi.rules.board import parse_point
from wuzi.table.checks import TableError

BLACK = 1
FUZZ = settings(
    max_examples=int(os.environ.get("WUZI_FUZZ_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
HOST_ACTIONS = [a for a in ARBITER_ACTIONS if a not in DIRECTOR_ACTIONS]


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


ASSIGNMENT = Assignment(
    table=1,
    game_id="g-1",
    black="Ann",
    white="Bo",
    rule_set="renju",
    opening="chinese-2013",
    opening_settings={},
    time_control="2700+30",
    board=None,
    game_in_match=1,
    playoff=False,
    issued_ms=0,
)


class Wire:
    """A raw MQTT client: sends any bytes to any topic (a `BusClient` refuses junk)."""

    def __init__(self, url_port: int) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="fuzz-" + uuid.uuid4().hex)
        self.client.connect("127.0.0.1", url_port)
        self.client.loop_start()

    def send(self, topic: str, payload: bytes, *, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(5)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def _shown(outer: HostUnderTest) -> str | None:
    """The game table 1's last referee state shows (what a referee signs for)."""
    state = outer.observer.referee.get(1)
    return None if state is None else state.game_id


class Fuzzed:
    """The host in this process with game ``g-1`` running (Black's h8 on the board)."""

    def __init__(self, tmp: Path, broker: MosquittoBroker) -> None:
        self.outer = HostUnderTest(tmp, broker.url, tables=1, standalone=False)
        self.inside = InProcessHost(self.outer)
        self.wire = Wire(broker.port)
        self.markers = 0
        venue = self.outer.venue_id
        self.assignment_topic = topics.assignment(venue, 1)
        self.commands_topic = topics.arbiter_commands(venue)

    def start(self) -> None:
        outer, inside = self.outer, self.inside
        inside.start()
        runtime = self.service.tables[1].runtime
        outer.assign(replace(ASSIGNMENT, issued_ms=_now_ms()))
        inside.pump(lambda: runtime.waiting is not None, 10, "the assignment held")
        # the referee signs for the game the table shows: wait until its state shows it
        inside.pump(lambda: _shown(outer) == ASSIGNMENT.game_id, 10, "the waiting game shown")
        outer.command("next-game", 1, via="bus")
        inside.pump(lambda: runtime.session is not None, 10, "the game begun")
        outer.sim.place(1, "h8", BLACK)
        inside.pump(lambda: _session(self.service).pending_stone is not None, 10, "h8 settled")
        outer.sim.press(1, 0)
        inside.pump(lambda: len(_session(self.service).game.moves) == 1, 10, "h8 judged")

    @property
    def service(self) -> HostService:
        return self.inside.service

    def deliver(self, topic: str, payload: bytes, caplog: pytest.LogCaptureFixture) -> list[str]:
        """Send ``payload`` on ``topic``, then a marker (a command of an unknown referee)
        behind it; turn the loop until the marker's refusal is logged. Returns what the
        host's code logged in between, at INFO or above."""
        self.markers += 1
        marker_id = f"marker-{self.markers}-{uuid.uuid4().hex[:8]}"
        marker = ArbiterCommand(marker_id, "nobody", "pause", 1, {"reason": "x"}, _now_ms())
        start = len(caplog.records)
        retained = topic == self.assignment_topic
        self.wire.send(topic, payload, retain=retained)
        self.wire.send(self.commands_topic, encode(marker))
        needle = f"command {marker_id} refused"
        self.inside.pump(
            lambda: any(needle in r.getMessage() for r in caplog.records[start:]),
            10,
            f"the marker behind a message on {topic}",
        )
        said: list[str] = []
        for record in caplog.records[start:]:
            text = record.getMessage()
            if needle in text:
                break
            if record.name.startswith("wuzi") and record.levelno >= logging.INFO:
                said.append(text)
        return said

    def close(self) -> None:
        self.wire.close()
        self.inside.close()
        self.outer.close()


def _session(service: HostService) -> Any:
    session = service.tables[1].runtime.session
    assert session is not None
    return session


def _journal(service: HostService) -> list[tuple[str, str, dict[str, Any]]]:
    journal = service.journal
    assert journal is not None
    return [(e.id, e.kind, e.payload) for e in journal.entries()]


def _table_state(service: HostService) -> tuple[object, ...]:
    runtime = service.tables[1].runtime
    session = runtime.session
    assert session is not None
    return (
        session.inputs,
        session.outputs,
        runtime.assignment,
        runtime.waiting,
        runtime.game_id,
        len(runtime.commands),
        runtime.public_seq,
    )


@pytest.fixture(scope="module")
def fuzzed(
    tmp_path_factory: pytest.TempPathFactory, mosquitto: MosquittoBroker
) -> Iterator[Fuzzed]:
    f = Fuzzed(tmp_path_factory.mktemp("fuzz-host"), mosquitto)
    try:
        f.start()
        yield f
    finally:
        f.close()


@pytest.fixture
def logs(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO, logger="wuzi")
    return caplog


# --- strategies ---------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)


def _signed(
    action: str, args: dict[str, Any], table: int | None = 1, **fields: Any
) -> ArbiterCommand:
    cmd = ArbiterCommand(
        command_id="f-" + uuid.uuid4().hex,
        referee=fields.pop("referee", REFEREE),
        action=action,
        table=table,
        args=args,
        issued_ms=fields.pop("issued_ms", _now_ms()),
    )
    return sign(cmd, TOKEN.encode())


def _as_dict(message: object) -> dict[str, Any]:
    obj = json.loads(encode(message))  # type: ignore[arg-type]
    assert isinstance(obj, dict)
    return obj


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any]) -> bytes:
    """A valid message's JSON with one field replaced, removed or added."""
    obj = dict(base)
    key = draw(st.sampled_from(sorted(obj)) | st.text(max_size=8))
    how = draw(st.sampled_from(["replace", "remove"]))
    if how == "remove":
        obj.pop(key, None)
    else:
        obj[key] = draw(JSON)
    return json.dumps(obj).encode()


def junk() -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.binary(max_size=200),
        JSON.map(lambda v: json.dumps(v).encode()),
        st.just(b"{"),
        st.just(b"[]"),
        st.just(b'{"v": 1}'),
        st.just(b'{"v": 1e999, "table": 1}'),
        st.just(b'{"v": 1, "args": {"a": "\\ud800"}}'),
        mutated(_as_dict(replace(ASSIGNMENT, game_id="g-2", issued_ms=1))),
        mutated(_as_dict(_signed("pause", {"reason": "junk"}))),
    )


# --- junk and messages that are not provably from a referee: nothing at all changes ----


@FUZZ
@given(data=st.data())
def test_junk_changes_nothing_and_is_logged(
    fuzzed: Fuzzed, logs: pytest.LogCaptureFixture, data: st.DataObject
) -> None:
    topic = data.draw(st.sampled_from([fuzzed.assignment_topic, fuzzed.commands_topic]))
    payload = data.draw(junk())
    try:
        parse_message(topic, payload)
    except MessageError:
        pass
    else:
        assume(False)  # it parses: a message, judged in the tests below
    journal, state = _journal(fuzzed.service), _table_state(fuzzed.service)
    said = fuzzed.deliver(topic, payload, logs)
    assert _journal(fuzzed.service) == journal
    assert _table_state(fuzzed.service) == state
    assert said, f"nothing logged for {payload!r} on {topic}"


def _unauthentic() -> st.SearchStrategy[ArbiterCommand]:
    good = _signed("pause", {"reason": "a question"})
    return st.one_of(
        st.builds(lambda: replace(good, auth=None)),  # unsigned
        st.builds(lambda: replace(good, command_id="f-" + uuid.uuid4().hex)),  # altered
        st.text("0123456789abcdef", min_size=64, max_size=64).map(
            lambda h: replace(good, auth=f"hmac-sha256:{h}")
        ),
        st.builds(lambda: _signed("pause", {"reason": "old"}, issued_ms=_now_ms() - 600_000)),
        st.builds(lambda: _signed("pause", {"reason": "future"}, issued_ms=_now_ms() + 600_000)),
        st.builds(lambda: sign(replace(good, referee="mallory"), b"m" * 32)),
        st.integers(2, 999).map(lambda n: _signed("pause", {"reason": "elsewhere"}, table=n)),
        st.builds(lambda: _signed("confirm-result", {}, table=None)),  # the director's action
    )


@FUZZ
@given(command=_unauthentic())
def test_commands_not_provably_for_this_host_change_nothing(
    fuzzed: Fuzzed, logs: pytest.LogCaptureFixture, command: ArbiterCommand
) -> None:
    journal, state = _journal(fuzzed.service), _table_state(fuzzed.service)
    said = fuzzed.deliver(fuzzed.commands_topic, encode(command), logs)
    assert _journal(fuzzed.service) == journal
    assert _table_state(fuzzed.service) == state
    assert said, f"nothing logged for {command}"


# --- authentic but wrong: refused, told once to the referees, nothing else ---------------


def _refused(assignment: Assignment) -> bool:
    try:
        setup_from_assignment(assignment)
    except TableError:
        return True
    return False


@st.composite
def wrong_assignments(draw: st.DrawFn) -> Assignment:
    base = replace(ASSIGNMENT, game_id=draw(st.sampled_from(["g-1", "g-2", "g-3"])))
    field = draw(
        st.sampled_from(["rule_set", "opening", "opening_settings", "time_control", "names"])
    )
    if field == "opening_settings":
        settings_ = draw(
            st.dictionaries(
                st.sampled_from(["n", "rng", "opening_id", "selection", "x"]),
                st.text(max_size=6) | st.integers(-5, 30),
                max_size=3,
            )
        )
        made = replace(base, opening_settings=settings_)
    elif field == "names":  # the current game again, told differently: still the current game
        made = replace(ASSIGNMENT, black=draw(st.text(min_size=1, max_size=10)), issued_ms=1)
    else:
        value = draw(
            st.sampled_from(["", "forever", "renju2", "swap9", "99Z", "0+0", "-5"])
            | st.text(max_size=12)
        )
        made = replace(base, **{field: value})
    try:
        parse_message(topics.assignment("v", 1), encode(made))
    except MessageError:
        assume(False)  # not even a message: the junk test's
    assume(made.game_id == "g-1" or _refused(made))
    return made


@st.composite
def wrong_commands(draw: st.DrawFn) -> ArbiterCommand:
    """Signed with the referee's key, and refused: arguments that do not fit the action,
    or an action the game refuses now (it is White's move 2 of chinese-2013)."""
    h8 = parse_point("h8")
    other = st.integers(0, 224).filter(lambda p: p != h8)
    kind = draw(st.sampled_from(["args", "state"]))
    if kind == "args":
        action = draw(st.sampled_from(HOST_ACTIONS))
        args = draw(st.dictionaries(st.text(max_size=8), JSON, max_size=3))
        try:
            check_args(action, args)
        except CommandError:
            pass
        else:
            assume(False)
        return _signed(action, args)
    action, args = draw(
        st.one_of(
            st.just(("resume", {})),
            st.just(("next-game", {})),
            st.just(("decide-claim", {})),
            other.map(lambda p: ("take-back", {"point": p, "reason": "wrong"})),
            st.text("abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=10).map(
                lambda c: ("decide", {"choice": c})
            ),
            other.map(lambda p: ("choose", {"point": p})),
            st.integers(1, 99).map(lambda n: ("declare", {"number": n})),
            st.tuples(other, other).map(
                lambda pq: ("correct-stone", {"old": pq[0], "new": pq[1], "reason": "wrong"})
            ),
        )
    )
    return _signed(action, args, table=draw(st.sampled_from([1, None])))


def _only_a_refusal(before: list[tuple[str, str, dict[str, Any]]], after: list[Any]) -> None:
    assert after[: len(before)] == before  # nothing rewritten
    added = after[len(before) :]
    assert len(added) <= 1, added
    for _, kind, payload in added:
        assert kind == "alert" and payload["data"]["reason"] == "refused", payload
        assert "pseq" not in payload  # for the referees only


@FUZZ
@given(assignment=wrong_assignments())
def test_a_wrong_assignment_is_refused_and_nothing_changes(
    fuzzed: Fuzzed, logs: pytest.LogCaptureFixture, assignment: Assignment
) -> None:
    journal, state = _journal(fuzzed.service), _table_state(fuzzed.service)
    said = fuzzed.deliver(fuzzed.assignment_topic, encode(assignment), logs)
    _only_a_refusal(journal, _journal(fuzzed.service))
    assert _table_state(fuzzed.service) == state
    assert said, f"nothing logged for {assignment}"


@FUZZ
@given(command=wrong_commands())
def test_a_referee_s_wrong_command_is_refused_and_nothing_changes(
    fuzzed: Fuzzed, logs: pytest.LogCaptureFixture, command: ArbiterCommand
) -> None:
    journal, state = _journal(fuzzed.service), _table_state(fuzzed.service)
    said = fuzzed.deliver(fuzzed.commands_topic, encode(command), logs)
    _only_a_refusal(journal, _journal(fuzzed.service))
    assert _table_state(fuzzed.service) == state
    assert any("refused" in s for s in said), (command, said)
