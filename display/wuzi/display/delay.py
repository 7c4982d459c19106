"""The public screens' delay: messages come out N minutes after they went in.

A spectator screen that runs live can help a player (a friend reads the board on the
wall and signals); so a hall screen may run behind play. `DelayBuffer` holds every
`FeedItem` and releases it once ``delay_ms`` has passed since it was received, with its
``received_ms`` moved forward by the delay — the released state then extrapolates its
running clock from the moment it is *shown*, exactly as it ticked at that point of the
game. Everything is delayed alike (states, host status, the competition), so what the
screen shows is the venue as it was ``delay_ms`` ago, consistent in itself.

A screen started with a delay shows nothing for the first ``delay_ms``: the retained
messages it gets at start are the live position, which is what it must not show yet.

Pure: time comes in as ``now_ms`` (the screen's monotonic milliseconds).
"""

from __future__ import annotations

from collections import deque

from wuzi.display.feed import FeedItem

__all__ = ["MAX_DELAY_MINUTES", "DelayBuffer", "DelayError"]

MAX_DELAY_MINUTES = 240


class DelayError(ValueError):
    """A delay that cannot be used (negative, or longer than MAX_DELAY_MINUTES)."""


class DelayBuffer:
    """A first-in first-out hold of ``delay_ms`` on feed items (0: pass straight through)."""

    def __init__(self, delay_ms: int) -> None:
        if isinstance(delay_ms, bool) or not isinstance(delay_ms, int) or delay_ms < 0:
            raise DelayError(f"delay must be a whole number of ms >= 0, not {delay_ms!r}")
        if delay_ms > MAX_DELAY_MINUTES * 60_000:
            raise DelayError(
                f"delay of {delay_ms / 60_000:g} minutes is longer than {MAX_DELAY_MINUTES}"
            )
        self.delay_ms = delay_ms
        self._held: deque[FeedItem] = deque()
        self._started_ms: int | None = None

    @classmethod
    def minutes(cls, minutes: float) -> DelayBuffer:
        if not isinstance(minutes, int | float) or not 0 <= minutes <= MAX_DELAY_MINUTES:
            raise DelayError(f"delay must be 0-{MAX_DELAY_MINUTES} minutes, not {minutes!r}")
        return cls(round(minutes * 60_000))

    def __len__(self) -> int:
        return len(self._held)

    def push(self, item: FeedItem) -> None:
        """Hold ``item``. Items must come in receive order; one with an earlier
        ``received_ms`` than the last is held as if received with the last (never
        released ahead of what came before it)."""
        if self._started_ms is None:
            self._started_ms = item.received_ms
        if self._held and item.received_ms < self._held[-1].received_ms:
            item = item._replace(received_ms=self._held[-1].received_ms)
        self._held.append(item)

    def start(self, now_ms: int) -> None:
        """Note when the screen started (for `warming_up`), if before the first item."""
        if self._started_ms is None:
            self._started_ms = now_ms

    def release(self, now_ms: int) -> list[FeedItem]:
        """The items due at ``now_ms``, oldest first, their ``received_ms`` + delay."""
        out: list[FeedItem] = []
        while self._held and self._held[0].received_ms + self.delay_ms <= now_ms:
            item = self._held.popleft()
            out.append(item._replace(received_ms=item.received_ms + self.delay_ms))
        return out

    def next_release_ms(self) -> int | None:
        """When the oldest held item is due, or None with nothing held."""
        if not self._held:
            return None
        return self._held[0].received_ms + self.delay_ms

    def warming_up(self, now_ms: int) -> bool:
        """True during the first ``delay_ms`` after the start: nothing can be shown yet."""
        if self.delay_ms == 0 or self._started_ms is None:
            return False
        return now_ms < self._started_ms + self.delay_ms
