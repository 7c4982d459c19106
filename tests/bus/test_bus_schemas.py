"""Message schemas: valid messages round-trip; every malformation is a MessageError naming
the field; no input at all makes parse_message raise anything else."""

from __future__ import annotations

import json
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wuzi.bus import topics
from wuzi.bus.schemas import (
    ALERT_REASONS,
    ARBITER_ACTIONS,
    ASSIGNMENT_NAMES,
    COMMAND_BINDING_NAMES,
    MAX_ALERT_TEXT,
    MAX_OPEN_ALERTS,
    MAX_PAYLOAD_BYTES,
    ArbiterCommand,
    Assignment,
    BracketMatch,
    Cleared,
    CompetitionState,
    HostStatus,
    MatchSummary,
    Message,
    MessageError,
    OpenAlert,
    RefereeState,
    StandingLine,
    TableEvent,
    TableState,
    check_outgoing,
    encode,
    parse_message,
)
from wuzi.table.outputs import AlertReason

VENUE = "hall"
ids = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_.:/-]{0,40}", fullmatch=True)
keywords = st.from_regex(r"[a-z][a-z0-9_.-]{0,20}", fullmatch=True)
texts = st.text(min_size=1, max_size=50).filter(lambda s: s.strip() != "")
tables = st.integers(1, 9999)
times = st.integers(0, 10**13)  # Unix ms stamps: today is about 1.8e12
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
json_objects = st.dictionaries(st.text(max_size=8), json_values, max_size=5)

statuses = st.sampled_from(["idle", "playing", "paused", "adjourned", "finished"])
names = st.just("") | texts
points = st.lists(st.integers(0, 224), unique=True, max_size=225)


@st.composite
def table_states(draw: st.DrawFn) -> TableState:
    stones = draw(points)  # moves and offers are distinct points
    split = draw(st.integers(0, len(stones)))
    return TableState(
        table=draw(tables),
        game_id=draw(st.none() | ids),
        seq=draw(st.integers(0, 10**9)),
        status=draw(statuses),
        moves=tuple(stones[:split]),
        black_ms=draw(st.integers(-(10**7), 10**9)),
        white_ms=draw(st.integers(-(10**7), 10**9)),
        running=draw(st.sampled_from([None, "black", "white"])),
        result=draw(st.sampled_from([None, "1-0", "0-1", "1/2-1/2"])),
        at_ms=draw(times),
        black=draw(names),
        white=draw(names),
        offers=tuple(stones[split : split + 10]),
        board=draw(st.none() | st.integers(1, 9999)),
        game_in_match=draw(st.none() | st.integers(1, 99)),
    )


def events_of(kinds: st.SearchStrategy[str]) -> st.SearchStrategy[TableEvent]:
    return st.builds(
        TableEvent,
        event_id=ids,
        table=tables,
        game_id=ids,
        seq=st.integers(0, 10**9),
        kind=kinds,
        at_ms=times,
        data=json_objects,
    )


table_events = events_of(keywords.filter(lambda k: k != "alert"))
alert_events = events_of(st.just("alert"))


@st.composite
def host_statuses(draw: st.DrawFn) -> HostStatus:
    served = draw(st.lists(tables, unique=True, max_size=30))
    return HostStatus(
        host=draw(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,30}", fullmatch=True)),
        online=draw(st.booleans()),
        tables=tuple(served),
        boot_id=draw(ids),
        at_ms=draw(times),
        links_down=tuple(draw(st.lists(st.sampled_from(served), unique=True)) if served else ()),
    )


