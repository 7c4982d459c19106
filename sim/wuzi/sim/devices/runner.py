"""Run virtual boards in real time: one loop, many ptys (the bench serves 32 boards this way)."""

from __future__ import annotations

import select
import time
from collections.abc import Callable, Sequence

from wuzi.sim.devices.virtual_board import VirtualBoard


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def run_boards(
    boards: Sequence[VirtualBoard],
    *,
    until_ms: int | None = None,
    stop: Callable[[], bool] | None = None,
    clock: Callable[[], int] = monotonic_ms,
    on_tick: Callable[[int], object] | None = None,
) -> None:
    """Serve ``boards`` until ``clock() >= until_ms`` or ``stop()`` says so (None: forever)."""
    while True:
        now = clock()
        if until_ms is not None and now >= until_ms:
            return
        if stop is not None and stop():
            return
        if on_tick is not None:
            on_tick(now)
        for b in boards:
            b.tick(now)
        by_fd = {b.fileno(): b for b in boards if b.fileno() >= 0}  # unplugged ones have none
        wake = min(b.next_wake_ms() for b in boards)
        if until_ms is not None:
            wake = min(wake, until_ms)
        timeout = max(0, wake - clock()) / 1000.0
        ready, _, _ = select.select(list(by_fd), [], [], min(timeout, 0.05))
        now = clock()
        for fd in ready:
            by_fd[fd].on_readable(now)
