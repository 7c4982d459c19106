"""Run virtual devices in real time: one loop, many ptys (the bench serves 32 boards this
way; the demo serves every table's board and clock unit together)."""

from __future__ import annotations

import select
import time
from collections.abc import Callable, Sequence
from typing import Protocol

__all__ = ["ServedDevice", "monotonic_ms", "run_boards", "run_devices"]


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


class ServedDevice(Protocol):
    """What the loop needs of a device (``VirtualBoard``, ``VirtualClock``)."""

    def tick(self, now_ms: int) -> None: ...

    def next_wake_ms(self) -> int: ...

    def reading_fd(self, now_ms: int) -> int: ...

    def on_readable(self, now_ms: int) -> None: ...


def run_devices(
    devices: Sequence[ServedDevice],
    *,
    until_ms: int | None = None,
    stop: Callable[[], bool] | None = None,
    clock: Callable[[], int] = monotonic_ms,
    on_tick: Callable[[int], object] | None = None,
) -> None:
    """Serve ``devices`` until ``clock() >= until_ms`` or ``stop()`` says so (None: forever).

    Each turn asks every device for its fd anew (``reading_fd``): a replugged device has
    a new pty, a pulled or stalled one none to read (its bytes stay in the pty)."""
    while True:
        now = clock()
        if until_ms is not None and now >= until_ms:
            return
        if stop is not None and stop():
            return
        if on_tick is not None:
            on_tick(now)
        for d in devices:
            d.tick(now)
        by_fd: dict[int, ServedDevice] = {}
        for d in devices:
            fd = d.reading_fd(now)
            if fd >= 0:
                by_fd[fd] = d
        wake = min((d.next_wake_ms() for d in devices), default=now + 50)
        if until_ms is not None:
            wake = min(wake, until_ms)
        if clock is monotonic_ms:  # to the wake's very millisecond (an MCU polls, never late)
            timeout = max(0.0, (wake * 1_000_000 - time.monotonic_ns()) / 1e9)
        else:
            timeout = max(0, wake - clock()) / 1000.0
        ready, _, _ = select.select(list(by_fd), [], [], min(timeout, 0.05))
        now = clock()
        for fd in ready:
            by_fd[fd].on_readable(now)


run_boards = run_devices  # the name the bench and the tests know
