"""The timing policy of the delaying proxy, pure: when each chunk of a TCP stream may be
passed on, and what delays were applied.

A real line between two halls adds a one-way delay with jitter, but TCP never delivers the
bytes of one stream out of order. So each chunk gets a delay drawn from
``delay_ms ± jitter_ms`` (uniform, from a seeded generator: a run can be repeated), and
its release instant is never before the previous chunk's (``ChunkSchedule``): a short
delay drawn after a long one waits for it, as a packet waits in a receiver's reorder
buffer. Bandwidth is unbounded: a chunk costs no time for its size.

Every instant is an ``int`` of nanoseconds from one monotonic clock, given by the caller.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

__all__ = ["ChunkSchedule", "DelayHistogram", "DelayStats", "OneWayDelay"]

_NS_PER_MS = 1_000_000


@dataclass(frozen=True)
class OneWayDelay:
    """One direction of a line: ``delay_ms`` on average, each chunk within ``± jitter_ms``."""

    delay_ms: float
    jitter_ms: float = 0.0

    def __post_init__(self) -> None:
        if not self.delay_ms >= 0:  # also refuses NaN
            raise ValueError(f"one-way delay must be >= 0 ms, got {self.delay_ms!r}")
        if not 0 <= self.jitter_ms <= self.delay_ms:
            raise ValueError(
                f"jitter must be between 0 and the delay ({self.delay_ms} ms), "
                f"got {self.jitter_ms!r} ms"
            )

    @classmethod
    def for_round_trip(cls, rtt_ms: float, jitter_ms: float = 0.0) -> OneWayDelay:
        """Half of a round trip each way: ``for_round_trip(150, 15)`` is 75 ms ± 15 ms."""
        return cls(rtt_ms / 2, jitter_ms)

    def draw_ns(self, rng: random.Random) -> int:
        """One chunk's delay, uniform in ``delay_ms ± jitter_ms``."""
        low = self.delay_ms - self.jitter_ms
        high = self.delay_ms + self.jitter_ms
        return round(rng.uniform(low, high) * _NS_PER_MS)


@dataclass
class ChunkSchedule:
    """The release instants of one direction of one connection, in arrival order.

    ``release_ns(arrival_ns)`` is ``arrival + drawn delay``, or the previous release if
    that is later: the stream's order is kept whatever the jitter draws."""

    delay: OneWayDelay
    rng: random.Random
    _last_release_ns: int | None = None

    def release_ns(self, arrival_ns: int) -> int:
        due = arrival_ns + self.delay.draw_ns(self.rng)
        if self._last_release_ns is not None and due < self._last_release_ns:
            due = self._last_release_ns
        self._last_release_ns = due
        return due


@dataclass(frozen=True)
class DelayStats:
    """What one direction's histogram says: ``count`` chunks, their delays in ms."""

    count: int
    median_ms: float
    p99_ms: float
    min_ms: float
    max_ms: float


@dataclass
class DelayHistogram:
    """The delays a direction actually applied (passed-on instant minus arrival), in ms.

    Keeps every sample up to ``limit`` (then only the newest ``limit``): a bench run is
    thousands of chunks, not millions. ``held`` counts chunks that a blackhole held and
    so are not in the samples (their delay is the cut's length, not the line's)."""

    limit: int = 100_000
    samples_ms: list[float] = field(default_factory=list)
    held: int = 0

    def add(self, arrival_ns: int, sent_ns: int) -> None:
        if sent_ns < arrival_ns:
            raise ValueError(f"a chunk sent at {sent_ns} ns before it arrived at {arrival_ns} ns")
        self.samples_ms.append((sent_ns - arrival_ns) / _NS_PER_MS)
        if len(self.samples_ms) > self.limit:
            del self.samples_ms[: len(self.samples_ms) - self.limit]

    def add_held(self) -> None:
        self.held += 1

    def stats(self) -> DelayStats | None:
        """None before any chunk was passed on."""
        if not self.samples_ms:
            return None
        ordered = sorted(self.samples_ms)
        return DelayStats(
            count=len(ordered),
            median_ms=_quantile(ordered, 0.5),
            p99_ms=_quantile(ordered, 0.99),
            min_ms=ordered[0],
            max_ms=ordered[-1],
        )


def _quantile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile of sorted samples, interpolated between the two nearest."""
    position = q * (len(ordered) - 1)
    below = int(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)
