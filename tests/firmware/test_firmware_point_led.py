"""The point LEDs (sensor-rev-b, wire protocol 2.2) in the board's firmware, under real
MicroPython and under CPython: LIGHT lights the point in the stone's colour (only the chain
up to it is written), blinks, and the board's own scan puts it out when the stone of that
colour settles there (no round trip, no allocation); a stone of the other colour leaves it
lit; a bad point or colour is refused and changes nothing; a board without LEDs (rev-a)
says so in its INFO and refuses LIGHT and DARK."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.micropython import both_interpreters, decode_frames
from wuzi.link import wire

SCENARIO = r"""
import wire, board, matrix, fake_machine, point_led
try:
    import micropython
except ImportError:  # CPython: no heap to lock
    class micropython:
        heap_lock = heap_unlock = staticmethod(lambda: None)
def hx(data):
    return data.hex() if data else ""  # MicroPython: b"".hex() is b""
def make(leds):
    t = fake_machine.StoneTable()
    w = fake_machine.SensorWiring(t)
    m = matrix.Matrix(w.spi, w.row_latch, w.col_load)
    port = fake_machine.CapturePort(1 << 14)
    power = fake_machine.Pin()
    chain = fake_machine.LedChain(power)
    drv = point_led.PointLeds(chain, power, (0, 40, 160), (90, 90, 90), 500) if leds else None
    b = board.SensorBoard(m, port, "SB-0007", "sensor-rev-b", 0x1234567, debounce_scans=3,
                          leds=drv)
    b.boot(0)
    return t, port, power, chain, b
t, port, power, chain, b = make(True)
clock = [0]
def run(n):
    for _ in range(n):
        clock[0] += 5
        b.scan(clock[0])
        b.poll(clock[0])
def cmd(t_, body, seq):
    b.receive(wire.encode(t_, seq, bytes(body)), clock[0])
run(5)
print("INFO", hx(port.take()))
cmd(wire.T_LIGHT, [5, 112, 1, 1], 0)          # h8 (row 8, column h): black, blinking
print("A", hx(port.take()))
print("A_rail", power.value(), chain.writes)   # the rail on, nothing written yet (power-up)
run(1)
print("A_chain", chain.writes, chain.lit())
clock[0] += 500
b.poll(clock[0])                               # a blink's dark half
print("B_chain", chain.writes, chain.lit())
clock[0] += 500
b.poll(clock[0])
print("C_chain", chain.writes, chain.lit())
t.cells[112] = 2                               # a white stone on the black point: still lit
run(4)
print("D", hx(port.take()), power.value(), b.leds.point)
t.cells[112] = 0
run(4)
port.take()
t.cells[112] = 1                               # the black stone: out by the board itself
micropython.heap_lock()
try:
    run(4)
finally:
    micropython.heap_unlock()
