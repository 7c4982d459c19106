"""Two halls on one machine: each hall's Mosquitto bridged to a central one through its
own delaying, cuttable proxy (``wuzi.sim.net.proxy``), so that each **hall line** can be
delayed or cut on its own.

::

    hall A's broker --bridge--> proxy A --> central broker <-- proxy B <--bridge-- hall B's broker

The brokers are ``wuzi.sim.box.Broker`` (a free loopback port, the venue's queue limits;
as root, ``user root`` so that Mosquitto can write its directory). Each hall's
configuration gets one plain Mosquitto ``connection`` block, written by ``bridge_block``:
``minimal_bridge_block`` here until ``wuzi venue broker-config`` writes the real ones for
``[[links]]`` (its links block, pointed at the hall's proxy instead of the central
broker); a caller hands that text in through the same seam
(``BridgedHalls(bridge_block=...)``), nothing else changes. At start the harness waits
until each bridge is up and passes messages in from the centre (``_probe``).

Bridge settings of the minimal block, and why:

* ``cleansession false`` (and so ``local_cleansession false``): the central broker keeps the
  bridge's subscriptions and queues its QoS 1 messages while the line is cut, and the hall's
  broker queues what its players sent meanwhile: nothing is lost, all of it crosses on return;
* ``restart_timeout 1 1`` (a backoff from 1 s capped at 1 s: a retry every second): a
  restored line carries messages again within about a second plus one round trip.
  Mosquitto's default (a backoff from 5 s up to 30 s) would hold a linked game's
  resumption that long, and so, measured with Mosquitto 2.0.11, does the single-value form
  ``restart_timeout 1`` (about 5 s after a reset); a retry a second against one central
  broker costs nothing;
* ``keepalive_interval 5``: a blackholed line (no reset, nothing
  through) is noticed after about 7.5 s rather than 90 s;
* ``try_private true``: the central broker does not echo a hall's messages back to it.

Whatever the block, the harness appends three lines to it (``state_lines``) so that the
hall's broker retains its bridge's state on a topic of its own, ``line_state_topic``
(``notifications_local_only``: nothing more reaches the central broker, whose ACL may not
allow it): that is how ``BridgedHalls.line_up`` tells whether a hall's line is up, even
with a generated block that says ``notifications false``.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from wuzi.sim.box import Broker
from wuzi.sim.net.delay import OneWayDelay
from wuzi.sim.net.proxy import DelayProxy

__all__ = [
    "DEFAULT_TOPICS",
    "HALL_LINE",
    "BridgedHalls",
    "Hall",
    "HallLine",
    "Tap",
    "inbound_patterns",
    "line_state_topic",
    "minimal_bridge_block",
    "probe_topic",
]

DEFAULT_TOPICS = ("link/#",)
"""What crosses in the minimal block: a placeholder subtree until the generator names the
linked tables' topics."""
HALL_LINE = OneWayDelay(37.5, 7.5)
"""Each hall line's delay by default, both ways: a 150 ms round trip from hall to hall (A →
central → B crosses two lines, and back), each chunk ± 7.5 ms on each line."""
RESTART_TIMEOUT = "1 1"
"""Base and cap of the bridge's reconnection backoff, in seconds (module docstring)."""
KEEPALIVE_INTERVAL_S = 5
_START_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class HallLine:
    """What a bridge block needs: the hall, where its line to the central broker starts
    (its proxy), and the topic patterns that cross (both ways, QoS 1)."""

    hall: str
    address: tuple[str, int]
    topics: tuple[str, ...]

    @property
    def bridge_id(self) -> str:
        """The bridge's client id on the central broker (and its connection name)."""
        return f"bridge-hall-{self.hall}"


BridgeBlock = Callable[[HallLine], str]


def line_state_topic(hall: str) -> str:
    """Where hall ``hall``'s broker retains its bridge's state: b"1" up, b"0" down."""
    return f"wuzi-sim/line/{hall}/state"


def state_lines(line: HallLine) -> str:
    """Appended after any bridge block: its state, retained on the hall's broker only."""
    return (
        "# wuzi.sim.net.halls: the bridge's state for BridgedHalls.line_up\n"
        "notifications true\n"
        "notifications_local_only true\n"
        f"notification_topic {line_state_topic(line.hall)}\n"
    )


def inbound_patterns(block: str) -> tuple[str, ...]:
    """The patterns of a bridge block's ``topic`` lines that come in (``in`` or ``both``;
    Mosquitto's default direction is ``out``)."""
    found = []
    for text in block.splitlines():
        words = text.split()
        if len(words) >= 3 and words[0] == "topic" and words[2] in ("in", "both"):
            found.append(words[1])
    return tuple(found)


