"""The sensor board's logic: scan, per-point debounce, numbered change log, protocol replies.

The MCU is thin (Klipper's split): it reports debounced sensor states and keeps a RAM log so the
host can ask for everything since event k after a lost frame or a reconnect; the host owns
every judgement. This module knows nothing about ``machine``: the matrix driver (``matrix.py``
on the MCU, a fake in tests and in the simulator) and the output port are passed in, and time
comes in as ``now_ms`` (ticks_ms on the MCU), so the same code runs on the RP2040, under
CPython and under MicroPython-on-WebAssembly in the tests.

``scan()`` never allocates: every buffer is made here, in ``__init__``.
"""

# On the MCU each file is a top-level module; the host imports its copies as a package
# (wuzi.link, wuzi.sim.firmware). Nothing here knows the host's layout. mypy: IN_PACKAGE is
# always false for the firmware's check (firmware/mypy.ini), always true for the host's.
IN_PACKAGE = "." in __name__
if IN_PACKAGE:
    from . import endpoint, wire
else:
    import endpoint
    import wire

const = wire.const

_ROWS = const(15)
_COLS = const(15)
_POINTS = const(225)
_ENTRY = const(6)  # log entry: point u8, state u8, tick u32
_REPLAY_BURST = const(8)  # replayed frames per poll(): bounded work per main-loop turn
_MAX_STUCK = const(120)
_BURST = const(5)  # this many changes in one scan is no hand: check for a stuck line


