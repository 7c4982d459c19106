"""The clock unit's logic: debounced buttons stamped with MCU ticks; displays, buzzer and LEDs
driven by the host (the host owns the time; the unit only shows it).

Presses are numbered events with a RAM log, exactly like the sensor board's changes, so the
host's session replays what a dropped frame or a reconnect lost. Buttons: 0 = left player,
1 = right player, 2 = claim/referee. Pins, displays, buzzer and port are passed in.
"""

# On the MCU each file is a top-level module; the host imports its copies as a package
# (wuzi.link, wuzi.sim.firmware). Nothing here knows the host's layout. mypy: IN_PACKAGE is
# always false for the firmware's check (firmware/mypy.ini), always true for the host's.
IN_PACKAGE = "." in __name__
if IN_PACKAGE:
    from . import debounce, endpoint, wire
else:
    import debounce
    import endpoint
    import wire

const = wire.const

_ENTRY = const(5)  # log entry: button u8, tick u32
_REPLAY_BURST = const(8)


class ClockUnit(endpoint.Endpoint):
    def __init__(
        self,
        buttons: list[object],
        displays: list[object],
        buzzer: object,
        leds: list[object],
        port: object,
        serial: str,
        revision: str,
        boot_id: int,
        debounce_ms: int = 30,
        heartbeat_ms: int = 200,
        log_size: int = 256,
    ) -> None:
        super().__init__(port, serial, revision, boot_id)
        self.buttons = buttons
        self.displays = displays
        self.buzzer = buzzer
        self.leds = leds
        self.heartbeat_ms = heartbeat_ms
        self.log_size = log_size
        self.debouncers = [debounce.EdgeDebouncer(debounce_ms) for _ in buttons]
        self.levels = bytearray(len(buttons))
        self.log = bytearray(log_size * _ENTRY)
        self.last_heartbeat = 0
        self.buzz_until = 0
        self.buzzing = False
        self.replay_next = 0
        self.announced = False
        self.f_press = wire.Frame(wire.T_PRESS, wire.LEN_PRESS)
        self.f_replay = wire.Frame(wire.T_PRESS, wire.LEN_PRESS)
        self.f_lost = wire.Frame(wire.T_SNAPSHOT, wire.LEN_SNAPSHOT)
        self.f_selftest = wire.Frame(wire.T_SELFTEST, 6 + 2 * 8)

    def send_info(self, now_ms: int) -> None:
        self._send_info(wire.KIND_CLOCK, 1, 1000, now_ms)

    def scan(self, now_ms: int) -> None:
        """Sample every button (active low); a debounced press becomes a numbered event."""
        for i in range(len(self.buttons)):
            level = 0 if self.buttons[i].value() else 1  # type: ignore[attr-defined]
            if level != self.levels[i]:
                self.levels[i] = level
                if self.debouncers[i].edge(level == 1, now_ms) and self.announced:
                    self._record(i, now_ms)
        self.scans += 1

    def _record(self, button: int, now_ms: int) -> None:
        self.evno += 1
        tick = now_ms & wire.TICKS_MASK
        i = (self.evno % self.log_size) * _ENTRY
        self.log[i] = button
        wire.put_u32(self.log, i + 1, tick)
        b = self.f_press.buf
        at = self.f_press.body
        wire.put_u32(b, at, self.evno)
        b[at + 4] = button
        wire.put_u32(b, at + 5, tick)
        b[at + 9] = self.boot_id & 0xFF
        self._send(self.f_press)

    def poll(self, now_ms: int) -> None:
        if not self.announced:
            self.announced = True
            self.send_info(now_ms)
            self.self_test(now_ms)
        if self.replay_next:
            self._replay_burst()
        if self.buzzing and wire.ticks_diff(now_ms, self.buzz_until) >= 0:
            self.buzzing = False
            self.buzzer.duty_u16(0)  # type: ignore[attr-defined]
        if wire.ticks_diff(now_ms, self.last_heartbeat) >= self.heartbeat_ms:
            self.last_heartbeat = now_ms
            self._send_heartbeat(now_ms, 0)

    def _replay_burst(self) -> None:
        b = self.f_replay.buf
        at = self.f_replay.body
        for _ in range(_REPLAY_BURST):
            k = self.replay_next
            if k == 0 or k > self.evno:
                self.replay_next = 0
                return
            i = (k % self.log_size) * _ENTRY
            wire.put_u32(b, at, k)
            for j in range(5):
                b[at + 4 + j] = self.log[i + j]
            b[at + 9] = self.boot_id & 0xFF
            self._send(self.f_replay)
            self.replay_next = k + 1

    def self_test(self, now_ms: int) -> None:
        """A button that reads pressed at boot is reported stuck (point field = button)."""
        b = self.f_selftest.buf
        at = self.f_selftest.body
        n = 0
        for i in range(len(self.buttons)):
            if self.levels[i] and n < 8:
                b[at + 6 + 2 * n] = i
                b[at + 7 + 2 * n] = 1
                n += 1
        wire.put_u32(b, at, now_ms & wire.TICKS_MASK)
        b[at + 4] = n
        b[at + 5] = n
        self._send_short(self.f_selftest, 6 + 2 * n)

    def _command(self, t: int, b: bytearray, at: int, n: int, now_ms: int) -> None:
        if t == wire.T_HELLO:
            self.send_info(now_ms)
        elif t == wire.T_REPLAY and n == wire.LEN_REPLAY:
            boot = wire.get_u32(b, at)
            since = wire.get_u32(b, at + 4)
            if boot != self.boot_id:
                self.send_info(now_ms)
            elif since < 1 or since <= self.evno - self.log_size:
                f = self.f_lost
                wire.put_u32(f.buf, f.body, self.evno)
                wire.put_u32(f.buf, f.body + 4, now_ms & wire.TICKS_MASK)
                f.buf[f.body + 8] = wire.SNAP_NO_REPLAY
                self._send(f)
            elif since <= self.evno:
                self.replay_next = since
                self._replay_burst()
        elif t == wire.T_DISPLAY and n == wire.LEN_DISPLAY:
            index = b[at]
            if index < len(self.displays):
                seg = bytearray(4)
                for i in range(4):
                    seg[i] = b[at + 1 + i]
                self.displays[index].show(seg, b[at + 5])  # type: ignore[attr-defined]
            else:
                self._send_error(wire.E_BAD_LENGTH, t)
        elif t == wire.T_BUZZ and n == wire.LEN_BUZZ:
            freq = wire.get_u16(b, at)
            ms = wire.get_u16(b, at + 2)
            self.buzzer.freq(freq)  # type: ignore[attr-defined]
            self.buzzer.duty_u16(32768)  # type: ignore[attr-defined]
            self.buzzing = True
            self.buzz_until = (now_ms + ms) & wire.TICKS_MASK
        elif t == wire.T_LED and n == wire.LEN_LED:
            mask = b[at]
            for i in range(len(self.leds)):
                self.leds[i].value((mask >> i) & 1)  # type: ignore[attr-defined]
        elif t == wire.T_SELFTEST_REQ:
            self.self_test(now_ms)
        elif t in (wire.T_REPLAY, wire.T_DISPLAY, wire.T_BUZZ, wire.T_LED):
            self._send_error(wire.E_BAD_LENGTH, t)
        else:
            self._send_error(wire.E_UNKNOWN_TYPE, t)