def probe_topic(pattern: str) -> str:
    """A topic that ``pattern`` matches: each wildcard level named ``wuzi-sim-probe``."""
    levels = pattern.split("/")
    return "/".join("wuzi-sim-probe" if level in ("#", "+") else level for level in levels)


def minimal_bridge_block(line: HallLine) -> str:
    """A plain Mosquitto ``connection`` block for ``line`` (the settings: module docstring)."""
    host, port = line.address
    lines = [
        f"connection {line.bridge_id}",
        f"address {host}:{port}",
        f"remote_clientid {line.bridge_id}",
        f"local_clientid {line.bridge_id}-local",
        "bridge_protocol_version mqttv311",
        "cleansession false",
        f"restart_timeout {RESTART_TIMEOUT}",
        f"keepalive_interval {KEEPALIVE_INTERVAL_S}",
        "try_private true",
        *(f"topic {pattern} both 1" for pattern in line.topics),
    ]
    return "\n".join(lines) + "\n"


@dataclass
class Hall:
    """One hall: its broker (``url`` for its hosts) and the proxy of its line."""

    name: str
    broker: Broker
    proxy: DelayProxy
    line: HallLine
    inbound: tuple[str, ...] = ()  # the block's patterns that come in from the centre
    watch: Tap | None = None  # hears the bridge's state on the hall's broker

    @property
    def url(self) -> str:
        return self.broker.url


class BridgedHalls:
    """A central broker and one broker per hall, each bridged to it through its own proxy.

    ``line``: each hall line's delay, both ways (``OneWayDelay(37.5, 7.5)``: a 150 ms
    round trip from hall to hall, as A → central → B → central → A crosses two lines
    twice); ``lines`` overrides it for a hall. Use as a context manager, or ``start()``
    and ``stop()``; ``RuntimeError`` (with the broker's log) if a broker cannot start or a
    bridge does not come up."""

    def __init__(
        self,
        directory: Path,
        *,
        halls: Sequence[str] = ("a", "b"),
        line: OneWayDelay = HALL_LINE,
        lines: dict[str, OneWayDelay] | None = None,
        topics: Sequence[str] = DEFAULT_TOPICS,
        bridge_block: BridgeBlock = minimal_bridge_block,
        seed: int = 0,
        log_types: tuple[str, ...] = ("error", "warning", "notice"),
        start_timeout_s: float = 10.0,
    ) -> None:
        if len(set(halls)) != len(halls) or not halls:
            raise ValueError(f"hall names must be distinct and at least one, got {halls!r}")
        unknown = set(lines or {}) - set(halls)
        if unknown:
            raise ValueError(f"line delays given for unknown halls {sorted(unknown)}")
        self.directory = directory
        self._names = tuple(halls)
        self._delays = {name: (lines or {}).get(name, line) for name in halls}
        self._topics = tuple(topics)
        self._bridge_block = bridge_block
        self._seed = seed
        self._log_types = log_types
        self._start_timeout_s = start_timeout_s
        self.central: Broker | None = None
        self.halls: dict[str, Hall] = {}

    def start(self) -> BridgedHalls:
        try:
            central_dir = self.directory / "central"
            central_dir.mkdir(parents=True, exist_ok=True)
            self.central = Broker(central_dir, log_types=self._log_types)
            self.central.start()
            for index, name in enumerate(self._names):
                self.halls[name] = self._start_hall(name, index)
            for name in self._names:
                self.wait_line_up(name, self._start_timeout_s)
                self._probe(self.hall(name), self._start_timeout_s)
        except BaseException:
            self.stop()
            raise
        return self

    def _start_hall(self, name: str, index: int) -> Hall:
        assert self.central is not None
        proxy = DelayProxy(
            ("127.0.0.1", self.central.port),
            up=self._delays[name],
            seed=self._seed + index,
            name=f"line-{name}",
        ).start()
        hall_dir = self.directory / f"hall-{name}"
        hall_dir.mkdir(parents=True, exist_ok=True)
        broker = Broker(hall_dir, log_types=self._log_types)
        line = HallLine(name, ("127.0.0.1", proxy.port), self._topics)
        block = self._bridge_block(line)
        with broker.config_path.open("a") as config:
            config.write("\n" + block + state_lines(line))
        hall = Hall(name, broker, proxy, line, inbound=inbound_patterns(block))
        try:
            broker.start()
            hall.watch = Tap(broker.url, [line_state_topic(name)])
        except BaseException:
            broker.stop()
            proxy.stop()
            raise
        return hall

    def _probe(self, hall: Hall, timeout_s: float) -> None:
        """Wait until the central broker passes each inbound pattern's messages to ``hall``.

        The bridge says it is up at its CONNACK, but its first SUBSCRIBE to the central
        broker crosses the line after it: a message sent to the hall meanwhile would find
        no subscriber there and be lost. So a probe (``probe_topic``: not retained, so no
        later subscriber sees it) goes from the centre to the hall, once every 50 ms,
        until one arrives. Later reconnections keep the subscriptions (``cleansession
        false``): only the start needs this."""
        if not hall.inbound:
            return
        probes = [probe_topic(pattern) for pattern in hall.inbound]
        hearing = Tap(hall.url, probes)
        sending = Tap(self.central_url)
        try:
            deadline = time.monotonic() + timeout_s
            for topic in probes:
                while not hearing.payloads(topic):
                    if time.monotonic() > deadline:
                        raise RuntimeError(
                            f"hall {hall.name}'s bridge is up but passes nothing from the "
                            f"central broker on {topic} within {timeout_s} s:\n"
                            f"{hall.broker.log_text()}"
                        )
                    sending.publish(topic, b"probe", qos=0)
                    time.sleep(0.05)
        finally:
            hearing.close()
            sending.close()

    def hall(self, name: str) -> Hall:
        try:
            return self.halls[name]
        except KeyError:
            raise KeyError(f"no hall {name!r}; the halls are {list(self.halls)}") from None

    @property
    def central_url(self) -> str:
        if self.central is None:
            raise RuntimeError("the halls are not started")
        return self.central.url

    def line_up(self, name: str) -> bool:
        """Whether hall ``name``'s bridge says it is connected now (``line_state_topic``)."""
        hall = self.hall(name)
        if hall.watch is None:
            raise RuntimeError(f"hall {name} is not started")
        states = hall.watch.payloads(line_state_topic(name))
        return bool(states) and states[-1] == b"1"

    def wait_line_up(self, name: str, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while not self.line_up(name):
            if time.monotonic() > deadline:
                hall = self.hall(name)
                raise RuntimeError(
                    f"hall {name}'s bridge did not come up within {timeout_s} s "
                    f"(proxy: {hall.proxy.status()}):\n{hall.broker.log_text()}"
                )
            time.sleep(0.01)

    def stop(self) -> None:
        """Stop every broker and proxy (halls first, so that no bridge retries meanwhile)."""
        for hall in self.halls.values():
            if hall.watch is not None:
                hall.watch.close()
                hall.watch = None
            hall.broker.stop()
            hall.proxy.stop()
        if self.central is not None:
            self.central.stop()

    def __enter__(self) -> BridgedHalls:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def _client(url: str, name: str) -> mqtt.Client:
    host, port = url.removeprefix("mqtt://").rsplit(":", 1)
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"~{name}-{uuid.uuid4().hex[:12]}")
    client.connect(host, int(port), keepalive=10)
    return client


