"""The embedded broker (amqtt in-process) with our own BusClient over real sockets:
delivery, retained state, a QoS 1 burst, persistent sessions, a restart, and a clean stop.

amqtt delivers retained messages more than once (see wuzi.sim.embedded_broker), so
retained checks fold deliveries the way every Wuzi consumer does — last state per topic
— and never count them.
"""

from __future__ import annotations

import itertools
import logging
import os
import socket
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from wuzi.bus import topics
from wuzi.bus.client import BusClient, RetainedMessage
from wuzi.bus.schemas import HostStatus, Message, TableEvent, TableState
from wuzi.bus.url import parse_broker_url
from wuzi.sim import embedded_broker
from wuzi.sim.embedded_broker import EmbeddedBroker, EmbeddedBrokerError, find_mosquitto

_venues = itertools.count(1)
BURST = 2000
QUEUED = 200
HOSTS = 12


@pytest.fixture
def venue() -> str:
    return f"embedded-{next(_venues)}"


@pytest.fixture
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker() as running:
        yield running


class Inbox:
    """What a subscription delivered (on paho's thread), in order."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)
        self.messages: list[tuple[str, Message]] = []

    def __call__(self, topic: str, message: Message) -> None:
        with self.changed:
            self.messages.append((topic, message))
            self.changed.notify_all()

    def wait_for(self, count: int, timeout_s: float) -> list[tuple[str, Message]]:
        with self.changed:
            self.changed.wait_for(lambda: len(self.messages) >= count, timeout_s)
            return list(self.messages)

    def latest(self) -> dict[str, Message]:
        """Fold as a state consumer does: the last message per topic wins."""
        with self.lock:
            return dict(self.messages)


def connect(
    made: list[BusClient],
    url: str,
    client_id: str,
    subscriptions: dict[str, Inbox] | None = None,
    **kwargs: object,
) -> BusClient:
    client = BusClient(url, client_id, **kwargs)  # type: ignore[arg-type]
    made.append(client)
    for topic_filter, inbox in (subscriptions or {}).items():
        client.subscribe(topic_filter, inbox)
    client.connect()
    assert client.wait_connected(10.0), f"{client_id} did not connect to {url}"
    if subscriptions:
        assert client.wait_subscribed(10.0), f"{client_id} was not subscribed"
    return client


def event(table: int, seq: int) -> TableEvent:
    return TableEvent(
        event_id=f"pi-1/{table}/g1/{seq}",
        table=table,
        game_id="g1",
        seq=seq,
        kind="move",
        at_ms=1000 + seq,
        data={"point": seq % 225},
    )


def state(table: int, seq: int) -> TableState:
    return TableState(
        table=table,
        game_id="r1-b1-g1",
        seq=seq,
        status="playing",
        moves=tuple(range(100, 100 + seq)),
        black_ms=600_000 - seq,
        white_ms=600_000,
        running="white" if seq % 2 else "black",
        result=None,
        at_ms=5000 + seq,
    )


def first_seen(inbox: Inbox) -> list[str]:
    """Event ids in order of first delivery (a QoS 1 repeat is harmless by design)."""
    seen: dict[str, None] = {}
    for _topic, message in inbox.messages:
        assert isinstance(message, TableEvent)
        seen.setdefault(message.event_id, None)
    return list(seen)


def test_url_is_one_the_bus_client_accepts(broker: EmbeddedBroker) -> None:
    address = parse_broker_url(broker.url)
    assert (address.host, address.port, address.tls) == ("127.0.0.1", broker.port, False)
    assert broker.port > 0


def test_event_round_trip(broker: EmbeddedBroker, venue: str, clients: list[BusClient]) -> None:
    inbox = Inbox()
    connect(clients, broker.url, f"{venue}-director", {topics.all_table_events(venue): inbox})
    host = connect(clients, broker.url, f"{venue}-host")
    sent = event(4, 1)
    host.publish(topics.table_events(venue, 4), sent)
    assert host.wait_drained(10.0)
    assert inbox.wait_for(1, 10.0)[0] == (topics.table_events(venue, 4), sent)


def test_retained_state_reaches_late_subscribers(
    broker: EmbeddedBroker, venue: str, clients: list[BusClient]
) -> None:
    host = connect(clients, broker.url, f"{venue}-host")
    for seq in (1, 2, 3):  # only the newest is retained
        host.publish(topics.table_state(venue, 9), state(9, seq))
    assert host.wait_drained(10.0)
    first, second = Inbox(), Inbox()
    connect(clients, broker.url, f"{venue}-screen-1", {topics.all_table_states(venue): first})
    # The second late subscriber connects while the first's subscription exists: the path
    # on which amqtt delivers the retained message twice.
    connect(clients, broker.url, f"{venue}-screen-2", {topics.all_table_states(venue): second})
    newest = {topics.table_state(venue, 9): state(9, 3)}
    for inbox in (first, second):
        delivered = inbox.wait_for(1, 10.0)
        assert all(message == state(9, 3) for _, message in delivered), delivered
        assert inbox.latest() == newest


def test_qos1_burst_all_arrive_in_each_topic_s_order(
    broker: EmbeddedBroker, venue: str, clients: list[BusClient]
) -> None:
    inbox = Inbox()
    connect(clients, broker.url, f"{venue}-director", {topics.all_table_events(venue): inbox})
    sent_keys: list[str] = []
    host = connect(clients, broker.url, f"{venue}-host", on_sent=sent_keys.append)
    burst = [event(1 + seq % 3, seq) for seq in range(BURST)]
    for message in burst:
        host.publish(topics.table_events(venue, message.table), message, key=message.event_id)
    assert host.wait_drained(120.0), f"{len(host.pending())} of {BURST} never acknowledged"
    assert sent_keys == [message.event_id for message in burst]
    inbox.wait_for(BURST, 120.0)
    seen = first_seen(inbox)
    assert sorted(seen) == sorted(message.event_id for message in burst)  # every one, once
    # MQTT orders each topic's messages (a table's events), not messages across topics
    for table in (1, 2, 3):
        mine = [m.event_id for m in burst if m.table == table]
        assert [e for e in seen if e.startswith(f"pi-1/{table}/")] == mine


def test_persistent_session_gets_what_was_published_while_away(
    broker: EmbeddedBroker, venue: str, clients: list[BusClient]
) -> None:
    """The director's restart: amqtt's own anonymous login would drop this queue."""
    before = Inbox()
    director = connect(
        clients,
        broker.url,
        f"{venue}-director",
        {topics.all_table_events(venue): before},
        persistent_session=True,
    )
    director.close()
    host = connect(clients, broker.url, f"{venue}-host")
    for seq in range(20):
        host.publish(topics.table_events(venue, 2), event(2, seq))
    assert host.wait_drained(10.0)
    after = Inbox()
    connect(
        clients,
        broker.url,
        f"{venue}-director",
        {topics.all_table_events(venue): after},
        persistent_session=True,
    )
    after.wait_for(20, 10.0)
    assert first_seen(after) == [event(2, seq).event_id for seq in range(20)]


def test_restart_keeps_port_retained_state_and_queued_events(
    broker: EmbeddedBroker, venue: str, clients: list[BusClient]
) -> None:
    url = broker.url
    away = Inbox()
    director = connect(
        clients, url, f"{venue}-director", {topics.all_table_events(venue): away},
        persistent_session=True,
    )  # fmt: skip
    director.close()
    host = connect(clients, url, f"{venue}-host")
    host.publish(topics.table_state(venue, 5), state(5, 7))
    for seq in range(QUEUED):  # a burst: the last are still being routed at stop()
        host.publish(topics.table_events(venue, 5), event(5, seq))
    assert host.wait_drained(20.0)

    broker.stop()
    broker.start()
    assert broker.url == url
    for seq in range(QUEUED, QUEUED + 5):  # queued in paho while the broker was down
        host.publish(topics.table_events(venue, 5), event(5, seq))
    assert host.wait_drained(20.0), "the host's events never reached the restarted broker"

    back = Inbox()
    connect(
        clients, url, f"{venue}-director", {topics.all_table_events(venue): back},
        persistent_session=True,
    )  # fmt: skip
    back.wait_for(QUEUED + 5, 20.0)
    assert first_seen(back) == [event(5, seq).event_id for seq in range(QUEUED + 5)]
    screen = Inbox()
    connect(clients, url, f"{venue}-screen", {topics.all_table_states(venue): screen})
    screen.wait_for(1, 10.0)
    assert screen.latest() == {topics.table_state(venue, 5): state(5, 7)}


def test_stop_frees_the_port_and_leaves_no_thread(venue: str, clients: list[BusClient]) -> None:
    threads_before = set(threading.enumerate())
    broker = EmbeddedBroker()
    broker.start()
    status = RetainedMessage(
        topics.host_status(venue, "pi-1"),
        HostStatus(host="pi-1", online=True, tables=(1,), boot_id="b1", at_ms=1),
    )
    host = connect(clients, broker.url, f"{venue}-host", will=status, birth=status)
    assert host.wait_drained(10.0)
    port = broker.port
    broker.stop()
    assert not broker.running
    with socket.socket() as probe:  # nobody listens there any more: the port binds again
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past TIME_WAIT
        probe.bind(("127.0.0.1", port))
        probe.listen()
    host.close()
    clients.clear()
    left = [thread for thread in threading.enumerate() if thread not in threads_before]
    assert left == [], f"threads left running after stop(): {left}"


def test_a_restart_with_connected_clients_logs_no_warnings(
    broker: EmbeddedBroker,
    venue: str,
    clients: list[BusClient],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A host with a last will is connected when the broker stops: its will is not the
    broker's to send, and nothing may complain about it."""
    caplog.set_level(logging.WARNING)
    status = RetainedMessage(
        topics.host_status(venue, "pi-1"),
        HostStatus(host="pi-1", online=False, tables=(1,), boot_id="b1", at_ms=1),
    )
    watcher = Inbox()
    connect(clients, broker.url, f"{venue}-watch", {topics.all_host_statuses(venue): watcher})
    host = connect(clients, broker.url, f"{venue}-host", will=status)
    host.publish(topics.table_events(venue, 1), event(1, 0))
    assert host.wait_drained(10.0)
    broker.stop()
    broker.start()
    assert host.wait_connected(10.0)
    host.publish(topics.table_events(venue, 1), event(1, 1))
    assert host.wait_drained(20.0)
    noisy = [r for r in caplog.records if r.levelno >= logging.WARNING and "amqtt" in r.name]
    assert noisy == [], [r.getMessage() for r in noisy]
    assert watcher.messages == [], "the broker's stop sent a client's last will"


