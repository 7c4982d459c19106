"""A fake ``machine`` layer: the pins and SPI bus that ``matrix.py`` and ``clock_unit.py`` use.

It models the wiring of ``boards/sensor-rev-a`` electrically: bytes written on SPI go into the
595 row chain, a rising edge on the row latch powers that row, a low level on the 165 load pin
samples the latches of the powered row, and ``readinto`` shifts them out. The latches read a
``StoneTable`` (what lies on the wood, plus stuck latches). Written for MicroPython too, so the
firmware tests run the very same objects under MicroPython and CPython.
"""


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(
        self, ident: object = 0, mode: int = 1, pull: object = None, value: int = 0
    ) -> None:
        self.ident = ident
        self.mode = mode
        self.level = value
        self.listeners: list[object] = []

    def value(self, v: object = None) -> int:
        if v is None:
            return self.level
        new = 1 if v else 0
        old = self.level
        self.level = new
        if new != old:
            for listener in self.listeners:
                listener(new)  # type: ignore[operator]
        return new

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)


class StoneTable:
    """What the sensors see: a code per point (0 empty, 1 black, 2 white) and shorted latches.

    A latch whose output is shorted pulls its column line whether its row is powered or not,
    so the whole column reads that colour in every row and in the idle test, as on the wood.
    """

    def __init__(self) -> None:
        self.cells = bytearray(225)
        self.stuck_point = bytearray(225)  # bit 0: black latch shorted, bit 1: white
        self.stuck_count = 0

    def set_stuck(self, point: int, code: int) -> None:
        """Short (code 1 black, 2 white, 3 both) or repair (0) the latches of a point."""
        if self.stuck_point[point] and not code:
            self.stuck_count -= 1
        elif code and not self.stuck_point[point]:
            self.stuck_count += 1
        self.stuck_point[point] = code

    def row_bits(self, mask: int, out4: bytearray) -> None:
        black = 0
        white = 0
        cells = self.cells
        for r in range(15):
            if mask & (1 << r):
                base = r * 15
                for c in range(15):
                    code = cells[base + c]
                    black |= (code & 1) << c
                    white |= ((code >> 1) & 1) << c
        if self.stuck_count:
            stuck = self.stuck_point
            for p in range(225):
                code = stuck[p]
                if code:
                    c = p % 15
                    black |= (code & 1) << c
                    white |= ((code >> 1) & 1) << c
        out4[0] = black & 0xFF
        out4[1] = (black >> 8) & 0xFF
        out4[2] = white & 0xFF
        out4[3] = (white >> 8) & 0xFF


class SensorWiring:
    """Connects a fake SPI bus and two fake pins like the 595/165 chains of sensor-rev-a."""

    def __init__(self, table: StoneTable) -> None:
        self.table = table
        self.shift = 0
        self.rows = 0
        self.sampled = bytearray(4)
        self.spi = SPI(0)
        self.row_latch = Pin(17, Pin.OUT)
        self.col_load = Pin(20, Pin.OUT, value=1)
        self.spi.on_write = self._write
        self.spi.on_readinto = self._readinto
        self.row_latch.listeners.append(self._latch)
        self.col_load.listeners.append(self._load)

    def _write(self, buf: bytes) -> None:
        for byte in buf:
            self.shift = ((self.shift << 8) | byte) & 0xFFFF

    def _latch(self, level: int) -> None:
        if level:
            self.rows = self.shift & 0x7FFF

    def _load(self, level: int) -> None:
        if not level:
            self.table.row_bits(self.rows, self.sampled)

    def _readinto(self, buf: bytearray) -> None:
        for i in range(len(buf)):
            buf[i] = self.sampled[i] if i < 4 else 0


class SPI:
    def __init__(self, ident: int = 0, baudrate: int = 1000000, **kwargs: object) -> None:
        self.ident = ident
        self.on_write: object = None
        self.on_readinto: object = None

    def write(self, buf: bytes) -> None:
        if self.on_write is not None:
            self.on_write(buf)  # type: ignore[operator]

    def readinto(self, buf: bytearray) -> None:
        if self.on_readinto is not None:
            self.on_readinto(buf)  # type: ignore[operator]


class PWM:
    def __init__(self, pin: object, freq: int = 1000, duty_u16: int = 0) -> None:
        self.pin = pin
        self.frequency = freq
        self.duty = duty_u16

    def freq(self, f: object = None) -> int:
        if f is not None:
            self.frequency = int(f)  # type: ignore[call-overload]
        return self.frequency

    def duty_u16(self, d: object = None) -> int:
        if d is not None:
            self.duty = int(d)  # type: ignore[call-overload]
        return self.duty


class LedChain:
    """The point LEDs of ``boards/sensor-rev-b`` as the wood shows them: a WS2812-style chain
    (each write's bytes fill the LEDs from the first, 3 bytes G, R, B each; LEDs beyond the
    bytes written keep their colour) on a rail switched by ``power`` (a ``Pin``): with the
    rail off every LED is dark and forgets its colour."""

    def __init__(self, power: Pin, count: int = 225) -> None:
        self.grb = bytearray(3 * count)
        self.count = count
        self.writes = 0
        self.dead_writes = 0  # written while the rail was off: lost, as on the wood
        self.power = power
        power.listeners.append(self._rail)

    def _rail(self, level: int) -> None:
        if not level:
            for i in range(len(self.grb)):
                self.grb[i] = 0

    def write(self, buf: bytearray, n: int) -> None:
        if not self.power.level:
            self.dead_writes += 1
            return
        for i in range(n):
            self.grb[i] = buf[i]
        self.writes += 1

    def lit(self) -> list[tuple[int, int, int, int]]:
        """(point, r, g, b) of every LED that shows a colour now."""
        g = self.grb
        return [
            (p, g[3 * p + 1], g[3 * p], g[3 * p + 2])
            for p in range(self.count)
            if g[3 * p] or g[3 * p + 1] or g[3 * p + 2]
        ]


class CapturePort:
    """An output port that keeps what was written in a preallocated buffer (no allocation)."""

    def __init__(self, size: int = 65536) -> None:
        self.buf = bytearray(size)
        self.n = 0

    def write(self, data: bytes) -> int:
        n = len(data)
        if self.n + n > len(self.buf):
            self.n = 0  # wrap: tests read it before it fills
        buf = self.buf
        at = self.n
        for i in range(n):  # byte by byte: a slice would allocate under MicroPython
            buf[at + i] = data[i]
        self.n = at + n
        return n

    def take(self) -> bytes:
        out = bytes(self.buf[: self.n])
        self.n = 0
        return out


def unique_id() -> bytes:
    return b"\x00\x00\x00\x00\x00\x00\x00\x01"
