"""``sim://board`` and ``sim://clock``: a simulated sensor board or clock unit opened as a
serial URL (pyserial looks this module up as ``<package>.protocol_sim``; wuzi.io.ports gives
it the package from the ``wuzi.serial_urls`` entry point of wuzi-sim).

Opening the URL starts the device (``VirtualBoard`` or ``VirtualClock``, idle: an empty
board, a clock that reports only what it is told) behind a fresh pty, served by a daemon
thread of the opening process, and opens the pty like any tty; closing the port stops the
device. The URL's path tells devices of one host apart (``sim://board/3``) and an optional
``?serial=SIM-0003`` sets the serial the device reports (INFO), as a venue file's
``board_serial`` expects it."""

from __future__ import annotations

import threading
from typing import Any
from urllib.parse import parse_qs, urlsplit

import serial

from wuzi.sim.devices.runner import monotonic_ms, run_devices
from wuzi.sim.devices.virtual_board import VirtualBoard
from wuzi.sim.devices.virtual_clock import VirtualClock

__all__ = ["Serial", "device_for_url"]

KINDS = ("board", "clock")


def device_for_url(url: str) -> VirtualBoard | VirtualClock:
    """The idle device ``url`` names; a ValueError naming the URL for anything else."""
    parts = urlsplit(url)
    if parts.scheme != "sim" or parts.hostname not in KINDS:
        raise ValueError(f"{url!r} is not a simulated device: sim://board or sim://clock")
    query = parse_qs(parts.query)
    unknown = set(query) - {"serial"}
    if unknown:
        raise ValueError(f"{url!r}: unknown option {sorted(unknown)[0]!r} (only serial=)")
    (serial_number,) = query.get("serial", ["SIM-0001" if parts.hostname == "board" else ""])
    if parts.hostname == "board":
        return VirtualBoard(serial=serial_number)
    return VirtualClock(serial=serial_number or "SIMCLK-0001")


class Serial(serial.Serial):
    """A pty-backed simulated device, opened as ``serial_for_url("sim://board")``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._device: VirtualBoard | VirtualClock | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        super().__init__(*args, **kwargs)

    def open(self) -> None:
        url = self.portstr
        if url is None:
            raise serial.SerialException("sim: no URL to open")
        try:
            device = device_for_url(url)
        except ValueError as exc:
            raise serial.SerialException(str(exc)) from None
        path = device.open_pty()
        device.boot(monotonic_ms())  # powered by the cable, as when it is plugged in
        self._device, self._stopping = device, threading.Event()
        self._thread = threading.Thread(
            target=run_devices,
            args=([device],),
            kwargs={"stop": self._stopping.is_set},
            name=f"sim-device {url}",
            daemon=True,
        )
        self._thread.start()
        self._port = self.portstr = path  # the tty the base class opens
        try:
            super().open()
        except BaseException:
            self._stop_device()
            raise
        finally:
            self._port = self.portstr = url  # the name stays the URL

    def _stop_device(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        if self._device is not None:
            self._device.close()
            self._device = None

    def close(self) -> None:
        super().close()
        self._stop_device()
