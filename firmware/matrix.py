"""The sensor matrix hardware of ``sensor-rev-a``: two 74HC595 select a row, four 74HC165 read it.

Each of the 225 points has two hall-effect latches (one per magnet pole: black stones carry the
north pole down, white stones the south pole). The 595 chain powers one row at a time (its 16
outputs: rows 0..14, bit 15 unused); the 165 chain samples the 30 latch outputs of the powered
row: black latches of columns 0..14 then white latches of columns 0..14, each in two bytes with
the top bit unused. Both chains share one SPI bus (MOSI into the 595s, MISO from the 165s).

The pins are passed in (``machine.SPI``/``machine.Pin`` on the MCU, fakes in tests), so this
file does not import ``machine`` and runs anywhere. No method allocates.
"""


class Matrix:
    def __init__(
        self,
        spi: object,
        row_latch: object,
        col_load: object,
        sleep_us: object = None,
        settle_us: int = 20,
    ) -> None:
        self.spi = spi
        self.row_latch = row_latch
        self.col_load = col_load
        self.sleep_us = sleep_us
        self.settle_us = settle_us
        self.select = bytearray(2)

    def _select(self, mask: int) -> None:
        sel = self.select
        sel[0] = (mask >> 8) & 0xFF
        sel[1] = mask & 0xFF
        self.spi.write(sel)  # type: ignore[attr-defined]
        self.row_latch.value(1)  # type: ignore[attr-defined]  # rising edge: outputs update
        self.row_latch.value(0)  # type: ignore[attr-defined]
        if self.sleep_us is not None:
            self.sleep_us(self.settle_us)  # type: ignore[operator]  # latches power up

    def _sample(self, out4: bytearray) -> None:
        self.col_load.value(0)  # type: ignore[attr-defined]  # parallel load while low
        self.col_load.value(1)  # type: ignore[attr-defined]
        self.spi.readinto(out4)  # type: ignore[attr-defined]

    def read_row(self, row: int, out4: bytearray) -> None:
        self._select(1 << row)
        self._sample(out4)

    def read_idle(self, out4: bytearray) -> None:
        """Sample with no row powered: every bit must be 0 (a set bit is a stuck line)."""
        self._select(0)
        self._sample(out4)
