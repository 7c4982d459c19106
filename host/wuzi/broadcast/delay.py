"""The public feed's delay: live table messages in, the same messages N minutes later out.

Pure (the h11 style of the pure cores): no I/O and no clock — time comes in as wall-clock
milliseconds (``received_ms``, ``now_ms``). `wuzi.broadcast.service` is the thin shell
that feeds it from the bus, journals what it holds and publishes what falls due.

**What goes in.** Only the live ``table/<n>/state`` and ``table/<n>/events`` of one venue;
anything else — above all anything under ``arbiter/`` — is refused with a `DelayError`, so
a wiring mistake in the shell cannot put referee-only content on the public feed.

**What comes out.** The same message on ``public/table/<n>/state`` (retained) or
``public/table/<n>/events``, schema and content unchanged except ``at_ms``, which is moved
forward by the delay: the public feed reads as a live feed that happens N minutes later,
so a reader that counts a running clock down from ``at_ms`` (docs/bus.md) counts it right.
A cleared retained state (an empty payload) is cleared on the public topic too.

**When.** A message received at ``received_ms`` is due at ``received_ms + delay_ms`` — by
the broadcast's own clock, never the host's ``at_ms``: a host whose clock is behind could
otherwise have its moves shown early. Due times never decrease (a message is never
released ahead of one received before it), so a backward step of the wall clock delays
the feed a little more, never less. Nothing is ever released before it is due.

**Repeats.** The broker delivers a retained state again at every (re)subscribe, and a
persistent session may hand over queued messages after the newer retained one; both are
dropped here: a state equal to the last one taken for its table, a state older than it
(`wuzi.bus.newest.supersedes`: of the same game a lower ``seq``, or the same ``seq`` and an
earlier ``at_ms``; of another game an earlier ``at_ms``), an event whose game ``seq`` is
not past the last event taken for its table. `remembered` is what the
journal keeps of this, so the judgement survives a restart.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from wuzi.bus import topics
from wuzi.bus.newest import supersedes
from wuzi.bus.schemas import MAX_STAMP_MS, Cleared, Message, TableEvent, TableState
from wuzi.bus.topics import TopicError, TopicKind, parse_topic

__all__ = ["DelayError", "Held", "PublicDelay", "public_copy"]

PublicMessage = TableState | TableEvent | Cleared


class DelayError(ValueError):
    """A message the public feed must not carry (says which topic and why), or a bad delay."""


@dataclass(frozen=True)
class Held:
    """One message waiting for its time: ``key`` orders it (the journal's row id),
    ``topic`` and ``message`` are the *live* ones as received, ``due_ms`` wall-clock ms."""

    key: int
    topic: str
    message: PublicMessage
    due_ms: int


def public_copy(topic: str, message: PublicMessage, delay_ms: int) -> tuple[str, PublicMessage]:
    """The public topic and message for live ``topic``/``message`` (module doc)."""
    where = _live(topic)
    assert where.table is not None
    if where.kind is TopicKind.TABLE_STATE:
        public_topic = topics.public_state(where.venue, where.table)
    else:
        public_topic = topics.public_events(where.venue, where.table)
    if isinstance(message, Cleared):
        return public_topic, Cleared(public_topic)
    at_ms = min(message.at_ms + delay_ms, MAX_STAMP_MS)
    return public_topic, dataclasses.replace(message, at_ms=at_ms)


def _live(topic: str) -> topics.Topic:
    try:
        where = parse_topic(topic)
    except TopicError as exc:
        raise DelayError(str(exc)) from None
    if where.kind not in (TopicKind.TABLE_STATE, TopicKind.TABLE_EVENTS):
        raise DelayError(
            f"{topic!r} is not a live table state or events topic: the public feed carries "
            "table/<n>/state and table/<n>/events only (never arbiter/)"
        )
    return where


class PublicDelay:
    """The delay buffer of one venue's public feed (see the module doc)."""

    def __init__(self, venue: str, delay_ms: int) -> None:
        if isinstance(delay_ms, bool) or not isinstance(delay_ms, int) or delay_ms < 0:
            raise DelayError(f"the delay must be a whole number of ms >= 0, not {delay_ms!r}")
        topics.check_name("venue", venue)
        self.venue = venue
        self.delay_ms = delay_ms
        self._held: deque[Held] = deque()
        self._next_key = 1
        self._last_due = 0
        self._states: dict[int, TableState | Cleared] = {}  # last state taken, by table
        self._events: dict[int, TableEvent] = {}  # last event taken, by table

    def __len__(self) -> int:
        return len(self._held)

    def restore(self, held: Iterable[Held], remembered: Iterable[tuple[str, Message]]) -> None:
        """Take back what the journal kept: the held messages (in key order) and the last
        state and event taken per table. Call once, before `accept`."""
        for topic, message in remembered:
            self._remember(topic, message)
        for item in sorted(held, key=lambda h: h.key):
            self._check(item.topic, item.message)
            self._held.append(item)
            self._next_key = max(self._next_key, item.key + 1)
            self._last_due = max(self._last_due, item.due_ms)

    def accept(self, topic: str, message: Message, received_ms: int) -> Held | None:
        """Hold ``message`` (live ``topic``) received at ``received_ms``; None when it is a
        repeat or older than what was taken already. `DelayError` for anything that is not
        a live table state or event."""
        where = self._check(topic, message)
        assert where.table is not None
        if not self._is_new(where.table, message):
            return None
        assert isinstance(message, TableState | TableEvent | Cleared)
        due_ms = max(received_ms + self.delay_ms, self._last_due)
        item = Held(self._next_key, topic, message, due_ms)
        self._next_key += 1
        self._last_due = due_ms
        self._remember(topic, message)
        self._held.append(item)
        return item

    def due(self, now_ms: int) -> list[Held]:
        """The held messages due at ``now_ms``, oldest first, taken out of the buffer."""
        out: list[Held] = []
        while self._held and self._held[0].due_ms <= now_ms:
            out.append(self._held.popleft())
        return out

    def next_due_ms(self) -> int | None:
        """When the oldest held message is due, or None with nothing held."""
        return self._held[0].due_ms if self._held else None

    def remembered(self, table: int) -> list[tuple[str, Message]]:
        """The last state and event taken for ``table`` (live topics), for the journal."""
        out: list[tuple[str, Message]] = []
        state = self._states.get(table)
        if state is not None:
            out.append((topics.table_state(self.venue, table), state))
        event = self._events.get(table)
        if event is not None:
            out.append((topics.table_events(self.venue, table), event))
        return out

    # --- inside ------------------------------------------------------------------------

    def _check(self, topic: str, message: Message) -> topics.Topic:
        where = _live(topic)
        if where.venue != self.venue:
            raise DelayError(f"{topic!r} is not of venue {self.venue!r}")
        wanted = TableState if where.kind is TopicKind.TABLE_STATE else TableEvent
        if not isinstance(message, wanted | Cleared) or (
            isinstance(message, Cleared) and wanted is TableEvent
        ):
            raise DelayError(f"{topic!r}: a {type(message).__name__} does not go on this topic")
        return where

    def _remember(self, topic: str, message: Message) -> None:
        where = self._check(topic, message)
        assert where.table is not None
        if isinstance(message, TableEvent):
            self._events[where.table] = message
        elif isinstance(message, TableState | Cleared):
            self._states[where.table] = message

    def _is_new(self, table: int, message: Message) -> bool:
        if isinstance(message, TableEvent):
            last_event = self._events.get(table)
            return not (
                last_event is not None
                and last_event.game_id == message.game_id
                and message.seq <= last_event.seq
            )
        last = self._states.get(table)
        if last is None:
            return True
        if isinstance(message, Cleared):
            return not isinstance(last, Cleared)
        if not isinstance(message, TableState) or not isinstance(last, TableState):
            return True
        return message != last and supersedes(message, last)
