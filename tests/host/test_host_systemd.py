"""The sd_notify client against a real datagram socket standing in for systemd."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from wuzi.host.systemd import Notifier
from wuzi.host.timebase import HostTime


def test_outside_systemd_every_call_is_a_no_op() -> None:
    notifier = Notifier.from_environment({})
    assert not notifier.enabled
    assert notifier.ready() is False
    assert notifier.watchdog() is False
    assert notifier.watchdog_interval_ns() is None


def test_ready_status_and_watchdog_reach_the_socket(tmp_path: Path) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(str(path))
        notifier = Notifier.from_environment(
            {
                "NOTIFY_SOCKET": str(path),
                "WATCHDOG_USEC": "10000000",
                "WATCHDOG_PID": str(os.getpid()),
            }
        )
        assert notifier.watchdog_interval_ns() == 5_000_000_000
        assert notifier.ready("serving 2 tables")
        assert systemd.recv(1024) == b"READY=1\nSTATUS=serving 2 tables"
        assert notifier.watchdog()
        assert systemd.recv(1024) == b"WATCHDOG=1"
        assert notifier.stopping()
        assert systemd.recv(1024) == b"STOPPING=1"
        notifier.close()


def test_watchdog_of_another_process_is_not_ours() -> None:
    notifier = Notifier.from_environment(
        {"NOTIFY_SOCKET": "/nonexistent", "WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"}
    )
    assert notifier.watchdog_interval_ns() is None
    assert notifier.ready() is False  # the socket does not exist: never an exception


def test_host_time_continues_after_the_last_known_instant() -> None:
    ticks = iter([5_000, 5_000, 7_500])
    clock = HostTime.after(2_000_000_000, source=lambda: next(ticks))
    assert clock.now_ns() == 2_001_000_000
    assert clock.now_ns() == 2_001_002_500
    fresh = HostTime.after(None, source=lambda: 42)
    assert fresh.now_ns() == 0
