"""TM1637 4-digit display, bit-banged on two pins (CLK, DIO) with pull-ups.

The host owns the time and sends ready-made segment bytes (bit 0 = segment a ... bit 6 = g,
bit 7 = the colon on the second digit); this driver only clocks them out. The pins are passed
in (``machine.Pin`` on the MCU, fakes in tests), with ``value(v)`` and ``init(mode)``.
"""

_CMD_DATA = 0x40  # write data, auto-increment address
_CMD_ADDR = 0xC0  # address of the first digit
_CMD_CTRL = 0x80  # display control: | 0x08 display on, | 0..7 brightness


class TM1637:
    def __init__(self, clk: object, dio: object, delay_us: object = None) -> None:
        self.clk = clk
        self.dio = dio
        self.delay_us = delay_us
        self.acks = 0
        self.naks = 0

    def _wait(self) -> None:
        if self.delay_us is not None:
            self.delay_us(5)  # type: ignore[operator]

    def _start(self) -> None:
        self.dio.value(0)  # type: ignore[attr-defined]  # DIO falls while CLK is high
        self._wait()
        self.clk.value(0)  # type: ignore[attr-defined]
        self._wait()

    def _stop(self) -> None:
        self.dio.value(0)  # type: ignore[attr-defined]
        self._wait()
        self.clk.value(1)  # type: ignore[attr-defined]
        self._wait()
        self.dio.value(1)  # type: ignore[attr-defined]  # DIO rises while CLK is high
        self._wait()

    def _byte(self, b: int) -> None:
        for i in range(8):  # LSB first, sampled on CLK rising
            self.dio.value((b >> i) & 1)  # type: ignore[attr-defined]
            self._wait()
            self.clk.value(1)  # type: ignore[attr-defined]
            self._wait()
            self.clk.value(0)  # type: ignore[attr-defined]
            self._wait()
        self.dio.value(1)  # type: ignore[attr-defined]  # release DIO: the chip pulls it low to ack
        self.clk.value(1)  # type: ignore[attr-defined]
        self._wait()
        if self.dio.value():  # type: ignore[attr-defined]
            self.naks += 1
        else:
            self.acks += 1
        self.clk.value(0)  # type: ignore[attr-defined]
        self._wait()

    def show(self, segments: bytes | bytearray, brightness: int = 7) -> None:
        """Write four segment bytes; brightness 0..7, 8 turns the display off."""
        self._start()
        self._byte(_CMD_DATA)
        self._stop()
        self._start()
        self._byte(_CMD_ADDR)
        for i in range(4):
            self._byte(segments[i])
        self._stop()
        self._start()
        self._byte(_CMD_CTRL | (0x08 | (brightness & 7) if brightness < 8 else 0))
        self._stop()
