"""In-order acknowledgement tracking for at-least-once publishing (pure; no I/O).

The table host journals an event, then hands it to the bus; only when the broker has
acknowledged it (PUBACK) may the journal mark it sent. Acknowledgements can arrive for
message ids the publisher has not finished recording yet, and (after a reconnect) for a
later message before an earlier one is re-acknowledged, so this keeps the bookkeeping in
one place: entries are numbered in publish order, and `Outbox.acknowledge` reports sent
keys strictly as a contiguous prefix of that order. A caller that records "sent up to
here" therefore never skips an entry, and after a crash re-publishes everything after
its mark — duplicates, never losses; receivers drop repeats by their event ids.
"""

from __future__ import annotations

from collections import deque


class Outbox:
    """Keys waiting for their PUBACK, in publish order."""

    def __init__(self) -> None:
        self._next = 0  # sequence number of the next entry
        self._entries: deque[tuple[int, str]] = deque()  # (sequence, key), oldest first
        self._acked: set[int] = set()  # acknowledged sequences not yet at the head
        self._by_mid: dict[int, int] = {}  # MQTT message id -> sequence
        self._early: set[int] = set()  # message ids acknowledged before they were recorded

    def add(self, key: str) -> int:
        """Record a new entry at the tail; returns its sequence number."""
        sequence = self._next
        self._next += 1
        self._entries.append((sequence, key))
        return sequence

    def bind(self, sequence: int, mid: int) -> list[str]:
        """Tie ``sequence`` to the MQTT message id it went out with; returns keys now sent."""
        if mid in self._early:
            self._early.discard(mid)
            self._acked.add(sequence)
            return self._pop_sent()
        self._by_mid[mid] = sequence
        return []

    def acknowledge(self, mid: int) -> list[str]:
        """A PUBACK for ``mid`` arrived; returns the keys that are now sent, oldest first."""
        sequence = self._by_mid.pop(mid, None)
        if sequence is None:
            self._early.add(mid)
            return []
        self._acked.add(sequence)
        return self._pop_sent()

    def settle(self, sequence: int) -> list[str]:
        """Count ``sequence`` as acknowledged without sending it (a message superseded
        before it went out); returns the keys that are now sent, oldest first."""
        self._acked.add(sequence)
        return self._pop_sent()

    def _pop_sent(self) -> list[str]:
        sent: list[str] = []
        while self._entries and self._entries[0][0] in self._acked:
            sequence, key = self._entries.popleft()
            self._acked.discard(sequence)
            sent.append(key)
        return sent

    def pending(self) -> list[str]:
        """Keys not yet reported sent, oldest first."""
        return [key for _, key in self._entries]

    def __len__(self) -> int:
        return len(self._entries)
