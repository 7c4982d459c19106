"""The firmware logic under real MicroPython (WebAssembly build) and under CPython.

The same scenario script runs on both interpreters and must write the very same bytes to the
port; the scan loop must not allocate under MicroPython (checked with ``heap_lock``: any
allocation raises MemoryError); and the frames it writes must decode on the host.
"""

from __future__ import annotations

import pytest

from support.micropython import both_interpreters, decode_frames, run_micropython
from wuzi.link import wire

BOARD_SCENARIO = r"""
import wire, board, matrix, fake_machine
t = fake_machine.StoneTable()
w = fake_machine.SensorWiring(t)
m = matrix.Matrix(w.spi, w.row_latch, w.col_load)
port = fake_machine.CapturePort()
b = board.SensorBoard(m, port, "SB-0007", "sensor-rev-a", 0x1234567, debounce_scans=3)
b.boot(0)
clock = [0]
def run(n):
    for _ in range(n):
        clock[0] += 5
        b.scan(clock[0])
        b.poll(clock[0])
run(5)
t.cells[112] = 1
run(4)
t.cells[113] = 2
run(1)
t.cells[113] = 0  # a blip shorter than the debounce: no event
run(5)
t.cells[0] = 2
run(50)
now = clock[0]
b.receive(wire.encode(wire.T_HELLO, 0, bytes([1, 0])), now)
rep = bytearray(8)
wire.put_u32(rep, 0, b.boot_id)
wire.put_u32(rep, 4, 1)
b.receive(wire.encode(wire.T_REPLAY, 1, rep), now)
run(2)
b.receive(wire.encode(wire.T_SNAPSHOT_REQ, 2, b""), now)
b.receive(b"\x00\xff garbage" + wire.encode(0x3E, 3, b"zz"), now)
t.set_stuck(7, 1)
b.self_test(now)
print(port.take().hex())
print(b.evno)
"""

NO_ALLOC = r"""
import board, matrix, fake_machine, micropython
t = fake_machine.StoneTable()
w = fake_machine.SensorWiring(t)
m = matrix.Matrix(w.spi, w.row_latch, w.col_load)
port = fake_machine.CapturePort(1 << 16)
b = board.SensorBoard(m, port, "SB-0007", "sensor-rev-a", 99, debounce_scans=4,
                      heartbeat_ms=200, snapshot_ms=1000)
b.boot(0)
for i in range(10):
    b.scan(5 * i)
    b.poll(5 * i)
micropython.heap_lock()
try:
    for i in range(10, 500):
        now = 5 * i
        if i % 37 == 0:
            p = (i * 7) % 225
            t.cells[p] = 1 + (i & 1)
        if i % 53 == 0:
            t.cells[(i * 11) % 225] = 0
        b.scan(now)
        b.poll(now)
finally:
    micropython.heap_unlock()
print("events", b.evno, "bytes", port.n)
caught = False
micropython.heap_lock()
try:
    x = [i for i in range(3)]
except MemoryError:
    caught = True
micropython.heap_unlock()
print("lock works", caught)
"""

CLOCK_SCENARIO = r"""
import wire, clock_unit, tm1637, fake_machine
buttons = [fake_machine.Pin(i, fake_machine.Pin.IN, value=1) for i in range(3)]
clk = fake_machine.Pin(10, fake_machine.Pin.OUT, value=1)
dio = fake_machine.Pin(11, fake_machine.Pin.OUT, value=1)
seen = []
def on_clk(level):
    if level:
        seen.append(dio.level)
clk.listeners.append(on_clk)
disp = tm1637.TM1637(clk, dio)
buzzer = fake_machine.PWM(fake_machine.Pin(15))
leds = [fake_machine.Pin(20 + i, fake_machine.Pin.OUT) for i in range(3)]
port = fake_machine.CapturePort()
u = clock_unit.ClockUnit(buttons, [disp], buzzer, leds, port, "CK-0001", "clock-rev-a", 77)
now = 0
u.poll(now)
for level in (0, 1, 0, 1, 0):  # press with contact bounce, 1 ms apart
    now += 1
    buttons[0].value(level)
    u.scan(now)
now += 100
for level in (1, 0, 1):  # release with bounce
    now += 1
    buttons[0].value(level)
    u.scan(now)
now += 100
buttons[2].value(0)
u.scan(now)
u.receive(wire.encode(wire.T_DISPLAY, 0, bytes([0, 0x3F, 0x86, 0x5B, 0x4F, 5])), now)
u.receive(wire.encode(wire.T_LED, 1, bytes([5])), now)
body = bytearray(4)
wire.put_u16(body, 0, 2000)
wire.put_u16(body, 2, 50)
u.receive(wire.encode(wire.T_BUZZ, 2, body), now)
print(buzzer.duty)
u.poll(now + 60)
print(buzzer.duty, [p.level for p in leds])
print(port.take().hex())
print(u.evno)
bits = [seen[i] for i in range(len(seen))]
print("".join(str(x) for x in bits))
"""


