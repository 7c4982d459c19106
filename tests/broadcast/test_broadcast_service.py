"""`wuzi broadcast` on a real Mosquitto: the public feed runs the delay behind play, carries
the live table states and events only (never arbiter/), with the same schema; a late
joiner gets the retained delayed state; a restart publishes nothing early and skips
nothing; a broker restart is ridden through."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from support.broker import MosquittoBroker, wait_until
from support.public_feed import (
    Recorder,
    live_event,
    live_publisher,
    live_state,
    now_ms,
    publish_all,
)
from wuzi.broadcast.service import Broadcast, BroadcastOptions
from wuzi.bus import topics
from wuzi.bus.schemas import RefereeState, TableEvent, TableState, parse_message


@contextmanager
def running(url: str, venue: str, journal: Path, delay_ms: int) -> Iterator[Broadcast]:
    service = Broadcast(BroadcastOptions(venue, "broadcast", url, delay_ms, journal))
    stop = threading.Event()
    service.start()
    assert service.client.wait_connected(10) and service.client.wait_subscribed(10)
    thread = threading.Thread(target=service.run, args=(stop,), daemon=True)
    thread.start()
    try:
        yield service
    finally:
        stop.set()
        thread.join(5)
        service.close()


def recorder(broker: MosquittoBroker, topic_filter: str) -> Recorder:
    return Recorder("127.0.0.1", broker.port, topic_filter).start()


def arrival(rec: Recorder, topic: str, n: int = 0) -> tuple[bytes, int]:
    found = [(p, at) for t, p, at in rec.messages() if t == topic]
    return found[n]


def test_the_feed_is_delayed_complete_and_has_nothing_of_the_referees(
    mosquitto: MosquittoBroker, tmp_path: Path
) -> None:
    venue, delay = "bc-delay", 1500
    public = recorder(mosquitto, f"wuzi/v1/{venue}/public/#")
    host = live_publisher(mosquitto.url, venue)
    with running(mosquitto.url, venue, tmp_path / "b.sqlite", delay):
        s1 = live_state(3, (112,), board=2)
        e1 = live_event(3, 1, 112)
        sent_ms = now_ms()
        publish_all(host, venue, [s1, e1])
        referee = RefereeState(3, "g-1", 7, "playing", (), 0, 113, 0, 0, now_ms())
        host.publish(topics.arbiter_state(venue, 3), referee)
        assert host.wait_drained(10)
        state_topic, events_topic = topics.public_state(venue, 3), topics.public_events(venue, 3)
        public.wait_for(state_topic)
        public.wait_for(events_topic)
        payload, at = arrival(public, state_topic)
        assert at >= sent_ms + delay, f"published {sent_ms + delay - at} ms early"
        assert at <= sent_ms + delay + 1500, "published far too late"
        got = parse_message(state_topic, payload)
        assert isinstance(got, TableState)
        assert got == TableState(**{**vars(s1), "at_ms": s1.at_ms + delay})
        event = parse_message(events_topic, arrival(public, events_topic)[0])
        assert isinstance(event, TableEvent)
        assert event.event_id == e1.event_id and event.data == e1.data
        time.sleep(0.5)
        assert public.topics() == {state_topic, events_topic}  # nothing of arbiter/
        assert all(b"pending" not in p for _, p, _ in public.messages())

        # a late joiner gets the delayed state at once (retained), not the live one
        s2 = live_state(3, (112, 113), board=2)
        publish_all(host, venue, [s2])
        late = recorder(mosquitto, f"wuzi/v1/{venue}/public/#")
        late.wait_for(state_topic, timeout_s=2)
        first = parse_message(state_topic, arrival(late, state_topic)[0])
        assert isinstance(first, TableState) and first.moves == (112,)
        late.wait_for(state_topic, count=2, timeout_s=5)
        second = parse_message(state_topic, arrival(late, state_topic, 1)[0])
        assert isinstance(second, TableState) and second.moves == (112, 113)
        late.stop()
    public.stop()
    host.close()


def test_a_restart_publishes_nothing_early_and_skips_nothing(
    mosquitto: MosquittoBroker, tmp_path: Path
) -> None:
    venue, delay = "bc-restart", 2500
    journal = tmp_path / "b.sqlite"
    public = recorder(mosquitto, f"wuzi/v1/{venue}/public/#")
    host = live_publisher(mosquitto.url, venue)
    state_topic, events_topic = topics.public_state(venue, 5), topics.public_events(venue, 5)
    with running(mosquitto.url, venue, journal, delay) as first:
        s1 = live_state(5, (112,))
        t1 = now_ms()
        publish_all(host, venue, [s1, live_event(5, 1, 112)])
        wait_until(lambda: first.accepted == 2, 5, "the first two messages held")
    # down: play goes on (the broker queues it in the broadcast's persistent session)
    s2 = live_state(5, (112, 113))
    t2 = now_ms()
    publish_all(host, venue, [s2, live_event(5, 2, 113)])
    time.sleep(0.5)
    assert public.messages() == []
    with running(mosquitto.url, venue, journal, delay) as second:
        assert second.restored == 2
        public.wait_for(state_topic, count=2, timeout_s=10)
        public.wait_for(events_topic, count=2, timeout_s=10)
        time.sleep(0.5)
    states = [(parse_message(t, p), at) for t, p, at in public.messages() if t == state_topic]
    events = [(parse_message(t, p), at) for t, p, at in public.messages() if t == events_topic]
    assert [s.moves for s, _ in states] == [(112,), (112, 113)]  # each once, in order
    assert [e.seq for e, _ in events] == [1, 2]  # type: ignore[union-attr]
    assert states[0][1] >= t1 + delay and events[0][1] >= t1 + delay
    assert states[1][1] >= t2 + delay and events[1][1] >= t2 + delay
    public.stop()
    host.close()


def test_the_feed_goes_on_through_a_broker_restart(
    durable_mosquitto: MosquittoBroker, tmp_path: Path
) -> None:
    venue = "bc-broker"
    broker = durable_mosquitto
    host = live_publisher(broker.url, venue)
    state_topic = topics.public_state(venue, 1)
    with running(broker.url, venue, tmp_path / "b.sqlite", 300) as service:
        publish_all(host, venue, [live_state(1, (112,))])
        wait_until(lambda: service.published == 1, 10, "the first public state")
        broker.restart()
        assert service.client.wait_connected(15) and host.wait_connected(15)
        publish_all(host, venue, [live_state(1, (112, 113))])
        public = recorder(broker, f"wuzi/v1/{venue}/public/#")
        wait_until(
            lambda: any(
                isinstance(m := parse_message(t, p), TableState) and len(m.moves) == 2
                for t, p, _ in public.messages()
                if t == state_topic
            ),
            15,
            "the state after the broker restart on the public feed",
        )
        public.stop()
    host.close()