def test_start_on_a_taken_port_names_it() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        broker = EmbeddedBroker(port=port)
        with pytest.raises(EmbeddedBrokerError, match=f"127.0.0.1:{port}"):
            broker.start()
        assert not broker.running


def test_start_twice_and_bad_port_are_refused(broker: EmbeddedBroker) -> None:
    with pytest.raises(EmbeddedBrokerError, match="already runs"):
        broker.start()
    with pytest.raises(EmbeddedBrokerError, match="0-65535"):
        EmbeddedBroker(port=70000)
    with pytest.raises(EmbeddedBrokerError, match="before start"):
        _ = EmbeddedBroker().url


def test_find_mosquitto(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedded_broker, "_MOSQUITTO_PATHS", ())
    monkeypatch.setenv("PATH", str(tmp_path))
    assert find_mosquitto() is None
    binary = tmp_path / "mosquitto"
    binary.write_text("#!/bin/sh\n")
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    assert find_mosquitto() == str(binary)
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr(embedded_broker, "_MOSQUITTO_PATHS", (str(tmp_path / "no"), str(binary)))
    assert find_mosquitto() == str(binary)
    assert os.access(str(binary), os.X_OK)


def test_hosts_starting_together_are_not_dropped(
    broker: EmbeddedBroker,
    venue: str,
    clients: list[BusClient],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Regression: amqtt walks every topic filter on each connect, awaiting retained
    messages between filters; another host's SUBSCRIBE meanwhile used to drop the
    connecting host ("dictionary changed size during iteration"), at every demo start."""
    caplog.set_level(logging.INFO, logger="wuzi.sim.embedded_broker")
    director = connect(clients, broker.url, f"{venue}-director")
    for table in range(1, 4 * HOSTS + 1):
        director.publish(topics.table_state(venue, table), state(table, table))
    assert director.wait_drained(10.0)
    connect(clients, broker.url, f"{venue}-screen", {topics.all_table_states(venue): Inbox()})
    hosts: list[tuple[BusClient, Inbox, range]] = []
    for number in range(HOSTS):
        inbox, tables = Inbox(), range(1 + 4 * number, 5 + 4 * number)
        host = BusClient(broker.url, f"{venue}-pi-{number}")
        clients.append(host)
        for table in tables:
            host.subscribe(topics.table_state(venue, table), inbox)
        hosts.append((host, inbox, tables))
    for host, _, _ in hosts:  # all at once, as the demo starts its hosts
        host.connect()
    for host, inbox, tables in hosts:
        assert host.wait_connected(10.0) and host.wait_subscribed(10.0), host.client_id
        inbox.wait_for(len(tables), 10.0)
        assert inbox.latest() == {topics.table_state(venue, t): state(t, t) for t in tables}
    dropped = [r.getMessage() for r in caplog.records if r.name == embedded_broker.log.name]
    assert not [m for m in dropped if "dropped" in m or "ended" in m], dropped
