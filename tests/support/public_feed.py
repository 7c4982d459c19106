"""Shared pieces of the public feed's tests (broadcast, web, bridge): messages as a host
publishes them, a raw recorder of everything a broker delivers, a live publisher."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from support.broker import wait_until
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.identity import throwaway_client_id
from wuzi.bus.schemas import Message, TableEvent, TableState

__all__ = ["Recorder", "live_event", "live_publisher", "live_state", "now_ms"]


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def live_state(
    table: int,
    moves: tuple[int, ...] = (),
    *,
    seq: int | None = None,
    game_id: str = "g-1",
    status: str = "playing",
    result: str | None = None,
    at_ms: int | None = None,
    black: str = "王伟",
    white: str = "Anna Li",
    black_ms: int = 600_000,
    white_ms: int = 600_000,
    board: int | None = None,
    game_in_match: int | None = 1,
) -> TableState:
    """A table's state after ``moves`` (Black to move on an even count)."""
    running = None if status != "playing" else ("black" if len(moves) % 2 == 0 else "white")
    return TableState(
        table=table,
        game_id=game_id,
        seq=len(moves) if seq is None else seq,
        status=status,
        moves=moves,
        black_ms=black_ms,
        white_ms=white_ms,
        running=running,
        result=result,
        at_ms=now_ms() if at_ms is None else at_ms,
        black=black,
        white=white,
        board=board,
        game_in_match=game_in_match,
    )


def live_event(table: int, seq: int, point: int, game_id: str = "g-1") -> TableEvent:
    return TableEvent(
        event_id=f"pi-1/{table}/{game_id}/{seq}",
        table=table,
        game_id=game_id,
        seq=seq,
        kind="move",
        at_ms=now_ms(),
        data={"point": point},
    )


def live_publisher(url: str, venue: str) -> BusClient:
    """A host-like connection (throwaway id) that publishes live messages."""
    client = BusClient(url, throwaway_client_id(venue, "tool"))
    client.connect()
    assert client.wait_connected(10)
    return client


@dataclass
class Recorder:
    """A raw MQTT subscriber: every (topic, payload, arrival wall ms), nothing parsed."""

    url_host: str
    port: int
    topic_filter: str
    got: list[tuple[str, bytes, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="", clean_session=True)
        self.subscribed = threading.Event()
        self.client.on_connect = lambda c, *_: c.subscribe(self.topic_filter, qos=1)
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = self._on_message

    def _on_message(self, _c: object, _u: object, msg: mqtt.MQTTMessage) -> None:
        with self.lock:
            self.got.append((msg.topic, bytes(msg.payload), now_ms()))

    def start(self) -> Recorder:
        self.client.connect(self.url_host, self.port)
        self.client.loop_start()
        assert self.subscribed.wait(10), f"no SUBACK for {self.topic_filter}"
        return self

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()

    def messages(self) -> list[tuple[str, bytes, int]]:
        with self.lock:
            return list(self.got)

    def topics(self) -> set[str]:
        return {topic for topic, _, _ in self.messages()}

    def wait_for(self, topic: str, count: int = 1, timeout_s: float = 10.0) -> None:
        wait_until(
            lambda: sum(1 for t, _, _ in self.messages() if t == topic) >= count,
            timeout_s,
            f"{count} message(s) on {topic}",
        )


def publish_all(client: BusClient, venue: str, messages: list[Message]) -> None:
    """Publish each live message on its topic (state or events by type) and wait for the
    broker's acknowledgements."""
    for message in messages:
        if isinstance(message, TableState):
            client.publish(topics.table_state(venue, message.table), message)
        elif isinstance(message, TableEvent):
            client.publish(topics.table_events(venue, message.table), message)
        else:  # pragma: no cover - a test's mistake
            raise TypeError(type(message).__name__)
    assert client.wait_drained(10)
