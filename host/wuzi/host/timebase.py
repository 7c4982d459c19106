"""The host's time base: monotonic, in nanoseconds, and continuous across restarts.

``time.monotonic_ns`` restarts from an arbitrary value after a reboot, but the journal's
instants must never go backwards (a table session refuses an input earlier than the last
one). So the host's time is ``monotonic_ns() - mono_at_start + resume_ns``, where
``resume_ns`` is just after the last instant the journal knew the host alive: the outage
itself takes no time on this base, which is exactly "charged to nobody" for the clocks.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["HostTime"]

RESUME_GAP_NS = 1_000_000  # 1 ms after the last known instant


class HostTime:
    """Now, on the host's continuous base; ``source`` is injectable for tests."""

    def __init__(self, resume_ns: int = 0, source: Callable[[], int] = time.monotonic_ns) -> None:
        if resume_ns < 0:
            raise ValueError(f"resume_ns must not be negative, not {resume_ns}")
        self._source = source
        self._offset = resume_ns - source()

    @classmethod
    def after(
        cls, last_known_ns: int | None, source: Callable[[], int] = time.monotonic_ns
    ) -> HostTime:
        """A time base that starts just after ``last_known_ns`` (None: a new journal)."""
        return cls(0 if last_known_ns is None else last_known_ns + RESUME_GAP_NS, source)

    def now_ns(self) -> int:
        return self._source() + self._offset

    def now_ms(self) -> int:
        return self.now_ns() // 1_000_000