@dataclass
class Tap:
    """A plain MQTT client on one broker: publishes, and notes what it hears with the
    ``time.monotonic_ns()`` of its receipt (comparable with a publish in this process)."""

    url: str
    subscriptions: Sequence[str] = ()
    received: list[tuple[str, bytes, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribed = threading.Event()
        self._client = _client(self.url, "tap")
        self._client.on_message = self._on_message
        self._client.on_subscribe = lambda *_: self._subscribed.set()
        if self.subscriptions:
            self._client.subscribe([(topic, 1) for topic in self.subscriptions])
        else:
            self._subscribed.set()
        self._client.loop_start()
        if not self._subscribed.wait(_START_TIMEOUT_S):
            self.close()
            raise RuntimeError(f"no SUBACK from {self.url} for {list(self.subscriptions)}")

    def _on_message(self, _c: mqtt.Client, _u: object, message: mqtt.MQTTMessage) -> None:
        now_ns = time.monotonic_ns()
        with self._lock:
            self.received.append((message.topic, bytes(message.payload), now_ns))

    def publish(self, topic: str, payload: bytes, qos: int = 1) -> int:
        """Publish and wait for the broker to take it (PUBACK at QoS 1); the send instant."""
        sent_ns = time.monotonic_ns()
        info = self._client.publish(topic, payload, qos=qos)
        info.wait_for_publish(_START_TIMEOUT_S)
        if not info.is_published():
            raise RuntimeError(f"{self.url} did not take the message on {topic}")
        return sent_ns

    def payloads(self, topic: str) -> list[bytes]:
        with self._lock:
            return [payload for got, payload, _ in self.received if got == topic]

    def arrival_ns(self, topic: str, payload: bytes) -> int | None:
        with self._lock:
            return next(
                (at for got, data, at in self.received if got == topic and data == payload),
                None,
            )

    def close(self) -> None:
        self._client.disconnect()  # first: the network thread then ends at once
        self._client.loop_stop()
