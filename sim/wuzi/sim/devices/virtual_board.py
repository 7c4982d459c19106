"""A virtual sensor board: the firmware's own code (``fw_board``, ``fw_matrix``, the fake
``machine`` wiring) behind a real pty, with faults on the wire.

The host side opens the pty's path with real pyserial, exactly as it opens /dev/wuzi/board-N.
The MCU's clock starts at 0 on every (re)boot, as on the RP2040. Faults:

* ``ber``: every bit on the wire (both directions) flips with this probability;
* ``drop`` / ``dup``: a whole frame is lost / sent twice (MCU -> host; host -> MCU chunks drop);
* ``unplug``: silence both ways for a while (the board goes on scanning and logging);
* ``reboot``: the MCU resets: a new boot id, an empty RAM log, the stones stay where they are;
* ``slow``: scans come further apart for a while (a busy or throttled MCU);
* ``stall``: the MCU stops reading its input for a while (a wedged USB stack): the host's
  writes fill the pty and then block or fail with EAGAIN, while the board's own frames
  still go out;
* ``replug``: the USB cable is pulled and put back: the pty is closed (the host's read of
  its port fails: the device node is gone) and a new one opens later under a new path,
  which ``on_replug`` is told and a ``link_path`` symlink follows (as udev's /dev/wuzi/
  names follow a device). The cable powers the board, so the MCU reboots on the way.

``protocol`` plays an old firmware: its INFO goes out in that wire protocol's layout
(``wuzi.sim.devices.old_firmware``), which a host must refuse (another major) or serve
without what it lacks (2.1: no capability byte, so no point LEDs).

``point_leds`` plays a ``sensor-rev-b``: the firmware's own ``point_led.PointLeds`` drives a
fake chain (``fake_machine.LedChain``) whose colours the drills read (``lit_point``,
``shown``): the board lights the point the host asks for and puts it out when its own
scan settles the stone of that colour there, as on the wood.
"""

from __future__ import annotations

import contextlib
import errno
import heapq
import math
import os
import random
import tty
from collections.abc import Callable
from dataclasses import dataclass, field

from wuzi.link import wire
from wuzi.sim.devices.old_firmware import CURRENT, as_protocol
from wuzi.sim.devices.script import Step
from wuzi.sim.firmware import board as fw_board
from wuzi.sim.firmware import fake_machine as fw_fake_machine
from wuzi.sim.firmware import matrix as fw_matrix
from wuzi.sim.firmware import point_led as fw_point_led

SLIDE_DWELL_MS = 60  # how long a slid stone lingers on the point it passes (> MCU debounce)
REBOOT_MS = 300  # how long a reset MCU stays silent before it announces its new boot
STONE_CODES = {"black": wire.BLACK, "white": wire.WHITE}


@dataclass
class Faults:
    """Wire faults, reproducible from ``seed``."""

    ber: float = 0.0
    drop: float = 0.0
    dup: float = 0.0
    seed: int | None = None
    rng: random.Random = field(init=False)
    flipped_bits: int = 0
    dropped_frames: int = 0
    duplicated_frames: int = 0

    def __post_init__(self) -> None:
        for name in ("ber", "drop", "dup"):
            value = getattr(self, name)
            if not 0.0 <= value < 1.0:
                raise ValueError(f"{name} must be a probability in [0, 1), not {value}")
        self.rng = random.Random(self.seed)

    def corrupt(self, data: bytes) -> bytes:
        if self.ber <= 0.0 or not data:
            return data
        bits = len(data) * 8
        out: bytearray | None = None
        pos = self._gap()
        while pos < bits:
            if out is None:
                out = bytearray(data)
            out[pos >> 3] ^= 1 << (pos & 7)
            self.flipped_bits += 1
            pos += 1 + self._gap()
        return bytes(out) if out is not None else data

    def _gap(self) -> int:
        """Bits until the next flip: geometric with parameter ``ber``."""
        return int(math.log(1.0 - self.rng.random()) / math.log(1.0 - self.ber))

    def outgoing(self, frame: bytes) -> list[bytes]:
        if self.drop and self.rng.random() < self.drop:
            self.dropped_frames += 1
            return []
        copies = [frame]
        if self.dup and self.rng.random() < self.dup:
            self.duplicated_frames += 1
            copies.append(frame)
        return [self.corrupt(c) for c in copies]

    def incoming(self, data: bytes) -> bytes:
        if self.drop and self.rng.random() < self.drop:
            self.dropped_frames += 1
            return b""
        return self.corrupt(data)


