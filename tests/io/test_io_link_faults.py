"""The serial drivers on real ptys when devices misbehave: a wrong device is refused (never
an exception out of the loop), a lost port is one ``link_down`` at once, a device that
stops reading is a stalled port while the loop serves the others, a board missing from its
path is found by its USB serial, and ``wuzi board watch`` stops on a signal."""

from __future__ import annotations

import contextlib
import logging
import os
import select
import signal
import subprocess
import sys
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from support.io_devices import SimThread
from wuzi.io.serial_link import (
    OUT_BUFFER_MAX,
    REFUSED_BACKOFF_MIN_MS,
    BoardDriver,
    ClockDriver,
    LinkLoop,
    monotonic_ms,
    open_exclusive,
)
from wuzi.link import wire
from wuzi.link.reconciler import LINK_DOWN, LINK_UP, Alert, StoneEvent
from wuzi.link.session import LinkDown
from wuzi.rules.board import parse_point
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock

WUZI = str(Path(sys.executable).parent / "wuzi")


class FakeDevice:
    """The far end of a pty, played by the test: it reads (or not) and writes frames."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.got = b""

    def read(self) -> bytes:
        ready, _, _ = select.select([self.master], [], [], 0)
        if ready:
            with contextlib.suppress(BlockingIOError):
                self.got += os.read(self.master, 65536)
        return self.got

    def heard_hello(self) -> bool:
        dec = wire.Decoder()
        dec.feed(self.read())
        t = dec.next_frame()
        while t >= 0:
            if t == wire.T_HELLO:
                return True
            t = dec.next_frame()
        return False

    def write(self, data: bytes) -> None:
        os.write(self.master, data)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)


def info_frame(kind: int, serial_text: str, major: int = wire.PROTOCOL_MAJOR) -> bytes:
    body = bytearray(wire.LEN_INFO)
    body[wire.INFO_MAJOR] = major
    body[wire.INFO_KIND] = kind
    body[wire.INFO_DEBOUNCE] = 3
    wire.put_u16(body, wire.INFO_SCAN_US, 5000)
    wire.put_u32(body, wire.INFO_BOOT, 1234)
    wire.put_text(body, wire.INFO_SERIAL, serial_text, wire.SERIAL_LEN)
    wire.put_text(body, wire.INFO_REVISION, "clock-rev-a", wire.TEXT_LEN)
    return wire.encode(wire.T_INFO, 0, bytes(body))


def heartbeat_frame(boot_id: int, tick_ms: int) -> bytes:
    body = bytearray(wire.LEN_HEARTBEAT)
    wire.put_u32(body, 0, boot_id)
    wire.put_u32(body, 8, tick_ms & wire.TICKS_MASK)
    return wire.encode(wire.T_HEARTBEAT, 1, bytes(body))


def pump(
    loop: LinkLoop,
    until: Callable[[list[object]], bool],
    limit_s: float = 15.0,
    also: Callable[[], None] | None = None,
) -> list[object]:
    events: list[object] = []
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline and not until(events):
        loop.run_once(lambda drv, ev: events.append(ev), max_wait_ms=20)
        if also is not None:
            also()
    assert until(events), f"gave up after {limit_s} s; events: {events}"
    return events


def kinds(events: list[object]) -> list[str]:
    return [e.kind for e in events if isinstance(e, Alert)]


@pytest.fixture
def board() -> Iterator[VirtualBoard]:
    b = VirtualBoard(seed=5)
    b.open_pty()
    b.boot(time.monotonic_ns() // 1_000_000)
    yield b
    b.close()


def test_a_wrong_device_is_refused_then_the_right_one_accepted(
    board: VirtualBoard, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A clock unit where the board belongs: no exception leaves the loop, the refusal
    names the port and both sides at once, retries wait ≥ 1 s; the right board put back
    behind the same name is served at the next retry."""
    wrong = FakeDevice()
    stable = tmp_path / "board-a1"
    stable.symlink_to(wrong.path)
    drv = BoardDriver(str(stable))
    loop = LinkLoop()
    loop.add(drv)
    try:
        with caplog.at_level(logging.WARNING, logger="wuzi.io"):
            pump(loop, lambda evs: wrong.heard_hello())
            wrong.write(info_frame(wire.KIND_CLOCK, "CK-7"))
            pump(loop, lambda evs: drv.refused is not None)
        reason = drv.refused
        assert reason is not None and reason.startswith(f"{stable}: expected a sensor board")
        assert "answered: clock unit serial 'CK-7' wire protocol v2.0" in reason
        now = loop.clock()
        assert drv.fault(now, 10**9) == reason  # at once, not after the grace
        assert drv.link_down and drv.port is None
        assert drv.retry_at_ms is not None and drv.retry_at_ms >= now + REFUSED_BACKOFF_MIN_MS - 50
        assert any("device refused" in r.getMessage() for r in caplog.records)
        stable.unlink()
        stable.symlink_to(board.path)  # the right board, behind the same name
        with SimThread([board]):
            pump(loop, lambda evs: drv.refused is None and not drv.link_down)
            board.at(0, lambda: board.set_cell(parse_point("h8"), 1))
            got = pump(loop, lambda evs: any(isinstance(e, StoneEvent) for e in evs))
        assert drv.fault(loop.clock(), 3000) is None
        assert [e.point for e in got if isinstance(e, StoneEvent)] == [parse_point("h8")]
    finally:
        loop.close()
        wrong.close()


