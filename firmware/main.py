"""Entry point on the RP2040: read board.json, build the hardware, run the loop forever.

``make flash PORT=... BOARD=sensor-rev-a`` copies firmware/*.py and boards/<BOARD>/board.json
here. The link is the USB CDC serial port (stdin/stdout), switched to binary: Ctrl-C is
disabled so the byte 0x03 in a frame does not interrupt the program. The loop scans at the
configured period and does everything else (commands, heartbeat, replays) between scans.
"""

import json
import select
import sys
import time

import machine
import micropython

try:
    import os

    _ENTROPY = os.urandom(4)
except (ImportError, AttributeError, OSError):
    _ENTROPY = b"\x00\x00\x00\x01"


def _boot_id() -> int:
    b = _ENTROPY
    return ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) & 0x3FFFFFFF or 1


def _serial() -> str:
    """The flash chip's unique id as 16 upper-case hex digits: the USB serial string the
    udev rules name the device by, so INFO, udev and the venue file say the same."""
    return "".join(f"{b:02X}" for b in machine.unique_id())


def _ms() -> int:
    """ticks_ms as the int it is on the MCU (the stubs keep ticks opaque)."""
    return time.ticks_ms()  # type: ignore[return-value]


# WS2812 / SK6812 bit timing in ns (high 0, low 0, high 1, low 1): MicroPython's neopixel
# module uses these for 800 kHz LEDs; its write() always clocks the whole chain, so the
# point LEDs call machine.bitstream themselves and clock only the LEDs up to the lit one.
_WS2812_TIMING = (400, 850, 800, 450)


class _LedChain:
    """The point LEDs' data line (``point_led.PointLeds.chain``)."""

    def __init__(self, pin: machine.Pin) -> None:
        self.pin = pin

    def write(self, buf: bytearray, n: int) -> None:
        machine.bitstream(self.pin, 0, _WS2812_TIMING, memoryview(buf)[:n])


def _point_leds(cfg: dict[str, object]) -> object:
    """The point LEDs a board.json with ``"point_leds": true`` describes (sensor-rev-b),
    else None (sensor-rev-a: the board says it cannot light)."""
    if cfg.get("point_leds") is not True:
        return None
    import point_led

    pins: dict[str, int] = cfg["pins"]  # type: ignore[assignment]
    led: dict[str, object] = cfg["point_led"]  # type: ignore[assignment]
    colours: dict[str, list[int]] = led["colours"]  # type: ignore[assignment]
    black = colours["black"]
    white = colours["white"]
    return point_led.PointLeds(
        _LedChain(machine.Pin(pins["led_data"], machine.Pin.OUT, value=0)),
        machine.Pin(pins["led_power"], machine.Pin.OUT, value=0),
        (black[0], black[1], black[2]),
        (white[0], white[1], white[2]),
        blink_ms=led["blink_ms"],  # type: ignore[arg-type]
    )


class _UsbPort:
    def __init__(self) -> None:
        self.out = sys.stdout.buffer

    def write(self, buf: bytes) -> int:
        return self.out.write(buf)


def main() -> None:
    with open("board.json") as f:
        cfg = json.load(f)
    micropython.kbd_intr(-1)
    port = _UsbPort()
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    rx = bytearray(64)
    stdin = sys.stdin.buffer
    pins = cfg["pins"]
    if cfg["kind"] == "sensor":
        import board
        import matrix

        scan = cfg["scan"]
        spi = machine.SPI(
            pins["spi_id"],
            baudrate=cfg.get("spi_baudrate", 4000000),
            sck=machine.Pin(pins["sck"]),
            mosi=machine.Pin(pins["mosi"]),
            miso=machine.Pin(pins["miso"]),
        )
        m = matrix.Matrix(
            spi,
            machine.Pin(pins["row_latch"], machine.Pin.OUT, value=0),
            machine.Pin(pins["col_load"], machine.Pin.OUT, value=1),
            time.sleep_us,
            scan["row_settle_us"],
        )
        unit = board.SensorBoard(
            m,
            port,
            _serial(),
            cfg["revision"],
            _boot_id(),
            debounce_scans=scan["debounce_scans"],
            scan_us=scan["period_us"],
            heartbeat_ms=scan["heartbeat_ms"],
            snapshot_ms=scan["snapshot_ms"],
            log_size=scan["log_size"],
            leds=_point_leds(cfg),
        )
        period_us = scan["period_us"]
    else:
        import clock_unit
        import tm1637

        buttons = [machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in pins["buttons"]]
        displays = [
            tm1637.TM1637(
                machine.Pin(c, machine.Pin.OUT, value=1),
                machine.Pin(d, machine.Pin.OPEN_DRAIN, value=1),
                time.sleep_us,
            )
            for c, d in pins["displays"]
        ]
        buzzer = machine.PWM(machine.Pin(pins["buzzer"]), freq=2000, duty_u16=0)
        leds = [machine.Pin(p, machine.Pin.OUT, value=0) for p in pins["leds"]]
        scan = cfg["scan"]
        unit = clock_unit.ClockUnit(  # type: ignore[assignment]
            buttons,  # type: ignore[arg-type]
            displays,  # type: ignore[arg-type]
            buzzer,
            leds,  # type: ignore[arg-type]
            port,
            _serial(),
            cfg["revision"],
            _boot_id(),
            debounce_ms=scan["debounce_ms"],
            heartbeat_ms=scan["heartbeat_ms"],
            log_size=scan["log_size"],
        )
        period_us = scan["period_us"]
    now = _ms()
    if hasattr(unit, "boot"):
        unit.boot(now)
    next_scan = time.ticks_us()
    while True:
        t0 = time.ticks_us()
        if time.ticks_diff(t0, next_scan) >= 0:
            now = _ms()
            unit.scan(now)
            if hasattr(unit, "note_scan_time"):
                unit.note_scan_time(time.ticks_diff(time.ticks_us(), t0))
            next_scan = time.ticks_add(next_scan, period_us)
            if time.ticks_diff(t0, next_scan) > 0:  # overran: do not try to catch up
                next_scan = time.ticks_add(t0, period_us)
        while poller.poll(0):
            n = stdin.readinto(rx)
            if not n:
                break
            unit.receive(memoryview(rx)[:n], _ms())
        unit.poll(_ms())


main()
