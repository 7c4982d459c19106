"""`BusFeed` against a real Mosquitto: messages land in the queue, stamped, typed, filtered."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from support.broker import MosquittoBroker, wait_until
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import HostStatus, TableState
from wuzi.bus.url import BusConfigError
from wuzi.display.feed import BusFeed, FeedItem, monotonic_ms


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MosquittoBroker]:
    b = MosquittoBroker(tmp_path_factory.mktemp("feed-broker"))
    b.start()
    yield b
    b.stop()


def table_state(table: int, moves: tuple[int, ...] = (112,)) -> TableState:
    return TableState(
        table, f"g{table}", 1, "playing", moves, 60_000, 60_000, "white", None, 1_000, "A", "B"
    )


def publisher(broker: MosquittoBroker, name: str) -> BusClient:
    client = BusClient(broker.url, name)
    client.connect()
    assert client.wait_connected(5)
    return client


def collect(feed: BusFeed, count: int) -> list[FeedItem]:
    items: list[FeedItem] = []

    def enough() -> bool:
        items.extend(feed.drain())
        return len(items) >= count

    wait_until(enough, 5.0, f"{count} feed items")
    return items


def test_retained_state_arrives_typed_and_stamped(broker: MosquittoBroker) -> None:
    pub = publisher(broker, "feed-pub-1")
    pub.publish(topics.table_state("feed-a", 3), table_state(3))
    assert pub.wait_drained(5)
    woken: list[int] = []
    feed = BusFeed(broker.url, "feed-a", ("table/+/state",), wakeup=lambda: woken.append(1))
    before = monotonic_ms()
    feed.start()
    try:
        (item,) = collect(feed, 1)
        assert item.topic == topics.table_state("feed-a", 3)
        assert item.message == table_state(3)
        assert before <= item.received_ms <= monotonic_ms()
        assert woken and feed.connected and feed.venue == "feed-a"
        assert not feed.waiting()
    finally:
        feed.close()
        pub.close()


@pytest.fixture
def empty_broker(tmp_path: Path) -> Iterator[MosquittoBroker]:
    b = MosquittoBroker(tmp_path)
    b.start()
    yield b
    b.stop()


def test_venue_discovered_and_other_venues_dropped(empty_broker: MosquittoBroker) -> None:
    broker = empty_broker
    feed = BusFeed(broker.url, None, ("table/+/state", "host/+/status"))
    feed.start()
    pub = publisher(broker, "feed-pub-2")
    try:
        assert feed.wait_subscribed(5)
        pub.publish(topics.table_state("feed-b", 1), table_state(1))
        assert pub.wait_drained(5)
        first = collect(feed, 1)
        assert feed.venue == "feed-b"
        assert first[0].message == table_state(1)
        pub.publish(topics.table_state("feed-c", 2), table_state(2))  # another venue
        pub.publish(topics.host_status("feed-b", "pi"), HostStatus("pi", True, (1,), "b1", 5))
        (item,) = collect(feed, 1)
        assert isinstance(item.message, HostStatus)
        assert feed.foreign == 1
    finally:
        feed.close()
        pub.close()


def test_malformed_messages_never_reach_the_queue(broker: MosquittoBroker) -> None:
    feed = BusFeed(broker.url, "feed-d", ("table/+/state",))
    feed.start()
    raw = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="feed-raw")
    raw.connect("127.0.0.1", broker.port)
    raw.loop_start()
    try:
        assert feed.wait_subscribed(5)
        raw.publish(
            topics.table_state("feed-d", 1), b'{"v": 1, "table": "one"}', qos=1
        ).wait_for_publish(5)
        wait_until(lambda: feed.rejected == 1, 5.0, "the rejection")
        time.sleep(0.1)
        assert feed.drain() == []
    finally:
        raw.loop_stop()
        raw.disconnect()
        feed.close()


@pytest.mark.parametrize("bad", ["arbiter/#", "arbiter/table/+/state", "/x", ""])
def test_hall_screens_cannot_subscribe_to_referee_topics(bad: str) -> None:
    with pytest.raises(BusConfigError):
        BusFeed("mqtt://127.0.0.1:1", "hall", (bad,))


def test_referee_feed_may() -> None:
    BusFeed("mqtt://127.0.0.1:1", "hall", ("arbiter/#",), referee=True).close()


def test_bad_arguments() -> None:
    with pytest.raises(BusConfigError):
        BusFeed("http://x", "hall", ("table/+/state",))
    with pytest.raises(BusConfigError):
        BusFeed("mqtt://x", "hall", ())
    with pytest.raises(ValueError, match="venue"):
        BusFeed("mqtt://x", "bad venue!", ("table/+/state",))
