"""An in-process bench for the link: the firmware's SensorBoard wired to a host BoardLink
through a byte pipe whose faults the test controls, on a manual clock (no sleeping)."""

from __future__ import annotations

from collections.abc import Callable

from wuzi.link.board_link import BoardLink
from wuzi.link.reconciler import Reconciled
from wuzi.sim.firmware import board as fw_board
from wuzi.sim.firmware import fake_machine as fw_fake_machine
from wuzi.sim.firmware import matrix as fw_matrix
from wuzi.sim.firmware import point_led as fw_point_led

Fault = Callable[[bytes], bytes]


class Collect:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, buf: bytes | bytearray | memoryview) -> int:
        self.data += bytes(buf)
        return len(buf)

    def take(self) -> bytes:
        out = bytes(self.data)
        self.data.clear()
        return out


class Bench:
    """``step(ms)`` advances the clock one scan at a time, moving bytes both ways."""

    def __init__(
        self,
        *,
        settle_ms: int = 150,
        debounce_scans: int = 3,
        log_size: int = 512,
        serial: str = "SB-0001",
        expected_serial: str | None = None,
        boot_id: int = 1234,
        point_leds: bool = False,
    ) -> None:
        self.table = fw_fake_machine.StoneTable()
        self.point_leds = point_leds  # a sensor-rev-b: its LED chain is ``chain``
        self.led_power = fw_fake_machine.Pin()
        self.chain = fw_fake_machine.LedChain(self.led_power)
        wiring = fw_fake_machine.SensorWiring(self.table)
        self.matrix = fw_matrix.Matrix(wiring.spi, wiring.row_latch, wiring.col_load)
        self.mcu_out = Collect()
        self.serial = serial
        self.debounce_scans = debounce_scans
        self.log_size = log_size
        self.boot_id = boot_id
        self.now = 1000
        self.boot_ms = self.now
        self.mcu = self._new_mcu()
        self.link = BoardLink(settle_ms=settle_ms, expected_serial=expected_serial)
        self.to_host: Fault = lambda b: b
        self.to_mcu: Fault = lambda b: b
        self.events: list[Reconciled] = []
        self.link.connection_made(self.now)

    def _new_mcu(self) -> fw_board.SensorBoard:
        mcu = fw_board.SensorBoard(
            self.matrix,
            self.mcu_out,
            self.serial,
            "sensor-rev-b" if self.point_leds else "sensor-rev-a",
            self.boot_id,
            debounce_scans=self.debounce_scans,
            scan_us=5000,
            log_size=self.log_size,
            leds=fw_point_led.PointLeds(self.chain, self.led_power) if self.point_leds else None,
        )
        mcu.boot(0)
        return mcu

    def reboot(self, boot_id: int) -> None:
        self.boot_id = boot_id
        self.boot_ms = self.now
        self.mcu_out.take()
        self.mcu = self._new_mcu()

    def step(self, ms: int = 5) -> None:
        end = self.now + ms
        while self.now < end:
            self.now += 5
            mcu_now = self.now - self.boot_ms
            self.mcu.scan(mcu_now)
            self.mcu.poll(mcu_now)
            out = self.to_host(self.mcu_out.take())
            if out:
                self.events += self.link.receive_data(out, self.now)
            self.events += self.link.poll(self.now)
            cmd = self.to_mcu(self.link.data_to_send())
            if cmd:
                self.mcu.receive(cmd, self.now - self.boot_ms)

    def stones(self) -> list[tuple[str, str]]:
        out = []
        for ev in self.events:
            j = ev.to_json()
            if j["event"] == "stone":
                out.append((str(j["point"]), str(j["colour"])))
        return out

    def alerts(self) -> list[str]:
        return [str(ev.to_json()["kind"]) for ev in self.events if ev.to_json()["event"] == "alert"]