class FramePort:
    """What the firmware writes to (its ``port``): each sealed frame goes to ``emit``, which
    sends it to the pty master through the faults."""

    def __init__(self, emit: Callable[[bytes], None]) -> None:
        self.emit = emit

    def write(self, buf: bytes | bytearray | memoryview) -> int:
        self.emit(bytes(buf))
        return len(buf)


class PtyDevice:
    """The host end of a virtual device is a pty: the host opens ``path`` with pyserial as
    it opens /dev/wuzi/board-N, and the device reads and writes the non-blocking master.

    ``link_path``: a symlink kept pointing at the current pty (re-pointed atomically on
    every ``open_pty``), as udev keeps /dev/wuzi/board-N pointing at the device wherever
    the kernel put it. ``on_replug(path)``: told the new path when a pulled cable is
    plugged in again. ``stalled_until_ms``: the device reads nothing before then
    (``reading_fd`` is -1), so what the host writes stays in the pty."""

    def __init__(self) -> None:
        self.master_fd = -1
        self.slave_fd = -1
        self.path = ""
        self.link_path: str | None = None
        self.on_replug: Callable[[str], None] | None = None
        self.stalled_until_ms = 0
        self.pulled_until_ms = 0  # the cable is out until then (``replug``)
        self.replugs = 0
        self.protocol = CURRENT  # the wire protocol its INFO says (old firmware: refused)

    def open_pty(self, *, avoid: str | None = None) -> str:
        """Open a new pty (raw, the master non-blocking) and point ``link_path`` at it.
        ``avoid``: a path it must not have — the kernel reuses a freed pty number at once,
        and a replugged device must show up under a new node to test what a host does
        with a device that comes back elsewhere (the same node is the plain reopen)."""
        master, slave = os.openpty()
        if avoid is not None and os.ttyname(slave) == avoid:
            again = os.openpty()  # the old pair still holds the freed number
            os.close(master)
            os.close(slave)
            master, slave = again
        tty.setraw(slave)  # no echo, no line editing, before anyone opens it
        os.set_blocking(master, False)
        self.master_fd, self.slave_fd = master, slave
        self.path = os.ttyname(slave)
        if self.link_path is not None:
            self._point_link(self.link_path)
        return self.path

    def _point_link(self, link: str) -> None:
        """Point the symlink ``link`` at ``path`` in one step: a host resolving it sees
        the old target or the new one, never no link (a symlink to a temporary name,
        renamed over the old one). Its folder is made if missing, as udev makes
        /dev/wuzi/by-serial/ for the first device."""
        os.makedirs(os.path.dirname(link) or ".", exist_ok=True)
        tmp = f"{link}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(self.path, tmp)
        os.replace(tmp, link)

    def remove_link(self) -> None:
        """Remove ``link_path`` if it still points at this device (a device gone for good:
        udev removes its symlink; a link re-pointed by someone else is left alone)."""
        link = self.link_path
        if link is None:
            return
        with contextlib.suppress(OSError):
            if os.readlink(link) == self.path:
                os.unlink(link)

    def close(self) -> None:
        """Close the pty: to the host the device node is gone, as when a cable is pulled;
        ``open_pty`` plugs it in again, under a new node (a udev symlink keeps the host's
        name stable)."""
        for fd in (self.master_fd, self.slave_fd):
            if fd >= 0:
                os.close(fd)
        self.master_fd = self.slave_fd = -1

    def fileno(self) -> int:
        return self.master_fd

    def reading_fd(self, now_ms: int) -> int:
        """The fd to wait on for the host's bytes at ``now_ms``: -1 while the pty is closed
        (a pulled cable) or the device is stalled (it reads nothing)."""
        if now_ms < self.stalled_until_ms:
            return -1
        return self.master_fd

    def stall(self, now_ms: int, ms: int) -> None:
        """Stop reading the host's bytes for ``ms`` (the device's own frames still go)."""
        self.stalled_until_ms = max(self.stalled_until_ms, now_ms + ms)

    def pull(self, now_ms: int, ms: int) -> None:
        """The cable out at ``now_ms`` for ``ms``: the pty closes now; ``plug_in`` at the
        end opens a new one (a later pull meanwhile extends the time out)."""
        self.pulled_until_ms = max(self.pulled_until_ms, now_ms + ms)
        self.close()

    def plug_in(self, now_ms: int) -> None:
        """The cable back (if its time out is over): a new pty under a new path, the link
        re-pointed, ``on_replug`` told."""
        if self.master_fd >= 0 or now_ms < self.pulled_until_ms:
            return
        path = self.open_pty(avoid=self.path or None)
        self.replugs += 1
        if self.on_replug is not None:
            self.on_replug(path)

    def _stall_wake(self, now_ms: int, wake_ms: int) -> int:
        """``wake_ms``, or the end of a stall before it (the runner must then select the
        fd again)."""
        if self.stalled_until_ms > now_ms:
            return min(wake_ms, self.stalled_until_ms)
        return wake_ms

    def _write_master(self, chunk: bytes) -> bool:
        """Write ``chunk`` to the pty master; False when nobody is reading or the cable is
        out (the bytes are lost, as on a real cable)."""
        if self.master_fd < 0:
            return False
        try:
            os.write(self.master_fd, chunk)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EIO):
                raise
            return False
        return True


