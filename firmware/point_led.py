"""The point LEDs of ``sensor-rev-b``: one addressable RGB LED under each of the 225 points.

Why it exists: in a linked game (docs/linked.md) the opponent's move is made in another hall,
and the player must place the opponent's stone on their own board ("mirroring"). The board
lights the point to mirror, steady or blinking, in the stone's colour, and puts it out by
itself the moment its own scan settles a stone of that colour there: no round trip to the
host, so the light goes out as the hand leaves the stone.

The hardware (boards/sensor-rev-b/README.md): a chain of 225 SK6812MINI-E on one data pin,
LED ``i`` under point ``i`` (``(row-1)*15 + column``), 3 bytes per LED in G, R, B order, on a
5 V rail a P-MOSFET switches (``power``): the chain draws ~1 mA per LED even dark, so the
rail is off whenever no point is lit (a dark board draws nothing for its LEDs).

The parts are passed in, as ``matrix.py``'s are: ``chain.write(buf, n)`` clocks the first
``n`` bytes of ``buf`` down the data line (``machine.bitstream`` with the WS2812 timing of
MicroPython's ``neopixel`` on the MCU, a recorder in tests), and ``power.value(v)`` switches
the rail. Time comes in as ``now_ms``. So this file runs on the RP2040, under CPython and
under MicroPython in the tests.

Only one point is lit at a time (a newer LIGHT replaces the lit point). A WS2812-style chain
passes on what is beyond each LED's own 3 bytes, so lighting point ``p`` writes only the
first ``p + 1`` LEDs (at most 675 bytes, 6.75 ms at 800 kHz; bitstream holds interrupts
for that long, which at most delays one scan: the debounce counts scans, not time). Writes
happen only when the light changes: a LIGHT, and each blink edge (twice a second).
``dark`` only cuts the rail (the chain forgets its colours with its supply): it writes
nothing and allocates nothing, so the scan may call it.
"""

IN_PACKAGE = "." in __name__
if IN_PACKAGE:
    from . import wire
else:
    import wire

const = wire.const

_COUNT = const(225)
POWER_UP_MS = const(1)  # after the rail is switched on, the LEDs reset before data counts


class PointLeds:
    """The one lit point of the chain: which, its colour code (1 black, 2 white), steady or
    blinking. ``black`` and ``white`` are the (r, g, b) each stone colour is shown in (a
    black stone cannot be shown as black light: boards/sensor-rev-b chooses a blue)."""

    def __init__(
        self,
        chain: object,
        power: object,
        black: tuple[int, int, int] = (0, 40, 160),
        white: tuple[int, int, int] = (90, 90, 90),
        blink_ms: int = 500,
    ) -> None:
        if blink_ms < 50:
            raise ValueError("blink_ms must be at least 50")
        self.chain = chain
        self.power = power
        self.blink_ms = blink_ms
        self.buf = bytearray(3 * _COUNT)
        # GRB of each colour code: [0:3] black (code 1), [3:6] white (code 2)
        self.grb = bytearray((black[1], black[0], black[2], white[1], white[0], white[2]))
        self.point = -1  # none lit
        self.code = 0
        self.blink = False
        self.shown = False  # the lit point shows its colour now (a blink's off half: False)
        self.powered = False
        self.powered_at = 0
        self.next_edge = 0
        self.write_n = 0  # bytes to clock out at the next poll (0: nothing changed)
        self.writes = 0
        power.value(0)  # type: ignore[attr-defined]

    def light(self, point: int, code: int, blink: bool, now_ms: int) -> None:
        """Light ``point`` (0..224) in the colour of stone ``code`` (1 black, 2 white),
        putting out any other lit point; the chain is written at the next ``poll``."""
        if not 0 <= point < _COUNT or code not in (wire.BLACK, wire.WHITE):
            raise ValueError("a point 0..224 and a stone colour 1 or 2")
        old = self.point
        if old >= 0 and old != point:
            self._paint(old, False)
        self.point = point
        self.code = code
        self.blink = blink
        self._paint(point, True)
        last = point if point > old else old
        if 3 * (last + 1) > self.write_n:
            self.write_n = 3 * (last + 1)
        self.next_edge = (now_ms + self.blink_ms) & wire.TICKS_MASK
        if not self.powered:
            self.powered = True
            self.powered_at = now_ms
            self.power.value(1)  # type: ignore[attr-defined]

    def dark(self) -> None:
        """Put the lit point out: the rail off, so the chain is dark at once (and draws
        nothing). Writes nothing, allocates nothing: safe in the scan."""
        if self.point >= 0:
            self._paint(self.point, False)
        self.point = -1
        self.code = 0
        self.blink = False
        self.write_n = 0
        if self.powered:
            self.powered = False
            self.power.value(0)  # type: ignore[attr-defined]

    def poll(self, now_ms: int) -> None:
        """A blink's edge when due, and the pending write once the rail has been on for
        ``POWER_UP_MS``: call once per loop turn."""
        point = self.point
        if point < 0:
            return
        if self.blink and wire.ticks_diff(now_ms, self.next_edge) >= 0:
            self._paint(point, not self.shown)
            self.next_edge = (self.next_edge + self.blink_ms) & wire.TICKS_MASK
            if wire.ticks_diff(now_ms, self.next_edge) >= 0:  # fell behind: no burst
                self.next_edge = (now_ms + self.blink_ms) & wire.TICKS_MASK
            if 3 * (point + 1) > self.write_n:
                self.write_n = 3 * (point + 1)
        if self.write_n and wire.ticks_diff(now_ms, self.powered_at) >= POWER_UP_MS:
            self.chain.write(self.buf, self.write_n)  # type: ignore[attr-defined]
            self.write_n = 0
            self.writes += 1

    def _paint(self, point: int, on: bool) -> None:
        buf = self.buf
        at = 3 * point
        src = 3 * (self.code - 1)
        grb = self.grb
        for i in range(3):
            buf[at + i] = grb[src + i] if on else 0
        self.shown = on