print("E", hx(port.take()), power.value(), b.leds.point, chain.lit())
cmd(wire.T_LIGHT, [6, 225, 1, 0], 1)           # off the board
cmd(wire.T_LIGHT, [7, 3, 3, 0], 2)             # no stone's colour
cmd(wire.T_LIGHT, [8, 3, 2, 2], 3)             # no such mode
cmd(wire.T_LIGHT, [9, 3], 4)                   # short
print("F", hx(port.take()), power.value(), b.leds.point)
cmd(wire.T_LIGHT, [10, 112, 1, 0], 5)          # its stone is already there: nothing lit
print("G", hx(port.take()), power.value())
cmd(wire.T_LIGHT, [11, 0, 2, 0], 6)            # a1 white, steady
cmd(wire.T_LIGHT, [12, 224, 1, 0], 7)          # replaced by o15 black
run(1)
print("H", hx(port.take()), chain.lit(), chain.writes)
cmd(wire.T_DARK, [13], 8)
print("I", hx(port.take()), power.value(), chain.lit())
t, port, power, chain, b = make(False)         # a rev-a board: no LEDs
run(5)
print("J", hx(port.take()))
cmd(wire.T_LIGHT, [1, 112, 1, 1], 0)
cmd(wire.T_DARK, [2], 1)
print("K", hx(port.take()))
"""


def _steps(out: str) -> dict[str, str]:
    steps = {}
    for line in out.splitlines():
        name, _, rest = line.partition(" ")
        steps[name] = rest
    return steps


def _frames(text: str) -> list[tuple[int, bytes]]:
    """The frames of a step, without the periodic ones (heartbeats, snapshots)."""
    data = text.split(" ")[0]
    periodic = (wire.T_HEARTBEAT, wire.T_SNAPSHOT)
    return [f for f in decode_frames(bytes.fromhex(data)) if f[0] not in periodic] if data else []


def _lamp(body: bytes) -> tuple[int, int, int, int, int]:
    """(token, state, point, colour, mode) of a LAMP body."""
    assert len(body) == wire.LEN_LAMP
    assert body[9] == 0x1234567 & 0xFF  # the boot tag
    return body[0], body[1], body[2], body[3], body[4]


@pytest.fixture(scope="module")
def runs() -> tuple[str, str]:
    return both_interpreters(SCENARIO)


@pytest.fixture(scope="module")
def steps(runs: tuple[str, str]) -> dict[str, str]:
    return _steps(runs[0])


def test_the_same_bytes_under_micropython_and_cpython(runs: tuple[str, str]) -> None:
    assert runs[0] == runs[1]


def test_a_rev_b_board_says_it_has_point_leds(steps: dict[str, str]) -> None:
    infos = [b for t, b in _frames(steps["INFO"]) if t == wire.T_INFO]
    assert len(infos) == 1 and len(infos[0]) == wire.LEN_INFO_CAPS
    assert infos[0][wire.INFO_CAPS] == wire.CAP_POINT_LEDS
    assert (infos[0][wire.INFO_MAJOR], infos[0][wire.INFO_MINOR]) == (2, 2)


def test_light_answers_lit_and_writes_the_chain_up_to_the_point(steps: dict[str, str]) -> None:
    assert [(t, _lamp(b)) for t, b in _frames(steps["A"])] == [
        (wire.T_LAMP, (5, wire.LAMP_LIT, 112, wire.BLACK, wire.MODE_BLINK))
    ]
    assert steps["A_rail"] == "1 0"  # the rail switched on; the write waits for the power-up
    # one write, black shown as the board's blue; only LED 112 shows a colour
    assert steps["A_chain"] == "1 [(112, 0, 40, 160)]"


def test_blinking_turns_the_point_off_and_on(steps: dict[str, str]) -> None:
    assert steps["B_chain"] == "2 []"
    assert steps["C_chain"] == "3 [(112, 0, 40, 160)]"


def test_a_stone_of_the_other_colour_leaves_the_point_lit(steps: dict[str, str]) -> None:
    frames, _, rest = steps["D"].partition(" ")
    assert [t for t, _ in _frames(frames)] == [wire.T_CHANGE]
    assert rest == "1 112"


def test_the_board_puts_the_point_out_when_its_scan_settles_the_stone(
    steps: dict[str, str],
) -> None:
    frames, _, rest = steps["E"].partition(" ")
    got = _frames(frames)
    assert [t for t, _ in got] == [wire.T_CHANGE, wire.T_LAMP]  # the stone first, then out
    assert (got[0][1][4], got[0][1][5]) == (112, wire.BLACK)
    assert _lamp(got[1][1]) == (0, wire.LAMP_PLACED, 112, wire.BLACK, wire.MODE_BLINK)
    assert rest == "0 -1 []"  # rail off, nothing lit, nothing shown (and nothing allocated)


def test_a_bad_light_is_refused_and_changes_nothing(steps: dict[str, str]) -> None:
    frames, _, rest = steps["F"].partition(" ")
    assert _frames(frames) == [
        (wire.T_ERROR, bytes((wire.E_BAD_VALUE, wire.T_LIGHT))),
        (wire.T_ERROR, bytes((wire.E_BAD_VALUE, wire.T_LIGHT))),
        (wire.T_ERROR, bytes((wire.E_BAD_VALUE, wire.T_LIGHT))),
        (wire.T_ERROR, bytes((wire.E_BAD_LENGTH, wire.T_LIGHT))),
    ]
    assert rest == "0 -1"


def test_a_point_already_holding_its_stone_is_not_lit(steps: dict[str, str]) -> None:
    frames, _, rest = steps["G"].partition(" ")
    got = _frames(frames)
    assert [(t, _lamp(b)) for t, b in got] == [
        (wire.T_LAMP, (10, wire.LAMP_PLACED, 112, wire.BLACK, wire.MODE_STEADY))
    ]
    assert rest == "0"


def test_a_newer_light_replaces_the_lit_point_and_dark_puts_it_out(
    steps: dict[str, str],
) -> None:
    frames, _, rest = steps["H"].partition(" ")
    assert [_lamp(b)[:3] for _, b in _frames(frames)] == [
        (11, wire.LAMP_LIT, 0),
        (12, wire.LAMP_LIT, 224),
    ]
    assert rest.startswith("[(224, 0, 40, 160)]")  # a1 never shows: replaced before a write
    frames, _, rest = steps["I"].partition(" ")
    assert [_lamp(b) for _, b in _frames(frames)] == [
        (13, wire.LAMP_DARK, wire.NO_POINT, 0, wire.MODE_STEADY)
    ]
    assert rest == "0 []"


def test_a_board_without_leds_says_so_and_refuses(steps: dict[str, str]) -> None:
    infos = [b for t, b in _frames(steps["J"]) if t == wire.T_INFO]
    assert infos and infos[0][wire.INFO_CAPS] == 0
    assert _frames(steps["K"]) == [
        (wire.T_ERROR, bytes((wire.E_NOT_FITTED, wire.T_LIGHT))),
        (wire.T_ERROR, bytes((wire.E_NOT_FITTED, wire.T_DARK))),
    ]


@settings(max_examples=200, deadline=None)
@given(
    msg_type=st.sampled_from([wire.T_LIGHT, wire.T_DARK]),
    body=st.binary(min_size=0, max_size=8),
)
def test_any_light_or_dark_is_answered_or_refused_never_raises(msg_type: int, body: bytes) -> None:
    """The firmware's logic (CPython, as the simulator runs it) fed any LIGHT or DARK body:
    one LAMP or one ERROR, and the lit point is a point of the board or none."""
    from support.boards import Bench

    bench = Bench(point_leds=True)
    bench.step(100)
    bench.mcu_out.take()
    bench.mcu.receive(wire.encode(msg_type, 1, body), 100)
    frames = [(t, b) for t, b in decode_frames(bench.mcu_out.take())]
    assert [t for t, _ in frames] in ([wire.T_LAMP], [wire.T_ERROR])
    leds = bench.mcu.leds
    assert -1 <= leds.point < wire.POINTS  # type: ignore[attr-defined]
    bench.step(1000)  # blinking and writing on: nothing raises