@pytest.fixture(scope="module")
def board_runs() -> tuple[str, str]:
    return both_interpreters(BOARD_SCENARIO)


def test_board_logic_writes_the_same_bytes_under_micropython_and_cpython(
    board_runs: tuple[str, str],
) -> None:
    mpy, cpy = board_runs
    assert mpy == cpy
    assert mpy.split()[1] == "2"


def test_board_frames_decode_on_the_host(board_runs: tuple[str, str]) -> None:
    frames = decode_frames(bytes.fromhex(board_runs[0].split()[0]))
    types = [t for t, _ in frames]
    assert types[0] == wire.T_INFO  # the boot is announced once the first scans settled
    changes = [(wire.get_u32(b, 0), b[4], b[5]) for t, b in frames if t == wire.T_CHANGE]
    # live: h8 black, a1 white (the 113 blip was shorter than the debounce), then the replay
    assert changes == [(1, 112, 1), (2, 0, 2), (1, 112, 1), (2, 0, 2)]
    errors = [b for t, b in frames if t == wire.T_ERROR]
    assert errors == [bytes((wire.E_UNKNOWN_TYPE, 0x3E))]
    snap = [b for t, b in frames if t == wire.T_SNAPSHOT and b[8] == wire.SNAP_REQUESTED]
    cells = wire.unpack_cells(snap[0], 9)
    assert cells[112] == 1 and cells[0] == 2 and sum(cells) == 3
    selftests = [b for t, b in frames if t == wire.T_SELFTEST]
    last = selftests[-1]
    stuck = [last[6 + 2 * i] for i in range(last[5])]
    assert stuck == [r * 15 + 7 for r in range(15)]  # a shorted latch pulls its whole column


def test_scan_loop_does_not_allocate_under_micropython() -> None:
    out = run_micropython(NO_ALLOC)
    assert "lock works True" in out
    words = out.split()
    assert int(words[1]) > 10 and int(words[3]) > 500


def test_clock_unit_same_under_both_and_debounced() -> None:
    mpy, cpy = both_interpreters(CLOCK_SCENARIO)
    assert mpy == cpy
    lines = mpy.split("\n")
    assert lines[0] == "32768"
    assert lines[1] == "0 [1, 0, 1]"
    frames = decode_frames(bytes.fromhex(lines[2]))
    presses = [(wire.get_u32(b, 0), b[4]) for t, b in frames if t == wire.T_PRESS]
    assert presses == [(1, 0), (2, 2)]  # one press despite the bounces, then the claim button
    assert lines[3] == "2"
    bits = lines[4]
    # TM1637: bytes LSB first, 9 clocks each (8 data + ack), one more clock edge per stop;
    # three transfers: the data command, the address + 4 digits, the display control
    data, i = [], 0
    for count in (1, 5, 1):
        for _ in range(count):
            data.append(int(bits[i : i + 8][::-1], 2))
            i += 9
        i += 1
    assert data == [0x40, 0xC0, 0x3F, 0x86, 0x5B, 0x4F, 0x88 | 5]
    assert i == len(bits)