@pytest.mark.parametrize("kind", ["board", "clock"])
def test_old_firmware_is_refused_at_once_on_either_port(kind: str) -> None:
    """A board or a clock unit of wire protocol 1.0 (a 42-byte INFO) goes through the
    refusal path: ``refused`` names the port, its serial, v1.0 and the major needed, and
    ``fault`` says it at once (before, its INFO was ignored and the port simply idled)."""
    now = time.monotonic_ns() // 1_000_000
    device: VirtualBoard | VirtualClock = (
        VirtualBoard(seed=6, serial="E66138935F47A62B")
        if kind == "board"
        else VirtualClock(seed=6, serial="E66138935F47A62B")
    )
    device.protocol = (1, 0)
    device.open_pty()
    device.boot(now)
    drv: BoardDriver | ClockDriver = (
        BoardDriver(device.path) if kind == "board" else ClockDriver(device.path)
    )
    loop = LinkLoop()
    loop.add(drv)
    try:
        with SimThread([device]):
            pump(loop, lambda evs: drv.refused is not None, limit_s=5)
        reason = drv.refused
        noun = "sensor board" if kind == "board" else "clock unit"
        assert reason is not None and reason.startswith(
            f"{device.path}: the {noun} speaks wire protocol v1.0, this host speaks v2.2"
            " (major 2 needed)"
        )
        assert f"answered: {noun} serial '38935F47A62B' wire protocol v1.0" in reason
        assert drv.fault(loop.clock(), 10**9) == reason and drv.link_down
    finally:
        loop.close()
        device.close()


def test_a_pulled_board_is_link_down_from_the_very_read(board: VirtualBoard) -> None:
    drv = BoardDriver(board.path)
    loop = LinkLoop()
    loop.add(drv)
    try:
        with SimThread([board]):
            pump(loop, lambda evs: not drv.link_down)
            board.at(0, board.close)  # the cable: the device node goes away
            got = pump(loop, lambda evs: LINK_DOWN in kinds(evs), limit_s=5)
        assert drv.link_down and drv.port is None
        [down] = [e for e in got if isinstance(e, Alert) and e.kind == LINK_DOWN]
        assert "failed" in down.detail or "vanished" in down.detail
        assert kinds(got).count(LINK_DOWN) == 1
    finally:
        loop.close()


