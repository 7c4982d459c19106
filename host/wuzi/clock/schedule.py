"""A timer list for many clocks: when each one next needs attention, earliest first.

A host that runs many tables keeps one ``Scheduler``: after anything happens at a table it
sets that table's due instant (the clock's next visible change or flag), then sleeps until
``next_due_ns()`` and handles what ``pop_due(now_ns)`` returns. Setting a key again replaces its
instant (the old heap entry is skipped when it surfaces), so a press costs one heap push.
Pure: instants are given, never read.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["Scheduler"]

K = TypeVar("K", bound=Hashable)


class Scheduler(Generic[K]):
    """Due instants by key (a heap with lazy deletion)."""

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, K]] = []
        self._due: dict[K, tuple[int, int]] = {}
        self._sequence = 0

    def __len__(self) -> int:
        return len(self._due)

    def __contains__(self, key: object) -> bool:
        return key in self._due

    def due_ns(self, key: K) -> int | None:
        entry = self._due.get(key)
        return None if entry is None else entry[0]

    def set(self, key: K, due_ns: int | None) -> None:
        """``key`` is due at ``due_ns`` (None: not due at all any more)."""
        if due_ns is None:
            self._due.pop(key, None)
            return
        if isinstance(due_ns, bool) or not isinstance(due_ns, int):
            raise TypeError(f"a due instant is an integer number of ns, not {due_ns!r}")
        self._sequence += 1
        self._due[key] = (due_ns, self._sequence)
        heapq.heappush(self._heap, (due_ns, self._sequence, key))
        if len(self._heap) > 64 and len(self._heap) > 4 * len(self._due):
            self._compact()

    def next_due_ns(self) -> int | None:
        """The earliest due instant, or None when nothing is due."""
        self._drop_stale()
        return self._heap[0][0] if self._heap else None

    def pop_due(self, now_ns: int) -> list[tuple[int, K]]:
        """Every key due at or before ``now_ns`` with its due instant, earliest first; they
        are no longer due (the instants let a host measure how late it is)."""
        out: list[tuple[int, K]] = []
        while True:
            self._drop_stale()
            if not self._heap or self._heap[0][0] > now_ns:
                return out
            due, _, key = heapq.heappop(self._heap)
            del self._due[key]
            out.append((due, key))

    def _drop_stale(self) -> None:
        heap = self._heap
        while heap:
            due, sequence, key = heap[0]
            if self._due.get(key) == (due, sequence):
                return
            heapq.heappop(heap)

    def _compact(self) -> None:
        self._heap = [(due, seq, key) for key, (due, seq) in self._due.items()]
        heapq.heapify(self._heap)