open_alerts = st.builds(
    OpenAlert,
    event_id=ids,
    reason=st.sampled_from(ALERT_REASONS),
    text=st.text(min_size=1, max_size=300).filter(lambda s: s.strip() != ""),
    points=points.map(lambda p: tuple(p[:6])),
    seat=st.sampled_from([None, "first", "second"]),
)
referee_states = st.builds(
    RefereeState,
    table=tables,
    game_id=st.none() | ids,
    seq=st.integers(0, 10**9),
    status=statuses,
    alerts=st.lists(open_alerts, max_size=4).map(tuple),
    alerts_omitted=st.integers(0, 1000),
    pending_stone=st.none() | st.integers(0, 224),
    infractions_first=st.integers(0, 5),
    infractions_second=st.integers(0, 5),
    at_ms=times,
)
assignments = st.builds(
    Assignment,
    table=tables,
    game_id=ids,
    black=texts,
    white=texts,
    rule_set=keywords,
    opening=keywords,
    opening_settings=json_objects,
    time_control=st.sampled_from(["2700+30", "3600", "40/5400:1800+30"]),
    board=st.none() | st.integers(1, 9999),
    game_in_match=st.integers(1, 99),
    playoff=st.booleans(),
    issued_ms=times,
    event=st.just("") | texts,
    round=st.none() | st.integers(0, 999),
    match=st.none() | st.integers(1, 9999),
    place=st.none() | st.integers(1, 2000),
    black_team=st.just("") | texts,
    white_team=st.just("") | texts,
    black_id=st.just("") | texts,
    white_id=st.just("") | texts,
)
arbiter_commands = st.builds(
    ArbiterCommand,
    command_id=ids,
    referee=ids,
    action=st.sampled_from(ARBITER_ACTIONS),
    table=st.none() | tables,
    args=json_objects,
    issued_ms=times,
    auth=st.none() | texts,
    game_id=st.none() | ids,
    round=st.none() | st.integers(0, 999),
).map(lambda c: c if c.table is not None else replace(c, game_id=None))  # every table: none


scores = st.integers(0, 60).map(lambda halves: halves / 2)


@st.composite
def competition_states(draw: st.DrawFn) -> CompetitionState:
    columns = draw(st.integers(0, 4))
    tiebreaks = st.lists(scores, min_size=columns, max_size=columns).map(tuple)

    def line(place: int, shared: int, entrant: str, points: float, values: Any) -> StandingLine:
        return StandingLine(place, place + shared, entrant, points, values)

    return CompetitionState(
        event=draw(texts),
        format=draw(keywords),
        round=draw(st.integers(0, 99)),
        rounds=draw(st.integers(0, 99)),
        matches=tuple(
            draw(
                st.lists(
                    st.builds(
                        MatchSummary,
                        names,
                        texts,
                        names,
                        scores,
                        scores,
                        st.lists(tables, unique=True, max_size=3).map(tuple),
                        st.sampled_from(["scheduled", "playing", "finished"]),
                        st.none() | texts,
                    ),
                    max_size=4,
                )
            )
        ),
        standings=tuple(
            draw(
                st.lists(
                    st.builds(
                        line, st.integers(1, 500), st.integers(0, 3), texts, scores, tiebreaks
                    ),
                    max_size=5,
                )
            )
        ),
        tiebreak_names=tuple(draw(st.lists(keywords, min_size=columns, max_size=columns))),
        tiebreak_formulas=tuple(draw(st.lists(texts, max_size=3))),
        bracket=tuple(
            draw(
                st.lists(
                    st.builds(
                        BracketMatch,
                        st.integers(1, 9),
                        st.sampled_from(["1-16", "9-16", "3-4", "1"]),
                        texts,
                        names,
                        scores,
                        scores,
                        st.none() | texts,
                    ),
                    max_size=4,
                )
            )
        ),
        finished=draw(st.booleans()),
        at_ms=draw(times),
    )


def topic_for(message: Message) -> str:
    if isinstance(message, TableState):
        return topics.table_state(VENUE, message.table)
    if isinstance(message, TableEvent):
        if message.kind == "alert":
            return topics.arbiter_alerts(VENUE, message.table)
        return topics.table_events(VENUE, message.table)
    if isinstance(message, RefereeState):
        return topics.arbiter_state(VENUE, message.table)
    if isinstance(message, HostStatus):
        return topics.host_status(VENUE, message.host)
    if isinstance(message, Assignment):
        return topics.assignment(VENUE, message.table)
    if isinstance(message, CompetitionState):
        return topics.competition_state(VENUE)
    assert isinstance(message, ArbiterCommand)
    return topics.arbiter_commands(VENUE)


messages = (
    table_states()
    | table_events
    | alert_events
    | host_statuses()
    | assignments
    | arbiter_commands
    | referee_states
    | competition_states()
)

ALL_TOPICS = [
    topics.table_state(VENUE, 1),
    topics.table_events(VENUE, 1),
    topics.host_status(VENUE, "pi-1"),
    topics.assignment(VENUE, 1),
    topics.arbiter_commands(VENUE),
    topics.public_state(VENUE, 1),
    topics.public_events(VENUE, 1),
    topics.arbiter_alerts(VENUE, 1),
    topics.arbiter_state(VENUE, 1),
    topics.competition_state(VENUE),
]
topic_names = st.sampled_from(ALL_TOPICS)