class SensorBoard(endpoint.Endpoint):
    """One sensor board's firmware state.

    ``matrix`` has ``read_row(row, out4)`` (row 0..14; ``out4`` gets black bits of columns
    0..7, 8..14, then white bits likewise) and ``read_idle(out4)`` (no row powered: any bit
    set is a stuck line). ``port`` has ``write(buf)`` (``endpoint.Endpoint`` writes the frames).
    ``leds``: the point LEDs (``point_led.PointLeds``, sensor-rev-b), None on a board without
    them: its INFO says so (no ``CAP_POINT_LEDS``) and it refuses LIGHT and DARK.
    """

    def __init__(
        self,
        matrix: object,
        port: object,
        serial: str,
        revision: str,
        boot_id: int,
        debounce_scans: int = 4,
        scan_us: int = 5000,
        heartbeat_ms: int = 200,
        snapshot_ms: int = 2000,
        log_size: int = 512,
        leds: object = None,
    ) -> None:
        if debounce_scans < 1 or debounce_scans > 250:
            raise ValueError("debounce_scans must be 1..250")
        super().__init__(port, serial, revision, boot_id)
        self.matrix = matrix
        self.debounce = debounce_scans
        self.scan_us = scan_us
        self.heartbeat_ms = heartbeat_ms
        self.snapshot_ms = snapshot_ms
        self.log_size = log_size
        self.candidate = bytearray(_POINTS)
        self.count = bytearray(_POINTS)
        self.stable = bytearray(_POINTS)
        self.unsettled = bytearray(_ROWS)
        self.prev = bytearray(_ROWS * 4)
        self.row = bytearray(4)
        self.log = bytearray(log_size * _ENTRY)
        self.max_scan_us = 0
        self.last_heartbeat = 0
        self.last_snapshot = 0
        self.replay_next = 0
        self.f_change = wire.Frame(wire.T_CHANGE, wire.LEN_CHANGE)
        self.f_replay = wire.Frame(wire.T_CHANGE, wire.LEN_CHANGE)
        self.f_snapshot = wire.Frame(wire.T_SNAPSHOT, wire.LEN_SNAPSHOT)
        self.f_selftest = wire.Frame(wire.T_SELFTEST, 6 + 2 * _MAX_STUCK)
        self.stuck = bytearray(_POINTS)
        self.announced = False
        # STEADY_REQ (2.1): the host's one pending question "is every stone on you reported,
        # as of ``steady_due``?" — answered by the first look at or after that tick that
        # finds no reading in its debounce (a newer question replaces it)
        self.f_steady = wire.Frame(wire.T_STEADY, wire.LEN_STEADY)
        self.steady_wanted = False
        self.steady_looked = False  # the fresh read at the due tick was done (not steady)
        self.steady_token = 0
        self.steady_due = 0
        # LIGHT / DARK (2.2): the point LED, and the frame that tells the host how it is
        self.leds = leds
        self.f_lamp = wire.Frame(wire.T_LAMP, wire.LEN_LAMP)

    # -- output -------------------------------------------------------------------------

    def send_info(self, now_ms: int) -> None:
        caps = 0 if self.leds is None else wire.CAP_POINT_LEDS
        self._send_info(wire.KIND_SENSOR, self.debounce, self.scan_us, now_ms, caps)

    def send_heartbeat(self, now_ms: int) -> None:
        self._send_heartbeat(now_ms, self.max_scan_us)
        self.max_scan_us = 0

    def send_snapshot(self, now_ms: int, reason: int = 0) -> None:
        f = self.f_snapshot
        b = f.buf
        at = f.body
        wire.put_u32(b, at, self.evno)
        wire.put_u32(b, at + 4, now_ms & wire.TICKS_MASK)
        b[at + 8] = reason
        wire.pack_cells(self.stable, b, at + 9)
        self._send(f)

    # -- scanning -----------------------------------------------------------------------

    def scan(self, now_ms: int) -> None:
        """Read every row once; a point whose reading held for ``debounce`` scans is reported."""
        matrix = self.matrix
        row_buf = self.row
        prev = self.prev
        candidate = self.candidate
        count = self.count
        stable = self.stable
        n = self.debounce
        before = self.evno
        for r in range(_ROWS):
            matrix.read_row(r, row_buf)  # type: ignore[attr-defined]
            at = r * 4
            if (
                self.unsettled[r] == 0
                and prev[at] == row_buf[0]
                and prev[at + 1] == row_buf[1]
                and prev[at + 2] == row_buf[2]
                and prev[at + 3] == row_buf[3]
            ):
                continue  # nothing moved on this row and nothing is still counting
            prev[at] = row_buf[0]
            prev[at + 1] = row_buf[1]
            prev[at + 2] = row_buf[2]
            prev[at + 3] = row_buf[3]
            black = row_buf[0] | (row_buf[1] << 8)
            white = row_buf[2] | (row_buf[3] << 8)
            base = r * _COLS
            counting = 0
            for c in range(_COLS):
                p = base + c
                code = ((black >> c) & 1) | (((white >> c) & 1) << 1)
                if code != candidate[p]:
                    candidate[p] = code
                    count[p] = 1
                elif count[p] < n:
                    count[p] += 1
                if count[p] < n:
                    counting += 1
                elif stable[p] != code:
                    stable[p] = code
                    self._record(p, code, now_ms)
            self.unsettled[r] = counting
        self.scans += 1
        if self.evno - before >= _BURST:
            self.self_test(now_ms)
        if (
            self.steady_looked  # a scan begun after the due tick: its readings are fresh
            and wire.ticks_diff(now_ms, self.steady_due) >= 0
            and not self._counting()
        ):
            self.send_steady(now_ms)

    def steady_now(self) -> bool:
        """Whether every stone on the board right now is reported: each row reads as the
        last scan read it and no point of it is still counting its debounce. A fresh read,
        not the last scan's, so a stone put down since that scan counts (the host asks
        after a clock press: a stone laid just before the press must not be missed)."""
        matrix = self.matrix
        row_buf = self.row
        prev = self.prev
        for r in range(_ROWS):
            if self.unsettled[r]:
                return False
            matrix.read_row(r, row_buf)  # type: ignore[attr-defined]
            at = r * 4
            if (
                prev[at] != row_buf[0]
                or prev[at + 1] != row_buf[1]
                or prev[at + 2] != row_buf[2]
                or prev[at + 3] != row_buf[3]
            ):
                return False
        return True

    def _counting(self) -> bool:
        """Whether a point of any row still counts its debounce (after the last scan).
        A loop, not ``any()`` of a generator: a generator allocates on the MCU."""
        for r in range(_ROWS):  # noqa: SIM110
            if self.unsettled[r]:
                return True
        return False

    def send_steady(self, now_ms: int) -> None:
        """Answer the pending STEADY_REQ: its token, our latest event number and tick."""
        self.steady_wanted = False
        self.steady_looked = False
        f = self.f_steady
        b = f.buf
        at = f.body
        b[at] = self.steady_token
        b[at + 1] = self.boot_id & 0xFF
        wire.put_u32(b, at + 2, self.evno)
        wire.put_u32(b, at + 6, now_ms & wire.TICKS_MASK)
        self._send(f)

    def _look_steady(self, now_ms: int) -> None:
        """At the pending question's due tick, look once (a fresh read); if a reading is
        still settling, the first scan after that ends with none settling answers."""
        wanted = self.steady_wanted and not self.steady_looked
        if wanted and wire.ticks_diff(now_ms, self.steady_due) >= 0:
            if self.steady_now():
                self.send_steady(now_ms)
            else:
                self.steady_looked = True

    def note_scan_time(self, us: int) -> None:
        if us > self.max_scan_us:
            self.max_scan_us = us

    def _record(self, point: int, code: int, now_ms: int) -> None:
        self.evno += 1
        log = self.log
        i = (self.evno % self.log_size) * _ENTRY
        tick = now_ms & wire.TICKS_MASK
        log[i] = point
        log[i + 1] = code
        wire.put_u32(log, i + 2, tick)
        if not self.announced:
            return  # logged; the host asks for it once it has seen this boot's INFO
        f = self.f_change
        b = f.buf
        at = f.body
        wire.put_u32(b, at, self.evno)
        b[at + 4] = point
        b[at + 5] = code
        wire.put_u32(b, at + 6, tick)
        b[at + 10] = self.boot_id & 0xFF
        self._send(f)
        leds = self.leds
        if leds is not None and leds.point == point and leds.code == code:  # type: ignore[attr-defined]
            # the stone to mirror is down: out at once, no round trip (after its CHANGE)
            self.send_lamp(0, wire.LAMP_PLACED, point, code, leds.blink, now_ms)  # type: ignore[attr-defined]
            leds.dark()  # type: ignore[attr-defined]

    def send_lamp(
        self, token: int, state: int, point: int, colour: int, blink: bool, now_ms: int
    ) -> None:
        """Tell the host how the point LED is: ``token`` answers its LIGHT or DARK (0: the
        board's own word, when a stone put the light out)."""
        f = self.f_lamp
        b = f.buf
        at = f.body
        b[at] = token
        b[at + 1] = state
        b[at + 2] = point
        b[at + 3] = colour
        b[at + 4] = wire.MODE_BLINK if blink else wire.MODE_STEADY
        wire.put_u32(b, at + 5, now_ms & wire.TICKS_MASK)
        b[at + 9] = self.boot_id & 0xFF
        self._send(f)

    # -- periodic work and host commands ------------------------------------------------

    def poll(self, now_ms: int) -> None:
        """Heartbeat, periodic snapshot and the next burst of a replay: call once per loop."""
        if not self.announced:
            if self.scans < self.debounce:
                return  # the first readings are not debounced yet: nothing true to say
            self.announced = True
            self.send_info(now_ms)
            self.self_test(now_ms)
        if self.replay_next:
            self._replay_burst()
        self._look_steady(now_ms)
        if self.leds is not None:
            self.leds.poll(now_ms)  # type: ignore[attr-defined]
        if wire.ticks_diff(now_ms, self.last_heartbeat) >= self.heartbeat_ms:
            self.last_heartbeat = now_ms
            self.send_heartbeat(now_ms)
        if self.snapshot_ms and wire.ticks_diff(now_ms, self.last_snapshot) >= self.snapshot_ms:
            self.last_snapshot = now_ms
            self.send_snapshot(now_ms, wire.SNAP_PERIODIC)

    def _replay_burst(self) -> None:
        f = self.f_replay
        b = f.buf
        at = f.body
        for _ in range(_REPLAY_BURST):
            k = self.replay_next
            if k == 0 or k > self.evno:
                self.replay_next = 0
                return
            i = (k % self.log_size) * _ENTRY
            wire.put_u32(b, at, k)
            b[at + 4] = self.log[i]
            b[at + 5] = self.log[i + 1]
            for j in range(4):
                b[at + 6 + j] = self.log[i + 2 + j]
            b[at + 10] = self.boot_id & 0xFF
            self._send(f)
            self.replay_next = k + 1

    def _command(self, t: int, b: bytearray, at: int, n: int, now_ms: int) -> None:
        if not self.announced:
            return  # still booting; the host retries
        if t == wire.T_HELLO:
            self.send_info(now_ms)
        elif t == wire.T_REPLAY:
            if n != wire.LEN_REPLAY:
                self._send_error(wire.E_BAD_LENGTH, t)
                return
            boot = wire.get_u32(b, at)
            since = wire.get_u32(b, at + 4)
            if boot != self.boot_id:
                self.send_info(now_ms)  # the host is asking about another boot: tell it ours
            elif since < 1 or since <= self.evno - self.log_size:
                self.send_snapshot(now_ms, wire.SNAP_NO_REPLAY)  # the log no longer holds them
            elif since <= self.evno:
                self.replay_next = since
                self._replay_burst()
        elif t == wire.T_SNAPSHOT_REQ:
            self.send_snapshot(now_ms, wire.SNAP_REQUESTED)
        elif t == wire.T_SELFTEST_REQ:
            self.self_test(now_ms)
        elif t == wire.T_STEADY_REQ:
            if n != wire.LEN_STEADY_REQ:
                self._send_error(wire.E_BAD_LENGTH, t)
                return
            self.steady_token = b[at]
            self.steady_due = (now_ms + wire.get_u16(b, at + 1)) & wire.TICKS_MASK
            self.steady_wanted = True
            self.steady_looked = False
            self._look_steady(now_ms)
        elif t == wire.T_LIGHT or t == wire.T_DARK:
            self._lamp_command(t, b, at, n, now_ms)
        else:
            self._send_error(wire.E_UNKNOWN_TYPE, t)

    def _lamp_command(self, t: int, b: bytearray, at: int, n: int, now_ms: int) -> None:
        """LIGHT (token, point, colour, mode) or DARK (token), answered by LAMP with the
        token. A board without point LEDs refuses both (ERROR not fitted); a field out of
        range is refused (ERROR bad value) and changes nothing. A LIGHT on a point that
        already holds a stone of that colour lights nothing: it is answered as placed."""
        if n != (wire.LEN_LIGHT if t == wire.T_LIGHT else wire.LEN_DARK):
            self._send_error(wire.E_BAD_LENGTH, t)
            return
        leds = self.leds
        if leds is None:
            self._send_error(wire.E_NOT_FITTED, t)
            return
        token = b[at]
        if t == wire.T_DARK:
            leds.dark()  # type: ignore[attr-defined]
            self.send_lamp(token, wire.LAMP_DARK, wire.NO_POINT, 0, False, now_ms)
            return
        point = b[at + 1]
        colour = b[at + 2]
        mode = b[at + 3]
        if point >= _POINTS or colour not in (wire.BLACK, wire.WHITE) or mode > wire.MODE_BLINK:
            self._send_error(wire.E_BAD_VALUE, t)
            return
        blink = mode == wire.MODE_BLINK
        if self.stable[point] == colour:
            leds.dark()  # type: ignore[attr-defined]
            self.send_lamp(token, wire.LAMP_PLACED, point, colour, blink, now_ms)
            return
        leds.light(point, colour, blink, now_ms)  # type: ignore[attr-defined]
        self.send_lamp(token, wire.LAMP_LIT, point, colour, blink, now_ms)

    def self_test(self, now_ms: int) -> int:
        """Report stuck sensors; returns how many points are stuck.

        With no row powered every column line must read inactive: an active one is a latch
        or line stuck on, and all points of that column are reported. A point whose two
        latches both read active (``BOTH``) is stuck too: no single stone can do that.
        """
        row_buf = self.row
        self.matrix.read_idle(row_buf)  # type: ignore[attr-defined]
        black = row_buf[0] | (row_buf[1] << 8)
        white = row_buf[2] | (row_buf[3] << 8)
        stuck = self.stuck
        total = 0
        for p in range(_POINTS):
            c = p % _COLS
            code = ((black >> c) & 1) | (((white >> c) & 1) << 1)
            if self.stable[p] == wire.BOTH:
                code = wire.BOTH
            stuck[p] = code
            if code:
                total += 1
        f = self.f_selftest
        b = f.buf
        at = f.body
        wire.put_u32(b, at, now_ms & wire.TICKS_MASK)
        b[at + 4] = total if total < 255 else 255
        n = 0
        for p in range(_POINTS):
            if stuck[p] and n < _MAX_STUCK:
                b[at + 6 + 2 * n] = p
                b[at + 7 + 2 * n] = stuck[p]
                n += 1
        b[at + 5] = n
        self._send_short(f, 6 + 2 * n)
        return total

    def boot(self, now_ms: int) -> None:
        """Start the timers. The boot is announced (INFO, then the self-test) by ``poll`` once
        the first ``debounce`` scans have settled the readings, so the INFO's event number
        already counts the stones found at power-up."""
        self.last_heartbeat = now_ms
        self.last_snapshot = now_ms
