"""``wuzi board flash`` for real, against a simulated MicroPython board
(wuzi.sim.devices.micropython_board: MicroPython's raw REPL on a pty, the code mpremote sends
run by real MicroPython, the board's filesystem a folder): the folder then holds exactly the
firmware and the revision's board.json, byte for byte as this install carries them, and the
flashed main.py boots under real MicroPython (tests/support/micropython.py) and announces
itself with INFO on its wire, naming the flashed revision. No RP2040 is at hand here: what a
real board's USB and littlefs do is not proven by this."""

from __future__ import annotations

import os
import subprocess
import sys
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from support.micropython import decode_frames, run_micropython
from wuzi.cli import main
from wuzi.io import flash
from wuzi.io.boards import boards_dir
from wuzi.io.flash import FIRMWARE_FILES, firmware_dir
from wuzi.link import wire
from wuzi.link.info import info_texts
from wuzi.sim.devices.raw_repl import RAW_PROMPT, RawRepl

ROOT = Path(__file__).resolve().parents[2]


class _Recorder:
    def __init__(self) -> None:
        self.ran: list[bytes] = []
        self.soft = 0

    def execute(self, code: bytes) -> tuple[bytes, bytes, bool]:
        self.ran.append(code)
        if code == b"boom":
            return b"", b"Traceback\r\nOSError: [Errno 2] ENOENT\r\n", False
        return b"out\r\n", b"", b"machine.reset()" in code

    def soft_reset(self) -> None:
        self.soft += 1


def test_the_raw_repl_answers_as_mpremote_expects() -> None:
    ex = _Recorder()
    repl = RawRepl(ex)
    assert repl.feed(b"\r\x03").endswith(b">>> ")
    assert repl.feed(b"\r\x01").endswith(RAW_PROMPT)
    assert repl.feed(b"\x04") == b"OK\r\nMPY: soft reboot\r\n" + RAW_PROMPT
    assert ex.soft == 1
    assert repl.feed(b"\x05A\x01") == b"R\x00"  # raw-paste: understood, not supported
    assert repl.feed(b"print(1)") == b""
    assert repl.feed(b"\x04") == b"OKout\r\n\x04\x04>"
    assert repl.feed(b"boom\x04") == b"OK\x04Traceback\r\nOSError: [Errno 2] ENOENT\r\n\x04>"
    assert repl.feed(b"\x03x\x03print(2)\x04").startswith(b"OK")  # Ctrl-C drops the line
    assert ex.ran == [b"print(1)", b"boom", b"print(2)"]
    assert repl.feed(b"import machine; machine.reset()\x04") == b"OKout\r\n"
    assert repl.reset_done and repl.hard_resets == 1
    assert repl.feed(b"\r\x02") == b""  # the board is off the bus until it comes back
    repl.reconnect()
    assert repl.feed(b"\x02") == b""  # friendly already: Ctrl-B says nothing
    assert repl.feed(b"\x01").endswith(RAW_PROMPT)


@pytest.fixture
def board(tmp_path: Path) -> Iterator[tuple[str, Path, subprocess.Popen[str]]]:
    folder = tmp_path / "flash"
    folder.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "wuzi.sim.devices.micropython_board", "--flash", str(folder)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    port = proc.stdout.readline().strip()
    assert port.startswith("/dev/pts/"), port
    yield port, folder, proc
    proc.terminate()
    proc.wait(timeout=10)


BOOT = r"""
import os, sys, binascii
os.chdir('/fw')
import fake_machine
class _Stop(Exception):
    pass
class _Pin(fake_machine.Pin):
    OPEN_DRAIN = 3
class _Machine:  # the RP2040's pins, faked as the firmware tests fake them
    Pin = _Pin
    SPI = fake_machine.SPI
    PWM = fake_machine.PWM
    def unique_id(self):
        return b'\xe6\x60\x38\xb7\x13\x2f\x2c\x2e'
class _Poll:  # the USB port's input: nothing comes; after 300 turns of the loop, stop
    n = 0
    def register(self, *a):
        pass
    def poll(self, t):
        _Poll.n += 1
        if _Poll.n > 300:
            raise _Stop()
        return []
class _Select:
    POLLIN = 1
    def poll(self):
        return _Poll()
class _Out:
    def __init__(self):
        self.data = bytearray()
    def write(self, b):
        self.data.extend(b)
        return len(b)
class _Stdio:
    def __init__(self):
        self.buffer = _Out()
class _Sys:  # what main.py takes of sys: the USB port as stdin and stdout
    stdout = _Stdio()
    stdin = _Stdio()
out = _Sys.stdout.buffer
sys.modules['machine'] = _Machine()
sys.modules['select'] = _Select()
sys.modules['sys'] = _Sys()
try:
    exec(open('main.py').read(), {'__name__': '__main__'})
except _Stop:
    pass
print(binascii.hexlify(out.data).decode())
"""


@pytest.mark.timeout(180)
@pytest.mark.parametrize("revision", ["sensor-rev-a", "sensor-rev-b", "clock-rev-a"])
def test_board_flash_copies_the_image_and_the_flashed_board_boots(
    board: tuple[str, Path, subprocess.Popen[str]],
    revision: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    port, folder, proc = board
    assert main(["board", "flash", port, "--board", revision]) == 0
    assert capsys.readouterr().out.endswith(f"wuzi board flash: {port} flashed with {revision}\n")
    assert sorted(p.name for p in folder.iterdir()) == sorted([*FIRMWARE_FILES, "board.json"])
    for name in FIRMWARE_FILES:
        assert (folder / name).read_bytes() == (firmware_dir() / name).read_bytes(), name
    spec = boards_dir() / revision / "board.json"
    assert (folder / "board.json").read_bytes() == spec.read_bytes()
    assert proc.stdout is not None and proc.stdout.readline() == "RESET 1\n"  # mpremote reset

    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    files["fake_machine.py"] = (ROOT / "firmware/fake_machine.py").read_bytes()
    frames = decode_frames(bytes.fromhex(run_micropython(BOOT, files=files).strip()))
    info = [body for t, body in frames if t == wire.T_INFO]
    assert info, frames
    assert info_texts(info[0]) == ("E66038B7132F2C2E", revision)
    # the flashed board.json decides: rev-b's main.py drives the point LEDs, rev-a's none
    caps = wire.CAP_POINT_LEDS if revision == "sensor-rev-b" else 0
    assert info[0][wire.INFO_CAPS] == caps


def test_a_port_that_is_not_there_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "ttyACM9")
    assert main(["board", "flash", missing]) == 1
    assert capsys.readouterr().err == (
        f"wuzi board flash: mpremote failed on {missing} (exit 1): failed to access "
        f"{missing} (it may be in use by another program)\n"
    )


def test_a_board_that_never_answers_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port whose device says nothing (not MicroPython, or hung): mpremote would wait on
    a pty for ever; the flash gives up after FLASH_TIMEOUT_S and says so."""
    monkeypatch.setattr(flash, "FLASH_TIMEOUT_S", 3.0)
    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    try:
        assert main(["board", "flash", port]) == 1
    finally:
        os.close(master)
        os.close(slave)
    assert capsys.readouterr().err == (
        f"wuzi board flash: no answer from {port} in 3 s (is MicroPython on the board, "
        "and nothing else holding the port?)\n"
    )
