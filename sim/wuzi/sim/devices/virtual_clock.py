"""A virtual clock unit: the firmware's ``ClockUnit`` with fake pins and displays, on a pty.

``press(button, now_ms, bounces=...)`` holds a button down (with contact bounce, if asked)
the way a player's hand does; what the host sent is visible in ``shown`` (segment bytes per
display), ``buzzer`` and ``led_levels``. The same faults as a board's
(``wuzi.sim.devices.virtual_board``), scripted by ``schedule`` from a clock script
(``wuzi.sim.devices.clock_script``):

* ``ber``/``drop``/``dup`` (``Faults``): bit errors, lost and doubled frames on the wire;
* ``unplug``: silence both ways for a while; the unit runs on, logging presses, so the
  host replays them afterwards;
* ``reboot``: the MCU resets: silent ``REBOOT_MS``, then a new boot id and an empty log;
* ``stall``: the unit stops reading its input (the host's writes pile up in the pty until
  it is full); its own frames still go out;
* ``replug``: the USB cable pulled: the pty closes at once, a new one opens later under a
  new path (``on_replug``, ``link_path``); the cable powers the unit, so the MCU reboots.

``protocol`` (``PtyDevice``) plays an old firmware, as on a board.
"""

from __future__ import annotations

import errno
import heapq
import os
import random
from collections.abc import Callable

from wuzi.sim.devices.clock_script import HOLD_MS, ClockStep
from wuzi.sim.devices.old_firmware import as_protocol
from wuzi.sim.devices.virtual_board import REBOOT_MS, Faults, FramePort, PtyDevice
from wuzi.sim.firmware import clock_unit as fw_clock_unit
from wuzi.sim.firmware import fake_machine as fw_fake_machine

SCAN_MS = 5  # the runner wakes the unit at least this often (it scans on every edge too)


class _Display:
    def __init__(self) -> None:
        self.segments = b"\x00\x00\x00\x00"
        self.brightness = 8

    def show(self, segments: bytes | bytearray, brightness: int = 7) -> None:
        self.segments = bytes(segments)
        self.brightness = brightness


class VirtualClock(PtyDevice):
    """A clock unit on a pty. Built without an MCU: ``boot`` starts it (the caller's
    instant); after a ``reboot`` or a ``replug`` it boots again by itself."""

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
        self.down_until_ms: int | None = None  # in reset (or unpowered) until then
        self.silent_until_ms = 0  # link unplugged
        self.boots = 0
        self.bytes_out = 0
        self.bytes_lost = 0
        self._actions: list[tuple[int, int, Callable[[], object]]] = []
        self._seq = 0
        self._script_end_ms = 0

    def _emit(self, frame: bytes) -> None:
        if self.master_fd < 0 or self.now_ms < self.silent_until_ms:
            self.bytes_lost += len(frame)
            return
        for chunk in self.faults.outgoing(as_protocol(frame, self.protocol)):
            if self._write_master(chunk):
                self.bytes_out += len(chunk)
            else:
                self.bytes_lost += len(chunk)

    def boot(self, now_ms: int) -> None:
        self.boot_ms = now_ms
        self.now_ms = now_ms
        self.down_until_ms = None
        self.boots += 1
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

    @property
    def boot_id(self) -> int | None:
        """The running MCU's boot id (None while it is in reset or unpowered)."""
        return None if self.mcu is None else self.mcu.boot_id

    def reboot(self, now_ms: int, down_ms: int = REBOOT_MS) -> None:
        """The MCU resets: silent for ``down_ms``, then a new boot (its press log lost)."""
        self.mcu = None
        self.down_until_ms = max(self.down_until_ms or 0, now_ms + down_ms)

    def unplug(self, now_ms: int, ms: int) -> None:
        self.silent_until_ms = max(self.silent_until_ms, now_ms + ms)

    def replug(self, now_ms: int, ms: int) -> None:
        """The USB cable pulled for ``ms``: the pty closes and the MCU loses power; at
        plug-in a new pty opens and the MCU boots afresh."""
        self.pull(now_ms, ms)
        self.reboot(now_ms, self.pulled_until_ms - now_ms)
        self.at(self.pulled_until_ms, lambda: self.plug_in(self.now_ms))

    def at(self, t_ms: int, action: Callable[[], object]) -> None:
        self._seq += 1
        heapq.heappush(self._actions, (t_ms, self._seq, action))

    def press(self, button: int, now_ms: int, hold_ms: int = HOLD_MS, bounces: int = 0) -> None:
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

    def schedule(self, step: ClockStep, t0_ms: int) -> None:
        """Queue a clock-script step (its time counted from ``t0_ms``)."""
        t = t0_ms + step.t_ms
        ms = step.ms
        if step.verb in ("press", "claim"):
            self.press(step.button, t, bounces=step.bounces)
            ms = 4 * step.bounces + HOLD_MS  # the bounces each way and the hold
        elif step.verb == "unplug":
            self.at(t, lambda: self.unplug(t, ms))
        elif step.verb == "reboot":
            self.at(t, lambda: self.reboot(t))
            ms = REBOOT_MS
        elif step.verb == "stall":
            self.at(t, lambda: self.stall(t, ms))
        elif step.verb == "replug":
            self.at(t, lambda: self.replug(t, ms))
        else:
            raise ValueError(f"line {step.line}: a clock unit has no step {step.verb!r}")
        self._script_end_ms = max(self._script_end_ms, t + ms)

    def script_end_ms(self) -> int:
        """When the last scheduled step is over (a fault's duration counted)."""
        return max(max((a[0] for a in self._actions), default=self.now_ms), self._script_end_ms)

    def tick(self, now_ms: int) -> None:
        self.now_ms = now_ms
        while self._actions and self._actions[0][0] <= now_ms:
            heapq.heappop(self._actions)[2]()
            if self.mcu is not None:  # sample after every edge: a 1 kHz scan sees them all
                self.mcu.scan(now_ms - self.boot_ms)
        if self.mcu is None and self.down_until_ms is not None and now_ms >= self.down_until_ms:
            self.boot(now_ms)
        if self.mcu is not None:
            self.mcu.scan(now_ms - self.boot_ms)
            self.mcu.poll(now_ms - self.boot_ms)

    def next_wake_ms(self) -> int:
        wake = self.now_ms + SCAN_MS
        if self._actions:
            wake = min(wake, self._actions[0][0])
        return self._stall_wake(self.now_ms, wake)

    def on_readable(self, now_ms: int) -> None:
        if self.reading_fd(now_ms) < 0:
            return
        try:
            data = os.read(self.master_fd, 4096)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EIO):
                return
            raise
        if not data or now_ms < self.silent_until_ms or self.mcu is None:
            return
        data = self.faults.incoming(data)
        if data:
            self.mcu.receive(data, now_ms - self.boot_ms)