@given(messages)
def test_every_message_round_trips(message: Message) -> None:
    assert parse_message(topic_for(message), encode(message)) == message


@given(table_states())
def test_the_public_feed_carries_table_states(state: TableState) -> None:
    assert parse_message(topics.public_state(VENUE, state.table), encode(state)) == state


def as_object(message: Message) -> dict[str, Any]:
    obj: dict[str, Any] = json.loads(encode(message))
    return obj


def reparse(message: Message, obj: dict[str, Any]) -> Message:
    return parse_message(topic_for(message), json.dumps(obj).encode())


@given(messages, st.data())
def test_a_missing_field_is_named(message: Message, data: st.DataObject) -> None:
    obj = as_object(message)
    optional: tuple[str, ...] = ()
    if isinstance(message, Assignment):
        optional = ASSIGNMENT_NAMES
    elif isinstance(message, ArbiterCommand):
        optional = COMMAND_BINDING_NAMES
    elif isinstance(message, TableState | CompetitionState):
        optional = ("event_id",)  # a one-event venue's, an older sender's
    elif isinstance(message, RefereeState):  # a table of this hall alone, an older sender
        optional = ("line", "line_state", "offset_ms", "offset_error_ms", "rtt_ms")
    name = data.draw(st.sampled_from(sorted(set(obj) - set(optional))))
    del obj[name]
    with pytest.raises(MessageError) as caught:
        reparse(message, obj)
    assert caught.value.field == name
    assert "is missing" in str(caught.value)


@pytest.mark.parametrize("value", ["Men", "-men", "men/1", "m" * 65, 3])
def test_an_event_id_that_is_no_topic_level_is_refused(value: object) -> None:
    obj = as_object(TableState(1, None, 0, "idle", (), 0, 0, None, None, 0))
    assert reparse_state(obj) == TableState(1, None, 0, "idle", (), 0, 0, None, None, 0)
    for absent in (True, False):
        if absent:
            del obj["event_id"]
            assert reparse_state(obj).event_id == ""  # an older sender: no event
        else:
            obj["event_id"] = value
            with pytest.raises(MessageError) as caught:
                reparse_state(obj)
            assert caught.value.field == "event_id"
    obj["event_id"] = "open-2019"
    assert reparse_state(obj).event_id == "open-2019"


def reparse_state(obj: dict[str, Any]) -> Message:
    return parse_message(topics.table_state(VENUE, 1), json.dumps(obj).encode())


@given(messages, st.data())
def test_a_field_of_the_wrong_kind_is_named(message: Message, data: st.DataObject) -> None:
    obj = as_object(message)
    name = data.draw(st.sampled_from(sorted(obj)))
    original = obj[name]
    # Something of a different JSON kind than the valid value (and never null, which some
    # fields accept): an object for scalars and lists, a list for objects.
    obj[name] = [original] if isinstance(original, dict) else {"x": original}
    with pytest.raises(MessageError) as caught:
        reparse(message, obj)
    assert caught.value.field == name


@given(messages, st.text(min_size=1, max_size=10))
def test_unknown_keys_are_refused(message: Message, key: str) -> None:
    obj = as_object(message)
    if key in obj:
        return
    obj[key] = 1
    with pytest.raises(MessageError, match="unknown key") as caught:
        reparse(message, obj)
    assert caught.value.field == key


@given(messages, st.data())
def test_any_replaced_value_is_either_valid_or_a_message_error(
    message: Message, data: st.DataObject
) -> None:
    obj = as_object(message)
    name = data.draw(st.sampled_from(sorted(obj)))
    obj[name] = data.draw(json_values | st.floats(allow_nan=False))
    try:
        parsed = reparse(message, obj)
    except MessageError as error:
        # the replaced field is named, or a field checked against it says so (a table in
        # links_down that the replaced tables no longer list)
        assert (
            error.field in (name, None)
            or error.field.startswith(f"{name}[")
            or str(error).endswith(f" in {name}")
        ), str(error)
        return
    assert type(parsed) is type(message)  # the value happened to be valid