class VirtualBoard(PtyDevice):
    """A sensor board on a pty. Closed (``close``), the MCU goes on scanning and logging (a
    board with its own supply) until ``open_pty`` plugs it in again."""

    def __init__(
        self,
        *,
        serial: str = "SIM-0001",
        revision: str = "sensor-rev-a",
        faults: Faults | None = None,
        scan_ms: int = 5,
        debounce_scans: int = 4,
        heartbeat_ms: int = 200,
        snapshot_ms: int = 2000,
        log_size: int = 512,
        seed: int | None = None,
        on_physical: Callable[[int, int, int], None] | None = None,
        on_change_sent: Callable[[int, int, int], None] | None = None,
        point_leds: bool = False,
    ) -> None:
        super().__init__()
        self.serial = serial
        self.point_leds = point_leds
        self.led_power = fw_fake_machine.Pin()
        self.led_chain = fw_fake_machine.LedChain(self.led_power)
        self.revision = revision
        self.faults = faults or Faults(seed=seed)
        self.scan_ms = scan_ms
        self.base_scan_ms = scan_ms
        self.debounce_scans = debounce_scans
        self.heartbeat_ms = heartbeat_ms
        self.snapshot_ms = snapshot_ms
        self.log_size = log_size
        self.rng = random.Random(seed)
        self.on_physical = on_physical
        self.on_change_sent = on_change_sent
        self._sent_evno = 0
        self.table = fw_fake_machine.StoneTable()
        self.wiring = fw_fake_machine.SensorWiring(self.table)
        self.matrix = fw_matrix.Matrix(self.wiring.spi, self.wiring.row_latch, self.wiring.col_load)
        self.mcu: fw_board.SensorBoard | None = None
        self.boot_ms = 0
        self.down_until_ms = 0  # MCU in reset
        self.silent_until_ms = 0  # link unplugged
        self.slow_until_ms = 0
        self.next_scan_ms = 0
        self._actions: list[tuple[int, int, Callable[[], None]]] = []
        self._action_seq = 0
        self._script_end_ms = 0
        self.bytes_out = 0
        self.bytes_lost = 0
        # the wood changed since the MCU's last scan: a scan of untouched wood with no
        # reading counting its debounce changes nothing but the scan count, so it is
        # skipped (the simulator serves dozens of boards at 200 Hz on one core)
        self._touched = True

    # -- the pty --------------------------------------------------------------------------

    def _emit(self, frame: bytes) -> None:
        if self.on_change_sent is not None and frame[4] == wire.T_CHANGE:
            evno = wire.get_u32(frame, wire.HEADER_LEN)
            if evno > self._sent_evno:  # live, not a replay: when the debounce window ended
                self._sent_evno = evno
                self.on_change_sent(evno, frame[wire.HEADER_LEN + 4], frame[wire.HEADER_LEN + 5])
        if self.master_fd < 0:
            return
        if self.now_ms < self.silent_until_ms:
            self.bytes_lost += len(frame)
            return
        for chunk in self.faults.outgoing(as_protocol(frame, self.protocol)):
            if self._write_master(chunk):
                self.bytes_out += len(chunk)
            else:
                self.bytes_lost += len(chunk)

    # -- the MCU --------------------------------------------------------------------------

    now_ms = 0

    def boot(self, now_ms: int) -> None:
        self.now_ms = now_ms
        self.boot_ms = now_ms
        self._sent_evno = 0
        self._touched = True
        self.mcu = fw_board.SensorBoard(
            self.matrix,
            FramePort(self._emit),
            self.serial,
            self.revision,
            self.rng.getrandbits(30) or 1,
            debounce_scans=self.debounce_scans,
            scan_us=self.scan_ms * 1000,
            heartbeat_ms=self.heartbeat_ms,
            snapshot_ms=self.snapshot_ms,
            log_size=self.log_size,
            # a reset MCU starts with the rail off: every LED dark, as on the wood
            leds=fw_point_led.PointLeds(self.led_chain, self.led_power)
            if self.point_leds
            else None,
        )
        self.mcu.boot(0)
        self.next_scan_ms = now_ms

    def lit_point(self) -> tuple[int, int, bool] | None:
        """(point, colour code, blinking) the firmware has lit, None when none (or the MCU
        is in reset, or the board has no point LEDs)."""
        leds = None if self.mcu is None else self.mcu.leds
        if not isinstance(leds, fw_point_led.PointLeds) or leds.point < 0:
            return None
        return leds.point, leds.code, leds.blink

    def shown(self) -> list[tuple[int, int, int, int]]:
        """(point, r, g, b) of every LED showing a colour on the wood right now (a blink's
        dark half shows nothing)."""
        return self.led_chain.lit()

    def reboot(self, now_ms: int, down_ms: int = REBOOT_MS) -> None:
        self.mcu = None
        self.led_power.value(0)  # the MCU in reset lets the rail's gate go: dark
        self.down_until_ms = now_ms + down_ms

    def unplug(self, now_ms: int, ms: int) -> None:
        self.silent_until_ms = max(self.silent_until_ms, now_ms + ms)

    def replug(self, now_ms: int, ms: int) -> None:
        """The USB cable pulled for ``ms``: the pty closes, the MCU loses power (the stones
        stay on the wood); at plug-in a new pty opens and the MCU boots afresh."""
        self.pull(now_ms, ms)
        self.mcu = None
        self.led_power.value(0)  # no USB power, no light
        self.down_until_ms = max(self.down_until_ms, self.pulled_until_ms)
        self.at(self.pulled_until_ms, lambda: self.plug_in(self.now_ms))

    def slow(self, now_ms: int, ms: int, period_ms: int) -> None:
        self.scan_ms = period_ms
        self.slow_until_ms = now_ms + ms

    def tick(self, now_ms: int) -> None:
        """Run what is due by ``now_ms``: physical actions, resets, scans, periodic frames."""
        self.now_ms = now_ms
        while self._actions and self._actions[0][0] <= now_ms:
            _, _, action = heapq.heappop(self._actions)
            action()
        if self.slow_until_ms and now_ms >= self.slow_until_ms:
            self.scan_ms = self.base_scan_ms
            self.slow_until_ms = 0
        if self.mcu is None:
            if now_ms >= self.down_until_ms:
                self.boot(now_ms)
            return
        mcu_ms = now_ms - self.boot_ms
        if now_ms >= self.next_scan_ms:
            mcu = self.mcu
            if self._touched or mcu.steady_looked or mcu.scans < mcu.debounce or any(mcu.unsettled):
                self._touched = False
                mcu.scan(mcu_ms)
            else:
                mcu.scans += 1  # all a scan of untouched, settled wood does
            self.next_scan_ms += self.scan_ms
            if self.next_scan_ms <= now_ms:  # fell behind (a busy host): do not burst
                self.next_scan_ms = now_ms + self.scan_ms
        self.mcu.poll(mcu_ms)

    def next_wake_ms(self) -> int:
        wake = self.next_scan_ms if self.mcu is not None else self.down_until_ms
        mcu = self.mcu
        if mcu is not None and mcu.steady_wanted and not mcu.steady_looked:
            wake = min(wake, self.boot_ms + mcu.steady_due)  # the host's STEADY_REQ falls due
        if self._actions:
            wake = min(wake, self._actions[0][0])
        return self._stall_wake(self.now_ms, wake)

    def on_readable(self, now_ms: int) -> None:
        self.now_ms = now_ms
        if self.reading_fd(now_ms) < 0:
            return
        try:
            data = os.read(self.master_fd, 4096)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EIO, errno.EBADF):
                return
            raise
        if not data or now_ms < self.silent_until_ms or self.mcu is None:
            return
        data = self.faults.incoming(data)
        if data:
            self.mcu.receive(data, now_ms - self.boot_ms)

    # -- the wood ---------------------------------------------------------------------------

    def at(self, t_ms: int, action: Callable[[], None]) -> None:
        self._action_seq += 1
        heapq.heappush(self._actions, (t_ms, self._action_seq, action))

    def set_cell(self, point: int, code: int) -> None:
        self.table.cells[point] = code
        self._touched = True
        if self.on_physical is not None:
            self.on_physical(point, code, self.now_ms)

    def schedule(self, step: Step, t0_ms: int) -> None:
        """Queue a script step (its time counted from ``t0_ms``)."""
        t = t0_ms + step.t_ms
        if step.verb == "place" and step.colour is not None:
            p, code = step.points[0], int(step.colour)
            self.at(t, lambda: self.set_cell(p, code))
        elif step.verb == "remove":
            p = step.points[0]
            self.at(t, lambda: self.set_cell(p, wire.EMPTY))
        elif step.verb == "slide" and step.colour is not None:
            frm, to, code = step.points[0], step.points[1], int(step.colour)

            def leave() -> None:
                self.set_cell(frm, wire.EMPTY)
                self.set_cell(to, code)

            self.at(t, lambda: self.set_cell(frm, code))
            self.at(t + SLIDE_DWELL_MS, leave)
        elif step.verb == "knock":
            frm, to = step.points

            def knock() -> None:
                code = self.table.cells[frm]
                self.set_cell(frm, wire.EMPTY)
                if code:
                    self.set_cell(to, code)

            self.at(t, knock)
        elif step.verb == "unplug":
            ms = step.ms
            self.at(t, lambda: self.unplug(t, ms))
        elif step.verb == "stall":
            ms = step.ms
            self.at(t, lambda: self.stall(t, ms))
        elif step.verb == "replug":
            ms = step.ms
            self.at(t, lambda: self.replug(t, ms))
        elif step.verb == "reboot":
            self.at(t, lambda: self.reboot(t))
        elif step.verb == "stuck":
            p, code = step.points[0], step.arg
            self.at(t, lambda: self._stick(p, code))
        elif step.verb == "slow":
            ms, period = step.ms, step.arg
            self.at(t, lambda: self.slow(t, ms, period))
        self._script_end_ms = max(self._script_end_ms, t + step.ms)

    def _stick(self, point: int, code: int) -> None:
        self.table.set_stuck(point, code)
        self._touched = True
        if self.mcu is not None:
            self.mcu.self_test(self.now_ms - self.boot_ms)

    def script_end_ms(self) -> int:
        """When the last scheduled step is over (a fault's duration counted)."""
        return max(max((a[0] for a in self._actions), default=self.now_ms), self._script_end_ms)
