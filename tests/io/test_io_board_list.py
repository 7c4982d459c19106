"""``wuzi board list`` on simulated devices (ptys), and the stable names it prints."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.io_devices import SimThread
from wuzi.cli import main
from wuzi.io.discovery import stable_path
from wuzi.io.serial_link import open_exclusive
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock


@pytest.fixture
def devices() -> Iterator[tuple[VirtualBoard, VirtualClock]]:
    now = time.monotonic_ns() // 1_000_000
    board, clock = VirtualBoard(seed=1), VirtualClock(seed=2)
    for device in (board, clock):
        device.open_pty()
        device.boot(now)
    with SimThread([board, clock]):
        yield board, clock
    board.close()
    clock.close()


def test_one_line_per_device(
    devices: tuple[VirtualBoard, VirtualClock], capsys: pytest.CaptureFixture[str]
) -> None:
    board, clock = devices
    assert main(["board", "list", board.path, clock.path]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"board SIM-0001 firmware sensor-rev-a protocol 2.2 {board.path}",
        f"clock SIMCLK-0001 firmware clock-rev-a protocol 2.2 {clock.path}",
    ]
    assert err == ""


def test_busy_and_silent_ports_are_skipped(
    devices: tuple[VirtualBoard, VirtualClock],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    board, clock = devices
    silent = VirtualBoard(seed=3)
    silent.open_pty()  # never booted, never served: nothing answers
    held = open_exclusive(board.path)
    try:
        code = main(["board", "list", "--timeout", "0.3", board.path, silent.path, clock.path])
    finally:
        held.close()
        silent.close()
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"clock SIMCLK-0001 firmware clock-rev-a protocol 2.2 {clock.path}"]
    assert err.splitlines() == [
        f"wuzi board list: {board.path}: busy (open in another process; a host may be using "
        "it); skipped",
        f"wuzi board list: {silent.path}: no Wuzi device answered within 0.3 s; skipped",
    ]
    assert code == 1
    assert main(["board", "list", str(tmp_path / "none")]) == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'none'}: no such device; skipped" in err
    assert "no Wuzi board or clock unit found" in err


def test_the_stable_name_is_the_udev_link(tmp_path: Path) -> None:
    device = tmp_path / "ttyACM0"
    device.touch()
    ours, by_id = tmp_path / "wuzi" / "by-serial", tmp_path / "serial" / "by-id"
    by_id.mkdir(parents=True)
    (by_id / "usb-MicroPython_Board_E6614C311B7C8A2F-if00").symlink_to(device)
    dirs = (str(ours), str(by_id))
    assert stable_path(str(device), "E6614C311B7C8A2F", dirs) == str(
        by_id / "usb-MicroPython_Board_E6614C311B7C8A2F-if00"
    )
    ours.mkdir(parents=True)
    (ours / "E6614C311B7C8A2F").symlink_to(device)
    assert stable_path(str(device), "E6614C311B7C8A2F", dirs) == str(ours / "E6614C311B7C8A2F")
    assert stable_path(str(ours / "E6614C311B7C8A2F"), "", dirs) == str(ours / "E6614C311B7C8A2F")
    assert stable_path(str(tmp_path / "other"), "", dirs) == str(tmp_path / "other")


def test_without_ports_only_rp2040_devices_are_probed(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from serial.tools import list_ports

    from wuzi.io.discovery import candidates

    ports = [
        SimpleNamespace(device="/dev/ttyACM1", vid=0x2E8A, pid=0x0005),
        SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001),
        SimpleNamespace(device="/dev/ttyACM0", vid=0x2E8A, pid=0x0005),
    ]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert candidates() == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert candidates(every_port=True) == ["/dev/ttyACM0", "/dev/ttyACM1", "/dev/ttyUSB0"]


def test_old_firmware_is_listed_and_said_to_be_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """A board and a clock unit flashed with protocol 1.0 (a 42-byte INFO, the serial's last
    12 digits) answer as what they are, and the list says a host refuses them (exit 1)."""
    now = time.monotonic_ns() // 1_000_000
    board = VirtualBoard(seed=1, serial="E66138935F47A62B")
    clock = VirtualClock(seed=2, serial="E66138935F47C0DE")
    for device in (board, clock):
        device.protocol = (1, 0)
        device.open_pty()
        device.boot(now)
    try:
        with SimThread([board, clock]):
            code = main(["board", "list", board.path, clock.path])
    finally:
        board.close()
        clock.close()
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"board 38935F47A62B firmware sensor-rev-a protocol 1.0 {board.path}",
        f"clock 38935F47C0DE firmware clock-rev-a protocol 1.0 {clock.path}",
    ]
    needed = "this host speaks v2.2 (major 2 needed); a host refuses it"
    assert err.splitlines() == [
        f"wuzi board list: {board.path}: serial 38935F47A62B: the sensor board speaks wire "
        f"protocol v1.0, {needed}: flash matching firmware (make flash)",
        f"wuzi board list: {clock.path}: serial 38935F47C0DE: the clock unit speaks wire "
        f"protocol v1.0, {needed}: flash matching firmware (make flash)",
    ]
    assert code == 1