def test_floats_and_booleans_are_not_integers() -> None:
    state = TableState(3, "g", 1, "playing", (112,), 1000, 1000, "black", None, 5)
    for bad in (1.0, True, "3"):
        obj = as_object(state) | {"seq": bad}
        with pytest.raises(MessageError, match="must be an integer") as caught:
            reparse(state, obj)
        assert caught.value.field == "seq"


def test_points_are_on_the_board_and_distinct() -> None:
    state = TableState(3, "g", 1, "playing", (112,), 1000, 1000, "black", None, 5)
    with pytest.raises(MessageError) as caught:
        reparse(state, as_object(state) | {"moves": [112, 225]})
    assert caught.value.field == "moves[1]"
    with pytest.raises(MessageError, match="repeated") as caught:
        reparse(state, as_object(state) | {"moves": [112, 112]})
    assert caught.value.field == "moves"


def test_the_table_and_host_must_agree_with_the_topic() -> None:
    state = TableState(3, "g", 1, "playing", (), 1000, 1000, None, None, 5)
    with pytest.raises(MessageError, match="topic is for table 4") as caught:
        parse_message(topics.table_state(VENUE, 4), encode(state))
    assert caught.value.field == "table"
    status = HostStatus("pi-1", True, (3,), "b", 0)
    with pytest.raises(MessageError, match="'pi-2'") as caught:
        parse_message(topics.host_status(VENUE, "pi-2"), encode(status))
    assert caught.value.field == "host"


def test_schema_versions_other_than_1_are_refused() -> None:
    status = HostStatus("pi-1", True, (3,), "b", 0)
    topic = topics.host_status(VENUE, "pi-1")
    for version in (2, 0, "1", None, 1.0):
        obj = as_object(status) | {"v": version}
        with pytest.raises(MessageError) as caught:
            parse_message(topic, json.dumps(obj).encode())
        assert caught.value.field == "v"


def test_an_empty_payload_clears_retained_topics_only() -> None:
    topic = topics.assignment(VENUE, 2)
    assert parse_message(topic, b"") == Cleared(topic)
    assert encode(Cleared(topic)) == b""
    with pytest.raises(MessageError, match="empty payload"):
        parse_message(topics.table_events(VENUE, 2), b"")


@pytest.mark.parametrize(
    ("payload", "complaint"),
    [
        (b"\xff", "not UTF-8"),
        (b"{", "not valid JSON"),
        (b'{"v": NaN}', "NaN is not allowed"),
        (b'{"v": 1, "v": 1}', "duplicate key 'v'"),
        (b"[1]", "must be a JSON object, not a list"),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
        (b'{"v": ' + b"9" * 5000 + b"}", "not valid JSON"),
        (b" " * (MAX_PAYLOAD_BYTES + 1), "exceeds"),
    ],
)
def test_garbage_is_refused_with_a_reason(payload: bytes, complaint: str) -> None:
    with pytest.raises(MessageError, match=complaint):
        parse_message(topics.table_events(VENUE, 1), payload)


def test_a_foreign_topic_is_a_message_error() -> None:
    with pytest.raises(MessageError, match="not under wuzi/v1"):
        parse_message("spam/eggs", b"{}")


@given(topic_names, st.binary(max_size=300))
def test_random_bytes_never_crash(topic: str, payload: bytes) -> None:
    try:
        parsed = parse_message(topic, payload)
    except MessageError:
        return
    assert payload == b"" and parsed == Cleared(topic)


@given(topic_names, json_values | json_objects)
def test_random_json_never_crashes(topic: str, value: object) -> None:
    with pytest.raises(MessageError):
        parse_message(topic, json.dumps(value).encode())


@given(topic_names, json_objects)
def test_random_versioned_objects_never_crash(topic: str, obj: dict[str, Any]) -> None:
    with pytest.raises(MessageError):
        parse_message(topic, json.dumps({"v": 1} | obj).encode())


def test_every_message_type_has_its_fields_documented() -> None:
    text = (Path(__file__).parents[2] / "docs" / "bus.md").read_text(encoding="utf-8")
    kinds = (TableState, TableEvent, HostStatus, Assignment, ArbiterCommand, RefereeState)
    for kind in (*kinds, OpenAlert):
        for f in fields(kind):
            assert f"`{f.name}`" in text, f"docs/bus.md lacks {kind.__name__}.{f.name}"


# --- the referee's topics, and what must never reach players or the hall -------------


