"""The screens' MQTT feed: bus messages into a queue that the pyglet loop drains.

paho delivers on its own network thread; pyglet must only be touched from its loop. So a
`BusFeed` does nothing on the network thread but stamp each valid message with the local
monotonic receive time and put it in a thread-safe queue; the app drains it from a
pyglet scheduler callback (a few times a second is plenty) and folds the items into its
pure view model. Malformed messages are dropped by `wuzi.bus.client.BusClient` (counted
in ``rejected``) and never reach the queue.

API (stable; used by the scoreboard, the clock display and the arbiter view)::

    feed = BusFeed("mqtt://broker:1883", venue=None, filters=("table/+/state",))
    feed.start()                      # connects in the background, reconnects by itself
    for item in feed.drain():         # FeedItem(topic, message, received_ms), oldest first
        ...
    feed.waiting()                    # items are queued (cheap; e.g. from a 10 Hz poll)
    feed.venue                        # the venue: given, or discovered from the first message
    feed.connected                    # the broker link is up now
    feed.publish(topic, message)      # e.g. the arbiter view's signed commands
    feed.close()

``filters`` are topic filters *below* ``wuzi/v1/<venue>/`` (``"table/+/state"``,
``"host/+/status"``, ``"competition/state"``). With ``venue=None`` the feed subscribes with
``+`` in the venue level and keeps the venue of the first message it gets; messages of
other venues are then dropped (counted in ``foreign``). Filters under ``arbiter/`` are
refused unless ``referee=True``: a hall screen must never read referee-only topics.

``received_ms`` is ``time.monotonic_ns() // 10**6`` at arrival, the base a screen
extrapolates a running clock from (a host's wall clock may be skewed against the screen's;
``at_ms`` only orders states). ``wakeup`` (optional) is called on the network thread after
each item is queued — e.g. to nudge an event loop; keep it trivial.
"""

from __future__ import annotations

import itertools
import os
import queue
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from wuzi.bus.client import BusClient
from wuzi.bus.schemas import Message, MessageError
from wuzi.bus.topics import PROTOCOL, ROOT, check_name, parse_topic
from wuzi.bus.url import BusConfigError

__all__ = ["BusFeed", "FeedItem", "monotonic_ms"]

_counter = itertools.count(1)


def monotonic_ms() -> int:
    """The screens' local time base: monotonic milliseconds."""
    return time.monotonic_ns() // 1_000_000


class FeedItem(NamedTuple):
    """One valid message as received: topic, parsed message, local monotonic ms."""

    topic: str
    message: Message
    received_ms: int


class BusFeed:
    """A subscriber connection whose messages are read from a queue (see the module doc)."""

    def __init__(
        self,
        broker_url: str,
        venue: str | None,
        filters: Sequence[str],
        *,
        client_id: str | None = None,
        referee: bool = False,
        username: str | None = None,
        password: str | None = None,
        ca_file: str | None = None,
        wakeup: Callable[[], None] | None = None,
        max_items: int = 100_000,
    ) -> None:
        if venue is not None:
            check_name("venue", venue)
        if not filters:
            raise BusConfigError("a feed needs at least one topic filter")
        for topic_filter in filters:
            if not topic_filter or topic_filter.startswith("/") or "#" in topic_filter[:-1]:
                raise BusConfigError(
                    f"topic filter {topic_filter!r} is not a filter below the venue"
                )
            if topic_filter.split("/")[0] == "arbiter" and not referee:
                raise BusConfigError(
                    f"topic filter {topic_filter!r} is referee-only: a hall screen must not "
                    "subscribe to arbiter/ topics"
                )
        self._filters = tuple(filters)
        self._venue = venue
        self._lock = threading.Lock()
        self._queue: queue.Queue[FeedItem] = queue.Queue(maxsize=max_items)
        self._wakeup = wakeup
        self.rejected = 0
        self.foreign = 0
        self.overflowed = 0
        name = client_id or f"wuzi-screen-{socket.gethostname()}-{os.getpid()}-{next(_counter)}"
        self._client = BusClient(
            broker_url,
            name[:128],
            username=username,
            password=password,
            ca_file=ca_file,
            on_rejected=self._rejected,
        )
        self._started = False

    @property
    def venue(self) -> str | None:
        with self._lock:
            return self._venue

    @property
    def connected(self) -> bool:
        return self._client.connected

    def start(self) -> None:
        """Subscribe and start the network thread (returns at once)."""
        if self._started:
            return
        self._started = True
        level = self._venue if self._venue is not None else "+"
        for topic_filter in self._filters:
            self._client.subscribe(f"{ROOT}/{PROTOCOL}/{level}/{topic_filter}", self._handle)
        self._client.connect()

    def wait_subscribed(self, timeout_s: float) -> bool:
        """Wait until the broker acknowledged the subscriptions (tests, the bench)."""
        return self._client.wait_subscribed(timeout_s)

    def drain(self, limit: int | None = None) -> list[FeedItem]:
        """The items received since the last call (at most ``limit``), oldest first."""
        items: list[FeedItem] = []
        while limit is None or len(items) < limit:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return items

    def waiting(self) -> bool:
        """True if items are queued (a cheap check before `drain`)."""
        return not self._queue.empty()

    def publish(self, topic: str, message: Message) -> None:
        """Publish on the feed's connection (QoS 1, in order; see `BusClient.publish`)."""
        self._client.publish(topic, message)

    def close(self) -> None:
        self._client.close()

    # network thread

    def _handle(self, topic: str, message: Message) -> None:
        venue = parse_topic(topic).venue  # BusClient parsed it already: it is valid
        with self._lock:
            if self._venue is None:
                self._venue = venue
            elif venue != self._venue:
                self.foreign += 1
                return
        try:
            self._queue.put_nowait(FeedItem(topic, message, monotonic_ms()))
        except queue.Full:  # the loop has stopped draining: drop and count, never block paho
            self.overflowed += 1
            return
        if self._wakeup is not None:
            self._wakeup()

    def _rejected(self, _topic: str, _error: MessageError) -> None:
        self.rejected += 1