def test_a_clock_unit_that_stops_reading_is_stalled_while_the_board_plays(
    board: VirtualBoard,
) -> None:
    stuck = FakeDevice()
    clock = ClockDriver(stuck.path)
    table = BoardDriver(board.path)
    loop = LinkLoop()
    loop.add(clock)
    loop.add(table)
    try:
        with SimThread([board]):
            pump(loop, lambda evs: stuck.heard_hello() and not table.link_down)
            stuck.write(info_frame(wire.KIND_CLOCK, "CK-1"))
            pump(loop, lambda evs: not clock.link_down)
            # the unit stops reading; the host keeps refreshing its faces
            faces = [0]

            def refresh() -> None:
                stuck.write(heartbeat_frame(1234, loop.clock()))  # it still talks
                if clock.port is not None:
                    for _ in range(50):
                        clock.display(faces[0] % 2, b"\x3f\x06\x5b\x4f")
                        faces[0] += 1
                    clock.flush()

            board.at(0, lambda: board.set_cell(parse_point("h8"), 1))
            got = pump(
                loop,
                lambda evs: (
                    any(isinstance(e, LinkDown) for e in evs)
                    and any(isinstance(e, StoneEvent) for e in evs)
                ),
                also=refresh,
            )
        [down] = [e for e in got if isinstance(e, LinkDown)]
        assert down.why.startswith(f"stalled: {stuck.path} stopped reading")
        assert clock.health.stalls >= 1 and clock.link_down
        assert faces[0] * 13 > OUT_BUFFER_MAX // 2  # far more than a pty buffers was asked
        assert [e.point for e in got if isinstance(e, StoneEvent)] == [parse_point("h8")]
        assert not table.link_down
    finally:
        loop.close()
        stuck.close()


def test_a_board_missing_from_its_path_is_found_by_its_serial(
    board: VirtualBoard, tmp_path: Path
) -> None:
    configured = tmp_path / "by-serial" / "SIM-0001"  # no such link (yet)
    asked: list[str] = []
    opened: list[str] = []

    def lookup(serial_number: str) -> str | None:
        asked.append(serial_number)
        return board.path

    def opener(url: str) -> serial.Serial:
        opened.append(url)
        return open_exclusive(url)

    drv = BoardDriver(str(configured), expected_serial=board.serial, lookup=lookup, opener=opener)
    loop = LinkLoop()
    loop.add(drv)
    try:
        with SimThread([board]):
            got = pump(loop, lambda evs: LINK_UP in kinds(evs) or not drv.link_down)
        assert asked == [board.serial] and opened == [board.path]
        assert drv.path == board.path
        assert f"{configured} is missing; opened {board.path}" in drv.health.last_error
        assert drv.refused is None
        del got
    finally:
        loop.close()


