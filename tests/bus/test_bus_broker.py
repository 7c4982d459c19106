"""The bus client against a real Mosquitto: delivery, retained state, last will, and the
outbox across a broker restart."""

from __future__ import annotations

import itertools
import threading

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from support.broker import MosquittoBroker, wait_until
from wuzi.bus import topics
from wuzi.bus.client import BusClient, RetainedMessage
from wuzi.bus.schemas import HostStatus, Message, MessageError, TableEvent, TableState

_venues = itertools.count(1)


@pytest.fixture
def venue() -> str:
    """A venue name no other test uses, so retained messages never leak between tests."""
    return f"test-{next(_venues)}"


class Inbox:
    """Collects what a subscription delivers (from paho's thread)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.messages: list[tuple[str, Message]] = []
        self.rejected: list[tuple[str, MessageError]] = []

    def __call__(self, topic: str, message: Message) -> None:
        with self.lock:
            self.messages.append((topic, message))

    def reject(self, topic: str, error: MessageError) -> None:
        with self.lock:
            self.rejected.append((topic, error))

    def snapshot(self) -> list[Message]:
        with self.lock:
            return [message for _, message in self.messages]


def start(made: list[BusClient], url: str, client_id: str, **kwargs: object) -> BusClient:
    client = BusClient(url, client_id, **kwargs)  # type: ignore[arg-type]
    made.append(client)
    client.connect()
    assert client.wait_connected(10.0), f"{client_id} did not connect"
    return client


def event(venue_table: int, seq: int) -> TableEvent:
    return TableEvent(
        event_id=f"host-1/{venue_table}/g1/{seq}",
        table=venue_table,
        game_id="g1",
        seq=seq,
        kind="move",
        at_ms=1000 + seq,
        data={"point": seq % 225},
    )


def test_qos1_event_round_trip(mosquitto: MosquittoBroker, venue: str, clients: list) -> None:
    inbox = Inbox()
    watcher = start(clients, mosquitto.url, f"{venue}-watcher")
    watcher.subscribe(topics.all_table_events(venue), inbox)
    assert watcher.wait_subscribed(5.0)
    sent: list[str] = []
    host = start(clients, mosquitto.url, f"{venue}-host", on_sent=sent.append)
    message = event(3, 1)
    host.publish(topics.table_events(venue, 3), message, key="e1")
    assert host.wait_drained(5.0)
    assert sent == ["e1"]
    wait_until(lambda: inbox.snapshot() == [message], 5.0, "the event at the watcher")
    assert inbox.messages[0][0] == topics.table_events(venue, 3)


def test_retained_state_reaches_a_late_subscriber(
    mosquitto: MosquittoBroker, venue: str, clients: list
) -> None:
    host = start(clients, mosquitto.url, f"{venue}-host")
    state = TableState(
        table=7,
        game_id="r1-b2-g1",
        seq=4,
        status="playing",
        moves=(112, 113, 97),
        black_ms=2_600_000,
        white_ms=2_650_000,
        running="white",
        result=None,
        at_ms=123_456,
    )
    host.publish(topics.table_state(venue, 7), state)
    assert host.wait_drained(5.0)
    host.close()
    inbox = Inbox()
    screen = start(clients, mosquitto.url, f"{venue}-screen")
    screen.subscribe(topics.all_table_states(venue), inbox)
    wait_until(lambda: inbox.snapshot() == [state], 5.0, "the retained state")


def test_last_will_announces_a_host_whose_connection_dies(
    mosquitto: MosquittoBroker, venue: str, clients: list
) -> None:
    status_topic = topics.host_status(venue, "pi-4")

    def status(online: bool) -> HostStatus:
        return HostStatus(host="pi-4", online=online, tables=(1, 2), boot_id="b7", at_ms=5)

    inbox = Inbox()
    watcher = start(clients, mosquitto.url, f"{venue}-watcher")
    watcher.subscribe(topics.all_host_statuses(venue), inbox)
    assert watcher.wait_subscribed(5.0)
    host = start(
        clients,
        mosquitto.url,
        f"{venue}-pi-4",
        will=RetainedMessage(status_topic, status(False)),
        birth=RetainedMessage(status_topic, status(True)),
    )
    wait_until(lambda: inbox.snapshot() == [status(True)], 5.0, "the online status")
    host.kill_connection()  # no DISCONNECT: the broker must publish the will
    wait_until(lambda: status(False) in inbox.snapshot(), 5.0, "the last will")
    # ... and the host reconnects by itself and says so.
    wait_until(lambda: inbox.snapshot()[-1] == status(True), 10.0, "the status after reconnect")
    assert inbox.snapshot()[:2] == [status(True), status(False)]


def test_a_clean_close_does_not_fire_the_will(
    mosquitto: MosquittoBroker, venue: str, clients: list
) -> None:
    status_topic = topics.host_status(venue, "pi-5")
    offline = HostStatus(host="pi-5", online=False, tables=(), boot_id="b1", at_ms=0)
    online = HostStatus(host="pi-5", online=True, tables=(), boot_id="b1", at_ms=0)
    inbox = Inbox()
    watcher = start(clients, mosquitto.url, f"{venue}-watcher")
    watcher.subscribe(topics.host_status(venue, "pi-5"), inbox)
    assert watcher.wait_subscribed(5.0)
    host = start(
        clients,
        mosquitto.url,
        f"{venue}-pi-5",
        will=RetainedMessage(status_topic, offline),
        birth=RetainedMessage(status_topic, online),
    )
    wait_until(lambda: inbox.snapshot() == [online], 5.0, "the online status")
    host.close()
    # A marker published after the close proves the watcher has seen everything before it.
    marker = event(1, 0)
    other = start(clients, mosquitto.url, f"{venue}-other")
    watcher.subscribe(topics.table_events(venue, 1), inbox)
    assert watcher.wait_subscribed(5.0)
    other.publish(topics.table_events(venue, 1), marker)
    wait_until(lambda: marker in inbox.snapshot(), 5.0, "the marker")
    assert offline not in inbox.snapshot()


def test_malformed_messages_are_rejected_and_valid_ones_still_arrive(
    mosquitto: MosquittoBroker, venue: str, clients: list
) -> None:
    inbox = Inbox()
    watcher = start(clients, mosquitto.url, f"{venue}-watcher", on_rejected=inbox.reject)
    watcher.subscribe(topics.all_table_events(venue), inbox)
    assert watcher.wait_subscribed(5.0)
    raw = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{venue}-raw")
    raw.connect("127.0.0.1", mosquitto.port)
    raw.loop_start()
    try:
        topic = topics.table_events(venue, 2)
        for payload in (b"\xff\xfe", b"[1, 2]", b'{"v": 1}', b'{"v": 2, "table": 2}'):
            raw.publish(topic, payload, qos=1).wait_for_publish(5.0)
        good = event(2, 9)
        raw.publish(topic, good_payload(good), qos=1).wait_for_publish(5.0)
    finally:
        raw.disconnect()
        raw.loop_stop()
    wait_until(lambda: inbox.snapshot() == [good], 5.0, "the valid event")
    assert len(inbox.rejected) == 4
    assert inbox.rejected[2][1].field == "event_id"  # the first missing field, named
    assert inbox.rejected[3][1].field == "v"


def good_payload(message: Message) -> bytes:
    from wuzi.bus.schemas import encode

    return encode(message)


def test_outbox_delivers_in_order_across_a_broker_restart(
    durable_mosquitto: MosquittoBroker, venue: str, clients: list
) -> None:
    broker = durable_mosquitto
    inbox = Inbox()
    director = start(clients, broker.url, f"{venue}-director", persistent_session=True)
    director.subscribe(topics.all_table_events(venue), inbox)
    assert director.wait_subscribed(5.0)
    sent: list[str] = []
    host = start(clients, broker.url, f"{venue}-host", on_sent=sent.append)
    events = [event(5, seq) for seq in range(300)]

    for message in events[:150]:  # some still in flight when the broker goes
        host.publish(topics.table_events(venue, 5), message, key=message.event_id)
    broker.stop()
    wait_until(lambda: not host.connected, 5.0, "the host to notice the broker is gone")
    for message in events[150:]:
        host.publish(topics.table_events(venue, 5), message, key=message.event_id)
    # Nothing published during the outage may be reported sent.
    assert host.pending()[-150:] == [m.event_id for m in events[150:]]
    assert sent == [m.event_id for m in events[: len(sent)]]

    broker.start()
    assert host.wait_drained(15.0), f"outbox not drained: {len(host.pending())} left"
    assert sent == [m.event_id for m in events]  # every one, once, in order

    want = [m.event_id for m in events]

    def first_seen() -> list[str]:
        seen: dict[str, None] = {}
        for message in inbox.snapshot():
            assert isinstance(message, TableEvent)
            seen.setdefault(message.event_id, None)
        return list(seen)

    wait_until(lambda: len(first_seen()) == len(want), 15.0, "every event at the director")
    assert first_seen() == want


def test_a_failing_handler_does_not_stop_delivery(
    mosquitto: MosquittoBroker, venue: str, clients: list
) -> None:
    inbox = Inbox()

    def explode(topic: str, message: Message) -> None:
        inbox(topic, message)
        raise RuntimeError("handler bug")

    watcher = start(clients, mosquitto.url, f"{venue}-watcher")
    watcher.subscribe(topics.all_table_events(venue), explode)
    assert watcher.wait_subscribed(5.0)
    host = start(clients, mosquitto.url, f"{venue}-host")
    first, second = event(4, 1), event(4, 2)
    host.publish(topics.table_events(venue, 4), first)
    host.publish(topics.table_events(venue, 4), second)
    wait_until(lambda: inbox.snapshot() == [first, second], 5.0, "both events")
    assert watcher.connected


def test_the_fixture_fails_rather_than_skips_without_mosquitto(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import support.broker as bus_helpers
    from wuzi.sim import box

    monkeypatch.setattr(box.shutil, "which", lambda name: None)
    monkeypatch.setattr(box, "_CANDIDATES", ())
    with pytest.raises(pytest.fail.Exception, match="mosquitto is not installed"):
        bus_helpers.find_mosquitto()
