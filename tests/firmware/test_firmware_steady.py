"""STEADY_REQ / STEADY (wire protocol 2.1) in the board's firmware, under real MicroPython
and under CPython: the board vouches for a moment only once no reading is in its debounce,
never before the delay asked, always after the events it counts; a newer question replaces
the pending one; a malformed question is refused."""

from __future__ import annotations

import pytest

from support.micropython import both_interpreters, decode_frames
from wuzi.link import wire

STEADY_SCENARIO = r"""
import wire, board, matrix, fake_machine
try:
    import micropython
except ImportError:  # CPython: no heap to lock
    class micropython:
        heap_lock = heap_unlock = staticmethod(lambda: None)
t = fake_machine.StoneTable()
w = fake_machine.SensorWiring(t)
m = matrix.Matrix(w.spi, w.row_latch, w.col_load)
port = fake_machine.CapturePort(1 << 14)
b = board.SensorBoard(m, port, "SB-0007", "sensor-rev-a", 0x1234567, debounce_scans=3)
b.boot(0)
clock = [0]
def hx(data):
    return data.hex() if data else ""  # MicroPython: b"".hex() is b""
def run(n):
    for _ in range(n):
        clock[0] += 5
        b.scan(clock[0])
        b.poll(clock[0])
def ask(token, delay, seq):
    body = bytes([token, delay >> 8, delay & 255])
    b.receive(wire.encode(wire.T_STEADY_REQ, seq, body), clock[0])
run(5)
port.take()
ask(7, 0, 0)                     # a quiet board: answered at once
print("A", hx(port.take()))
t.cells[112] = 1                 # a stone put down since the last scan
ask(8, 0, 1)
print("B", hx(port.take()))    # the fresh read sees it: no answer yet
run(1)
print("C", hx(port.take()))    # still counting
run(2)                           # debounced: CHANGE, then the answer
print("D", hx(port.take()))
ask(9, 12, 2)                    # due 12 ms after it arrives
b.poll(clock[0])
clock[0] += 5
b.poll(clock[0])
print("E", hx(port.take()))
clock[0] += 7
b.poll(clock[0])
print("F", hx(port.take()))
ask(10, 500, 3)                  # a later question ...
ask(11, 0, 4)                    # ... replaced by an earlier one
print("G", hx(port.take()))
clock[0] += 600
b.poll(clock[0])
print("H", hx(port.take()))    # the replaced question is not answered
b.receive(wire.encode(wire.T_STEADY_REQ, 5, bytes([1, 0])), clock[0])
print("I", hx(port.take()))
t.cells[3] = 2
run(1)
ask(12, 0, 6)
micropython.heap_lock()          # the look, the scans and the answer allocate nothing
try:
    run(3)
    b.poll(clock[0])
finally:
    micropython.heap_unlock()
print("J", hx(port.take()))
"""


def _steps(out: str) -> dict[str, list[tuple[int, bytes]]]:
    steps = {}
    for line in out.splitlines():
        name, _, rest = line.partition(" ")
        steps[name] = decode_frames(bytes.fromhex(rest.strip()))
    return steps


@pytest.fixture(scope="module")
def runs() -> tuple[str, str]:
    return both_interpreters(STEADY_SCENARIO)


def test_steady_writes_the_same_bytes_under_micropython_and_cpython(
    runs: tuple[str, str],
) -> None:
    mpy, cpy = runs
    assert mpy == cpy


def _steady(body: bytes) -> tuple[int, int, int]:
    """(token, boot tag, latest event number) of a STEADY body."""
    assert len(body) == wire.LEN_STEADY
    return body[0], body[1], wire.get_u32(body, 2)


def test_the_board_vouches_only_when_no_reading_is_settling(runs: tuple[str, str]) -> None:
    steps = _steps(runs[0])
    tag = 0x1234567 & 0xFF
    assert [(t, _steady(b)) for t, b in steps["A"]] == [(wire.T_STEADY, (7, tag, 0))]
    assert steps["B"] == [] and steps["C"] == []
    d = steps["D"]
    assert [t for t, _ in d] == [wire.T_CHANGE, wire.T_STEADY]  # the event comes first
    assert (wire.get_u32(d[0][1], 0), d[0][1][4]) == (1, 112)
    assert _steady(d[1][1]) == (8, tag, 1)


def test_the_board_answers_no_earlier_than_asked(runs: tuple[str, str]) -> None:
    steps = _steps(runs[0])
    assert steps["E"] == []
    assert [_steady(b)[0] for t, b in steps["F"] if t == wire.T_STEADY] == [9]


def test_a_newer_question_replaces_the_pending_one(runs: tuple[str, str]) -> None:
    steps = _steps(runs[0])
    assert [_steady(b)[0] for t, b in steps["G"] if t == wire.T_STEADY] == [11]
    assert [t for t, _ in steps["H"] if t == wire.T_STEADY] == []


def test_a_malformed_question_is_refused(runs: tuple[str, str]) -> None:
    steps = _steps(runs[0])
    assert steps["I"] == [(wire.T_ERROR, bytes((wire.E_BAD_LENGTH, wire.T_STEADY_REQ)))]


def test_a_question_waiting_for_a_stone_allocates_nothing(runs: tuple[str, str]) -> None:
    j = _steps(runs[0])["J"]
    assert [t for t, _ in j] == [wire.T_CHANGE, wire.T_STEADY]
    assert _steady(j[1][1])[0] == 12 and _steady(j[1][1])[2] == 2
