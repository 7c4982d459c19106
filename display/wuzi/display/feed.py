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

Sessions and client ids (`wuzi.bus.identity`): a feed with ``name`` and a known venue
connects as ``wuzi.<venue>.<screen|referee>.<name>`` — stable, so give each screen its own
name (the CLIs use ``<kind>-<machine>``, or ``--screen-name``) — and with
``persistent=True`` (the default when named) the broker keeps its session: while the screen
is away, or the broker restarts, the QoS 1 messages for it (a referee's alerts) are queued
and delivered when it is back. Without a name (or a venue) the feed is a throwaway:
clean session, random id that no real process can have.

Gaps: every public ``TableEvent`` and ``TableState`` passes through a
`wuzi.bus.gaps.GapTracker`. An event past a gap is logged with its table, game and
numbers, the feed asks the broker for the retained states again (it resubscribes its
state filters), and a state covering the gap fills it; ``open_gaps()`` lists the gaps not
filled yet, for a screen to show.

``received_ms`` is ``time.monotonic_ns() // 10**6`` at arrival, the base a screen
extrapolates a running clock from (a host's wall clock may be skewed against the screen's;
``at_ms`` only orders states). ``wakeup`` (optional) is called on the network thread after
each item is queued — e.g. to nudge an event loop; keep it trivial.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import NamedTuple

from wuzi.bus.client import BusClient
from wuzi.bus.gaps import Gap, GapTracker
from wuzi.bus.identity import client_id, throwaway_client_id
from wuzi.bus.schemas import Message, MessageError, TableEvent, TableState
from wuzi.bus.topics import PROTOCOL, ROOT, TopicKind, check_name, parse_topic
from wuzi.bus.url import BusConfigError

__all__ = ["BusFeed", "FeedItem", "monotonic_ms"]

log = logging.getLogger("wuzi.display.feed")

_EVENT_KINDS = frozenset({TopicKind.TABLE_EVENTS, TopicKind.PUBLIC_EVENTS})
_STATE_KINDS = frozenset({TopicKind.TABLE_STATE, TopicKind.PUBLIC_STATE})


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
        name: str | None = None,
        persistent: bool | None = None,
        referee: bool = False,
        username: str | None = None,
        password: str | None = None,
        login_source: str | None = None,
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
        self._venue_level = venue if venue is not None else "+"
        self._lock = threading.Lock()
        self._queue: queue.Queue[FeedItem] = queue.Queue(maxsize=max_items)
        self._wakeup = wakeup
        self.rejected = 0
        self.foreign = 0
        self.overflowed = 0
        role = "referee" if referee else "screen"
        if persistent is None:
            persistent = name is not None and venue is not None
        if name is not None and venue is None:
            raise BusConfigError(
                f"screen name {name!r} needs the venue: a stable client id is per venue"
            )
        if persistent and name is None:
            raise BusConfigError("a persistent session needs a stable screen name")
        self.persistent = persistent
        self.client_id = (
            client_id(venue, role, name)
            if name is not None and venue is not None
            else throwaway_client_id(venue, role)
        )
        self._gaps = GapTracker()
        self._client = BusClient(
            broker_url,
            self.client_id,
            username=username,
            password=password,
            login_source=login_source,
            ca_file=ca_file,
            on_rejected=self._rejected,
            persistent_session=persistent,
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
        for topic_filter in self._full_filters():
            self._client.subscribe(topic_filter, self._handle)
        self._client.connect()

    def _full_filters(self) -> list[str]:
        level = self._venue_level
        return [f"{ROOT}/{PROTOCOL}/{level}/{f}" for f in self._filters]

    def open_gaps(self) -> list[Gap]:
        """Public events missed and not (yet) covered by a retained state, oldest first."""
        with self._lock:
            return self._gaps.open_gaps()

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
        parsed = parse_topic(topic)  # BusClient parsed it already: it is valid
        venue = parsed.venue
        with self._lock:
            if self._venue is None:
                self._venue = venue
            elif venue != self._venue:
                self.foreign += 1
                return
        self._track(parsed.kind, message)
        try:
            self._queue.put_nowait(FeedItem(topic, message, monotonic_ms()))
        except queue.Full:  # the loop has stopped draining: drop and count, never block paho
            self.overflowed += 1
            return
        if self._wakeup is not None:
            self._wakeup()

    def _track(self, kind: TopicKind, message: Message) -> None:
        """Gap bookkeeping (module doc). Events are queued whatever it says: the models
        fold by number and ignore what they have, so a duplicate costs nothing."""
        filled: list[Gap] = []
        gap: Gap | None = None
        with self._lock:
            if kind in _STATE_KINDS and isinstance(message, TableState):
                filled = self._gaps.on_state(message.table, message.game_id, message.seq)
            elif kind in _EVENT_KINDS and isinstance(message, TableEvent):
                seen = self._gaps.on_event(
                    message.table, message.game_id, message.seq, monotonic_ms()
                )
                gap = seen.gap
        for done in filled:
            log.info("%s: filled from the retained table state", done)
        if gap is not None:
            log.warning("%s: asking the broker for the retained states again", gap)
            for topic_filter, plain in zip(self._full_filters(), self._filters, strict=True):
                if plain.endswith("/state") or plain.endswith("#"):
                    self._client.resubscribe(topic_filter)

    def _rejected(self, _topic: str, _error: MessageError) -> None:
        self.rejected += 1
