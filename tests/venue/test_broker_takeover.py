"""No login can take another connection's place (issue 19), on a real Mosquitto started
from the files ``wuzi venue broker-config`` wrote.

Mosquitto drops the older of two connections with one client id, and a clean-session
takeover also wipes the older one's queued messages. The generated broker sets
``use_username_as_clientid``: the id a client sends is replaced by its account, so a
host's, a public screen's or a referee's login sending the director's or a host's client
id only ever reaches its own account's session. Here each of them tries, with a clean and
a persistent session, while the director and host h2 are connected (neither is ever
disconnected: each made exactly one connection attempt), and again while the director is
away with a referee's command queued for it (it gets the command when it is back).
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from support.acl import WAIT_S, Broker, generated_broker
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.schemas import ArbiterCommand, Message
from wuzi.config.credentials import Login, login

V = "acl-test"
DIRECTOR_ID = f"wuzi.{V}.director.dir"
HOST_ID = f"wuzi.{V}.host.h2"


@pytest.fixture(scope="module")
def broker() -> Iterator[Broker]:
    with generated_broker() as found:
        yield found


def url(broker: Broker) -> str:
    return f"mqtt://127.0.0.1:{broker.port}"


def bus(broker: Broker, account: Login, **kwargs: object) -> BusClient:
    client = BusClient(
        url(broker),
        account.client_id,
        username=account.username,
        password=account.password,
        login_source=account.source,
        **kwargs,  # type: ignore[arg-type]
    )
    return client


class Director:
    """The director's persistent connection, as `wuzi director` makes it: its account,
    its client id, a persistent session subscribed to the referees' commands."""

    def __init__(self, broker: Broker) -> None:
        self.received: list[Message] = []
        self.lock = threading.Condition()
        self.client = bus(broker, login(broker.venue, "director"), persistent_session=True)
        self.client.subscribe(topics.arbiter_commands(V), self._on_message)

    def _on_message(self, _topic: str, message: Message) -> None:
        with self.lock:
            self.received.append(message)
            self.lock.notify_all()

    def start(self) -> None:
        self.client.connect()
        assert self.client.wait_connected(WAIT_S) and self.client.wait_subscribed(WAIT_S)

    def wait_for(self, message: Message) -> None:
        with self.lock:
            assert self.lock.wait_for(lambda: message in self.received, WAIT_S), self.received


def command() -> ArbiterCommand:
    return ArbiterCommand(
        str(uuid.uuid4()), "deputy", "pause", 1, {}, int(time.time() * 1000), None
    )


def attackers(broker: Broker) -> dict[str, Login]:
    """A host's, the public screens' and a referee's view logins: real accounts."""
    venue = broker.venue
    return {
        "host h1": login(venue, "host", "h1"),
        "public screen foyer": login(venue, "screen-public", "foyer"),
        "referee deputy": login(venue, "referee", "deputy"),
    }


def try_takeover(broker: Broker, attacker: Login, victim_id: str, clean: bool) -> str:
    """Connect with ``attacker``'s login and ``victim_id`` as the client id; the CONNACK
    (the login itself is good, so it is accepted: as the attacker's own account)."""
    done = threading.Event()
    result: list[str] = []

    def on_connect(_c: object, _u: object, flags: object, reason: object, _p: object) -> None:
        result.append(str(reason))
        done.set()

    raw = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=victim_id,
        clean_session=clean,
        protocol=mqtt.MQTTv311,
    )
    raw.username_pw_set(attacker.username, attacker.password)
    raw.on_connect = on_connect
    raw.connect("127.0.0.1", broker.port, keepalive=10)
    raw.loop_start()
    try:
        assert done.wait(WAIT_S), "no CONNACK"
        time.sleep(0.05)  # a takeover would drop the victim now
    finally:
        raw.disconnect()
        raw.loop_stop()
    return result[0]


def attack_all(broker: Broker) -> list[str]:
    answers = []
    for attacker in attackers(broker).values():
        for victim in (DIRECTOR_ID, HOST_ID):
            for clean in (True, False):
                answers.append(try_takeover(broker, attacker, victim, clean))
    return answers


def test_no_login_takes_over_a_connected_director_or_host(broker: Broker) -> None:
    director = Director(broker)
    host = bus(broker, login(broker.venue, "host", "h2"))
    director.start()
    host.connect()
    try:
        assert host.wait_connected(WAIT_S)
        answers = attack_all(broker)
        assert answers == ["Success"] * 12  # each logged in, as its own account
        assert director.client.connected and host.connected
        assert director.client.attempts == 1 and host.attempts == 1  # never dropped
        # the broker gave each attacker its own account as its client id
        log = broker.log_text()
        for attacker in attackers(broker).values():
            assert f"as {attacker.username} (" in log
        assert log.count(f"as {DIRECTOR_ID} (") == 1 and log.count(f"as {HOST_ID} (") == 1
        # and the director still gets what is sent to it
        sender = bus(broker, login(broker.venue, "referee-send", "deputy"))
        sender.connect()
        sent = command()
        sender.publish(topics.arbiter_commands(V), sent)
        assert sender.wait_drained(WAIT_S)
        sender.close()
        director.wait_for(sent)
    finally:
        director.client.close()
        host.close()


def test_no_login_touches_the_director_s_queued_messages(broker: Broker) -> None:
    first = Director(broker)
    first.start()
    first.client.close()  # away: its persistent session stays and queues
    sender = bus(broker, login(broker.venue, "referee-send", "deputy"))
    sender.connect()
    queued = command()
    sender.publish(topics.arbiter_commands(V), queued)
    assert sender.wait_drained(WAIT_S)
    sender.close()
    assert attack_all(broker) == ["Success"] * 12
    back = Director(broker)
    back.start()
    try:
        assert back.client.session_present  # the session was never taken over
        back.wait_for(queued)
    finally:
        back.client.close()


def test_a_referee_s_view_and_send_do_not_push_each_other_off(broker: Broker) -> None:
    view = bus(broker, login(broker.venue, "referee", "deputy"), persistent_session=True)
    view.connect()
    try:
        assert view.wait_connected(WAIT_S)
        for _ in range(3):
            sender = bus(broker, login(broker.venue, "referee-send", "deputy"))
            sender.connect()
            sender.publish(topics.arbiter_commands(V), command())
            assert sender.wait_drained(WAIT_S)
            sender.close()
        assert view.connected and view.attempts == 1
    finally:
        view.close()