def test_a_write_never_blocks_on_a_full_pty() -> None:
    """pyserial with write_timeout=0 on a pty nobody reads: the driver writes what fits."""
    far = FakeDevice()
    drv = ClockDriver(far.path)
    try:
        assert drv.try_open(0)
        for _ in range(4000):  # ~52 KB asked: more than the pty and the buffer hold
            if drv.port is None:
                break
            drv.display(0, b"\x3f\x06\x5b\x4f")
            drv.flush()
        assert drv.port is None
        assert drv.health.stalls == 1
        assert drv.health.bytes_out > 0
    finally:
        drv.close()
        far.close()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_board_watch_stops_on_a_signal_whatever_the_port_does(signum: int) -> None:
    """A port nobody reads or answers: the watch still ends at once, status 0."""
    far = FakeDevice()
    proc = subprocess.Popen(
        [WUZI, "board", "watch", far.path],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while not far.heard_hello() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert far.heard_hello(), "the watch never opened the port"
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        far.close()
    assert proc.returncode == 0, err
    assert "Traceback" not in err


def test_board_watch_shows_a_lost_port_as_a_line(board: VirtualBoard) -> None:
    proc = subprocess.Popen(
        [WUZI, "board", "watch", board.path],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with SimThread([board]):
            board.at(0, lambda: board.set_cell(parse_point("h8"), 1))
            assert proc.stdout is not None
            line = proc.stdout.readline()  # the stone
            assert '"point": "h8"' in line
            board.at(0, board.close)
            line = proc.stdout.readline()
            assert '"kind": "link_down"' in line
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    assert "Traceback" not in err
    assert f"wuzi board watch: {board.path}: port lost:" in err


class BrokenLink:
    """A link whose input handling raises what nobody expected (a bug, a strange byte)."""

    def __init__(self) -> None:
        self.lost: list[str] = []
        self.lost_at: list[int] = []
        self.link_up = False
        self.identified = False

    def connection_made(self, now_ms: int) -> None:
        self.out = b"\x01"

    def connection_lost(self, now_ms: int, why: str) -> list[object]:
        self.lost.append(why)
        self.lost_at.append(now_ms)
        return []

    def receive_data(self, data: bytes, now_ms: int) -> list[object]:
        raise RuntimeError("index out of range in a frame nobody tested")

    def poll(self, now_ms: int) -> list[object]:
        return []

    def data_to_send(self) -> bytes:
        out, self.out = self.out, b""
        return out

    def next_deadline_ms(self) -> int | None:
        return None


def test_a_link_that_raises_is_refused_with_back_off_and_a_traceback_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """loop:// echoes the HELLO back; the link raises on it every time. The loop goes on,
    the retries double from 1 s to 30 s, and the traceback is in the ``wuzi.io`` log."""
    from wuzi.io.serial_link import SerialDriver

    now = [0]
    link = BrokenLink()
    opens: list[int] = []

    def opener(url: str) -> serial.Serial:
        opens.append(now[0])
        return serial.serial_for_url("loop://", timeout=0)

    drv: SerialDriver[object] = SerialDriver("loop://", link, opener=opener)
    with caplog.at_level(logging.WARNING, logger="wuzi.io"):
        for t in range(0, 110_000, 10):
            now[0] = t
            if drv.port is not None:
                drv.on_readable(t)
            drv.on_timer(t)
    waits = [again - refused for refused, again in zip(link.lost_at, opens[1:], strict=False)]
    assert waits[:7] == [1000, 2000, 4000, 8000, 16000, 30000, 30000]
    assert drv.refused is not None and drv.refused.startswith("loop://: the device's input")
    assert "RuntimeError" in drv.refused
    assert link.lost and link.lost[0] == drv.refused
    assert any(r.exc_info is not None for r in caplog.records)
    drv.close()


def test_settled_through_on_a_virtual_board_waits_for_the_stone(board: VirtualBoard) -> None:
    """A stone put down at the very time of a press: the driver says "settled" only once
    that stone has come out as an event (asking the board at once each turn)."""
    drv = BoardDriver(board.path)
    loop = LinkLoop()
    loop.add(drv)
    try:
        with SimThread([board]):
            pump(loop, lambda evs: not drv.link_down and drv.board.session.in_sync)
            placed: list[int] = []

            def put_down() -> None:  # on the board's thread: the time it really lands
                placed.append(monotonic_ms())
                board.set_cell(parse_point("h8"), 1)

            board.at(0, put_down)
            settled_early: list[bool] = []

            def until(evs: list[object]) -> bool:
                drv.ask_now(loop.clock())
                if not placed:
                    return False
                done = drv.settled_through(placed[0])
                if done and not any(isinstance(e, StoneEvent) for e in evs):
                    settled_early.append(True)
                return done

            got = pump(loop, until)
        assert not settled_early
        assert [e.point for e in got if isinstance(e, StoneEvent)] == [parse_point("h8")]
        assert not drv.settled_through(loop.clock() + 10_000)  # not heard that far yet
    finally:
        loop.close()
