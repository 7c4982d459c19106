"""A topic's messages leave a `BusClient` in publish order, because one thread writes.

paho 2.2 writes a packet queued by a caller's thread at once, on that thread, unless it
has a loop of its own or an "external loop" callback; and its writer pops a packet and
sends it without a lock. A host publishing on its loop's thread while the network thread
sends the next held message on a PUBACK (past the in-flight window) then put packets on
the wire in another order than publish order: the director's `test_outbox_delivers_in_
order_across_a_broker_restart` and the embedded broker's order checks failed about once
in six runs of their files, the wrong order already in what the broker read. The first
test proves the cause is gone whatever the timing (every byte written on the network
thread); the second shows the effect on a real Mosquitto, past the in-flight window.
"""

from __future__ import annotations

import itertools
import threading
from typing import Any

import pytest

from support.broker import MosquittoBroker, wait_until
from support.host_states import HOST, event
from wuzi.bus import topics
from wuzi.bus.client import INFLIGHT_SPARE, BusClient
from wuzi.bus.schemas import Message, TableEvent

_venues = itertools.count(1)


@pytest.fixture
def venue() -> str:
    return f"order-{next(_venues)}"


def start(made: list[BusClient], url: str, client_id: str) -> BusClient:
    client = BusClient(url, client_id)
    made.append(client)
    client.connect()
    assert client.wait_connected(10.0), f"{client_id} did not connect"
    return client


def test_only_the_network_thread_writes_to_the_socket(
    mosquitto: MosquittoBroker, venue: str, clients: list[BusClient]
) -> None:
    host = start(clients, mosquitto.url, f"{venue}-host")
    writers: set[str] = set()
    paho: Any = host._paho  # the instrument: who calls paho's socket send
    send = paho._sock_send

    def recorded(buf: bytes) -> int:
        writers.add(threading.current_thread().name)
        return int(send(buf))

    paho._sock_send = recorded
    for seq in range(3 * INFLIGHT_SPARE):  # past the window: PUBACKs release held ones
        host.publish(topics.table_events(venue, 1 + seq % 3), event(1 + seq % 3, seq))
    host.subscribe(topics.all_table_states(venue), lambda _t, _m: None)
    assert host.wait_drained(20.0)
    assert host.wait_subscribed(10.0)
    assert writers == {f"wuzi-bus-{venue}-host"}, writers


def test_a_burst_past_the_in_flight_window_arrives_in_each_topic_s_order(
    mosquitto: MosquittoBroker, venue: str, clients: list[BusClient]
) -> None:
    seen: list[str] = []
    lock = threading.Lock()

    def note(_topic: str, message: Message) -> None:
        assert isinstance(message, TableEvent)
        with lock:
            seen.append(message.event_id)

    director = start(clients, mosquitto.url, f"{venue}-director")
    director.subscribe(topics.all_table_events(venue), note)
    assert director.wait_subscribed(10.0)
    host = start(clients, mosquitto.url, f"{venue}-host")
    burst = [event(1 + seq % 3, seq) for seq in range(2000)]
    for message in burst:
        host.publish(topics.table_events(venue, message.table), message)
    assert host.wait_drained(60.0)
    wait_until(lambda: len(seen) >= len(burst), 30.0, "the whole burst at the director")
    with lock:
        first = list(dict.fromkeys(seen))
    for table in (1, 2, 3):  # MQTT orders each topic's messages, not across topics
        mine = [m.event_id for m in burst if m.table == table]
        assert [e for e in first if e.startswith(f"{HOST}/{table}/")] == mine, table
