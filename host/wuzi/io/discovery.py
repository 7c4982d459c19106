"""Find Wuzi sensor boards and clock units on serial ports, and ask one what it is.

`probe` opens one port exclusively (as the drivers do, `wuzi.io.serial_link.open_exclusive`),
says HELLO and waits a short time for the INFO frame (docs/wire.md): the device's kind,
serial, firmware (the revision it was flashed with) and wire protocol version. A port
another process holds (a running ``wuzi host``) is `PortBusy` and is never disturbed; a
port that cannot be opened is `PortUnavailable`; silence is `NoAnswer`.

`candidates` lists the serial ports pyserial's ``list_ports`` finds (by default only the
RP2040's MicroPython USB device, 2e8a:0005), and `stable_path` gives the name to write into
the venue file: ``/dev/wuzi/by-serial/<serial>`` (deploy/udev/99-wuzi-boards.rules), else
``/dev/serial/by-id/…``, else the device itself. ``wuzi board list`` (`wuzi.io.cli`) is
these three together.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import serial

from wuzi.io.serial_link import open_exclusive
from wuzi.link import wire
from wuzi.link.info import LAYOUTS, info_protocol, info_texts, protocol_problem

__all__ = [
    "KIND_NAMES",
    "RP2040_PRODUCT",
    "RP2040_VENDOR",
    "DeviceInfo",
    "NoAnswer",
    "PortBusy",
    "PortUnavailable",
    "ProbeError",
    "candidates",
    "probe",
    "stable_path",
]

RP2040_VENDOR = 0x2E8A
RP2040_PRODUCT = 0x0005
KIND_NAMES = {wire.KIND_SENSOR: "board", wire.KIND_CLOCK: "clock"}
"""The kind of device as ``wuzi board list`` and ``wuzi venue check`` name it."""
HELLO_EVERY_S = 0.1
_BUSY = (errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK)


class ProbeError(Exception):
    """A port that told us nothing; ``str()`` names the port and what went wrong."""


class PortBusy(ProbeError):
    """Another process has the port open exclusively (a host may be using it)."""


class PortUnavailable(ProbeError):
    """The port cannot be opened: no such device, no permission, a bad URL…"""


class NoAnswer(ProbeError):
    """The port opened but no Wuzi device answered HELLO with INFO in time."""


@dataclass(frozen=True)
class DeviceInfo:
    """What a device said in its INFO frame, and the port it said it on."""

    port: str
    kind: str  # "board", "clock" or "kind N"
    serial: str
    firmware: str  # the revision flashed with the firmware (boards/<revision>/board.json)
    major: int
    minor: int

    @property
    def protocol(self) -> str:
        return f"{self.major}.{self.minor}"

    @property
    def refused(self) -> str | None:
        """Why a host refuses this device (another protocol major), in the words of the
        host's own refusal (``wuzi.link.info.protocol_problem``); None: it would serve."""
        noun = {"board": "the sensor board", "clock": "the clock unit"}.get(self.kind, "it")
        problem = protocol_problem(noun, self.major, self.minor)
        if problem is None:
            return None
        return (
            f"{self.port}: serial {self.serial}: {problem}; a host refuses it: flash matching"
            " firmware (make flash)"
        )


def _open(port: str, opener: Callable[[str], serial.Serial]) -> serial.Serial:
    try:
        return opener(port)
    except (serial.SerialException, OSError, ValueError) as exc:
        code = getattr(exc, "errno", None)
        text = str(exc)
        if code in _BUSY or "exclusively lock" in text:
            raise PortBusy(
                f"{port}: busy (open in another process; a host may be using it)"
            ) from None
        if code == errno.ENOENT or "No such file" in text:
            raise PortUnavailable(f"{port}: no such device") from None
        if code == errno.EACCES or "ermission" in text:
            raise PortUnavailable(f"{port}: permission denied (is this user in dialout?)") from None
        raise PortUnavailable(f"{port}: cannot open: {text}") from None


