"""A virtual clock unit: the firmware's ``ClockUnit`` with fake pins and displays, on a pty.

``press(button, now_ms, bounces=...)`` holds a button down (with contact bounce, if asked)
the way a player's hand does; what the host sent is visible in ``shown`` (segment bytes per
display), ``buzzer`` and ``led_levels``.
"""

from __future__ import annotations

import errno
import heapq
import os
import random
from collections.abc import Callable

from wuzi.sim.devices.virtual_board import Faults, FramePort, PtyDevice
from wuzi.sim.firmware import clock_unit as fw_clock_unit
from wuzi.sim.firmware import fake_machine as fw_fake_machine


class _Display:
    def __init__(self) -> None:
        self.segments = b"\x00\x00\x00\x00"
        self.brightness = 8

    def show(self, segments: bytes | bytearray, brightness: int = 7) -> None:
        self.segments = bytes(segments)
        self.brightness = brightness


class VirtualClock(PtyDevice):
    BUTTONS = 3

    def __init__(
        self, *, serial: str = "SIMCLK-0001", faults: Faults | None = None, seed: int | None = None
    ) -> None:
        super().__init__()
        self.serial = serial
        self.faults = faults or Faults(seed=seed)
        self.rng = random.Random(seed)
        self.pins = [fw_fake_machine.Pin(i, fw_fake_machine.Pin.IN, value=1) for i in range(3)]
        self.displays = [_Display(), _Display()]
        self.buzzer = fw_fake_machine.PWM(fw_fake_machine.Pin(15))
        self.leds = [fw_fake_machine.Pin(20 + i, fw_fake_machine.Pin.OUT) for i in range(3)]
        self.mcu: fw_clock_unit.ClockUnit | None = None
        self.boot_ms = 0
        self.now_ms = 0
        self._actions: list[tuple[int, int, Callable[[], object]]] = []
        self._seq = 0

    def _emit(self, frame: bytes) -> None:
        for chunk in self.faults.outgoing(frame):
            self._write_master(chunk)

    def boot(self, now_ms: int) -> None:
        self.boot_ms = now_ms
        self.now_ms = now_ms
        self.mcu = fw_clock_unit.ClockUnit(
            list(self.pins),
            list(self.displays),
            self.buzzer,
            list(self.leds),
            FramePort(self._emit),
            self.serial,
            "clock-rev-a",
            self.rng.getrandbits(30) or 1,
        )

    def at(self, t_ms: int, action: Callable[[], object]) -> None:
        self._seq += 1
        heapq.heappush(self._actions, (t_ms, self._seq, action))

    def press(self, button: int, now_ms: int, hold_ms: int = 80, bounces: int = 0) -> None:
        """Press ``button`` at ``now_ms`` for ``hold_ms``, bouncing ``bounces`` times each way."""
        pin = self.pins[button]
        for k in range(bounces):
            self.at(now_ms + 2 * k, lambda: pin.value(0))
            self.at(now_ms + 2 * k + 1, lambda: pin.value(1))
        self.at(now_ms + 2 * bounces, lambda: pin.value(0))
        release = now_ms + 2 * bounces + hold_ms
        for k in range(bounces):
            self.at(release + 2 * k, lambda: pin.value(1))
            self.at(release + 2 * k + 1, lambda: pin.value(0))
        self.at(release + 2 * bounces, lambda: pin.value(1))

    def tick(self, now_ms: int) -> None:
        self.now_ms = now_ms
        while self._actions and self._actions[0][0] <= now_ms:
            heapq.heappop(self._actions)[2]()
            if self.mcu is not None:  # sample after every edge: a 1 kHz scan sees them all
                self.mcu.scan(now_ms - self.boot_ms)
        if self.mcu is not None:
            self.mcu.scan(now_ms - self.boot_ms)
            self.mcu.poll(now_ms - self.boot_ms)

    def next_wake_ms(self) -> int:
        wake = self.now_ms + 5
        if self._actions:
            wake = min(wake, self._actions[0][0])
        return wake

    def on_readable(self, now_ms: int) -> None:
        try:
            data = os.read(self.master_fd, 4096)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EIO):
                return
            raise
        data = self.faults.incoming(data)
        if data and self.mcu is not None:
            self.mcu.receive(data, now_ms - self.boot_ms)
