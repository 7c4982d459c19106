"""The hall line's topics (issue 36): ``line/<link>/to-owner|to-away|state`` under the
venue that writes them; builders and `parse_line_topic` are each other's inverse, the
bridge's filter matches exactly one venue's topics of one link, strangers are refused."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from paho.mqtt.client import topic_matches_sub

from wuzi.bus import topics
from wuzi.bus.topics import LineKind, LineTopic, TopicError, parse_line_topic, parse_topic

names = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}", fullmatch=True)
links = st.from_regex(r"[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?", fullmatch=True)


@given(venue=names, link=links)
def test_every_line_topic_round_trips(venue: str, link: str) -> None:
    built = {
        topics.line_to_owner(venue, link): LineTopic(LineKind.TO_OWNER, venue, link),
        topics.line_to_away(venue, link): LineTopic(LineKind.TO_AWAY, venue, link),
        topics.line_state(venue, link): LineTopic(LineKind.STATE, venue, link),
    }
    assert {topic.kind for topic in built.values()} == set(LineKind)
    for text, topic in built.items():
        assert parse_line_topic(text) == topic and str(topic) == text
        assert topic_matches_sub(topics.line_filter(venue, link), text)
        assert topic_matches_sub(topics.all_lines(venue), text)


def test_the_line_tree_is_as_documented() -> None:
    assert topics.line_to_owner("hall-b", "board-1") == "wuzi/v1/hall-b/line/board-1/to-owner"
    assert topics.line_to_away("hall-a", "board-1") == "wuzi/v1/hall-a/line/board-1/to-away"
    assert topics.line_state("hall-a", "board-1") == "wuzi/v1/hall-a/line/board-1/state"
    assert topics.line_filter("hall-a", "board-1") == "wuzi/v1/hall-a/line/board-1/#"
    assert topics.all_lines("hall-a") == "wuzi/v1/hall-a/line/#"
    retained = {kind for kind, policy in topics.LINE_POLICY.items() if policy.retain}
    assert retained == {LineKind.STATE} and set(topics.LINE_POLICY) == set(LineKind)
    assert parse_line_topic(topics.line_state("h", "l")).policy.retain


def test_the_bridge_filter_holds_one_venue_s_one_link() -> None:
    mine = topics.line_filter("hall-a", "board-1")
    for other in (
        topics.line_to_owner("hall-b", "board-1"),  # the other venue's
        topics.line_to_owner("hall-a", "board-2"),  # another link
        topics.line_to_owner("hall-a", "board-10"),
        topics.table_state("hall-a", 1),
        topics.arbiter_commands("hall-a"),
        topics.assignment("hall-a", 1),
    ):
        assert not topic_matches_sub(mine, other), other


@pytest.mark.parametrize(
    ("topic", "complaint"),
    [
        ("wuzi/v1/hall/table/1/state", "not a hall-line topic"),
        ("wuzi/v1/hall/line/board-1", "not a hall-line topic"),
        ("wuzi/v1/hall/line/board-1/state/x", "not a hall-line topic"),
        ("wuzi/v2/hall/line/board-1/state", "not a hall-line topic"),
        ("wuzi/v1/+/line/board-1/state", "venue must be"),
        ("wuzi/v1/hall/line/Board_1/state", "link id must be"),
        ("wuzi/v1/hall/line/-b/state", "link id must be"),
        ("wuzi/v1/hall/line/board-1/moves", "unknown hall-line kind 'moves'"),
    ],
)
def test_strangers_are_refused(topic: str, complaint: str) -> None:
    with pytest.raises(TopicError, match=complaint.replace("+", r"\+")):
        parse_line_topic(topic)


def test_the_venue_tree_is_unchanged() -> None:
    """A line topic is no `Topic` of the venue's own tree: its dispatchers never meet one."""
    with pytest.raises(TopicError, match="unknown path"):
        parse_topic(topics.line_state("hall", "board-1"))
    with pytest.raises(TopicError, match="link id"):
        topics.line_state("hall", "Board 1")
