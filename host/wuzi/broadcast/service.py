"""The broadcast's shell: live table messages from the bus, through the delay, to ``public/``.

One thread of its own (`Broadcast.run`) owns the delay buffer and the SQLite journal; the
bus client's network thread only puts what it hears (a message with its wall-clock
receive time, or a broker acknowledgement) in a queue. The loop sleeps until a message
arrives or the oldest held one falls due, whichever is first.

* **Subscriptions**: ``table/+/state`` and ``table/+/events`` of the venue, nothing else —
  every table that publishes there, whichever host serves it. Nothing of ``arbiter/`` is
  subscribed to, and the core refuses it if it came (`wuzi.broadcast.delay`).
* **Session**: the stable client id ``wuzi.<venue>.broadcast.<id>`` with a persistent
  session, so the broker queues live events for it while it restarts (or the broker
  does); they arrive late and go out late, in order — never early.
* **Publishing**: QoS 1 through `BusClient.publish` (which checks every message against
  its topic once more), keyed by the journal row: the row is deleted only when the
  broker has acknowledged it and everything before it.
* **Time**: wall-clock milliseconds (``time.time_ns``), because due times must survive a
  restart of the process; an injectable ``clock`` for tests.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from wuzi.broadcast.delay import DelayError, PublicDelay, public_copy
from wuzi.broadcast.journal import Journal
from wuzi.bus import topics
from wuzi.bus.client import BusClient
from wuzi.bus.identity import client_id
from wuzi.bus.schemas import Message

__all__ = ["Broadcast", "BroadcastOptions", "wall_ms"]

log = logging.getLogger("wuzi.broadcast")

MAX_SLEEP_S = 1.0


def wall_ms() -> int:
    """Wall-clock Unix milliseconds: the delay buffer's time base."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class BroadcastOptions:
    venue: str
    ident: str
    broker_url: str
    delay_ms: int
    journal: Path
    username: str | None = None
    password: str | None = None
    login_source: str | None = None
    ca_file: str | None = None


class Broadcast:
    """The public feed's publisher for one venue (module doc). `start`, then `run` until
    ``stop`` is set (or call `step` yourself), then `close`."""

    def __init__(self, options: BroadcastOptions, clock: Callable[[], int] = wall_ms) -> None:
        self.options = options
        self._clock = clock
        self.delay = PublicDelay(options.venue, options.delay_ms)
        self.journal = Journal(options.journal, options.venue)
        held = self.journal.held()
        self.delay.restore(held, self.journal.remembered())
        self.restored = len(held)
        self.published = 0
        self.accepted = 0
        self.client_id = client_id(options.venue, "broadcast", options.ident)
        self._inbox: queue.Queue[tuple[str, Message, int] | int] = queue.Queue()
        self.client = BusClient(
            options.broker_url,
            self.client_id,
            username=options.username,
            password=options.password,
            login_source=options.login_source,
            ca_file=options.ca_file,
            persistent_session=True,
            on_sent=self._on_sent,
        )

    def start(self) -> None:
        venue = self.options.venue
        for topic_filter in (topics.all_table_states(venue), topics.all_table_events(venue)):
            self.client.subscribe(topic_filter, self._on_message)
        self.client.connect()
        log.info(
            "broadcast of venue %s: %g minutes behind play, journal %s (%d messages held)",
            venue,
            self.options.delay_ms / 60_000,
            self.options.journal,
            self.restored,
        )

    def run(self, stop: threading.Event) -> None:
        """Step until ``stop`` is set."""
        while not stop.is_set():
            self.step(MAX_SLEEP_S)

    def step(self, max_wait_s: float) -> None:
        """Wait for a message or the next due time (at most ``max_wait_s``), take in what
        arrived, publish what is due."""
        now = self._clock()
        due = self.delay.next_due_ms()
        wait_s = max_wait_s if due is None else min(max_wait_s, max(0.0, (due - now) / 1000))
        try:
            first = self._inbox.get(timeout=wait_s) if wait_s > 0 else self._inbox.get_nowait()
        except queue.Empty:
            first = None
        sent: list[int] = []
        item = first
        while item is not None:
            if isinstance(item, int):
                sent.append(item)
            else:
                self._take(*item)
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                item = None
        if sent:
            self.journal.sent(sent)
        for held in self.delay.due(self._clock()):
            topic, message = public_copy(held.topic, held.message, self.delay.delay_ms)
            self.client.publish(topic, message, key=str(held.key))
            self.published += 1

    def close(self, drain_s: float = 3.0) -> None:
        """Wait a little for the broker's acknowledgements, then disconnect. What it did
        not acknowledge stays in the journal and goes out again after the next start."""
        self.client.wait_drained(drain_s)
        self.client.close()
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, int):
                self.journal.sent([item])
        self.journal.close()

    # --- inside ------------------------------------------------------------------------

    def _take(self, topic: str, message: Message, received_ms: int) -> None:
        try:
            held = self.delay.accept(topic, message, received_ms)
        except DelayError as exc:
            log.error("not republished: %s", exc)
            return
        if held is None:
            return
        table = topics.parse_topic(topic).table
        assert table is not None
        self.journal.add(held, self.delay.remembered(table))
        self.accepted += 1

    # network thread: hand over, nothing more

    def _on_message(self, topic: str, message: Message) -> None:
        self._inbox.put((topic, message, self._clock()))

    def _on_sent(self, key: str) -> None:
        self._inbox.put(int(key))
