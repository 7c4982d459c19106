"""The topic tree: every builder's topic parses back to what built it; strangers are refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from paho.mqtt.client import topic_matches_sub

from wuzi.bus import topics
from wuzi.bus.topics import Topic, TopicError, TopicKind, build_topic, parse_topic

names = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}", fullmatch=True)
tables = st.integers(1, topics.MAX_TABLE)


@given(venue=names, table=tables, host=names)
def test_every_topic_round_trips(venue: str, table: int, host: str) -> None:
    built = {
        topics.table_state(venue, table): Topic(TopicKind.TABLE_STATE, venue, table=table),
        topics.table_events(venue, table): Topic(TopicKind.TABLE_EVENTS, venue, table=table),
        topics.host_status(venue, host): Topic(TopicKind.HOST_STATUS, venue, host=host),
        topics.assignment(venue, table): Topic(TopicKind.ASSIGNMENT, venue, table=table),
        topics.arbiter_commands(venue): Topic(TopicKind.ARBITER_COMMANDS, venue),
        topics.public_state(venue, table): Topic(TopicKind.PUBLIC_STATE, venue, table=table),
        topics.public_events(venue, table): Topic(TopicKind.PUBLIC_EVENTS, venue, table=table),
        topics.arbiter_alerts(venue, table): Topic(TopicKind.ARBITER_ALERTS, venue, table=table),
        topics.arbiter_state(venue, table): Topic(TopicKind.ARBITER_STATE, venue, table=table),
        topics.competition_state(venue): Topic(TopicKind.COMPETITION, venue),
    }
    assert {topic.kind for topic in built.values()} == set(TopicKind)
    for text, topic in built.items():
        assert parse_topic(text) == topic
        assert build_topic(topic) == text == str(topic)


def test_the_tree_is_as_documented() -> None:
    assert topics.table_state("hall", 12) == "wuzi/v1/hall/table/12/state"
    assert topics.table_events("hall", 12) == "wuzi/v1/hall/table/12/events"
    assert topics.host_status("hall", "pi-3") == "wuzi/v1/hall/host/pi-3/status"
    assert topics.assignment("hall", 12) == "wuzi/v1/hall/assignments/12"
    assert topics.arbiter_commands("hall") == "wuzi/v1/hall/arbiter/commands"
    assert topics.public_state("hall", 12) == "wuzi/v1/hall/public/table/12/state"
    assert topics.public_events("hall", 12) == "wuzi/v1/hall/public/table/12/events"
    assert topics.arbiter_alerts("hall", 12) == "wuzi/v1/hall/arbiter/table/12/alerts"
    assert topics.arbiter_state("hall", 12) == "wuzi/v1/hall/arbiter/table/12/state"
    assert topics.competition_state("hall") == "wuzi/v1/hall/competition/state"


def test_referee_only_kinds_are_exactly_the_arbiter_tree() -> None:
    under_arbiter = {
        kind
        for kind in TopicKind
        if "/arbiter/" in build_topic(Topic(kind, "hall", table=1, host="pi-1"))
    }
    assert under_arbiter == topics.REFEREE_ONLY
    assert {TopicKind.ARBITER_ALERTS, TopicKind.ARBITER_STATE} <= under_arbiter
    # No filter a player's or the hall's screen subscribes with matches a referee topic,
    # and the referees' filter matches every one of them.
    referee = [topics.arbiter_alerts("hall", 7), topics.arbiter_state("hall", 7)]
    referee.append(topics.arbiter_commands("hall"))
    others = (
        topics.all_public("hall"),
        topics.all_table_states("hall"),
        topics.all_table_events("hall"),
        topics.all_host_statuses("hall"),
        topics.all_assignments("hall"),
    )
    for topic in referee:
        assert not any(topic_matches_sub(f, topic) for f in others), topic
        assert topic_matches_sub(topics.all_arbiter("hall"), topic)
    assert topic_matches_sub(topics.all_arbiter_alerts("hall"), referee[0])
    assert topic_matches_sub(topics.all_arbiter_states("hall"), referee[1])


def test_retain_and_qos_policy() -> None:
    retained = {kind for kind, policy in topics.TOPIC_POLICY.items() if policy.retain}
    assert retained == {
        TopicKind.TABLE_STATE,
        TopicKind.HOST_STATUS,
        TopicKind.ASSIGNMENT,
        TopicKind.PUBLIC_STATE,
        TopicKind.ARBITER_STATE,
        TopicKind.COMPETITION,
    }
    assert all(policy.qos == 1 for policy in topics.TOPIC_POLICY.values())
    assert set(topics.TOPIC_POLICY) == set(TopicKind)


@pytest.mark.parametrize(
    ("topic", "complaint"),
    [
        ("", "not under wuzi/v1"),
        ("wuzi/v2/hall/table/1/state", "protocol level is 'v2'"),
        ("wuzi/v1/+/table/1/state", "venue must be"),
        ("wuzi/v1/hall/table/0/state", "table level must be a number"),
        ("wuzi/v1/hall/table/01/state", "table level must be a number"),
        ("wuzi/v1/hall/table/10000/state", "table level must be a number"),
        ("wuzi/v1/hall/table/x/events", "table level must be a number"),
        ("wuzi/v1/hall/table/1/moves", "unknown path 'table/1/moves'"),
        ("wuzi/v1/hall/host/#/status", "host id must be"),
        ("wuzi/v1/hall/arbiter/commands/extra", "unknown path"),
        ("wuzi/v1/hall/public/table/1", "unknown path"),
        ("wuzi/v1/hall/arbiter/table/1", "unknown path"),
        ("wuzi/v1/hall/arbiter/table/1/events", "unknown path 'arbiter/table/1/events'"),
        ("wuzi/v1/hall/arbiter/table/1/alerts/x", "unknown path"),
        ("wuzi/v1/hall/arbiter/table/0/alerts", "table level must be a number"),
        ("wuzi/v1/hall/arbiter/tables/1/state", "unknown path"),
        ("wuzi/v1/hall/arbiter/table/+/state", "table level must be a number"),
        ("other/v1/hall/table/1/state", "not under wuzi/v1"),
    ],
)
def test_foreign_topics_are_refused_naming_the_level(topic: str, complaint: str) -> None:
    with pytest.raises(TopicError, match=complaint.replace("+", r"\+")):
        parse_topic(topic)


@pytest.mark.parametrize("venue", ["", "a/b", "a+b", "-lead", "x" * 65, "hall#"])
def test_builders_refuse_bad_venues(venue: str) -> None:
    with pytest.raises(TopicError, match="venue must be"):
        topics.table_state(venue, 1)


@pytest.mark.parametrize("table", [0, -1, 10000, True])
def test_builders_refuse_bad_tables(table: int) -> None:
    with pytest.raises(TopicError, match="table number must be"):
        topics.table_events("hall", table)


def test_filters_cover_their_kind() -> None:
    assert topics.all_table_states("hall") == "wuzi/v1/hall/table/+/state"
    assert topics.all_table_events("hall") == "wuzi/v1/hall/table/+/events"
    assert topics.all_host_statuses("hall") == "wuzi/v1/hall/host/+/status"
    assert topics.all_assignments("hall") == "wuzi/v1/hall/assignments/+"
    assert topics.all_public("hall") == "wuzi/v1/hall/public/#"
    assert topics.all_arbiter_alerts("hall") == "wuzi/v1/hall/arbiter/table/+/alerts"
    assert topics.all_arbiter_states("hall") == "wuzi/v1/hall/arbiter/table/+/state"
    assert topics.all_arbiter("hall") == "wuzi/v1/hall/arbiter/#"


def test_a_topic_without_its_table_cannot_be_built() -> None:
    for kind in (TopicKind.ARBITER_ALERTS, TopicKind.ARBITER_STATE):
        with pytest.raises(TopicError, match="needs a table number"):
            build_topic(Topic(kind, "hall"))


@given(st.text(max_size=80))
def test_parse_topic_never_crashes(text: str) -> None:
    try:
        parsed = parse_topic(text)
    except TopicError:
        return
    assert build_topic(parsed) == text
