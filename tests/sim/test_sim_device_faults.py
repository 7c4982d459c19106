"""The link faults of the virtual devices in-process: a stall keeps the host's bytes in the
pty (on a manual clock, no timing), and one loop (``run_devices``) serves a board and a
clock unit together while the clock unit's cable is pulled and plugged in again."""

from __future__ import annotations

import os
import select
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from support.io_devices import SimThread
from wuzi.link.session import BoardSession, ClockSession, EventSession, LinkEvent, Press
from wuzi.rules.board import parse_point
from wuzi.sim.devices.clock_script import parse_clock_script
from wuzi.sim.devices.runner import monotonic_ms, run_boards, run_devices
from wuzi.sim.devices.script import parse_script
from wuzi.sim.devices.virtual_board import PtyDevice, VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock

LIMIT_S = 20.0


def host_end(path: str) -> serial.Serial:
    port = serial.Serial(path, 115200, timeout=0)
    os.set_blocking(port.fileno(), False)
    return port


def write_until_full(fd: int) -> int:
    taken = 0
    while True:
        try:
            taken += os.write(fd, b"\x00" * 1024)
        except BlockingIOError:
            return taken


def drain(fd: int) -> int:
    """Read what waits in the pty master ``fd`` (the device's side): the byte count."""
    total = 0
    deadline = time.monotonic() + LIMIT_S
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            return total
        total += len(os.read(fd, 65536))
    return total


@pytest.mark.parametrize("make", [lambda: VirtualClock(seed=1), lambda: VirtualBoard(seed=1)])
def test_a_stalled_device_leaves_the_hosts_bytes_in_the_pty(make: Callable[[], PtyDevice]) -> None:
    device = make()
    assert isinstance(device, VirtualClock | VirtualBoard)
    device.open_pty()
    device.boot(1000)
    port = host_end(device.path)
    try:
        device.stall(1000, 500)
        assert device.reading_fd(1000) == -1 and device.reading_fd(1499) == -1
        assert device.next_wake_ms() <= 1500  # the loop selects its fd again in time
        written = write_until_full(port.fileno())
        assert written > 0
        device.on_readable(1200)  # a loop that called it anyway: still nothing read
        assert drain(device.master_fd) == written  # every byte still in the pty
        assert device.reading_fd(1500) == device.fileno() >= 0
        os.write(port.fileno(), b"\x00" * 100)
        assert select.select([device.master_fd], [], [], LIMIT_S)[0]
        device.on_readable(1500)  # the stall is over: it reads
        assert drain(device.master_fd) == 0
    finally:
        port.close()
        device.close()


def test_script_end_counts_the_faults_durations() -> None:
    clock = VirtualClock(seed=1)
    for step in parse_clock_script("100 press black\n200 replug 3000\n"):
        clock.schedule(step, 1000)
    assert clock.script_end_ms() == 1000 + 200 + 3000
    board = VirtualBoard(seed=1)
    for board_step in parse_script("100 place h8 black\n150 stall 2000\n"):
        board.schedule(board_step, 1000)
    assert board.script_end_ms() == 1000 + 150 + 2000


def test_the_runner_is_the_one_the_bench_knows() -> None:
    assert run_boards is run_devices


def pump(
    ends: list[tuple[serial.Serial, EventSession, list[LinkEvent]]],
    done: Callable[[], bool],
    what: str,
) -> None:
    deadline = time.monotonic() + LIMIT_S
    while not done():
        assert time.monotonic() < deadline, f"not seen within {LIMIT_S} s: {what}"
        for port, session, _ in ends:
            out = session.data_to_send()
            if out:
                port.write(out)
        ready, _, _ = select.select([p.fileno() for p, _, _ in ends], [], [], 0.02)
        now = monotonic_ms()
        for port, session, events in ends:
            if port.fileno() in ready:
                try:
                    data = os.read(port.fileno(), 4096)
                except OSError:
                    data = b""
                if data:
                    events += session.receive_data(data, now)
            events += session.poll(now)


def gone(fd: int) -> bool:
    """Whether reading ``fd`` ends (an error or end of file) once what it held is read."""
    deadline = time.monotonic() + LIMIT_S
    while time.monotonic() < deadline:
        try:
            if not os.read(fd, 4096):
                return True
        except BlockingIOError:
            time.sleep(0.01)
        except OSError:
            return True
    return False


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[VirtualBoard, VirtualClock, Path]]:
    board, clock = VirtualBoard(seed=1), VirtualClock(seed=2)
    link = tmp_path / "clock-1"
    clock.link_path = str(link)
    board.open_pty()
    clock.open_pty()
    now = monotonic_ms()
    board.boot(now)
    clock.boot(now)
    yield board, clock, link
    board.close()
    clock.close()


def test_one_loop_serves_a_board_and_a_clock_through_a_replug(
    pair: tuple[VirtualBoard, VirtualClock, Path],
) -> None:
    board, clock, link = pair
    first = clock.path
    assert os.readlink(link) == first
    told: list[str] = []
    clock.on_replug = told.append
    board_port, clock_port = host_end(board.path), host_end(str(link))
    board_session, clock_session = BoardSession(), ClockSession()
    board_events: list[LinkEvent] = []
    clock_events: list[LinkEvent] = []
    for session in (board_session, clock_session):
        session.connection_made(monotonic_ms())
    with SimThread([board, clock]):
        ends = [
            (board_port, board_session, board_events),
            (clock_port, clock_session, clock_events),
        ]
        pump(ends, lambda: None not in (board_session.boot_id, clock_session.boot_id), "both up")
        old_boot = clock_session.boot_id
        clock.at(0, lambda: clock.replug(clock.now_ms, 400))
        pump(ends[:1], lambda: bool(told), "the clock plugged in again")
        # the old pty is gone for good: its reads fail or end
        assert gone(clock_port.fileno())
        clock_port.close()
        assert told == [clock.path] and clock.path != first
        assert os.readlink(link) == clock.path
        # the board went on being served meanwhile; the clock answers on its new pty
        h8 = parse_point("h8")
        board.at(0, lambda: board.set_cell(h8, 1))
        clock_port = host_end(str(link))
        clock_session.connection_made(monotonic_ms())
        ends = [
            (board_port, board_session, board_events),
            (clock_port, clock_session, clock_events),
        ]
        clock.at(0, lambda: clock.press(1, clock.now_ms))
        pump(
            ends,
            lambda: (
                board_session.cells[h8] == 1 and any(isinstance(e, Press) for e in clock_events)
            ),
            "the board's stone and the replugged clock's press",
        )
    assert clock_session.boot_id not in (None, old_boot)  # the pull cut its power
    assert [e.button for e in clock_events if isinstance(e, Press)] == [1]
    board_port.close()
    clock_port.close()