def _parse_info(port: str, body: bytes) -> DeviceInfo | None:
    """The INFO of any protocol version, read where that version keeps each field
    (``wuzi.link.info``): an old firmware is listed as what it is, to be refused by name,
    not skipped as silent. None for damage the CRC missed (the next HELLO asks again)."""
    protocol = info_protocol(body)
    if protocol is None:
        return None
    texts = info_texts(body, strict=protocol[0] in LAYOUTS)
    if texts is None:
        return None
    kind = body[wire.INFO_KIND]
    return DeviceInfo(
        port=port,
        kind=KIND_NAMES.get(kind, f"kind {kind}"),
        serial=texts[0],
        firmware=texts[1],
        major=protocol[0],
        minor=protocol[1],
    )


def probe(
    port: str,
    timeout_s: float = 0.5,
    *,
    opener: Callable[[str], serial.Serial] = open_exclusive,
) -> DeviceInfo:
    """Open ``port``, say HELLO (again every 100 ms) and return the device's INFO.

    Raises `PortBusy`, `PortUnavailable` or `NoAnswer` (each naming the port). The port is
    closed again before this returns.
    """
    link = _open(port, opener)
    decoder = wire.Decoder()
    hello = bytes([wire.PROTOCOL_MAJOR, wire.PROTOCOL_MINOR])
    seq = 0
    deadline = time.monotonic() + timeout_s
    next_hello = 0.0
    try:
        while True:
            now = time.monotonic()
            if now >= deadline:
                raise NoAnswer(f"{port}: no Wuzi device answered within {timeout_s:g} s")
            if now >= next_hello:
                with contextlib.suppress(serial.SerialException, OSError):
                    link.write(wire.encode(wire.T_HELLO, seq, hello))
                seq = (seq + 1) & 0xFF
                next_hello = now + HELLO_EVERY_S
            try:
                data = link.read(512)
            except (serial.SerialException, OSError) as exc:
                raise NoAnswer(f"{port}: read failed: {exc}") from None
            if not data:
                time.sleep(0.01)
                continue
            decoder.feed(data)
            t = decoder.next_frame()
            while t >= 0:
                if t == wire.T_INFO:
                    body = bytes(decoder.buf[decoder.body_at : decoder.body_at + decoder.body_len])
                    info = _parse_info(port, body)
                    if info is not None:
                        return info
                t = decoder.next_frame()
    finally:
        with contextlib.suppress(serial.SerialException, OSError):
            link.close()


def candidates(every_port: bool = False) -> list[str]:
    """The serial devices to probe, sorted: RP2040 MicroPython devices (2e8a:0005), or with
    ``every_port`` every port pyserial lists (boards behind a USB-UART bridge)."""
    from serial.tools import list_ports

    found = []
    for port in list_ports.comports():
        if every_port or (port.vid, port.pid) == (RP2040_VENDOR, RP2040_PRODUCT):
            found.append(port.device)
    return sorted(found)


LINK_DIRS = ("/dev/wuzi/by-serial", "/dev/serial/by-id")


def stable_path(device: str, serial_text: str = "", link_dirs: Iterable[str] = LINK_DIRS) -> str:
    """The name of ``device`` to write into the venue file: a symlink to it in
    ``/dev/wuzi/by-serial`` (ours; the one named after ``serial_text`` first), else in
    ``/dev/serial/by-id``, else ``device`` itself. A name already inside one of those
    folders is kept as given."""
    if any(device.startswith(d.rstrip("/") + "/") for d in link_dirs):
        return device
    try:
        target = os.path.realpath(device)
    except (OSError, ValueError):
        return device
    for folder in link_dirs:
        try:
            entries = sorted(Path(folder).iterdir())
        except OSError:
            continue
        entries.sort(key=lambda p: p.name != serial_text)
        for entry in entries:
            with contextlib.suppress(OSError, ValueError):
                if entry.is_symlink() and os.path.realpath(entry) == target:
                    return str(entry)
    return device
