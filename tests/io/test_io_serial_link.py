"""pyserial drivers over real ptys: exclusive open, unplug and replug with back-off, health."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from support.io_devices import SimThread
from wuzi.io.serial_link import Backoff, BoardDriver, ClockDriver, LinkLoop, open_exclusive
from wuzi.link.reconciler import StoneEvent
from wuzi.link.session import Press
from wuzi.rules.board import parse_point
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock


def pump(
    loop: LinkLoop, until: Callable[[list[object]], bool], limit_s: float = 10.0
) -> list[object]:
    """Run the host loop (select-driven, no sleeping) until ``until(events)`` or the limit."""
    events: list[object] = []
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline and not until(events):
        loop.run_once(lambda drv, ev: events.append(ev), max_wait_ms=20)
    return events


def stones(events: list[object]) -> list[str]:
    return [str(e.to_json()["point"]) for e in events if isinstance(e, StoneEvent)]


@pytest.fixture
def board() -> Iterator[VirtualBoard]:
    b = VirtualBoard(seed=1)
    b.open_pty()
    b.boot(time.monotonic_ns() // 1_000_000)
    yield b
    b.close()


def test_port_is_opened_exclusively(board: VirtualBoard) -> None:
    first = open_exclusive(board.path)
    try:
        with pytest.raises(serial.SerialException):
            open_exclusive(board.path)
    finally:
        first.close()


def test_backoff_doubles_and_resets() -> None:
    b = Backoff(min_ms=100, max_ms=500)
    assert [b.next_delay() for _ in range(5)] == [100, 200, 400, 500, 500]
    b.reset()
    assert b.next_delay() == 100


def test_a_port_that_cannot_open_is_retried_with_back_off() -> None:
    now = [0]
    attempts: list[int] = []

    def opener(url: str) -> serial.Serial:
        attempts.append(now[0])
        raise serial.SerialException(f"could not open port {url}")

    drv = BoardDriver("/dev/wuzi/board-x", opener=opener)
    loop = LinkLoop(clock=lambda: now[0])
    loop.add(drv)
    for t in range(0, 800, 10):
        now[0] = t
        loop.run_once(lambda d, e: None, max_wait_ms=0)
    assert attempts == [0, 100, 300, 700]
    assert drv.health.open_failures == 4
    assert "could not open port /dev/wuzi/board-x" in drv.health.last_error
    loop.close()


def test_unplug_and_replug_behind_a_stable_name(board: VirtualBoard, tmp_path: Path) -> None:
    stable = tmp_path / "board-a1"  # what the udev rule makes: a symlink to the real device
    stable.symlink_to(board.path)
    drv = BoardDriver(str(stable))
    loop = LinkLoop()
    loop.add(drv)
    with SimThread([board]):
        board.at(0, lambda: board.set_cell(parse_point("h8"), 1))
        got = pump(loop, lambda evs: "h8" in stones(evs))
        assert stones(got) == ["h8"]
        assert drv.serving and drv.fault(time.monotonic_ns() // 1_000_000, 0) is None
        # unplug: the device node goes away; the board keeps scanning and logging
        board.at(0, board.close)
        board.at(0, lambda: board.set_cell(parse_point("i9"), 2))
        pump(loop, lambda evs: drv.port is None and drv.health.open_failures >= 1)
    assert drv.health.open_failures >= 1
    assert not drv.serving
    # replug: a new device node behind the same stable name
    board.open_pty()
    stable.unlink()
    stable.symlink_to(board.path)
    with SimThread([board]):
        got = pump(loop, lambda evs: "i9" in stones(evs))
    assert stones(got) == ["i9"]
    assert drv.serving
    assert drv.health.reconnects == 1
    assert drv.board.session.health.replays >= 1
    loop.close()


def test_serial_clock_unit_presses_and_display() -> None:
    clock = VirtualClock(seed=2)
    clock.open_pty()
    now = time.monotonic_ns() // 1_000_000
    clock.boot(now)
    drv = ClockDriver(clock.path)
    loop = LinkLoop()
    loop.add(drv)
    try:
        with SimThread([clock]):
            pump(loop, lambda evs: drv.session.in_sync)
            t = time.monotonic_ns() // 1_000_000
            clock.press(0, t, bounces=3)
            clock.press(1, t + 300, bounces=2)
            got = pump(loop, lambda evs: len([e for e in evs if isinstance(e, Press)]) >= 2)
            drv.session.display(1, b"\x3f\x06\x5b\x4f", 3)
            drv.session.leds(0b101)
            drv.flush()
            pump(loop, lambda evs: clock.displays[1].segments != b"\x00" * 4, limit_s=3)
    finally:
        loop.close()
        clock.close()
    presses = [(e.evno, e.button) for e in got if isinstance(e, Press)]
    assert presses == [(1, 0), (2, 1)]  # one press each, bounces or not
    assert clock.displays[1].segments == b"\x3f\x06\x5b\x4f"
    assert clock.displays[1].brightness == 3
    assert [p.level for p in clock.leds] == [1, 0, 1]