def sample_referee_state() -> RefereeState:
    alert = OpenAlert("pi-1/3/42", "forbidden", "i9 is a double-three", (128, 127), None)
    return RefereeState(3, "g", 42, "playing", (alert,), 0, None, 1, 0, 5)


def test_every_reason_the_table_session_gives_is_accepted() -> None:
    assert {reason.value for reason in AlertReason} == set(ALERT_REASONS)
    for reason in AlertReason:
        alert = OpenAlert("pi-1/3/42", reason.value, "text", (), "first")
        state = RefereeState(3, "g", 42, "playing", (alert,), 0, 112, 0, 0, 5)
        assert parse_message(topics.arbiter_state(VENUE, 3), encode(state)) == state


def test_alerts_go_on_the_arbiter_topic_only() -> None:
    alert = TableEvent("pi-1/3/42", 3, "g", 42, "alert", 5, {"reason": "forbidden"})
    assert parse_message(topics.arbiter_alerts(VENUE, 3), encode(alert)) == alert
    for public in (topics.table_events(VENUE, 3), topics.public_events(VENUE, 3)):
        with pytest.raises(MessageError, match="arbiter/table/<n>/alerts only") as caught:
            parse_message(public, encode(alert))
        assert caught.value.field == "kind"
    move = TableEvent("pi-1/3/41", 3, "g", 41, "move", 5, {"point": 128})
    with pytest.raises(MessageError, match="must be 'alert'") as caught:
        parse_message(topics.arbiter_alerts(VENUE, 3), encode(move))
    assert caught.value.field == "kind"


def test_the_referee_state_and_the_table_state_do_not_pass_for_each_other() -> None:
    referee = sample_referee_state()
    with pytest.raises(MessageError):
        parse_message(topics.table_state(VENUE, 3), encode(referee))
    with pytest.raises(MessageError):
        parse_message(topics.public_state(VENUE, 3), encode(referee))
    state = TableState(3, "g", 1, "playing", (112,), 1000, 1000, "black", None, 5)
    with pytest.raises(MessageError):
        parse_message(topics.arbiter_state(VENUE, 3), encode(state))


def test_the_referee_state_is_retained_and_its_alerts_are_not() -> None:
    state_topic = topics.arbiter_state(VENUE, 3)
    assert parse_message(state_topic, b"") == Cleared(state_topic)
    with pytest.raises(MessageError, match="empty payload"):
        parse_message(topics.arbiter_alerts(VENUE, 3), b"")


def test_offers_are_not_moves() -> None:
    state = TableState(3, "g", 1, "playing", (112, 113), 1000, 1000, "black", None, 5)
    with pytest.raises(MessageError, match="113 is also in moves") as caught:
        reparse(state, as_object(state) | {"offers": [140, 113]})
    assert caught.value.field == "offers[1]"


def test_links_down_are_tables_the_host_serves() -> None:
    status = HostStatus("pi-1", True, (3, 4), "b", 0, links_down=(4,))
    assert reparse(status, as_object(status)) == status
    with pytest.raises(MessageError, match="5 is not in tables") as caught:
        reparse(status, as_object(status) | {"links_down": [4, 5]})
    assert caught.value.field == "links_down[1]"


def test_player_names_may_be_unknown_but_not_blank() -> None:
    state = TableState(3, "g", 1, "idle", (), 0, 0, None, None, 5, black="", white="Lin Yu")
    assert reparse(state, as_object(state)) == state
    for bad in ("  ", "x" * 201, None):
        with pytest.raises(MessageError) as caught:
            reparse(state, as_object(state) | {"black": bad})
        assert caught.value.field == "black"


@pytest.mark.parametrize(
    ("change", "field", "complaint"),
    [
        (lambda a: a[0].update(reason="hint"), "alerts[0].reason", "must be one of"),
        (lambda a: a[0].update(extra=1), "alerts[0].extra", "unknown key"),
        (lambda a: a[0].pop("text"), "alerts[0].text", "is missing"),
        (lambda a: a[0].update(text="x" * (MAX_ALERT_TEXT + 1)), "alerts[0].text", "1-2000"),
        (lambda a: a[0].update(points=[1, 1]), "alerts[0].points", "repeated"),
        (lambda a: a[0].update(seat="black"), "alerts[0].seat", "first, second"),
        (lambda a: a.append(3), "alerts[1]", "must be an object"),
        (lambda a: a.extend([a[0]] * MAX_OPEN_ALERTS), "alerts", "at most 50"),
    ],
)
def test_an_open_alert_s_fault_is_named_with_its_index(
    change: Any, field: str, complaint: str
) -> None:
    state = sample_referee_state()
    obj = as_object(state)
    change(obj["alerts"])
    with pytest.raises(MessageError, match=complaint) as caught:
        reparse(state, obj)
    assert caught.value.field == field


