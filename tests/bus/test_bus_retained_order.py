"""The bus client republishes the retained messages it owns first on every (re)connection.

Against `support.wire_broker` (a recording MQTT server, no Mosquitto): the test holds
back PUBACKs so paho has unacknowledged messages, drops the connection, publishes while
the client is away, then lets it back in and reads the new connection's wire order:
the last message of every retained topic (host status, table state, referee state),
then paho's resends, then what was published meanwhile — with a held retained message
that a later one of its topic superseded left out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.broker import wait_until
from support.host_states import event, host_status, referee_state, table_state
from support.wire_broker import WireBroker
from wuzi.bus import topics
from wuzi.bus.client import INFLIGHT_SPARE, BusClient, RetainedMessage
from wuzi.bus.schemas import encode

VENUE = "order"
STATUS = topics.host_status(VENUE, "pi-1")
STATE = topics.table_state(VENUE, 1)
REFEREE = topics.arbiter_state(VENUE, 1)
EVENTS = topics.table_events(VENUE, 1)


@pytest.fixture
def wire() -> Iterator[WireBroker]:
    broker = WireBroker()
    yield broker
    broker.close()


def _client(url: str, sent: list[str]) -> BusClient:
    return BusClient(
        url,
        "wuzi.order.host.pi-1",
        birth=RetainedMessage(STATUS, host_status((1,))),
        will=RetainedMessage(STATUS, host_status((1,), online=False)),
        on_sent=sent.append,
        reconnect_min_s=0.01,
        reconnect_max_s=0.02,
        refused_max_s=0.02,
    )


def test_retained_first_then_resends_then_held(wire: WireBroker) -> None:
    sent: list[str] = []
    client = _client(wire.url, sent)
    try:
        client.connect()
        assert client.wait_connected(5.0)
        client.publish(EVENTS, event(1, 1), key="e1")
        client.publish(STATE, table_state(1, 1))
        client.publish(REFEREE, referee_state(1, 10))
        assert client.wait_drained(5.0)
        assert wire.connections()[0][0].topic == STATUS  # the birth, first

        wire.ack.clear()  # the broker takes these but never acknowledges them
        client.publish(EVENTS, event(1, 2), key="e2")
        client.publish(STATE, table_state(1, 2))
        wait_until(lambda: len(wire.connections()[0]) == 6, 5.0, "the unacknowledged pair")

        wire.admit.clear()
        wire.drop()
        wait_until(lambda: not client.connected, 5.0, "the client to see the drop")
        # while away: two states of table 1 (the first superseded), an event, a status
        client.publish(STATE, table_state(1, 3, "paused"))
        client.publish(EVENTS, event(1, 3), key="e3")
        later = host_status((1,), down=(1,), at_ms=2)
        client.publish(STATUS, later)
        client.publish(STATE, table_state(1, 4, "paused"))
        wire.ack.set()
        wire.admit.set()
        assert client.wait_connected(5.0)
        assert client.wait_drained(5.0)
    finally:
        client.close()

    wire_order = [(p.topic, p.payload, p.dup) for p in wire.connections()[-1]]
    newest = {
        STATUS: encode(later),
        STATE: encode(table_state(1, 4, "paused")),
        REFEREE: encode(referee_state(1, 10)),
    }
    # 1. every retained topic's last message, in the order the topics were first used
    assert wire_order[:3] == [(t, p, False) for t, p in newest.items()]
    # 2. paho's resends of what the broker never acknowledged, marked dup, in order
    assert wire_order[3:5] == [
        (EVENTS, encode(event(1, 2)), True),
        (STATE, encode(table_state(1, 2)), True),
    ]
    # 3. what was published while away, in order, without the superseded state 3
    assert wire_order[5:8] == [
        (EVENTS, encode(event(1, 3)), False),
        (STATUS, encode(later), False),
        (STATE, encode(table_state(1, 4, "paused")), False),
    ]
    assert len(wire_order) == 8
    # the last word on each retained topic is the newest (what the broker keeps)
    last = {topic: payload for topic, payload, _dup in wire_order}
    assert {t: last[t] for t in newest} == newest
    assert sent == ["e1", "e2", "e3"]  # on_sent still in publish order, once each
    assert client.retained() == newest


def test_first_connect_sends_what_was_published_before_it_once_more(wire: WireBroker) -> None:
    """Published before the first connection: the retained republish carries the newest
    (the birth first), then the held ones go out in order (the superseded state left out)."""
    wire.admit.clear()
    sent: list[str] = []
    client = _client(wire.url, sent)
    try:
        client.connect()
        wait_until(lambda: len(wire.connections()) == 1, 5.0, "the client's first connection")
        client.publish(STATE, table_state(1, 1))
        client.publish(EVENTS, event(1, 1), key="e1")
        client.publish(STATE, table_state(1, 2))
        wire.admit.set()
        assert client.wait_connected(5.0)
        assert client.wait_drained(5.0)
    finally:
        client.close()
    wire_order = [(p.topic, p.payload) for p in wire.connections()[0]]
    assert wire_order == [
        (STATUS, encode(host_status((1,)))),
        (STATE, encode(table_state(1, 2))),
        (EVENTS, encode(event(1, 1))),
        (STATE, encode(table_state(1, 2))),
    ]
    assert sent == ["e1"]


def test_many_retained_topics_all_go_before_any_resend(wire: WireBroker) -> None:
    """More retained topics than paho's default in-flight window (20) and than the client's
    spare window (``INFLIGHT_SPARE``): all of them still leave before the first resend."""
    tables = tuple(range(1, INFLIGHT_SPARE + 31))
    client = _client(wire.url, [])
    try:
        client.connect()
        assert client.wait_connected(5.0)
        for table in tables:
            client.publish(topics.table_state(VENUE, table), table_state(table, 1))
        assert client.wait_drained(5.0)
        wire.ack.clear()
        client.publish(EVENTS, event(1, 2), key="e2")
        wait_until(
            lambda: len(wire.connections()[0]) == len(tables) + 2, 5.0, "the unacknowledged event"
        )
        wire.drop()
        wire.ack.set()
        wait_until(lambda: len(wire.connections()) == 2, 5.0, "the reconnect")
        assert client.wait_drained(5.0)
    finally:
        client.close()
    wire_order = [p.topic for p in wire.connections()[1]]
    assert wire_order == [STATUS, *(topics.table_state(VENUE, t) for t in tables), EVENTS]
