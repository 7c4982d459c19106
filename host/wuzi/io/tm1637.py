"""A TM1637 display on two Raspberry Pi GPIO pins, through a gpiozero pin factory.

The same two-wire protocol as ``firmware/tm1637.py`` (start, LSB-first bytes each followed by
an ACK clock, stop), on gpiozero pins: CLK is an output, DIO is switched between output and
input (it is open-drain with a pull-up; the chip pulls it low to acknowledge a byte).
The two pins are reserved with the factory as gpiozero's own devices reserve theirs, so a
pin a button (or another display) already uses is refused (``GPIOPinInUse``) instead of
being driven by two owners.
"""

from __future__ import annotations

from typing import Any

CMD_DATA = 0x40
CMD_ADDR = 0xC0
CMD_CTRL = 0x80


class TM1637:
    def __init__(self, clk: int | str, dio: int | str, pin_factory: Any) -> None:
        self.factory = pin_factory
        self.clk = pin_factory.pin(clk)
        self.dio = pin_factory.pin(dio)
        pin_factory.reserve_pins(self, self.clk.info.name, self.dio.info.name)
        self.clk.function = "output"
        self.dio.function = "output"
        self.clk.state = 1
        self.dio.state = 1
        self.acks = 0
        self.naks = 0

    def _conflicts_with(self, other: object) -> bool:
        """gpiozero asks a reserver whether it may share a pin: a display never does."""
        return True

    def close(self) -> None:
        self.factory.release_pins(self, self.clk.info.name, self.dio.info.name)
        self.clk.close()
        self.dio.close()

    def _start(self) -> None:
        self.dio.state = 0
        self.clk.state = 0

    def _stop(self) -> None:
        self.dio.state = 0
        self.clk.state = 1
        self.dio.state = 1

    def _byte(self, b: int) -> None:
        for i in range(8):
            self.dio.state = (b >> i) & 1
            self.clk.state = 1
            self.clk.state = 0
        self.dio.function = "input"
        self.clk.state = 1
        if self.dio.state:
            self.naks += 1
        else:
            self.acks += 1
        self.clk.state = 0
        self.dio.function = "output"
        self.dio.state = 0

    def show(self, segments: bytes, brightness: int = 7) -> None:
        """Four segment bytes; brightness 0..7, 8 switches the display off."""
        if len(segments) != 4:
            raise ValueError(f"a TM1637 shows 4 segment bytes, not {len(segments)}")
        if not 0 <= brightness <= 8:
            raise ValueError(f"brightness must be 0..7 (8 = off), not {brightness}")
        self._start()
        self._byte(CMD_DATA)
        self._stop()
        self._start()
        self._byte(CMD_ADDR)
        for b in segments:
            self._byte(b)
        self._stop()
        self._start()
        self._byte(CMD_CTRL | (0x08 | brightness if brightness < 8 else 0))
        self._stop()