def test_check_outgoing_accepts_exactly_what_receivers_accept() -> None:
    state = TableState(3, "g", 1, "playing", (112,), 1000, 1000, "black", None, 5)
    check_outgoing(topics.table_state(VENUE, 3), state)
    check_outgoing(topics.public_state(VENUE, 3), state)
    check_outgoing(topics.arbiter_state(VENUE, 3), sample_referee_state())
    check_outgoing(topics.table_state(VENUE, 3), Cleared(topics.table_state(VENUE, 3)))
    bad: list[tuple[str, Message, str]] = [
        (topics.table_state(VENUE, 4), state, "topic is for table 4"),
        (topics.arbiter_state(VENUE, 3), state, "is missing"),
        (topics.table_state(VENUE, 3), sample_referee_state(), "is missing"),
        (
            topics.table_events(VENUE, 3),
            TableEvent("e", 3, "g", 1, "alert", 5, {}),
            "arbiter/table/<n>/alerts only",
        ),
        (
            topics.table_events(VENUE, 3),
            TableEvent("e", 3, "g", 1, "move", 5, {"p": (1, 2)}),
            "survive encoding",
        ),
        (
            topics.table_events(VENUE, 3),
            TableEvent("e", 3, "g", 1, "move", 5, {"x": float("nan")}),
            "cannot be encoded",
        ),
        (
            topics.table_events(VENUE, 3),
            TableEvent("e", 3, "g", 1, "move", 5, {"x": {1, 2}}),
            "cannot be encoded",
        ),
        (
            topics.table_state(VENUE, 3),
            TableState(3, "g", 1, "playing", [112], 1, 1, None, None, 5),  # type: ignore[arg-type]
            "survive encoding",
        ),
        (topics.table_state(VENUE, 3), Cleared(topics.table_state(VENUE, 4)), "clears"),
        (topics.table_events(VENUE, 3), Cleared(topics.table_events(VENUE, 3)), "empty payload"),
    ]
    for topic, message, complaint in bad:
        with pytest.raises(MessageError, match=complaint):
            check_outgoing(topic, message)


def test_check_outgoing_gives_the_payload_and_checks_each_topic_afresh() -> None:
    """The payload it returns is the message's encoding (the bus client sends it). The
    same message just accepted on one topic is judged again on a topic of another kind
    or table: a referee alert passed for the alerts topic is still refused on the public
    events topic."""
    alert = TableEvent("e", 3, "g", 1, "alert", 5, {"reason": "five"})
    assert check_outgoing(topics.arbiter_alerts(VENUE, 3), alert) == encode(alert)
    assert check_outgoing(topics.arbiter_alerts(VENUE, 3), alert) == encode(alert)
    with pytest.raises(MessageError, match="arbiter/table/<n>/alerts only"):
        check_outgoing(topics.table_events(VENUE, 3), alert)
    state = TableState(3, "g", 1, "playing", (112,), 1000, 1000, "black", None, 5)
    check_outgoing(topics.table_state(VENUE, 3), state)
    with pytest.raises(MessageError, match="topic is for table 4"):
        check_outgoing(topics.table_state(VENUE, 4), state)


def test_an_assignment_without_the_games_names_is_valid() -> None:
    """The names for the record (docs/records.md) are optional: an older director's
    assignment parses, each name taking its default."""
    full = Assignment(1, "r1-m1-b1", "A", "B", "renju", "free", {}, "600", 1, 1, False, 0,
                      event="决赛", round=1, match=1, black_team="上海", black_id="p1")  # fmt: skip
    obj = as_object(full)
    for name in ASSIGNMENT_NAMES:
        del obj[name]
    parsed = reparse(full, obj)
    assert isinstance(parsed, Assignment)
    assert (parsed.event, parsed.round, parsed.match, parsed.black_team) == ("", None, None, "")
